import Foundation
import MediaBytes
import MediaMetadata
import TestSupport
import Testing

/// `tagedit` killed (SIGKILL, no chance to clean up) at spread points during a full rewrite of
/// a large file: the file is always the original, untouched, or the complete verified result;
/// the only thing ever left beside it is a clearly named `.NAME.XXXXXX.partial` file.
@Suite struct KilledSaveTests {
    /// A 48 MiB MP4: a small fixture with its movie before the media, followed by a large
    /// top-level `free` atom (sparse, so it costs no disk to make; a rewrite copies it whole).
    static func makeLargeFile(in directory: String, from fixture: String = "moov-before-mdat.m4a") throws -> String {
        let path = directory + "/large.m4a"
        var bytes = try TemporaryFile.read(TestFixtures.path(fixture))
        let freeSize = 48 << 20
        bytes += [UInt8(freeSize >> 24 & 0xFF), UInt8(freeSize >> 16 & 0xFF), UInt8(freeSize >> 8 & 0xFF), UInt8(freeSize & 0xFF)] + Array("free".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(truncate(path, off_t(bytes.count - 8 + freeSize)) == 0)
        return path
    }

    static func identity(_ path: String) -> (inode: UInt64, size: Int64, modified: Int)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (UInt64(info.st_ino), Int64(info.st_size), info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec)
    }

    static let title = String(repeating: "A title too long for the padding, so the whole file is written anew. ", count: 100)

    func startTagedit(_ path: String, title: String = Self.title) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ToolRunner.productsDirectory + "/tagedit")
        process.arguments = ["set", path, "TITLE=\(title)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test func aKilledRewriteLeavesTheOriginalOrTheWholeResult() async throws {
        let directory = try TemporaryFile.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }

        // One run to the end: how long a full rewrite takes, and the file it makes.
        let reference = try Self.makeLargeFile(in: directory)
        let started = Date()
        let complete = try startTagedit(reference)
        complete.waitUntilExit()
        let duration = Date().timeIntervalSince(started)
        #expect(complete.terminationStatus == 0)
        let expectedSize = try #require(Self.identity(reference)).size
        #expect(try MediaFile(path: reference).tags["TITLE"] == [Self.title])
        try FileManager.default.removeItem(atPath: reference)

        var outcomes: [String: Int] = [:]
        for step in 0..<12 {
            let path = try Self.makeLargeFile(in: directory)
            let before = try #require(Self.identity(path))
            let head = Array(try TemporaryFile.read(path).prefix(64 << 10))
            let process = try startTagedit(path)
            // Spread the kills over the whole run, from start-up to the rename.
            usleep(useconds_t(duration * Double(step) / 12 * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let killed = process.terminationReason == .uncaughtSignal

            let after = try #require(Self.identity(path), "the file is gone after a kill at step \(step)")
            if after.inode == before.inode {
                // Not replaced: untouched (a rewrite never writes into the original).
                #expect(after.size == before.size && after.modified == before.modified, "kill at step \(step): the original was modified")
                #expect(Array(try TemporaryFile.read(path).prefix(64 << 10)) == head)
                outcomes[killed ? "killed, original kept" : "finished", default: 0] += 1
            } else {
                // Replaced: by the complete, verified result only.
                #expect(after.size == expectedSize, "kill at step \(step): the replacement is \(after.size) bytes, not \(expectedSize)")
                #expect(try MediaFile(path: path).tags["TITLE"] == [Self.title])
                outcomes[killed ? "killed after the rename" : "finished", default: 0] += 1
            }
            for name in try FileManager.default.contentsOfDirectory(atPath: directory) where name != "large.m4a" {
                #expect(name.hasPrefix(".large.m4a.") && name.hasSuffix(".partial"), "kill at step \(step) left \(name)")
                try FileManager.default.removeItem(atPath: directory + "/" + name)
            }
            try FileManager.default.removeItem(atPath: path)
        }
        // The kills did land during runs (the run is long enough to be interrupted).
        #expect(outcomes["killed, original kept", default: 0] > 0, "\(outcomes)")
    }

    /// The same for an edit that fits the padding: written in place as one `pwrite` of the
    /// changed span, so a kill leaves the old bytes or the new ones, never a mix.
    @Test func aKilledInPlaceEditLeavesTheOriginalOrTheWholeResult() async throws {
        let directory = try TemporaryFile.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fixture = "aac-itunes-tags-cover.m4a"
        let reference = try Self.makeLargeFile(in: directory, from: fixture)
        let original = Array(try TemporaryFile.read(reference).prefix(64 << 10))
        let started = Date()
        let complete = try startTagedit(reference, title: "Short")
        complete.waitUntilExit()
        let duration = Date().timeIntervalSince(started)
        #expect(complete.terminationStatus == 0)
        let expected = Array(try TemporaryFile.read(reference).prefix(64 << 10))
        #expect(expected != original)
        let size = try #require(Self.identity(reference)).size
        try FileManager.default.removeItem(atPath: reference)

        for step in 0..<12 {
            let path = try Self.makeLargeFile(in: directory, from: fixture)
            let process = try startTagedit(path, title: "Short")
            usleep(useconds_t(duration * Double(step) / 12 * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let head = Array(try TemporaryFile.read(path).prefix(64 << 10))
            #expect(head == original || head == expected, "kill at step \(step) left a mix of old and new bytes")
            #expect(Self.identity(path)?.size == size)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["large.m4a"])
            try FileManager.default.removeItem(atPath: path)
        }
    }
}
