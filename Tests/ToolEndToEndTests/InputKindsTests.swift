import Foundation
import TestSupport
import Testing

/// Every command that reads a media file, given a FIFO that no program writes to or a device
/// where the file should be: it says promptly that this is not a regular file (exit 67), and
/// leaves it as it was.
///
/// Before 2026-11-30 opening such a FIFO waited for a writer forever (`show`, `get`, `set`,
/// `atominspect check` all hung): the check of the file's kind came after the open.
@Suite struct InputKindsTests {
    static let commands: [[String]] = [
        ["tagedit", "show", "IN"],
        ["tagedit", "get", "IN", "TITLE"],
        ["tagedit", "set", "IN", "TITLE=x"],
        ["tagedit", "export", "IN"],
        ["tagedit", "chapters", "list", "IN"],
        ["tagedit", "picture", "extract", "IN", "--output", "FOLDER"],
        ["atominspect", "IN"],
        ["atominspect", "check", "IN"],
    ]

    /// Runs `command` with `input` in place of `IN` and `folder` in place of `FOLDER`, killed
    /// after 20 seconds.
    static func run(_ command: [String], _ input: String, folder: String) async throws -> ToolRunner.Result {
        let arguments = command.dropFirst().map { $0 == "IN" ? input : $0 == "FOLDER" ? folder : $0 }
        return try await ToolRunner.runProgram(ToolRunner.productsDirectory + "/" + command[0], Array(arguments), timeout: 20)
    }

    @Test(arguments: commands)
    func aFIFOWithoutAWriterIsRefusedPromptly(_ command: [String]) async throws {
        let directory = try TemporaryFile.makeDirectory()
        let fifo = directory + "/stream.mp3"
        #expect(mkfifo(fifo, 0o644) == 0)
        let started = Date()
        let result = try await Self.run(command, fifo, folder: directory)
        #expect(Date().timeIntervalSince(started) < 10, "waited for a writer")
        #expect(result.status == 67, "\(result.standardError)")
        #expect(result.standardError.contains(fifo) && result.standardError.contains("not a regular file"), "\(result.standardError)")
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the FIFO was replaced")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["stream.mp3"])
    }

    @Test(arguments: commands)
    func aDeviceIsRefused(_ command: [String]) async throws {
        let directory = try TemporaryFile.makeDirectory()
        let result = try await Self.run(command, "/dev/null", folder: directory)
        #expect(result.status == 67, "\(result.standardError)")
        #expect(result.standardError.contains("/dev/null") && result.standardError.contains("not a regular file"), "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }
}
