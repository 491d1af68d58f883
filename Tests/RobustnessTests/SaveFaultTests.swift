import Foundation
import MediaBytes
import MediaMetadata
import TestSupport
import Testing

/// Saves under faults: every file-system step of every kind of save made to fail, once (EIO)
/// and from then on (ENOSPC, a disk that stays full); files that change between reading and
/// writing. In every case the file is left as it was or completely replaced by the verified
/// new file, and nothing else is left beside it.
@Suite struct SaveFaultTests {
    /// An edit of a fixture, and the way its save writes (checked, so a change in the planner
    /// cannot quietly drop a strategy from these tests).
    struct Scenario: CustomTestStringConvertible, Sendable {
        var fixture: String
        var method: SaveMethod
        var title: String
        /// False: the caller asked for a rewrite even though the change fits (`--rewrite`).
        var allowInPlace = true
        var testDescription: String { "\(fixture) (\(method)\(allowInPlace ? "" : ", asked for"))" }
    }

    static let longTitle = String(repeating: "A long title that does not fit the padding. ", count: 200)

    static let scenarios: [Scenario] = [
        Scenario(fixture: "aac-itunes-tags-cover.m4a", method: .inPlace, title: "Short"),
        Scenario(fixture: "aac-itunes-tags-cover.m4a", method: .rewrite, title: longTitle),
        Scenario(fixture: "moov-after-mdat.m4a", method: .movieAtEnd, title: longTitle),
        Scenario(fixture: "id3v24-full.mp3", method: .inPlace, title: "Short"),
        Scenario(fixture: "id3v24-full.mp3", method: .rewrite, title: longTitle),
        Scenario(fixture: "id3v1-only.mp3", method: .rewrite, title: "Short"),
        // Two leading tags and junk before the audio: the one tag written takes the place of
        // both (their frames merged), in place when it fits their space.
        Scenario(fixture: "two-leading-tags-junk.mp3", method: .inPlace, title: "Short"),
        Scenario(fixture: "two-leading-tags-junk.mp3", method: .rewrite, title: longTitle),
        Scenario(fixture: "wav-id3-info.wav", method: .inPlace, title: "Short"),
        Scenario(fixture: "aiff-id3.aiff", method: .rewrite, title: longTitle),
        Scenario(fixture: "aac-itunes-tags-cover.m4a", method: .rewrite, title: "Short", allowInPlace: false),
        Scenario(fixture: "id3v24-full.mp3", method: .rewrite, title: "Short", allowInPlace: false),
        Scenario(fixture: "wav-id3-info.wav", method: .rewrite, title: "Short", allowInPlace: false),
        Scenario(fixture: "flac-tags-picture.flac", method: .inPlace, title: "Short"),
        Scenario(fixture: "flac-tags-picture.flac", method: .rewrite, title: longTitle),
        Scenario(fixture: "flac-id3-leading.flac", method: .rewrite, title: "Short", allowInPlace: false),
        Scenario(fixture: "opus-tags-picture.opus", method: .inPlace, title: "Short"),
        Scenario(fixture: "ogg-vorbis-tags.ogg", method: .rewrite, title: longTitle),
        // A title past one page's 65,025 bytes: the header takes another page, and every later
        // page of the stream is renumbered and sealed with a new CRC.
        Scenario(fixture: "speex.spx", method: .rewrite, title: String(repeating: longTitle, count: 8)),
    ]

    /// A fresh copy of the fixture, alone in a new directory.
    static func copy(_ fixture: String) throws -> (directory: String, path: String) {
        let path = try TemporaryFile.write(try TemporaryFile.read(TestFixtures.path(fixture)), name: fixture)
        return ((path as NSString).deletingLastPathComponent, path)
    }

    /// Opens `path`, sets the title, and saves under `injector` (nil: no faults).
    static func edit(_ path: String, _ scenario: Scenario, injector: FileFaultInjector?) throws -> SavePlan {
        var file = try MediaFile(path: path)
        try file.set("TITLE", [scenario.title])
        return try FileFaultInjector.$current.withValue(injector) { try file.save(MediaFile.SaveOptions(allowInPlace: scenario.allowInPlace)) }
    }

    @Test(arguments: scenarios)
    func failureAtAnyStepLeavesTheOriginalOrTheVerifiedResult(_ scenario: Scenario) throws {
        let original = try TemporaryFile.read(TestFixtures.path(scenario.fixture))
        // The save without faults: its steps, and the file it makes.
        let clean = try Self.copy(scenario.fixture)
        defer { try? FileManager.default.removeItem(atPath: clean.directory) }
        let recorder = FileFaultInjector()
        let result = try Self.edit(clean.path, scenario, injector: recorder)
        #expect(result.method == scenario.method)
        let expected = try TemporaryFile.read(clean.path)
        #expect(expected != original)
        let steps = recorder.operations
        #expect(steps.count >= 3, "a save takes several file-system steps: \(steps)")

        for index in steps.indices {
            for (error, persistent) in [(EIO, false), (ENOSPC, true)] {
                let run = try Self.copy(scenario.fixture)
                defer { try? FileManager.default.removeItem(atPath: run.directory) }
                let injector = FileFaultInjector(failingAt: index, error: error, persistent: persistent)
                let context = "step \(index) (\(steps[index].rawValue)) failing with \(String(cString: strerror(error)))\(persistent ? " from then on" : " once")"
                var failed: MetadataError?
                do { _ = try Self.edit(run.path, scenario, injector: injector) } catch let error as MetadataError { failed = error }
                let after = try TemporaryFile.read(run.path)
                let journal = "." + scenario.fixture + ".save-journal"
                var left = try FileManager.default.contentsOfDirectory(atPath: run.directory)
                if let failed {
                    #expect(failed.code == .io, "\(context): \(failed)")
                    if persistent && scenario.method != .rewrite {
                        // The old bytes could not be written back either: an in-place write is
                        // one write call here, so the file holds either version whole, and the
                        // journal stays for the next open.
                        #expect(after == original || after == expected, "\(context): the file is neither the original nor the result")
                        #expect(left == [scenario.fixture] || left.sorted() == [journal, scenario.fixture].sorted(), "\(context): left behind \(left)")
                    } else {
                        #expect(after == original, "\(context): the original changed")
                        #expect(left == [scenario.fixture], "\(context): left behind \(left)")
                    }
                } else {
                    // Survivable: a failed read of the unchanged bytes between two ranges (they
                    // are then written as two ranges), and a journal that could not be removed
                    // after the verified save (the next open finds the file complete).
                    #expect((steps[index] == .readBack && !persistent) || steps[index] == .removeJournal, "\(context): the save succeeded")
                    #expect(after == expected, "\(context): the save reported success but the file is not the result")
                }
                // The next open settles whatever the save left: the file is either version,
                // and nothing is left beside it.
                _ = try MediaFile(path: run.path)
                let settled = try TemporaryFile.read(run.path)
                #expect(settled == original || settled == expected, "\(context): after the next open the file is neither version")
                if failed == nil { #expect(settled == expected, "\(context): the next open undid a save that succeeded") }
                left = try FileManager.default.contentsOfDirectory(atPath: run.directory)
                #expect(left == [scenario.fixture], "\(context): after the next open, left behind \(left)")
            }
        }
    }

    /// A kill at any instant of any save: `FileFaultInjector(crashingAt:)` stops the save at
    /// each of its steps as a kill would (a write there half done, nothing undone or removed
    /// after it). Whatever it leaves, the next open makes the file, byte for byte, the original
    /// or the verified result, and leaves nothing beside it but a rewrite's `.partial` file.
    @Test(arguments: scenarios)
    func aCrashAtAnyStepIsSettledByTheNextOpen(_ scenario: Scenario) throws {
        let original = try TemporaryFile.read(TestFixtures.path(scenario.fixture))
        let clean = try Self.copy(scenario.fixture)
        defer { try? FileManager.default.removeItem(atPath: clean.directory) }
        let recorder = FileFaultInjector()
        _ = try Self.edit(clean.path, scenario, injector: recorder)
        let expected = try TemporaryFile.read(clean.path)
        var outcomes: Set<String> = []
        for index in recorder.operations.indices {
            let run = try Self.copy(scenario.fixture)
            defer { try? FileManager.default.removeItem(atPath: run.directory) }
            let context = "crash at step \(index) (\(recorder.operations[index].rawValue))"
            let injector = FileFaultInjector(crashingAt: index)
            if recorder.operations[index] == .removeJournal {
                // The last step: a crash there comes after the verified save has returned.
                _ = try Self.edit(run.path, scenario, injector: injector)
            } else {
                #expect(throws: (any Error).self, "\(context)") { _ = try Self.edit(run.path, scenario, injector: injector) }
            }
            let torn = try TemporaryFile.read(run.path)
            _ = try MediaFile(path: run.path)
            let settled = try TemporaryFile.read(run.path)
            #expect(settled == original || settled == expected, "\(context): after the next open the file is neither version")
            outcomes.insert(settled == original ? (torn == original ? "untouched" : "rolled back") : "complete")
            let left = try FileManager.default.contentsOfDirectory(atPath: run.directory).filter { $0 != scenario.fixture }
            #expect(left.allSatisfy { $0.hasPrefix("." + scenario.fixture + ".") && $0.hasSuffix(".partial") }, "\(context): left behind \(left)")
        }
        if scenario.method != .rewrite {
            // The crashes did tear the file, and the open did put it back.
            #expect(outcomes.contains("rolled back"), "\(outcomes)")
        }
    }

    @Test func everyFamilyAndStrategyIsCovered() {
        let covered = Set(Self.scenarios.map { "\(($0.fixture as NSString).pathExtension) \($0.method)" })
        #expect(covered.isSuperset(of: ["m4a in-place", "m4a rewrite", "m4a movie-at-end", "mp3 in-place", "mp3 rewrite", "wav in-place", "aiff rewrite"]))
    }

    // MARK: - Files that change under the editor

    enum Change: String, CaseIterable, Sendable {
        case appended, rewrittenSameSize, replaced
    }

    static func change(_ path: String, _ change: Change) throws {
        var bytes = try TemporaryFile.read(path)
        switch change {
        case .appended:
            let handle = try #require(FileHandle(forWritingAtPath: path))
            handle.seekToEndOfFile()
            handle.write(Data([1, 2, 3, 4]))
            try handle.close()
        case .rewrittenSameSize:
            // Same size, other bytes, later modification time.
            bytes[bytes.count - 1] ^= 0xFF
            usleep(10_000)
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.write(contentsOf: Data(bytes))
            try handle.close()
        case .replaced:
            // Another program's save: a new file renamed over the path.
            let other = path + ".other"
            try Data(bytes).write(to: URL(fileURLWithPath: other))
            #expect(rename(other, path) == 0)
        }
    }

    @Test(arguments: ["aac-itunes-tags-cover.m4a", "moov-before-mdat.m4a", "id3v24-full.mp3", "no-tags.mp3", "wav-id3-info.wav", "aiff-id3.aiff"], Change.allCases)
    func aFileChangedSinceItWasReadIsNotWritten(_ fixture: String, _ change: Change) throws {
        for title in ["Short", Self.longTitle] {
            let run = try Self.copy(fixture)
            defer { try? FileManager.default.removeItem(atPath: run.directory) }
            var file = try MediaFile(path: run.path)
            try file.set("TITLE", [title])
            try Self.change(run.path, change)
            let changed = try TemporaryFile.read(run.path)
            let error = #expect(throws: MetadataError.self) { try file.save() }
            #expect(error?.code == .io)
            #expect(error?.description.contains("since it was read") == true, "\(error.map(String.init(describing:)) ?? "")")
            #expect(try TemporaryFile.read(run.path) == changed, "the other program's version was overwritten")
            #expect(try FileManager.default.contentsOfDirectory(atPath: run.directory) == [fixture])
        }
    }

    // MARK: - Real full and read-only file systems

    /// Runs `body` with a fresh tmpfs of `kilobytes` mounted on a new directory (CI runs as
    /// root, which may mount), unmounting it afterwards.
    static func withTmpfs(kilobytes: Int, _ body: (String) throws -> Void) throws {
        let directory = try TemporaryFile.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        guard mount("tmpfs", directory, "tmpfs", 0, "size=\(kilobytes)k,mode=0755") == 0 else {
            Issue.record("mounting a tmpfs failed (\(String(cString: strerror(errno)))): these tests need root, as CI has")
            return
        }
        defer { umount2(directory, Int32(MNT_DETACH)) }
        try body(directory)
    }

    /// Fills the file system holding `directory` until a write fails with ENOSPC.
    static func fill(_ directory: String) {
        let fd = open(directory + "/filler", O_WRONLY | O_CREAT, 0o644)
        defer { close(fd) }
        let block = [UInt8](repeating: 0xA5, count: 4096)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        #expect(errno == ENOSPC)
    }

    @Test func aFullDiskFailsTheSaveAndKeepsTheOriginal() throws {
        try Self.withTmpfs(kilobytes: 256) { mountPoint in
            var originals: [String: [UInt8]] = [:]
            for fixture in ["aac-itunes-tags-cover.m4a", "moov-after-mdat.m4a", "id3v24-full.mp3", "aiff-id3.aiff"] {
                let bytes = try TemporaryFile.read(TestFixtures.path(fixture))
                try Data(bytes).write(to: URL(fileURLWithPath: mountPoint + "/" + fixture))
                originals[fixture] = bytes
            }
            Self.fill(mountPoint)
            // Changes that need more space fail with the system's reason, leaving each file whole.
            for (fixture, method) in [(String, SaveMethod)]([("aac-itunes-tags-cover.m4a", .rewrite), ("moov-after-mdat.m4a", .movieAtEnd), ("id3v24-full.mp3", .rewrite), ("aiff-id3.aiff", .rewrite)]) {
                var file = try MediaFile(path: mountPoint + "/" + fixture)
                try file.set("TITLE", [Self.longTitle])
                #expect(try file.save(MediaFile.SaveOptions(dryRun: true)).method == method)
                let error = #expect(throws: MetadataError.self, "\(fixture)") { try file.save() }
                #expect(error?.code == .io)
                #expect(error?.description.contains("No space left on device") == true, "\(error.map(String.init(describing:)) ?? "")")
                #expect(try TemporaryFile.read(mountPoint + "/" + fixture) == originals[fixture], "\(fixture) changed")
            }
            // A change that fits the padding is written in place, but only after its journal
            // (the old and new bytes, to undo a crash) is on disk: with no space for that, the
            // save fails before the file is touched.
            var file = try MediaFile(path: mountPoint + "/aac-itunes-tags-cover.m4a")
            try file.set("TITLE", ["Short"])
            #expect(try file.save(MediaFile.SaveOptions(dryRun: true)).method == .inPlace)
            let error = #expect(throws: MetadataError.self) { try file.save() }
            #expect(error?.description.contains("save-journal: write failed: No space left on device") == true, "\(error.map(String.init(describing:)) ?? "")")
            #expect(try TemporaryFile.read(mountPoint + "/aac-itunes-tags-cover.m4a") == originals["aac-itunes-tags-cover.m4a"])
            // Once there is room for the journal, it is written in place.
            try FileManager.default.removeItem(atPath: mountPoint + "/filler")
            #expect(try file.save().method == .inPlace)
            #expect(try MediaFile(path: mountPoint + "/aac-itunes-tags-cover.m4a").tags["TITLE"] == ["Short"])
            let left = try FileManager.default.contentsOfDirectory(atPath: mountPoint).sorted()
            #expect(left == ["aac-itunes-tags-cover.m4a", "aiff-id3.aiff", "id3v24-full.mp3", "moov-after-mdat.m4a"])
        }
    }

    @Test func aReadOnlyFileSystemRefusesTheSaveAndKeepsTheOriginal() throws {
        try Self.withTmpfs(kilobytes: 256) { mountPoint in
            let fixtures = ["aac-itunes-tags-cover.m4a", "id3v24-full.mp3", "wav-id3-info.wav"]
            for fixture in fixtures {
                try Data(try TemporaryFile.read(TestFixtures.path(fixture))).write(to: URL(fileURLWithPath: mountPoint + "/" + fixture))
            }
            #expect(mount("tmpfs", mountPoint, "tmpfs", UInt(MS_REMOUNT | MS_RDONLY), nil) == 0, "remount read-only: \(String(cString: strerror(errno)))")
            for fixture in fixtures {
                for title in ["Short", Self.longTitle] {
                    let path = mountPoint + "/" + fixture
                    var file = try MediaFile(path: path)
                    try file.set("TITLE", [title])
                    let error = #expect(throws: MetadataError.self, "\(fixture)") { try file.save() }
                    #expect(error?.code == .io || error?.code == .permissionDenied, "\(error.map(String.init(describing:)) ?? "")")
                    #expect(try TemporaryFile.read(path) == TemporaryFile.read(TestFixtures.path(fixture)))
                }
            }
        }
    }
}
