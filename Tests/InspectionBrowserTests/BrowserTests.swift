import Foundation
import InspectionBrowser
import MediaBytes
import MediaToolSupport
import TestSupport
import Testing

/// The screen model: key sequences in, screen contents out, no terminal involved.
@Suite struct BrowserTests {
    func browser(_ fixture: String, width: Int = 100, height: Int = 30) throws -> Browser {
        Browser(file: try FileInspection.open(TestFixtures.path(fixture)), width: width, height: height)
    }

    func press(_ browser: inout Browser, _ keys: BrowserKey...) {
        for key in keys { _ = browser.handle(key) }
    }

    func type(_ browser: inout Browser, _ text: String) {
        for character in text { _ = browser.handle(.character(character)) }
    }

    /// The tree pane's text (left of the separator) on each line of the body.
    func treeLines(_ screen: [String]) -> [String] {
        screen.dropFirst().dropLast().map { String($0.split(separator: "│", maxSplits: 1, omittingEmptySubsequences: false)[0]) }
    }

    @Test func firstScreenShowsTopLevelWithOffsetsSizesAndShares() throws {
        var browser = try browser("video-h264-aac.mp4")
        let screen = browser.lines()
        #expect(screen.count == 30)
        #expect(screen.allSatisfy { $0.count == 100 })
        #expect(screen[0].contains("video-h264-aac.mp4") && screen[0].contains("7448 bytes"))
        let tree = treeLines(screen)
        #expect(tree[0].hasPrefix(">  ftyp @0"))
        #expect(tree[1].hasPrefix(" + moov @32"))
        #expect(tree[3].hasPrefix("   mdat @1738") && tree[3].contains("5.6K 77%"))
        #expect(screen.contains { $0.contains("majorBrand: \"isom\"") })
        #expect(screen.contains { $0.contains("         0 00 00 00 20 66 74 79 70") })
        #expect(screen.last?.contains("? help") == true)
    }

    /// Text from the file (a handler name holding escape sequences, a `----` item's mean)
    /// never reaches the terminal raw: the only ESC on the screen starts the browser's own
    /// styles (`ESC[...m`). Before 2026-11-30 a handler name cleared the screen.
    @Test func escapeSequencesInTheFileAreShownEscaped() throws {
        var bytes = try TemporaryFile.read(TestFixtures.path("aac-itunes-tags-cover.m4a"))
        let name = Array("SoundHandler".utf8), planted = Array("\u{1B}[2J\u{1B}]0;X\u{07}YZ".utf8)
        #expect(planted.count == name.count)
        let at = try #require((0...(bytes.count - name.count)).first { bytes[$0..<$0 + name.count].elementsEqual(name) })
        bytes.replaceSubrange(at..<at + name.count, with: planted)
        let path = try TemporaryFile.write(bytes, name: "escapes.m4a")
        var browser = Browser(file: try FileInspection.open(path), width: 120, height: 30)
        press(&browser, .character("/"))
        type(&browser, "hdlr")
        press(&browser, .enter, .tab)
        let screen = browser.lines().joined(separator: "\n")
        #expect(screen.contains(#"name: "\x1B[2J\x1B]0;X\x07YZ""#), "\(screen)")
        // The screen without the browser's own styles (ESC [ digits and semicolons m).
        var plain = String.UnicodeScalarView(), scalars = Array(screen.unicodeScalars), index = 0
        while index < scalars.count {
            if scalars[index] == "\u{1B}", index + 1 < scalars.count, scalars[index + 1] == "[" {
                var end = index + 2
                while end < scalars.count, "0123456789;".unicodeScalars.contains(scalars[end]) { end += 1 }
                if end < scalars.count, scalars[end] == "m" { index = end + 1; continue }
            }
            plain.append(scalars[index])
            index += 1
        }
        let stray = plain.filter { $0.value < 0x20 && $0 != "\n" }
        #expect(stray.isEmpty, "raw control characters on the screen")
        var diagnostics: [Diagnostic] = []
        let tree = InspectionRendering.text(try FileInspection.open(path).nodes, diagnostics: &diagnostics)
        #expect(tree.contains(#"name="\x1B[2J\x1B]0;X\x07YZ""#), "\(tree)")
        #expect(!tree.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    @Test func aLongPathLosesItsStartNotItsEndInTheTitle() throws {
        var browser = try browser("video-h264-aac.mp4", width: 70, height: 24)
        press(&browser, .character("/"))
        type(&browser, "/moov/trak[1]/mdia/minf/stbl/stco")
        press(&browser, .enter)
        let title = browser.lines()[0]
        #expect(title.count == 70)
        #expect(title.contains("video-h264-aac.mp4"), "the file is still named")
        #expect(!title.contains("/work/"), "by its last component")
        #expect(title.hasSuffix("  ·  …/minf/stbl/stco"))
    }

    @Test func everyLineFitsAnEightyByTwentyFourTerminal() throws {
        var browser = try browser("aac-itunes-tags-cover.m4a", width: 80, height: 24)
        press(&browser, .character("/"))
        type(&browser, "©nam")
        press(&browser, .enter)
        let screen = browser.lines()
        #expect(screen.count == 24)
        #expect(screen.allSatisfy { $0.count == 80 })
        #expect(browser.selectedPath == "moov/udta/meta/ilst/©nam")
        #expect(treeLines(screen).contains { $0.hasPrefix(">") && $0.contains("+ ©nam @") })
    }

    @Test func expandCollapseAndParent() throws {
        var browser = try browser("video-h264-aac.mp4")
        press(&browser, .character("j"), .character("l"))
        #expect(treeLines(browser.lines())[1].hasPrefix(">- moov"))
        press(&browser, .character("j"))
        #expect(browser.selectedPath == "moov/mvhd")
        press(&browser, .character("h"))
        #expect(browser.selectedPath == "moov")
        press(&browser, .character("h"))
        #expect(treeLines(browser.lines())[1].hasPrefix(">+ moov"))
        press(&browser, .enter)
        #expect(treeLines(browser.lines())[2].contains("mvhd"))
        press(&browser, .character("G"))
        #expect(browser.selectedPath == "mdat")
        press(&browser, .character("g"))
        #expect(browser.selectedPath == "ftyp")
    }

    @Test func searchFindsByTypePathAndValueAndRepeats() throws {
        var browser = try browser("video-h264-aac.mp4")
        press(&browser, .character("/"))
        type(&browser, "stco")
        press(&browser, .enter)
        #expect(browser.selectedPath == "moov/trak[0]/mdia/minf/stbl/stco")
        press(&browser, .character("n"))
        #expect(browser.selectedPath == "moov/trak[1]/mdia/minf/stbl/stco")
        press(&browser, .character("N"))
        #expect(browser.selectedPath == "moov/trak[0]/mdia/minf/stbl/stco")
        // Back past the first match wraps to the last, forward past the last to the first.
        press(&browser, .character("N"))
        #expect(browser.selectedPath == "moov/trak[1]/mdia/minf/stbl/stco")
        press(&browser, .character("n"))
        #expect(browser.selectedPath == "moov/trak[0]/mdia/minf/stbl/stco")
        press(&browser, .character("/"))
        type(&browser, "/moov/trak[1]/mdia")
        press(&browser, .enter)
        #expect(browser.selectedPath == "moov/trak[1]/mdia")
        press(&browser, .character("/"))
        type(&browser, "SoundHandler")
        press(&browser, .enter)
        #expect(browser.selectedPath?.hasSuffix("/hdlr") == true)
        press(&browser, .character("/"))
        type(&browser, "nothing-like-this")
        press(&browser, .enter)
        #expect(browser.lines().last?.contains("not found: nothing-like-this") == true)
    }

    /// The search walks the tree node by node from the selection into unopened fragments.
    @Test func searchStepsThroughFragmentsFromTheSelection() throws {
        var browser = try browser("fragmented.mp4")
        press(&browser, .character("/"))
        type(&browser, "tfdt")
        press(&browser, .enter)
        #expect(browser.selectedPath == "moof[0]/traf[0]/tfdt")
        press(&browser, .character("n"), .character("n"))
        #expect(browser.selectedPath == "moof[1]/traf[0]/tfdt")
        press(&browser, .character("N"))
        #expect(browser.selectedPath == "moof[0]/traf[1]/tfdt")
        press(&browser, .character("/"))
        type(&browser, "baseMediaDecodeTime=7482")
        press(&browser, .enter)
        #expect(browser.selectedPath == "moof[2]/traf[1]/tfdt", "\(browser.lines().last ?? "")")
    }

    /// Text with a `/` that names no node is searched for as text: `/image/jpeg` finds a
    /// picture's MIME type (before 2026-11-29 it said "no node at image/jpeg").
    @Test func searchTextWithASlashThatIsNoPathFindsValues() throws {
        var browser = try browser("id3v24-full.mp3")
        press(&browser, .character("/"))
        type(&browser, "/image/jpeg")
        press(&browser, .enter)
        #expect(browser.selectedPath == "ID3v2/APIC[1]", "\(browser.lines().last ?? "")")
        press(&browser, .character("/"))
        type(&browser, "image/png")
        press(&browser, .enter)
        #expect(browser.selectedPath == "ID3v2/APIC[0]")
    }

    @Test func offsetJumpSelectsTheInnermostNode() throws {
        var browser = try browser("video-h264-aac.mp4")
        press(&browser, .character(":"))
        type(&browser, "0x30")
        press(&browser, .enter)
        #expect(browser.selectedPath == "moov/mvhd")
        press(&browser, .character(":"))
        type(&browser, "5000")
        press(&browser, .enter)
        #expect(browser.selectedPath == "mdat")
        #expect(browser.lines().contains { $0.contains("      5000 ") })
        press(&browser, .character(":"))
        type(&browser, "99999999")
        press(&browser, .enter)
        #expect(browser.lines().last?.contains("outside every node") == true)
        #expect(browser.selectedPath == "mdat")
    }

    @Test func followingAChunkOffsetLandsInMediaDataAndCtrlOComesBack() throws {
        var browser = try browser("video-h264-aac.mp4")
        press(&browser, .character("/"))
        type(&browser, "/moov/trak[1]/mdia/minf/stbl/stco")
        press(&browser, .enter)
        press(&browser, .character("f"))
        #expect(browser.selectedPath == "mdat")
        let screen = browser.lines()
        #expect(screen.last?.contains("followed chunk 1: 202 bytes at 3189") == true)
        #expect(screen.contains { $0.contains("[3189..<3391]") })
        #expect(screen.contains { $0.contains("      3184 ") })
        press(&browser, .control("o"))
        #expect(browser.selectedPath == "moov/trak[1]/mdia/minf/stbl/stco")
    }

    /// A chunk offset past the end of the file (a truncated download) says so when followed
    /// (before 2026-11-29 nothing was said).
    @Test func followingAChunkOffsetPastTheEndWarns() throws {
        let original = TestFixtures.path("video-h264-aac.mp4")
        let stco = try #require(try FileInspection.open(original).node(at: "moov/trak[1]/mdia/minf/stbl/stco"))
        var bytes = try TemporaryFile.read(original)
        let past = UInt32(bytes.count + 1000)
        let entry = Int(stco.offset) + 16  // header, version and flags, entry count
        bytes.replaceSubrange(entry..<entry + 4, with: [UInt8(past >> 24), UInt8(past >> 16 & 0xFF), UInt8(past >> 8 & 0xFF), UInt8(past & 0xFF)])
        var browser = Browser(file: try FileInspection.open(try TemporaryFile.write(bytes, name: "cut.mp4")), width: 120, height: 30)
        press(&browser, .character("/"))
        type(&browser, "/moov/trak[1]/mdia/minf/stbl/stco")
        press(&browser, .enter)
        press(&browser, .character("f"))
        #expect(browser.selectedPath == "moov/trak[1]/mdia/minf/stbl/stco")
        #expect(browser.lines().last?.contains("warning: chunk 1 at \(past) is past the end of the file (\(bytes.count) bytes)") == true,
                "\(browser.lines().last ?? "")")
    }

    @Test func selectedFieldIsHighlightedInTheHexPane() throws {
        var browser = try browser("video-h264-aac.mp4")
        press(&browser, .character("/"))
        type(&browser, "mvhd")
        press(&browser, .enter, .tab)
        for _ in 0..<4 { press(&browser, .character("j")) }
        let screen = browser.lines()
        // mvhd's payload starts at 48: version 0, so the timescale is at 48 + 12.
        #expect(screen.contains { $0.contains(">timescale: 1000") })
        #expect(screen.contains { $0.contains("[60..<64]") })
    }

    @Test func trackTableListsSamplesAndFollowsOne() throws {
        var browser = try browser("video-h264-aac.mp4")
        press(&browser, .character("/"))
        type(&browser, "/moov/trak[1]")
        press(&browser, .enter, .character("t"))
        var screen = browser.lines()
        #expect(screen[1].hasPrefix("samples of moov/trak[1]: 23 rows"))
        #expect(screen[2].contains("decodeTime") && screen[2].contains("sync"))
        #expect(screen[3].hasPrefix(">") && screen[3].contains("3189") && screen[3].contains("→ sample 1"))
        press(&browser, .character("G"))
        screen = browser.lines()
        #expect(screen.contains { $0.hasPrefix(">") && $0.contains("→ sample 23") })
        press(&browser, .enter)
        #expect(browser.selectedPath == "mdat")
        #expect(browser.lines().last?.contains("followed sample 23") == true)
    }

    /// A fragmented track's table runs across its fragments; inside it `:` goes to a sample
    /// number or a time and `/` finds text in the rows, `n` again.
    @Test func insideATableRowsAreFoundByNumberTimeAndText() throws {
        var browser = try browser("fragmented.mp4")
        press(&browser, .character("/"))
        type(&browser, "/moov/trak[1]")
        press(&browser, .enter, .character("t"))
        #expect(browser.lines()[1].hasPrefix("samples of moov/trak[1]: 23 rows"))
        press(&browser, .character(":"))
        type(&browser, "17")
        press(&browser, .enter)
        #expect(browser.lines().contains { $0.hasPrefix(">") && $0.contains("→ sample 17") })
        // 22050 Hz: sample 9 is decoded at 11578 / 22050 = 0.525 s, sample 8 at 0.479 s.
        press(&browser, .character(":"))
        type(&browser, "0.5s")
        press(&browser, .enter)
        #expect(browser.lines().contains { $0.hasPrefix(">") && $0.contains("→ sample 9") })
        #expect(browser.lines().last?.contains("row 9: the first decoded at or after 0.5s") == true)
        press(&browser, .character("/"))
        type(&browser, "8778")
        press(&browser, .enter)
        #expect(browser.lines().contains { $0.hasPrefix(">") && $0.contains("8778") && $0.contains("→ sample 19") })
        press(&browser, .character("n"))
        #expect(browser.lines().last?.contains("8778: no more rows hold it") == true)
        press(&browser, .character(":"))
        type(&browser, "99")
        press(&browser, .enter)
        #expect(browser.lines().last?.contains("the table has 23 rows") == true)
    }

    @Test func helpListsTheKeysAndEscapeCloses() throws {
        var browser = try browser("video-h264-aac.mp4")
        press(&browser, .character("?"))
        let help = browser.lines().joined(separator: "\n")
        for key in ["Ctrl-d / Ctrl-u", "Tab", ":", "Ctrl-o", "!", "w / W", "q quit"] { #expect(help.contains(key)) }
        press(&browser, .escape)
        #expect(browser.lines()[1].contains("ftyp"))
        #expect(browser.handle(.character("q")) == .quit)
    }

    /// On a narrow screen the help puts each key on its line and what it does, wrapped, below
    /// it, and scrolls (before 2026-11-29, 20 columns showed a letter of each description).
    @Test func aNarrowHelpWrapsAndScrolls() throws {
        var browser = Browser(file: try FileInspection.open(TestFixtures.path("video-h264-aac.mp4")), width: 20, height: 12)
        press(&browser, .character("?"))
        let first = browser.lines()
        #expect(first.allSatisfy { $0.count <= 20 })
        #expect(first.contains { $0.hasPrefix("l / → ") } && first.contains { $0.hasPrefix("  expand, or step") }, "\(first)")
        var seen = Set(first)
        for _ in 0..<200 {
            press(&browser, .character("j"))
            seen.formUnion(browser.lines())
        }
        #expect(seen.contains { $0.contains("q quit") }, "the last key is reached by scrolling")
        #expect(seen.contains { $0.hasPrefix("Ctrl-o ") } && seen.contains { $0.hasPrefix("  back to where you") })
        press(&browser, .character("k"), .escape)
        #expect(browser.lines().contains { $0.contains("ftyp") })
    }

    @Test func diagnosticsListJumpsToTheNode() throws {
        var bytes = AtomBuilder.ftyp()
        bytes += AtomBuilder.container("moov", AtomBuilder.rawAtom(size: 400, "udta", [1, 2, 3]))
        let path = try TemporaryFile.write(bytes, name: "truncated.m4a")
        var browser = Browser(file: try FileInspection.open(path), width: 100, height: 30)
        press(&browser, .character("!"))
        let screen = browser.lines()
        #expect(screen[1].hasPrefix("diagnostics: "))
        #expect(screen[2].contains("moov/udta"))
        press(&browser, .enter)
        #expect(browser.selectedPath == "moov/udta")
    }

    @Test func writesTheSelectedNodesBytesAndJSON() throws {
        var browser = try browser("aac-itunes-tags-cover.m4a")
        let directory = try TemporaryFile.makeDirectory()
        press(&browser, .character("/"))
        type(&browser, "©nam")
        press(&browser, .enter, .character("w"))
        type(&browser, directory + "/nam.bin")
        press(&browser, .enter)
        let written = try TemporaryFile.read(directory + "/nam.bin")
        #expect(Array(written[4..<8]) == [0xA9] + Array("nam".utf8))
        #expect(browser.lines().last?.contains("wrote \(written.count) bytes") == true)
        press(&browser, .character("e"))
        type(&browser, directory + "/nam.json")
        press(&browser, .enter)
        let json = String(decoding: try TemporaryFile.read(directory + "/nam.json"), as: UTF8.self)
        #expect(json.contains("\"path\": \"moov/udta/meta/ilst/©nam\""))
        #expect(json.contains("Fixture Title"))
    }

    /// A write to a file that is there asks first; no keeps it, yes replaces it. A failure
    /// names the path once (before 2026-11-29 `w` and `e` replaced files without asking, and
    /// the error said the path twice).
    @Test func writingOverAFileAsksFirst() throws {
        var browser = try browser("aac-itunes-tags-cover.m4a", width: 240)
        let directory = try TemporaryFile.makeDirectory()
        let target = directory + "/kept.bin"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: target))
        press(&browser, .character("/"))
        type(&browser, "©nam")
        press(&browser, .enter, .character("w"))
        type(&browser, target)
        press(&browser, .enter)
        #expect(browser.lines().last?.contains("kept.bin exists. Replace it? (y/n)") == true, "\(browser.lines().last ?? "")")
        // The answer is its key alone, no Enter after it.
        type(&browser, "n")
        #expect(try TemporaryFile.read(target) == Array("keep me".utf8))
        #expect(browser.lines().last?.contains("not written: \(target) is kept") == true)
        press(&browser, .character("e"))
        type(&browser, target)
        press(&browser, .enter, .enter)
        #expect(browser.lines().last?.contains("not written") == true, "Enter alone is no")
        press(&browser, .character("e"))
        type(&browser, target)
        press(&browser, .enter)
        type(&browser, "y")
        #expect(String(decoding: try TemporaryFile.read(target), as: UTF8.self).contains("©nam"))
        press(&browser, .character("w"))
        type(&browser, directory + "/missing/folder/out.bin")
        press(&browser, .enter)
        let message = browser.lines().last ?? ""
        #expect(message.contains("cannot write"), "\(message)")
        #expect(message.components(separatedBy: "missing/folder/out.bin").count == 2, "the path once: \(message)")
    }

    /// On a narrow terminal the panes take turns, and no line is wider than the screen
    /// (before 2026-11-29 a width under 35 columns wrapped every line).
    @Test func aNarrowScreenShowsOnePaneAtATime() throws {
        for width in [20, 34, 49] {
            var browser = try browser("video-h264-aac.mp4", width: width, height: 12)
            press(&browser, .character("j"))
            let tree = browser.lines()
            #expect(tree.allSatisfy { Self.visibleWidth($0) == width }, "\(width): \(tree.map { Self.visibleWidth($0) })")
            #expect(tree.contains { $0.contains("ftyp") } && tree.contains { $0.contains("moov") })
            press(&browser, .tab)
            let fields = browser.lines()
            #expect(fields.allSatisfy { Self.visibleWidth($0) == width })
            #expect(fields.contains { $0.contains("fields") })
        }
    }

    /// Columns a screen line takes (escape sequences take none).
    static func visibleWidth(_ line: String) -> Int {
        var count = 0, inEscape = false
        for character in line {
            if character == "\u{1B}" { inEscape = true }
            if inEscape { if character.isLetter { inEscape = false }; continue }
            count += 1
        }
        return count
    }

    @Test func mp3ShowsTagFramesAndStreamHeader() throws {
        var browser = try browser("id3v24-full.mp3")
        press(&browser, .character("l"), .character("j"))
        let screen = browser.lines()
        #expect(treeLines(screen)[0].hasPrefix(" - ID3v2 @0"))
        #expect(browser.selectedPath == "ID3v2/TIT2")
        #expect(screen.contains { $0.contains("values: [") })
        press(&browser, .character("h"), .character("h"))
        #expect(treeLines(browser.lines()).contains { $0.contains("mpeg @") })
    }

    @Test func reloadKeepsTheSelection() throws {
        let path = try TemporaryFile.write(try TemporaryFile.read(TestFixtures.path("video-h264-aac.mp4")), name: "copy.mp4")
        var browser = Browser(file: try FileInspection.open(path), width: 100, height: 30)
        press(&browser, .character("/"))
        type(&browser, "/moov/trak[1]/tkhd")
        press(&browser, .enter)
        #expect(browser.handle(.character("r")) == .reload)
        browser.reload(try FileInspection.open(path))
        #expect(browser.selectedPath == "moov/trak[1]/tkhd")
        #expect(browser.lines().last?.contains("reloaded") == true)
    }

    @Test func aMillionSampleTableScrollsAPageAtATime() throws {
        let path = try TemporaryFile.makeDirectory() + "/million.mp4"
        try LargeMovieBuilder.write(to: path, sampleCount: 1_000_000, mediaSize: 5 << 30)
        var browser = Browser(file: try FileInspection.open(path), width: 100, height: 30)
        #expect(treeLines(browser.lines()).contains { $0.contains("mdat @") && $0.contains("5.0G") })
        press(&browser, .character("/"))
        type(&browser, "/moov/trak")
        press(&browser, .enter, .character("t"), .character("G"))
        let screen = browser.lines()
        #expect(screen[1].contains("1000000 rows"))
        #expect(screen.contains { $0.hasPrefix(">") && $0.contains("1000000") && $0.contains("→ sample 1000000") })
        press(&browser, .control("u"))
        #expect(browser.lines().contains { $0.hasPrefix(">") && $0.contains("999988") })
    }

    @Test func bothFilesSideBySideShowWhatOnlyTheOtherHolds() throws {
        let directory = try TemporaryFile.makeDirectory()
        let bytes = try TemporaryFile.read(TestFixtures.path("video-h264-aac.mp4"))
        let a = directory + "/a.mp4"
        try Data(bytes).write(to: URL(fileURLWithPath: a))
        // The second file: the same with a 16-byte `free` box at its end.
        let b = directory + "/b.mp4"
        try Data(bytes + [0, 0, 0, 16] + Array("free".utf8) + [UInt8](repeating: 0, count: 8)).write(to: URL(fileURLWithPath: b))
        var browser = Browser(file: try FileInspection.open(a), comparedTo: try FileInspection.open(b), width: 100, height: 30)
        press(&browser, .character("G"), .character("v"))
        let screen = browser.lines()
        let last = try #require(browser.selectedNode)
        let selectedLine = try #require(screen.firstIndex { $0.hasPrefix(">") })
        let halves = screen[selectedLine].components(separatedBy: "│")
        // The last node here is the same node there, on the same line, unmarked.
        #expect(halves[0].contains("\(last.displayType) @\(last.offset)") && halves[1].hasPrefix("> ") && halves[1].contains("\(last.displayType) @\(last.offset)"))
        // The box only the other file holds is in its tree, marked `+`, with nothing beside it here.
        let added = try #require(screen.first { $0.components(separatedBy: "│").last?.contains("free @\(bytes.count)") == true })
        #expect(added.components(separatedBy: "│").last?.hasPrefix(" +") == true)
        #expect(added.components(separatedBy: "│").first?.trimmingCharacters(in: .whitespaces).isEmpty == true)
        #expect(screen.allSatisfy { $0.count == 100 })
    }

    @Test func aSecondFileGivesDifferencesToStepThrough() throws {
        let directory = try TemporaryFile.makeDirectory()
        var bytes = try TemporaryFile.read(TestFixtures.path("video-h264-aac.mp4"))
        let a = directory + "/a.mp4"
        try Data(bytes).write(to: URL(fileURLWithPath: a))
        // The same file with one byte of the first track's tkhd (its modification time) changed.
        let tkhd = try #require(try FileInspection.open(a).node(at: "moov/trak[0]/tkhd"))
        bytes[Int(tkhd.offset) + 19] ^= 0xFF
        let b = directory + "/b.mp4"
        try Data(bytes).write(to: URL(fileURLWithPath: b))
        var browser = Browser(file: try FileInspection.open(a), comparedTo: try FileInspection.open(b), width: 100, height: 30)
        press(&browser, .character("]"))
        #expect(browser.selectedPath == "moov/trak[0]/tkhd")
        #expect(browser.lines().last?.contains("difference 1/1: moov/trak[0]/tkhd  modificationTime:") == true)
        press(&browser, .character("g"), .character("["))
        #expect(browser.selectedPath == "moov/trak[0]/tkhd")
        // `v` shows both files side by side: each tree with its marks, the other's selection
        // on the selection's line, and the node's fields in both, the changed one marked.
        press(&browser, .character("]"), .character("v"))
        let sideBySide = browser.lines()
        #expect(sideBySide[1].contains("this file") && sideBySide[1].contains("│─ the other: b.mp4"))
        let selectedLine = try #require(sideBySide.firstIndex { $0.hasPrefix(">~") })
        let halves = sideBySide[selectedLine].components(separatedBy: "│")
        #expect(halves.count == 2 && halves[0].contains("tkhd @") && halves[1].hasPrefix(">~") && halves[1].contains("tkhd @"))
        #expect(sideBySide.contains { $0.hasPrefix(" *") && $0.contains("moov @") && $0.components(separatedBy: "│").last?.hasPrefix(" *") == true })
        let fieldsTitle = try #require(sideBySide.firstIndex { $0.contains("fields") })
        #expect(sideBySide[fieldsTitle...].contains { $0.hasPrefix("≠modificationTime: ") && $0.components(separatedBy: "│").last?.hasPrefix("≠modificationTime: ") == true })
        #expect(sideBySide[fieldsTitle...].contains { $0.hasPrefix(" trackID: 1") && $0.components(separatedBy: "│").last?.hasPrefix(" trackID: 1") == true })
        // On a narrow screen the fields pane holds both files' values on each line.
        browser.width = 44
        let narrow = browser.lines()
        press(&browser, .tab)
        #expect(browser.lines().contains { $0.contains("≠modificationTime: ") && $0.contains(" │ ") })
        press(&browser, .backTab)
        browser.width = 100
        #expect(narrow.allSatisfy { $0.count <= 44 })
        press(&browser, .character("v"))
        #expect(!browser.lines()[1].contains("the other"))
        // The tree marks the changed node `~` and the nodes above it `*`.
        let tree = treeLines(browser.lines())
        #expect(tree.contains { $0.hasPrefix(">~") && $0.contains("tkhd @") })
        #expect(tree.contains { $0.hasPrefix(" *") && $0.contains("moov @") })
        #expect(tree.contains { $0.hasPrefix("  ") && $0.contains("ftyp @") })
        var alone = try self.browser("video-h264-aac.mp4")
        press(&alone, .character("]"))
        #expect(alone.lines().last?.contains("no second file") == true)
        press(&alone, .character("v"))
        #expect(alone.lines().last?.contains("no second file to show beside this one") == true)
        // A comparison still running in the background: the status line says so, `]` waits.
        var waiting = try self.browser("video-h264-aac.mp4")
        waiting.comparisonPending = "comparing with b.mp4: 1.0 of 5.0 GiB"
        #expect(waiting.lines().last?.hasPrefix("comparing with b.mp4: 1.0 of 5.0 GiB") == true)
        press(&waiting, .character("]"))
        #expect(waiting.lines().last?.hasPrefix("not yet: comparing with b.mp4") == true)
        waiting.setComparison(InspectionDiff(try FileInspection.open(a), try FileInspection.open(b)))
        press(&waiting, .character("]"))
        #expect(waiting.lines().last?.contains("difference 1/1: moov/trak[0]/tkhd") == true)
    }

    @Test func keysDecodeFromTerminalBytes() {
        #expect(BrowserKey.decode(Array("jk".utf8)) == [.character("j"), .character("k")])
        #expect(BrowserKey.decode([0x1B, 0x5B, 0x41, 0x1B, 0x5B, 0x42, 0x1B, 0x5B, 0x43, 0x1B, 0x5B, 0x44]) == [.up, .down, .right, .left])
        #expect(BrowserKey.decode([0x1B]) == [.escape])
        #expect(BrowserKey.decode([0x04, 0x15, 0x0F, 0x09, 0x0D]) == [.control("d"), .control("u"), .control("o"), .tab, .enter])
        #expect(BrowserKey.decode([0x1B, 0x5B, 0x35, 0x7E]) == [.pageUp])
        #expect(BrowserKey.decode(Array("©".utf8)) == [.character("©")])
    }
}
