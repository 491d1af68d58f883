import Foundation
@testable import MediaBytes
import TestSupport
import Testing

/// The journal of an in-place save and how the next open settles a save cut short: every
/// state a kill can leave is put back to the original or kept as the whole result, and a file
/// changed since by someone else is left alone with a message.
@Suite struct SaveJournalTests {
    static func pattern(_ count: Int, seed: UInt8 = 0) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 9) &+ seed }
    }

    @Test func crc32MatchesTheStandardCheckValues() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
        #expect(CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
        // Eight bytes a step and one at a time agree at every length and split.
        let bytes = Self.pattern(300)
        for count in [0, 1, 7, 8, 9, 63, 64, 65, 300] {
            var bytewise: UInt32 = 0xFFFF_FFFF
            for byte in bytes.prefix(count) {
                bytewise ^= UInt32(byte)
                for _ in 0..<8 { bytewise = bytewise & 1 != 0 ? 0xEDB8_8320 ^ (bytewise >> 1) : bytewise >> 1 }
            }
            var split = CRC32()
            split.update(bytes.prefix(count / 3))
            split.update(bytes.prefix(count).dropFirst(count / 3))
            #expect(CRC32.checksum(bytes.prefix(count)) == ~bytewise, "\(count) bytes")
            #expect(split.value == ~bytewise, "\(count) bytes in two parts")
        }
    }

    @Test func aJournalReadsBackAndACutOrDamagedOneDoesNot() {
        let journal = SaveJournal(device: 3, inode: 77, oldSize: 1000, newSize: 1200, ranges: [
            SaveJournal.Range(offset: 10, old: [1, 2, 3], new: [4, 5, 6]),
            SaveJournal.Range(offset: 990, old: Array(repeating: 9, count: 10), new: Array(repeating: 8, count: 210)),
        ])
        let bytes = journal.encoded()
        #expect(SaveJournal(decoding: bytes) == journal)
        for cut in [0, 8, 47, bytes.count / 2, bytes.count - 1] {
            #expect(SaveJournal(decoding: Array(bytes.prefix(cut))) == nil, "cut to \(cut) bytes")
        }
        for position in [0, 9, 60, bytes.count - 2] {
            var damaged = bytes
            damaged[position] ^= 0x20
            #expect(SaveJournal(decoding: damaged) == nil, "byte \(position) flipped")
        }
        #expect(SaveJournal.path(for: "/music/a b.mp3") == "/music/.a b.mp3.save-journal")
        #expect(SaveJournal.path(for: "song.m4a") == ".song.m4a.save-journal")
    }

    /// A file of `size` bytes, its identity, and the journal of a save writing `ranges` and
    /// setting its length to `newSize`.
    static func prepared(size: Int, ranges: [(offset: Int, bytes: [UInt8])], newSize: Int) throws -> (path: String, old: [UInt8], new: [UInt8], journal: SaveJournal) {
        let old = pattern(size)
        let path = try TemporaryFile.write(old, name: "song.m4a")
        var info = stat()
        #expect(stat(path, &info) == 0)
        var new = old + [UInt8](repeating: 0, count: max(0, newSize - size))
        var journalRanges: [SaveJournal.Range] = []
        for range in ranges {
            new.replaceSubrange(range.offset..<range.offset + range.bytes.count, with: range.bytes)
            journalRanges.append(SaveJournal.Range(offset: UInt64(range.offset), old: Array(old[min(range.offset, size)..<min(range.offset + range.bytes.count, size)]), new: range.bytes))
        }
        new = Array(new.prefix(newSize))
        let journal = SaveJournal(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), oldSize: UInt64(size), newSize: UInt64(newSize), ranges: journalRanges)
        return (path, old, new, journal)
    }

    static func writeFile(_ path: String, _ bytes: [UInt8]) throws {
        // In place, as a save does: same inode.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
    }

    @Test(arguments: [(size: 4000, newSize: 4000), (size: 4000, newSize: 9000), (size: 9000, newSize: 4000)])
    func everyCutOfTheWritesIsPutBackAndTheWholeResultIsKept(_ sizes: (size: Int, newSize: Int)) throws {
        let grows = sizes.newSize > sizes.size
        let ranges: [(offset: Int, bytes: [UInt8])] = grows
            ? [(100, Self.pattern(50, seed: 7)), (3900, Self.pattern(5100, seed: 9))]
            : [(100, Self.pattern(50, seed: 7)), (2000, Self.pattern(1500, seed: 9))]
        // Cuts: nothing written, part of the first range, the first whole, part of the second,
        // every byte but the length, and everything.
        for cut in 0..<6 {
            let (path, old, new, journal) = try Self.prepared(size: sizes.size, ranges: ranges, newSize: sizes.newSize)
            var torn = old
            func apply(_ range: (offset: Int, bytes: [UInt8]), count: Int) {
                let end = range.offset + count
                if end > torn.count { torn += [UInt8](repeating: 0, count: end - torn.count) }
                torn.replaceSubrange(range.offset..<end, with: range.bytes.prefix(count))
            }
            switch cut {
            case 0: break
            case 1: apply(ranges[0], count: 20)
            case 2: apply(ranges[0], count: 50)
            case 3: apply(ranges[0], count: 50); apply(ranges[1], count: ranges[1].bytes.count / 2)
            case 4: ranges.forEach { apply($0, count: $0.bytes.count) }
            default: torn = new
            }
            try Self.writeFile(path, torn)
            try Data(journal.encoded()).write(to: URL(fileURLWithPath: SaveJournal.path(for: path)))
            let outcome = try SaveJournal.recover(path)
            let settled = try TemporaryFile.read(path)
            if torn == new {
                #expect(outcome == .keptComplete, "cut \(cut)")
                #expect(settled == new, "cut \(cut)")
            } else {
                #expect(outcome == .rolledBack, "cut \(cut)")
                #expect(settled == old, "cut \(cut): not put back")
            }
            #expect(!FileManager.default.fileExists(atPath: SaveJournal.path(for: path)), "cut \(cut): the journal is left")
            #expect(try SaveJournal.recover(path) == .none)
        }
    }

    /// A save that cuts the file shorter (an ID3v1 tag removed at the end) keeps the cut tail
    /// in its journal: a crash at any step, or a verification that fails after the cut, puts
    /// the tail back instead of zeros.
    @Test func aFileCutShorterGetsItsTailBackAfterACrashAtAnyStep() throws {
        let old = Self.pattern(5000)
        let ranges: [(offset: UInt64, bytes: [UInt8])] = [(100, [UInt8](repeating: 0xAB, count: 50))]
        let probe = try TemporaryFile.write(old, name: "probe.bin")
        let recorder = FileFaultInjector()
        try FileFaultInjector.$current.withValue(recorder) { try FileReplacement.patch(probe, ranges: ranges, newSize: 3000) }
        let new = try TemporaryFile.read(probe)
        #expect(new.count == 3000 && new != Array(old.prefix(3000)))
        for index in recorder.operations.indices {
            let path = try TemporaryFile.write(old, name: "cut.bin")
            _ = try? FileFaultInjector.$current.withValue(FileFaultInjector(crashingAt: index)) { try FileReplacement.patch(path, ranges: ranges, newSize: 3000) }
            _ = try FileByteSource(path: path)
            let settled = try TemporaryFile.read(path)
            #expect(settled == old || settled == new, "crash at step \(index) (\(recorder.operations[index].rawValue))")
        }
        struct Refused: Error {}
        let path = try TemporaryFile.write(old, name: "refused.bin")
        #expect(throws: Refused.self) { try FileReplacement.patch(path, ranges: ranges, newSize: 3000) { _ in throw Refused() } }
        #expect(try TemporaryFile.read(path) == old, "the tail did not come back")
    }

    @Test func aJournalCutShortMeansTheFileWasNotWrittenYet() throws {
        let (path, old, _, journal) = try Self.prepared(size: 4000, ranges: [(100, Self.pattern(50, seed: 7))], newSize: 4000)
        let bytes = journal.encoded()
        try Data(bytes.prefix(bytes.count - 10)).write(to: URL(fileURLWithPath: SaveJournal.path(for: path)))
        // Opening is what settles it.
        _ = try FileByteSource(path: path)
        #expect(try TemporaryFile.read(path) == old)
        #expect(!FileManager.default.fileExists(atPath: SaveJournal.path(for: path)))
    }

    @Test func aFileChangedSinceByAnotherProgramIsLeftAloneAndSaidSo() throws {
        let (path, old, _, journal) = try Self.prepared(size: 4000, ranges: [(100, Self.pattern(50, seed: 7))], newSize: 4000)
        var other = old
        other[120] ^= 0x5A  // neither the old byte nor the new one
        other[3000] ^= 0x5A
        try Self.writeFile(path, other)
        let journalPath = SaveJournal.path(for: path)
        try Data(journal.encoded()).write(to: URL(fileURLWithPath: journalPath))
        let error = #expect(throws: ByteSourceError.self) { _ = try FileByteSource(path: path) }
        #expect(error?.description.contains(journalPath) == true, "\(error.map(String.init(describing:)) ?? "")")
        #expect(error?.description.contains("changed since") == true)
        #expect(try TemporaryFile.read(path) == other)
        #expect(FileManager.default.fileExists(atPath: journalPath))
    }

    @Test func aJournalOfAFileReplacedSinceIsRemoved() throws {
        let (path, old, _, journal) = try Self.prepared(size: 4000, ranges: [(100, Self.pattern(50, seed: 7))], newSize: 4000)
        try Data(journal.encoded()).write(to: URL(fileURLWithPath: SaveJournal.path(for: path)))
        // Another program's save: a new file renamed over the path.
        let replacement = path + ".new"
        try Data(Self.pattern(100, seed: 3)).write(to: URL(fileURLWithPath: replacement))
        #expect(rename(replacement, path) == 0)
        #expect(try SaveJournal.recover(path) == .discardedStale)
        #expect(try TemporaryFile.read(path) == Self.pattern(100, seed: 3))
        #expect(try TemporaryFile.read(path) != old)
    }

    @Test func aFileOpenedThroughALinkIsSettledBesideItsTarget() throws {
        let (path, old, new, journal) = try Self.prepared(size: 4000, ranges: [(100, Self.pattern(50, seed: 7))], newSize: 4000)
        var torn = old
        torn.replaceSubrange(100..<125, with: new[100..<125])
        try Self.writeFile(path, torn)
        try Data(journal.encoded()).write(to: URL(fileURLWithPath: SaveJournal.path(for: path)))
        let link = try TemporaryFile.makeDirectory() + "/link.m4a"
        #expect(symlink(path, link) == 0)
        _ = try FileByteSource(path: link)
        #expect(try TemporaryFile.read(path) == old)
        #expect(!FileManager.default.fileExists(atPath: SaveJournal.path(for: path)))
    }

    @Test func aPatchThroughALinkWritesItsJournalBesideTheTarget() throws {
        let path = try TemporaryFile.write(Self.pattern(4000), name: "target.m4a")
        let link = try TemporaryFile.makeDirectory() + "/link.m4a"
        #expect(symlink(path, link) == 0)
        var seen: [String] = []
        try FileReplacement.patch(link, ranges: [(100, [1, 2, 3])]) { _ in
            seen = [SaveJournal.path(for: path), SaveJournal.path(for: link)].filter { FileManager.default.fileExists(atPath: $0) }
        }
        #expect(seen == [SaveJournal.path(for: path)])
        #expect(try TemporaryFile.read(path)[100..<103] == [1, 2, 3])
        #expect(!FileManager.default.fileExists(atPath: SaveJournal.path(for: path)))
    }

    @Test func aPatchRefusesToStartWhileAJournalIsThere() throws {
        let (path, old, _, journal) = try Self.prepared(size: 4000, ranges: [(100, Self.pattern(50, seed: 7))], newSize: 4000)
        let journalPath = SaveJournal.path(for: path)
        try Data(journal.encoded()).write(to: URL(fileURLWithPath: journalPath))
        let error = #expect(throws: FileWriteError.self) { try FileReplacement.patch(path, ranges: [(10, [0xEE])]) }
        #expect(error?.reason.contains("a save journal is already beside it") == true)
        #expect(try TemporaryFile.read(path) == old)
    }
}

/// Where an output goes (`OutputTarget`), and a new file made by editing a copy
/// (`FileReplacement.create(_:editing:edit:)`).
@Suite struct OutputTargetTests {
    @Test func eachKindOfPathHasItsWay() throws {
        let directory = try TemporaryFile.makeDirectory()
        let file = directory + "/file.m4a"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: file))
        #expect(symlink("file.m4a", directory + "/link") == 0)
        #expect(symlink("gone.m4a", directory + "/dangling") == 0)
        #expect(mkfifo(directory + "/fifo", 0o644) == 0)
        #expect(mkdir(directory + "/folder", 0o755) == 0)
        #expect(try OutputTarget.resolve(directory + "/new.m4a") == .file(directory + "/new.m4a", existing: false))
        #expect(try OutputTarget.resolve(file) == .file(file, existing: true))
        #expect(try OutputTarget.resolve(directory + "/link") == .file(FileReplacement.resolvedPath(file), existing: true))
        #expect(try OutputTarget.resolve(directory + "/fifo") == .stream(directory + "/fifo"))
        #expect(try OutputTarget.resolve("/dev/null") == .stream("/dev/null"))
        for (path, descriptor) in [("-", Int32(1)), ("/dev/stdout", 1), ("/dev/stderr", 2), ("/dev/fd/7", 7), ("/proc/self/fd/1", 1)] {
            #expect(try OutputTarget.resolve(path) == .descriptor(descriptor), "\(path)")
        }
        #expect(symlink("/dev/stdout", directory + "/out") == 0)
        #expect(try OutputTarget.resolve(directory + "/out") == .descriptor(1))
        for (path, words) in [(directory + "/dangling", "gone.m4a', which does not exist"), (directory + "/folder", "is a directory")] {
            let error = #expect(throws: FileWriteError.self) { try OutputTarget.resolve(path) }
            #expect(error?.reason.contains(words) == true, "\(error.map(String.init(describing:)) ?? "")")
        }
    }

    @Test func aFailedEditLeavesTheOutputAsItWasAndNoCopyBehind() throws {
        let directory = try TemporaryFile.makeDirectory()
        let source = try FileByteSource(path: try TemporaryFile.write([UInt8](repeating: 7, count: 5000), name: "source.mp3"))
        let output = directory + "/output.mp3"
        try Data("the user's file".utf8).write(to: URL(fileURLWithPath: output))
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try FileReplacement.create(output, editing: source) { copy in
                #expect(try TemporaryFile.read(copy) == [UInt8](repeating: 7, count: 5000))
                throw Refused()
            }
        }
        #expect(try TemporaryFile.read(output) == Array("the user's file".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["output.mp3"])
        // And when the edit works, the edited copy is what the output holds.
        try FileReplacement.create(output, editing: source) { copy in
            try FileReplacement.patch(copy, ranges: [(0, [1, 2, 3])])
        }
        #expect(try TemporaryFile.read(output).prefix(4) == [1, 2, 3, 7])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["output.mp3"])
    }
}

/// Paths as the system has them: bytes, carried in a `String` without loss (`PathBytes`).
@Suite struct PathBytesTests {
    @Test func everyByteStringComesBackAsItWas() {
        var generator = SystemRandomNumberGenerator()
        // Random bytes, and bytes biased to the awkward ones: lead bytes, continuation bytes,
        // and the UTF-8 of U+10FF80...U+10FFFF, which the escapes use.
        let awkward: [UInt8] = [0x80, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0x8F, 0xBE, 0xFF, 0x2F, 0x61]
        for round in 0..<3000 {
            let count = Int.random(in: 0...24, using: &generator)
            let bytes: [UInt8] = (0..<count).map { _ in round % 2 == 0 ? UInt8.random(in: 0...255, using: &generator) : awkward.randomElement(using: &generator)! }
            let path = PathBytes.string(bytes)
            #expect(PathBytes.bytes(path) == bytes, "\(bytes)")
            // A directory entry's or an argument's bytes, taken where they lie, decode the same.
            #expect(bytes.withUnsafeBufferPointer { PathBytes.string($0) } == path, "\(bytes)")
            #expect(PathBytes.string(bytes[...].lazy.map { $0 }) == path, "\(bytes) without contiguous storage")
            PathBytes.withCString(path) { #expect(Array(UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: strlen($0))) == bytes.prefix { $0 != 0 }) }
        }
        // The escapes' own code point, written as UTF-8 in a name, is kept as its bytes too.
        let own: [UInt8] = [0x61, 0xF4, 0x8F, 0xBF, 0xBF, 0x62]
        #expect(PathBytes.bytes(PathBytes.string(own)) == own)
    }

    @Test func utf8NamesAreThemselvesAndOtherBytesAreShownEscaped() {
        for name in ["song.m4a", "Motörhead – Ace of Spades.mp3", "日本語.m4a", "song\u{FFFD}.m4a", ""] {
            #expect(PathBytes.string(Array(name.utf8)) == name)
            #expect(PathBytes.display(name) == name)
        }
        let latin1 = PathBytes.string(Array("Mot".utf8) + [0xF6] + Array("rhead.mp3".utf8))
        #expect(PathBytes.display(latin1) == "Mot\\xf6rhead.mp3")
        #expect(latin1 != PathBytes.string(Array("Mot\u{FFFD}rhead.mp3".utf8)))
    }
}
