import Foundation
import MediaBytes
import TestSupport
import Testing

/// A batch of rewrites (`tagedit set -r` making every file grow) pays one flush per file and
/// one per folder, not two per file (`FolderFlush`), and a batch killed at any moment leaves
/// every file its old bytes or the whole new file.
@Suite struct BatchDurabilityTests {
    static let comment = "COMMENT=" + String(repeating: "A comment too long for the padding. ", count: 90)

    /// `count` copies of an MP3 with ID3 frames and two pictures, in `folders` subfolders.
    static func makeLibrary(_ count: Int, folders: [String]) throws -> (root: String, files: [String]) {
        let root = try TemporaryFile.makeDirectory()
        let bytes = try TemporaryFile.read(TestFixtures.path("id3v24-full.mp3"))
        var files: [String] = []
        for index in 0..<count {
            let folder = root + "/" + folders[index % folders.count]
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let path = folder + "/song\(index).mp3"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            files.append(path)
        }
        return (root, files)
    }

    @Test func aBatchOfRewritesFlushesEachFileAndEachFolderOnce() throws {
        let (root, files) = try Self.makeLibrary(20, folders: ["a", "b"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let log = root + "/strace.log"
        let run = try ChildProcess.run("/usr/bin/strace", ["-f", "-e", "trace=fsync,fdatasync", "-e", "signal=none", "-o", log,
                                                           ToolRunner.productsDirectory + "/tagedit", "set", "-r", "-v", root, Self.comment])
        #expect(run.status == 0, "\(String(decoding: run.standardError, as: UTF8.self))")
        let written = String(decoding: run.standardOutput, as: UTF8.self)
        #expect(written.components(separatedBy: "written: rewrite").count - 1 == files.count, "\(written)")
        let flushes = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").filter { $0.contains("fsync(") && !$0.contains("resumed") }
        // One flush of each new file (before its rename), one of each folder (at the end).
        #expect(flushes.count == files.count + 2, "\(flushes.count) flushes:\n\(flushes.joined(separator: "\n"))")
        // With --backup, each backup is on disk, its folder's entry too, before its file is
        // written: one more flush of the backup and one of its folder for each file.
        let backups = root + "/backups"
        let backed = try ChildProcess.run("/usr/bin/strace", ["-f", "-y", "-e", "trace=fsync", "-e", "signal=none", "-o", log,
                                                              ToolRunner.productsDirectory + "/tagedit", "set", "-r", "--backup", backups, root + "/a", "COMMENT=y"])
        #expect(backed.status == 0, "\(String(decoding: backed.standardError, as: UTF8.self))")
        let folderFlushes = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").filter { $0.contains("fsync(") && $0.contains("/backups>") }
        // Once for each backup as it is written, and once more as the batch ends (the batch's
        // own flush of every folder a rename was made in).
        #expect(folderFlushes.count == files.count / 2 + 1, "\(folderFlushes.count) flushes of the backup folder for \(files.count / 2) files")
        // A single file alone still flushes its folder at once.
        let single = try ChildProcess.run("/usr/bin/strace", ["-f", "-e", "trace=fsync", "-e", "signal=none", "-o", log,
                                                              ToolRunner.productsDirectory + "/tagedit", "set", files[0], "COMMENT=x"])
        #expect(single.status == 0)
        #expect(try String(contentsOfFile: log, encoding: .utf8).components(separatedBy: "fsync(").count - 1 >= 1)
    }

    /// Killed (SIGKILL) at spread points of a batch of 60 rewrites: each file is byte for byte
    /// the original or the result a finished run makes of it, and only `.partial` files are
    /// ever left beside them.
    @Test func aKilledBatchLeavesEveryFileOldOrNew() async throws {
        let (referenceRoot, referenceFiles) = try Self.makeLibrary(60, folders: ["x"])
        defer { try? FileManager.default.removeItem(atPath: referenceRoot) }
        let original = try TemporaryFile.read(referenceFiles[0])
        let started = Date()
        let complete = try ChildProcess.run(ToolRunner.productsDirectory + "/tagedit", ["set", "-r", referenceRoot, Self.comment])
        let duration = Date().timeIntervalSince(started)
        #expect(complete.status == 0)
        let result = try TemporaryFile.read(referenceFiles[0])
        #expect(result != original)
        #expect(try referenceFiles.allSatisfy { try TemporaryFile.read($0) == result }, "every copy is rewritten alike")

        var outcomes: [String: Int] = [:]
        for step in 0..<8 {
            let (root, files) = try Self.makeLibrary(60, folders: ["x"])
            defer { try? FileManager.default.removeItem(atPath: root) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: ToolRunner.productsDirectory + "/tagedit")
            process.arguments = ["set", "-r", root, Self.comment]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(useconds_t(duration * Double(step + 1) / 9 * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            for path in files {
                let bytes = try TemporaryFile.read(path)
                #expect(bytes == original || bytes == result, "kill at step \(step): \(path) is neither the original nor the result")
                outcomes[bytes == original ? "old" : "new", default: 0] += 1
            }
            for name in try FileManager.default.contentsOfDirectory(atPath: root + "/x") where !files.contains(root + "/x/" + name) {
                #expect(name.hasPrefix(".song") && name.hasSuffix(".partial"), "kill at step \(step) left \(name)")
            }
        }
        // The kills landed mid-batch: some files were old and some new after the same kill.
        #expect(outcomes["old", default: 0] > 0 && outcomes["new", default: 0] > 0, "\(outcomes)")
    }
}
