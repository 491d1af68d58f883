import Foundation
import MediaMetadata
import MediaBytes
import TestSupport
import Testing

/// Every output of both tools against every kind of thing an output path can name, made in a
/// test folder (device nodes too: never the system's): a device or a FIFO is written through
/// and stays what it was, a link to a file writes its target and stays a link, a dangling link
/// and a directory are refused and left as they were (`OutputTarget`).
///
/// Before 2026-11-27 `set --output`, `export --output` and `chapters export --output` renamed a
/// regular file over a device or a FIFO (`--output /dev/null` as root replaced the system's
/// `/dev/null`), `export --output LINK` replaced the link, and `picture extract` replaced a
/// dangling link at its target name.
@Suite struct OutputKindsTests {
    /// One command writing one output file: the tool, its arguments with `OUT` where the output
    /// path goes, and whether what it writes is a media file (read back as one).
    struct Command: CustomTestStringConvertible, Sendable {
        var tool: String
        var arguments: [String]
        var writesMedia = false
        var testDescription: String { ([tool] + arguments).joined(separator: " ") }

        func arguments(writingTo output: String) -> [String] {
            arguments.map { $0 == "OUT" ? output : $0.hasPrefix("FIXTURE:") ? TestFixtures.path(String($0.dropFirst(8))) : $0 }
        }
    }

    static let commands: [Command] = [
        Command(tool: "tagedit", arguments: ["set", "FIXTURE:id3v24-full.mp3", "--output", "OUT", "TITLE=Out"], writesMedia: true),
        Command(tool: "tagedit", arguments: ["set", "FIXTURE:aac-itunes-tags-cover.m4a", "--output", "OUT", "TITLE=Out"], writesMedia: true),
        Command(tool: "tagedit", arguments: ["set", "FIXTURE:wav-id3-info.wav", "--output", "OUT", "TITLE=Out"], writesMedia: true),
        Command(tool: "tagedit", arguments: ["export", "FIXTURE:id3v24-full.mp3", "--output", "OUT"]),
        Command(tool: "tagedit", arguments: ["export", "FIXTURE:id3v24-full.mp3", "FIXTURE:no-tags.mp3", "--output", "OUT"]),
        Command(tool: "tagedit", arguments: ["chapters", "export", "FIXTURE:audiobook-chapters.m4b", "--output", "OUT"]),
        Command(tool: "atominspect", arguments: ["extract", "FIXTURE:aac-itunes-tags-cover.m4a", "--path", "moov/udta", "-o", "OUT"]),
        Command(tool: "atominspect", arguments: ["html", "FIXTURE:aac-itunes-tags-cover.m4a", "-o", "OUT"]),
    ]

    /// The device number of `/dev/null`, character device 1:3 (glibc's `makedev(1, 3)`, a macro
    /// Swift does not import).
    static let nullDevice: dev_t = 1 << 8 | 3

    static func kind(_ path: String) -> (mode: mode_t, device: UInt64)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return (info.st_mode & S_IFMT, UInt64(info.st_rdev))
    }

    /// A folder with the kinds made in it.
    static func folder() throws -> String {
        let directory = try TemporaryFile.makeDirectory()
        #expect(mknod(directory + "/null", S_IFCHR | 0o666, Self.nullDevice) == 0, "mknod: \(String(cString: strerror(errno))) (these tests need root, as CI has)")
        #expect(mkfifo(directory + "/fifo", 0o644) == 0)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: directory + "/target.txt"))
        #expect(symlink("target.txt", directory + "/link") == 0)
        #expect(symlink("missing.txt", directory + "/dangling") == 0)
        #expect(mkdir(directory + "/folder", 0o755) == 0)
        return directory
    }

    func run(_ command: Command, _ output: String) async throws -> ToolRunner.Result {
        try await ToolRunner.run(command.tool, command.arguments(writingTo: output))
    }

    @Test(arguments: commands)
    func aDeviceIsWrittenThroughAndStaysADevice(_ command: Command) async throws {
        let directory = try Self.folder()
        let before = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        let result = try await run(command, directory + "/null")
        #expect(result.status == 0, "\(result.standardError)")
        let kind = try #require(Self.kind(directory + "/null"))
        #expect(kind.mode == S_IFCHR && kind.device == UInt64(Self.nullDevice), "the device was replaced")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == before)
    }

    @Test(arguments: commands)
    func aFIFOIsWrittenThroughToItsReader(_ command: Command) async throws {
        let directory = try Self.folder()
        let fifo = directory + "/fifo"
        // A thread of its own (not a task: the tool is waited for on one of the pool's few
        // threads, and the tool's open waits for this reader).
        let reader = FIFOReader(fifo)
        let result = try await run(command, fifo)
        #expect(result.status == 0, "\(result.standardError)")
        let bytes = reader.wait()
        #expect(!bytes.isEmpty)
        #expect(Self.kind(fifo)?.mode == S_IFIFO, "the FIFO was replaced")
        if command.writesMedia {
            let copy = try TemporaryFile.write(Array(bytes), name: "received." + (command.arguments[1] as NSString).pathExtension)
            #expect(try await ToolRunner.run("tagedit", ["get", copy, "TITLE"]).standardOutput == "Out\n")
        }
    }

    @Test(arguments: commands)
    func aLinkToAFileWritesTheTargetAndStaysALink(_ command: Command) async throws {
        let directory = try Self.folder()
        let result = try await run(command, directory + "/link")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(Self.kind(directory + "/link")?.mode == S_IFLNK)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory + "/link") == "target.txt")
        let written = try TemporaryFile.read(directory + "/target.txt")
        #expect(written.count > 4 && written != Array("keep".utf8))
        if command.writesMedia {
            #expect(try await ToolRunner.run("tagedit", ["get", directory + "/link", "TITLE"]).standardOutput == "Out\n")
        }
    }

    @Test(arguments: commands)
    func aDanglingLinkAndADirectoryAreRefusedAndLeftAsTheyWere(_ command: Command) async throws {
        let directory = try Self.folder()
        let before = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        let dangling = try await run(command, directory + "/dangling")
        #expect(dangling.status != 0)
        #expect(dangling.standardError.contains("is a symbolic link to '") && dangling.standardError.contains("missing.txt', which does not exist"), "\(dangling.standardError)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory + "/dangling") == "missing.txt")
        let folder = try await run(command, directory + "/folder")
        // A usage error in both tools, found before anything is read (before 2026-11-30: 73
        // or 74 from the write, 64 from atominspect's check of its input).
        #expect(folder.status == 64 && folder.standardError.contains("--output names a folder"), "\(folder.standardError)")
        #expect(Self.kind(directory + "/folder")?.mode == S_IFDIR)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/folder").isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == before, "something was left or removed")
    }

    /// A regular file is replaced by a verified new one, unless it is read-only (no write bit:
    /// refused even for root, who could rename over it) or has another name (a hard link that
    /// would keep the old bytes): then it is left as it was, and tagedit exits 73. Before
    /// 2026-11-27 both were renamed over.
    @Test(arguments: commands)
    func aReadOnlyOrHardLinkedFileIsRefusedAndLeftAsItWas(_ command: Command) async throws {
        let directory = try Self.folder()
        let protected = directory + "/protected.out"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: protected))
        #expect(chmod(protected, 0o444) == 0)
        let readOnly = try await run(command, protected)
        #expect(readOnly.status != 0)
        if command.tool == "tagedit" { #expect(readOnly.status == 73, "\(readOnly.standardError)") }
        #expect(readOnly.standardError.contains("is read-only; not replaced"), "\(readOnly.standardError)")
        #expect(try TemporaryFile.read(protected) == Array("keep".utf8))
        #expect(Self.permissions(protected) == 0o444)

        let shared = directory + "/shared.out"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: shared))
        #expect(link(shared, directory + "/other-name") == 0)
        let linked = try await run(command, shared)
        #expect(linked.status != 0)
        if command.tool == "tagedit" { #expect(linked.status == 73, "\(linked.standardError)") }
        #expect(linked.standardError.contains("has 2 names (hard links)"), "\(linked.standardError)")
        #expect(try TemporaryFile.read(shared) == Array("keep".utf8))
        #expect(Self.linkCount(shared) == 2)

        let plain = directory + "/plain.out"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: plain))
        #expect(chmod(plain, 0o640) == 0)
        let replaced = try await run(command, plain)
        #expect(replaced.status == 0, "\(replaced.standardError)")
        #expect(try TemporaryFile.read(plain) != Array("keep".utf8))
        #expect(Self.permissions(plain) == 0o640, "the replaced file did not keep its permission bits")
    }

    static func permissions(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    static func linkCount(_ path: String) -> UInt? {
        var info = stat()
        return lstat(path, &info) == 0 ? UInt(info.st_nlink) : nil
    }

    @Test(arguments: commands)
    func standardOutputRedirectedForAppendingIsAppendedTo(_ command: Command) async throws {
        let directory = try Self.folder()
        let log = directory + "/log.txt"
        try Data("first line\n".utf8).write(to: URL(fileURLWithPath: log))
        let tool = ToolRunner.productsDirectory + "/" + command.tool
        let arguments = command.arguments(writingTo: "/dev/stdout").map { "'\($0)'" }.joined(separator: " ")
        let result = try await ToolRunner.runProgram("/bin/sh", ["-c", "'\(tool)' \(arguments) >> '\(log)'"])
        #expect(result.status == 0, "\(result.standardError)")
        let text = try TemporaryFile.read(log)
        #expect(text.starts(with: Array("first line\n".utf8)) && text.count > 11, "the redirected file was replaced, not appended to")
        #expect(Self.kind(log)?.mode == S_IFREG)
    }

    /// `picture extract` names its files itself: a device, a FIFO or a link already at such a
    /// name is kept without `--force`, written through with it, and a dangling link refused.
    @Test func aCopyIsMadeFromAFileAnotherEditorHolds() async throws {
        // A save into a new file leaves its source as it is and takes no lock on it: a copy
        // can be made while another editor (here this process) holds the source's lock, and
        // several copies from one file at once do not meet. An edit of the file itself waits
        // its turn (exit 75).
        let directory = try TemporaryFile.makeDirectory()
        let source = try TemporaryFile.write(try TemporaryFile.read(TestFixtures.path("wav-id3-info.wav")), name: "held.wav")
        let lock = try FileLock(source)
        let copy = try await ToolRunner.run("tagedit", ["set", source, "--output", directory + "/a.wav", "TITLE=A"])
        #expect(copy.status == 0, "\(copy.standardError)")
        #expect(try MediaFile(path: directory + "/a.wav").tags["TITLE"] == ["A"])
        let edit = try await ToolRunner.run("tagedit", ["set", source, "TITLE=B"])
        #expect(edit.status == 75, "\(edit.standardError)")
        _ = consume lock
    }

    @Test func extractedPicturesWriteThroughWhatIsAtTheirNames() async throws {
        let directory = try Self.folder()
        let fixture = TestFixtures.path("aac-itunes-tags-cover.m4a")
        let listing = try await ToolRunner.run("tagedit", ["picture", "extract", fixture, "--output", try TemporaryFile.makeDirectory()])
        let name = try #require(listing.standardOutput.split(separator: "\n").first.map { ($0 as NSString).lastPathComponent })
        for kind in ["null", "link", "dangling"] {
            let at = directory + "/" + name
            try? FileManager.default.removeItem(atPath: at)
            switch kind {
            case "null": #expect(mknod(at, S_IFCHR | 0o666, Self.nullDevice) == 0)
            case "link": #expect(symlink("target.txt", at) == 0)
            default: #expect(symlink("missing.txt", at) == 0)
            }
            let kept = try await ToolRunner.run("tagedit", ["picture", "extract", fixture, "--output", directory])
            #expect(kept.status != 0, "\(kind): an existing name was overwritten without --force")
            let forced = try await ToolRunner.run("tagedit", ["picture", "extract", fixture, "--output", directory, "--force"])
            switch kind {
            case "null":
                #expect(forced.status == 0, "\(forced.standardError)")
                #expect(Self.kind(at)?.mode == S_IFCHR)
            case "link":
                #expect(forced.status == 0, "\(forced.standardError)")
                #expect(Self.kind(at)?.mode == S_IFLNK)
                #expect(try TemporaryFile.read(directory + "/target.txt").starts(with: [0xFF, 0xD8]) || (try TemporaryFile.read(directory + "/target.txt").starts(with: [0x89, 0x50])))
            default:
                #expect(forced.status != 0)
                #expect(forced.standardError.contains("symbolic link"), "\(forced.standardError)")
                #expect(Self.kind(at)?.mode == S_IFLNK)
                #expect(!FileManager.default.fileExists(atPath: directory + "/missing.txt"))
            }
        }
    }
}

/// Reads a FIFO to its end on a thread of its own.
final class FIFOReader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var bytes = Data()

    init(_ path: String) {
        let thread = Thread { [self] in
            if let handle = FileHandle(forReadingAtPath: path) {
                bytes = handle.readDataToEndOfFile()
                try? handle.close()
            }
            done.signal()
        }
        thread.start()
    }

    /// What was read, once the writer has closed the FIFO (at most 60 s).
    func wait() -> Data {
        _ = done.wait(timeout: .now() + 60)
        return bytes
    }
}
