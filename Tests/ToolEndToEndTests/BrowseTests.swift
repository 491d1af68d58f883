import Foundation
import TestSupport
import Testing

/// `atominspect browse` in a real terminal: tmux runs it, keys go in with `send-keys`, and the
/// screen a person would see comes back with `capture-pane`.
@Suite(.serialized, .enabled(if: TmuxSession.tmux != nil || ProcessInfo.processInfo.environment["CI"] != nil,
                             "tmux drives the browser (.ci/run installs it)"))
struct BrowseTests {
    let tool = ToolRunner.productsDirectory + "/atominspect"

    func browse(_ file: String, width: Int = 100, height: Int = 30, colour: Bool = false) throws -> TmuxSession {
        let environment = colour ? ["TERM": "xterm-256color"] : ["NO_COLOR": "1", "TERM": "xterm-256color"]
        let session = try TmuxSession("'\(tool)' browse '\(file)'", width: width, height: height, environment: environment)
        try session.waitFor("? help")
        return session
    }

    /// A cover is a picture: the fields pane says what it is, and `o` hands it to the desktop's
    /// viewer (a stand-in `xdg-open` here, which records the file it was given: the cover's
    /// bytes, as `tagedit picture extract` writes them); with no desktop, `o` says where the
    /// picture was written.
    @Test func aCoverOpensWithTheDesktopsViewer() async throws {
        let folder = try TemporaryFile.makeDirectory()
        let record = folder + "/opened"
        let viewer = folder + "/xdg-open"
        try "#!/bin/sh\nprintf '%s' \"$1\" > '\(record)'\n".write(toFile: viewer, atomically: true, encoding: .utf8)
        #expect(chmod(viewer, 0o755) == 0)
        let fixture = TestFixtures.path("aac-itunes-tags-cover.m4a")
        let extracted = try await ToolRunner.run("tagedit", ["picture", "extract", fixture, "--output", folder])
        #expect(extracted.status == 0)
        let cover = try TemporaryFile.read(folder + "/aac-itunes-tags-cover-1-front-cover.jpg")

        for desktop in [true, false] {
            let environment = ["NO_COLOR": "1", "TERM": "xterm-256color", "DISPLAY": desktop ? ":7" : "", "WAYLAND_DISPLAY": "",
                               "PATH": folder + ":/usr/bin:/bin"]
            let session = try TmuxSession("'\(tool)' browse '\(fixture)'", width: 120, height: 40, environment: environment)
            try session.waitFor("? help")
            try session.send("/")
            try session.send("/moov/udta/meta/ilst/covr/data[0]", literal: true)
            try session.send("Enter")
            try session.waitFor("picture: image/jpeg, \(cover.count) bytes in imageSize (o to open)")
            try session.send("o")
            if desktop {
                try session.waitFor("with xdg-open")
                var opened = ""
                for _ in 0..<50 where opened.isEmpty {
                    opened = (try? String(contentsOfFile: record, encoding: .utf8)) ?? ""
                    if opened.isEmpty { usleep(100_000) }
                }
                #expect(opened.hasSuffix("/picture.jpg"), "\(opened)")
                #expect(try TemporaryFile.read(opened) == cover)
            } else {
                let screen = try session.waitFor("no desktop here to show it")
                let line = try #require(screen.first { $0.contains("the picture is in ") })
                let path = String(line[line.range(of: "the picture is in ")!.upperBound...].prefix { $0 != " " })
                #expect(try TemporaryFile.read(path) == cover)
            }
            try session.send("q")
        }
    }

    @Test func firstScreenSearchExpandAndQuitRestoringTheTerminal() throws {
        let session = try browse(TestFixtures.path("video-h264-aac.mp4"))
        var screen = try session.screen()
        #expect(screen[0].contains("video-h264-aac.mp4"))
        #expect(screen[1].hasPrefix(">  ftyp @0"))
        #expect(screen.contains { $0.hasPrefix(" + moov @32") })
        #expect(screen.contains { $0.contains("majorBrand: \"isom\"") })
        // No colour with NO_COLOR: the screen, attributes included, is text alone.
        #expect(!(try session.screen(escapes: true)).joined().contains("\u{1B}["))

        try session.send("j", "l")
        screen = try session.waitFor { $0.contains { $0.hasPrefix(">- moov") } }
        #expect(screen.contains { $0.contains("mvhd @40") })

        try session.send("/")
        try session.send("hdlr", literal: true)
        try session.send("Enter")
        screen = try session.waitFor("found hdlr")
        #expect(screen[0].contains("moov/trak[0]/mdia/hdlr"))

        try session.send("q")
        screen = try session.waitFor("STATUS=")
        #expect(try session.exitStatus() == 0)
        // The alternate screen is gone: the browser's lines are no longer shown.
        #expect(!screen.contains { $0.contains("? help") || $0.contains("│") })
    }

    @Test func aTransportStreamIsBrowsedAsProgramsStreamsAndEvents() throws {
        let session = try browse(TestFixtures.path("timed-id3.ts"))
        var screen = try session.screen()
        #expect(screen[0].contains("ts, 21808 bytes"))
        #expect(screen[1].hasPrefix(">+ program @188"))
        #expect(screen.contains { $0.hasPrefix(" + ID3 @376") })
        #expect(screen.contains { $0.contains("program 1, PMT PID 256, 2 streams, metadata pointer") })
        try session.send("l")
        screen = try session.waitFor { $0.contains { $0.hasPrefix(">- program") } }
        #expect(screen.filter { $0.hasPrefix("     stream @188") }.count == 2)
        // An event opens to its frames, and its fields give the PTS.
        try session.send("/")
        try session.send("/ID3[1]", literal: true)
        try session.send("Enter")
        screen = try session.waitFor("found ID3[1]")
        #expect(screen.contains { $0.contains("pts: 180000") })
        try session.send("l", "j")
        screen = try session.waitFor { $0.contains { $0.hasPrefix(">    TIT2 @6938") } }
        #expect(screen.contains { $0.contains("Event 1") })
        try session.send("q")
        _ = try session.waitFor("STATUS=")
        #expect(try session.exitStatus() == 0)
    }

    @Test func jumpToAnOffsetAndFollowAChunkOffsetIntoMediaData() throws {
        let session = try browse(TestFixtures.path("video-h264-aac.mp4"))
        try session.send(":")
        try session.send("0x1388", literal: true)
        try session.send("Enter")
        var screen = try session.waitFor("offset 5000 is in mdat")
        #expect(screen.contains { $0.contains("      5000 ") })

        try session.send("/")
        try session.send("/moov/trak[1]/mdia/minf/stbl/stco", literal: true)
        try session.send("Enter")
        try session.waitFor("found moov/trak[1]/mdia/minf/stbl/stco")
        try session.send("f")
        screen = try session.waitFor("followed chunk 1")
        #expect(screen[0].hasSuffix("mdat") || screen[0].contains("·  mdat"))
        #expect(screen.contains { $0.contains("[3189..<3391]") })
        try session.send("C-o")
        screen = try session.waitFor { $0.first?.contains("stbl/stco") == true }
        try session.send("?")
        screen = try session.waitFor("atominspect browse: keys")
        #expect(screen.contains { $0.contains("Ctrl-o") })
        try session.send("Escape", "q")
        try session.waitFor("STATUS=")
        #expect(try session.exitStatus() == 0)
    }

    @Test func aFiveGigabyteSparseFileOpensWithMediaDataVisible() throws {
        let path = try TemporaryFile.makeDirectory() + "/five-gib.mp4"
        try LargeMovieBuilder.write(to: path, sampleCount: 1_000_000, mediaSize: 5 << 30)
        let session = try browse(path)
        let screen = try session.screen()
        #expect(screen.contains { $0.contains("mdat @") && $0.contains("5.0G") })
        try session.send("G", "Tab", "Tab")
        let bottom = try session.waitFor { $0.contains { $0.contains("▶ hex") } }
        #expect(bottom.contains { $0.hasPrefix(">") && $0.contains("mdat") })
        try session.send("q")
        try session.waitFor("STATUS=")
        #expect(try session.exitStatus() == 0)
    }

    /// `browse A B` of two 2 GiB movies that differ in their last media byte: the first file is
    /// on the screen at once while the comparison runs in the background, the status line says
    /// how far it has got, and when it is done the tree marks what differs and `]` goes there.
    @Test func aComparisonRunsInTheBackgroundAndMarksWhatDiffers() throws {
        let directory = try TemporaryFile.makeDirectory()
        let a = directory + "/a.mp4", b = directory + "/b.mp4"
        for path in [a, b] { try LargeMovieBuilder.write(to: path, sampleCount: 1000, mediaSize: 2 << 30) }
        let handle = try #require(FileHandle(forWritingAtPath: b))
        try handle.seekToEnd()
        try handle.seek(toOffset: try handle.offset() - 1)
        try handle.write(contentsOf: Data([1]))
        try handle.close()
        let session = try TmuxSession("'\(tool)' browse '\(a)' '\(b)'", width: 120, height: 30, environment: ["NO_COLOR": "1", "TERM": "xterm-256color"])
        let first = try session.waitFor(timeout: 10) { $0.contains { $0.contains("ftyp @0") } }
        #expect(first.last?.hasPrefix("comparing with ") == true, "\(first.last ?? "")")
        let done = try session.waitFor(timeout: 120) { $0.last?.hasPrefix("compared with ") == true }
        #expect(done.last?.contains("1 difference") == true)
        #expect(done.contains { $0.hasPrefix(" ~") && $0.contains("mdat @") })
        try session.send("]")
        let stepped = try session.waitFor { $0.last?.hasPrefix("difference 1/1: ~ mdat  same size, other bytes from byte ") == true }
        #expect(stepped.contains { $0.hasPrefix(">~") && $0.contains("mdat @") })
        // `v`: both files side by side, the other's mdat on the same line, marked too.
        try session.send("v")
        let both = try session.waitFor { $0.count > 1 && $0[1].contains("the other: b.mp4") }
        let line = try #require(both.first { $0.hasPrefix(">~") && $0.contains("mdat @") })
        #expect(line.components(separatedBy: "│").last?.hasPrefix(">~") == true, "\(line)")
        #expect(line.components(separatedBy: "│").last?.contains("mdat @") == true, "\(line)")
        try session.send("q")
        try session.waitFor("STATUS=")
        #expect(try session.exitStatus() == 0)
    }

    @Test func anMP3ShowsItsFramesAndCtrlCQuits() throws {
        let session = try browse(TestFixtures.path("id3v24-full.mp3"), width: 80, height: 24)
        try session.send("l", "j")
        let screen = try session.waitFor { $0.first?.contains("ID3v2/TIT2") == true }
        #expect(screen.contains { $0.contains("TIT2 @") })
        #expect(screen.contains { $0.contains("encoding:") })
        try session.send("C-c")
        try session.waitFor("STATUS=")
        #expect(try session.exitStatus() == 0)
    }

    @Test func coloursWithoutNO_COLORAndTheSelectionStaysMarked() throws {
        let session = try browse(TestFixtures.path("video-h264-aac.mp4"), colour: true)
        let screen = try session.screen(escapes: true)
        #expect(screen.joined().contains("\u{1B}["), "a colour terminal gets attributes")
        // The selection is marked in text as well as in colour.
        #expect(try session.screen()[1].hasPrefix(">  ftyp @0"))
        try session.send("q")
        try session.waitFor("STATUS=")
        #expect(try session.exitStatus() == 0)
    }

    @Test func aResizedTerminalIsRedrawnToItsNewSize() throws {
        let session = try browse(TestFixtures.path("video-h264-aac.mp4"), width: 100, height: 30)
        var screen = try session.screen()
        #expect(screen.count == 30)
        #expect(screen[29].contains("? help"))
        let divider = screen[1].firstIndex(of: "│").map { screen[1].distance(from: screen[1].startIndex, to: $0) }
        try session.resize(width: 70, height: 20)
        // tmux keeps the old lines that still fit; the browser's redraw moves the tree's divider.
        screen = try session.waitFor { screen in
            screen.count == 20 && screen[1].hasPrefix(">  ftyp @0")
                && screen[1].firstIndex(of: "│").map { screen[1].distance(from: screen[1].startIndex, to: $0) } != divider
        }
        #expect(screen.count == 20)
        #expect(screen[19].contains("? help"), "the status line is on the new last row")
        #expect(screen[1].hasPrefix(">  ftyp @0"))
        #expect(screen[1].firstIndex(of: "│").map { screen[1].distance(from: screen[1].startIndex, to: $0) } != divider,
                "the panes are laid out for 70 columns")
        #expect(screen.allSatisfy { $0.count <= 70 })
        try session.send("q")
        try session.waitFor("STATUS=")
        #expect(try session.exitStatus() == 0)
    }

    @Test func ctrlZSuspendsToTheShellAndFgResumes() throws {
        // An interactive shell with job control, as a person has: the browser runs in it.
        let session = try TmuxSession("bash --norc --noprofile -i", width: 100, height: 30,
                                      environment: ["NO_COLOR": "1", "TERM": "xterm-256color", "PS1": "shell$ "])
        try session.waitFor("shell$")
        try session.send("'\(tool)' browse '\(TestFixtures.path("video-h264-aac.mp4"))'", literal: true)
        try session.send("Enter")
        try session.waitFor("? help")
        try session.send("j")
        try session.waitFor { $0.contains { $0.hasPrefix(">+ moov") } }

        try session.send("C-z")
        var screen = try session.waitFor("Stopped")
        #expect(screen.contains { $0.contains("Stopped") }, "the shell reports the browser stopped")
        #expect(!screen.contains { $0.contains("? help") }, "the shell's screen is back")

        try session.send("fg", literal: true)
        try session.send("Enter")
        screen = try session.waitFor { $0.contains { $0.hasPrefix(">+ moov") } }
        #expect(screen.contains { $0.hasPrefix(">+ moov") }, "resumed where it was, redrawn")
        #expect(screen.contains { $0.contains("? help") })
        // Raw mode is back too: one key, no Enter, moves the selection.
        try session.send("k")
        screen = try session.waitFor { $0.contains { $0.hasPrefix(">  ftyp") } }
        #expect(screen.contains { $0.hasPrefix(">  ftyp") })
        try session.send("q")
        screen = try session.waitFor("shell$")
        try session.send("echo BROWSE=$?", literal: true)
        try session.send("Enter")
        screen = try session.waitFor("BROWSE=")
        #expect(screen.contains { $0 == "BROWSE=0" })
        try session.send("exit", literal: true)
        try session.send("Enter")
    }

    @Test func withoutATerminalItRefusesWithOneLine() async throws {
        let result = try await ToolRunner.run("atominspect", ["browse", TestFixtures.path("video-h264-aac.mp4")])
        #expect(result.status == 69)
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(result.standardError.contains("atominspect tree"))
    }
}
