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
            // The next open settles a save cut short (its journal beside the file).
            #expect(try await ToolRunner.run("tagedit", ["show", path]).status == 0)
            let head = Array(try TemporaryFile.read(path).prefix(64 << 10))
            #expect(head == original || head == expected, "kill at step \(step) left a mix of old and new bytes")
            #expect(Self.identity(path)?.size == size)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["large.m4a"])
            try FileManager.default.removeItem(atPath: path)
        }
    }

    /// Where the first top-level atom of `type` starts in `bytes`.
    static func topLevelOffset(of type: String, in bytes: [UInt8]) -> Int? {
        var offset = 0
        while offset + 8 <= bytes.count {
            let size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self) == type { return offset }
            guard size >= 8 else { return nil }
            offset += size
        }
        return nil
    }

    /// An image of `count` bytes that reads as a JPEG: its markers around bytes that vary.
    static func image(_ count: Int, seed: UInt8) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xE0] + (0..<count - 6).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 11) ^ seed } + [0xFF, 0xD9]
    }

    /// The case: a 14.6 MB cover replaced by another of the same size is one write of
    /// 14.6 MB in place. Kills spread over the run; after the next open, the file is byte for
    /// byte the original or the result (a kill inside the write used to leave the first part of
    /// the new cover followed by the old one, and `check` said ok).
    @Test func aKilledInPlaceCoverReplacementIsSettledToEitherVersion() async throws {
        let directory = try TemporaryFile.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try TemporaryFile.write(Self.image(14_600_000, seed: 1), name: "first.jpg")
        let second = try TemporaryFile.write(Self.image(14_600_000, seed: 2), name: "second.jpg")
        let source = directory + "/source.m4a"
        try Data(try TemporaryFile.read(TestFixtures.path("moov-before-mdat.m4a"))).write(to: URL(fileURLWithPath: source))
        #expect(try await ToolRunner.run("tagedit", ["picture", "add", source, "--image", first]).status == 0)
        let original = try TemporaryFile.read(source)
        let arguments = { (path: String) in ["picture", "add", path, "--image", second, "--replace"] }
        let plan = try await ToolRunner.run("tagedit", arguments(source) + ["--dry-run"])
        #expect(plan.standardOutput.contains("in-place (") && plan.standardOutput.contains("written in 1 range"), "\(plan.standardOutput)")

        let reference = directory + "/reference.m4a"
        try Data(original).write(to: URL(fileURLWithPath: reference))
        let started = Date()
        #expect(try await ToolRunner.run("tagedit", arguments(reference)).status == 0)
        let duration = Date().timeIntervalSince(started)
        let expected = try TemporaryFile.read(reference)
        #expect(expected != original)

        var outcomes: [String: Int] = [:]
        let path = directory + "/large.m4a"
        for step in 0..<10 {
            try Data(original).write(to: URL(fileURLWithPath: path))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: ToolRunner.productsDirectory + "/tagedit")
            process.arguments = arguments(path)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Most of a run is reading and planning; the kills crowd towards its end, where the
            // journal and the file are written.
            let fraction: Double = 0.5 + 0.5 * Double(step) / 10
            usleep(useconds_t(duration * fraction * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let journal = FileManager.default.fileExists(atPath: directory + "/.large.m4a.save-journal")
            let torn = try TemporaryFile.read(path)
            #expect(try await ToolRunner.run("tagedit", ["show", path]).status == 0)
            let settled = try TemporaryFile.read(path)
            #expect(settled == original || settled == expected, "kill at step \(step): the file is neither version after the next open")
            let outcome = settled == expected ? "result" : torn == original ? (journal ? "killed with its journal written" : "original") : "torn, put back"
            outcomes[outcome, default: 0] += 1
            let left = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            #expect(left == ["large.m4a", "reference.m4a", "source.m4a"], "kill at step \(step) left \(left)")
        }
        print("in-place cover replacement, kills: \(outcomes)")
    }

    /// A movie written at the end of the file, stopped by the file-size limit (`ulimit -f`,
    /// SIGXFSZ) in the middle of the write that extends the file: the `moov` header then claims
    /// more bytes than the file has. The next open of the file, by either tool, puts the old
    /// bytes and length back.
    @Test func aMovieAtTheEndCutByTheFileSizeLimitIsUndoneByTheNextOpen() async throws {
        let directory = try TemporaryFile.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The fixture (ftyp, mdat, moov) with its mdat grown by 32 MiB of zeros after the
        // media, so that the journal (old and new movie, 3 MB) fits under the limit and the
        // file's own extension is what the limit cuts.
        let path = directory + "/book.m4a"
        var original = try TemporaryFile.read(TestFixtures.path("moov-after-mdat.m4a"))
        let mdatAt = try #require(Self.topLevelOffset(of: "mdat", in: original))
        let mdatSize = original[mdatAt..<mdatAt + 4].reduce(0) { $0 << 8 | Int($1) }
        let grown = mdatSize + 32 << 20
        original.replaceSubrange(mdatAt..<mdatAt + 4, with: [UInt8(grown >> 24), UInt8(grown >> 16 & 0xFF), UInt8(grown >> 8 & 0xFF), UInt8(grown & 0xFF)])
        original.insert(contentsOf: [UInt8](repeating: 0, count: 32 << 20), at: mdatAt + mdatSize)
        try Data(original).write(to: URL(fileURLWithPath: path))
        let image = try TemporaryFile.write(Self.image(3_000_000, seed: 5), name: "cover.jpg")
        let plan = try await ToolRunner.run("tagedit", ["picture", "add", path, "--image", image, "--dry-run"])
        #expect(plan.standardOutput.contains("movie-at-end"), "\(plan.standardOutput)")
        // The limit half-way through the new movie, in the 512-byte blocks of POSIX `ulimit -f`.
        let limit = (original.count + 1_500_000) / 512
        let tagedit = ToolRunner.productsDirectory + "/tagedit"
        let cut = try await ToolRunner.runProgram("/bin/sh", ["-c", "ulimit -f \(limit) && exec \"$0\" picture add \"$1\" --image \"$2\"", tagedit, path, image])
        #expect(cut.status == 128 + SIGXFSZ, "\(cut.status) \(cut.standardError)")
        let torn = try TemporaryFile.read(path)
        #expect(torn.count > original.count && torn.count == limit * 512, "the write was not cut: \(torn.count) bytes")
        #expect(FileManager.default.fileExists(atPath: directory + "/.book.m4a.save-journal"))

        let check = try await ToolRunner.run("atominspect", ["check", path])
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
        #expect(try TemporaryFile.read(path) == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["book.m4a"])
        if OtherReaders.hasFFprobe || OtherReaders.isRequired {
            #expect(try await OtherReaders.ffprobeStreams(path).count == 1)
        }
        // And the save goes through once the limit is lifted.
        #expect(try await ToolRunner.run("tagedit", ["picture", "add", path, "--image", image]).status == 0)
        #expect(try await ToolRunner.run("atominspect", ["check", path]).status == 0)
    }
}
