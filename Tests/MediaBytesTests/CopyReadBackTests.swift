import Foundation
@testable import MediaBytes
import TestSupport
import Testing

/// A save's kernel copies are read back and compared with their source as they are made (on a
/// second thread for copies of more than one piece); what compared equal is recorded, and the
/// save's own byte comparison skips exactly that and nothing else.
@Suite struct CopyReadBackTests {
    /// Bytes that differ from position to position (a shifted copy would not compare equal).
    static func pattern(_ count: Int, seed: UInt8 = 0) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 13) &+ seed }
    }

    // MARK: - CheckedCopies

    @Test func runsCoverTheirBytesAndNothingAround() throws {
        let source = try FileByteSource(path: try TemporaryFile.write(Self.pattern(1000)))
        var checked = CheckedCopies()
        #expect(checked.isEmpty)
        // Two copies into one output, after an 8-byte header written from memory: 100..<300
        // of the source to 8..<208, then 300..<500 to 208..<408 (contiguous: one run).
        checked.add(from: source, at: 100, to: 8, count: 200)
        checked.add(from: source, at: 300, to: 208, count: 200)
        #expect(!checked.isEmpty)
        #expect(checked.unchecked(source, at: 100, count: 400, copyOffset: 8).isEmpty)
        #expect(checked.unchecked(source, at: 150, count: 10, copyOffset: 58).isEmpty)
        // The atom around the copy: its header (8 bytes before) and 20 bytes after are not covered.
        #expect(checked.unchecked(source, at: 92, count: 428, copyOffset: 0) == [92..<100, 500..<520])
        // Another shift: the same source bytes are not where the check saw them.
        #expect(checked.unchecked(source, at: 100, count: 400, copyOffset: 9) == [100..<500])
        // Another source file, even with the same bytes and offsets.
        let other = try FileByteSource(path: try TemporaryFile.write(Self.pattern(1000)))
        #expect(checked.unchecked(other, at: 100, count: 400, copyOffset: 8) == [100..<500])
        // A source that is not a file.
        #expect(checked.unchecked(MemoryByteSource(Self.pattern(1000)), at: 100, count: 10, copyOffset: 8) == [100..<110])
        #expect(checked.unchecked(source, at: 100, count: 0, copyOffset: 8).isEmpty)
    }

    @Test func manyRunsAreFoundByTheirPlaceInTheCopy() throws {
        let source = try FileByteSource(path: try TemporaryFile.write(Self.pattern(100_000)))
        var checked = CheckedCopies()
        // 1000 copies of 90 bytes, each after 10 header bytes: runs do not merge.
        for index in 0..<1000 { checked.add(from: source, at: UInt64(index * 100 + 10), to: UInt64(index * 100 + 10), count: 90) }
        for index in [0, 1, 499, 998, 999] {
            let start = UInt64(index * 100)
            #expect(checked.unchecked(source, at: start, count: 100, copyOffset: start) == [start..<start + 10])
            #expect(checked.unchecked(source, at: start + 10, count: 90, copyOffset: start + 10).isEmpty)
        }
        // A range across three atoms: only the three headers are left.
        #expect(checked.unchecked(source, at: 1000, count: 300, copyOffset: 1000) == [1000..<1010, 1100..<1110, 1200..<1210])
        // Past the last run.
        #expect(checked.unchecked(source, at: 100_000, count: 5, copyOffset: 100_000) == [100_000..<100_005])
    }

    /// The save's comparison skips what was checked: a difference there is not looked for
    /// again (the check saw those bytes equal), one anywhere else is still found.
    @Test func aComparisonSkippingCheckedRunsStillFindsDifferencesElsewhere() throws {
        let bytes = Self.pattern(10_000)
        let source = try FileByteSource(path: try TemporaryFile.write(bytes))
        var copy = bytes
        copy[5000] ^= 0xFF
        copy[9000] ^= 0xFF
        let written = MemoryByteSource(copy)
        var checked = CheckedCopies()
        checked.add(from: source, at: 4000, to: 4000, count: 2000)
        #expect(try source.firstDifference(at: 0, from: written, at: 0, count: 10_000) == 5000)
        #expect(try source.firstDifference(at: 0, from: written, at: 0, count: 10_000, skipping: checked) == 9000)
        #expect(try source.firstDifference(at: 3000, from: written, at: 3000, count: 5000, skipping: checked) == nil)
        #expect(try !source.hasSameBytes(at: 0, as: written, at: 0, count: 10_000, skipping: checked))
        #expect(try source.hasSameBytes(at: 0, as: written, at: 0, count: 8000, skipping: checked))
    }

    // MARK: - The sink's read-back

    /// A copy of several pieces into a save's temporary file lands byte for byte, between
    /// ordinary writes, and is recorded as checked; the bytes written from memory are not.
    @Test func aSavesKernelCopyIsReadBackAndRecorded() throws {
        let count = Int(FileByteSink.copyPiece) * 2 + 123_457
        let bytes = Self.pattern(count + 1000)
        let sourcePath = try TemporaryFile.write(bytes)
        let source = try FileByteSource(path: sourcePath)
        let target = try TemporaryFile.write([1, 2, 3], name: "target.bin")
        var checked = CheckedCopies()
        try FileReplacement.replace(target, write: { sink in
            try sink.write([0xAA, 0xBB])
            try source.copy(from: 999, count: UInt64(count), to: &sink)
            try sink.write([0xCC])
            checked = sink.checkedCopies
        }, verify: { _ in })
        let written = try TemporaryFile.read(target)
        #expect(written == [0xAA, 0xBB] + Array(bytes[999..<999 + count]) + [0xCC])
        #expect(checked.unchecked(source, at: 999, count: UInt64(count), copyOffset: 2).isEmpty)
        #expect(checked.unchecked(source, at: 997, count: UInt64(count) + 3, copyOffset: 0) == [997..<999, UInt64(999 + count)..<UInt64(1000 + count)])
    }

    /// A sink created for writing only cannot read back: it records nothing, and the save's
    /// comparison then reads everything.
    @Test func aWriteOnlySinkRecordsNothing() throws {
        let bytes = Self.pattern(200_000)
        let source = try FileByteSource(path: try TemporaryFile.write(bytes))
        let output = try TemporaryFile.makeDirectory() + "/copy.bin"
        var sink = try FileByteSink(path: output)
        try source.copy(from: 0, count: 200_000, to: &sink)
        #expect(sink.checkedCopies.isEmpty)
        try sink.close()
        #expect(try TemporaryFile.read(output) == bytes)
    }

    /// The comparison itself: equal bytes pass, piece by piece and on a following thread; a
    /// difference is reported at its byte (in the copy and in the source), a short copy at its end.
    @Test(arguments: [false, true])
    func theReadBackFindsTheFirstDifferentByte(onAThread: Bool) throws {
        let size = 9 << 20 + 77
        let bytes = Self.pattern(size)
        var different = bytes
        different[7_000_001] ^= 0x01
        different[8_500_000] ^= 0x80
        let sourcePath = try TemporaryFile.write(bytes), samePath = try TemporaryFile.write(bytes)
        let differentPath = try TemporaryFile.write([0, 0, 0] + different)
        let shortPath = try TemporaryFile.write(Array(bytes[..<5_000_000]))
        let source = open(sourcePath, O_RDONLY), same = open(samePath, O_RDONLY)
        let otherCopy = open(differentPath, O_RDONLY), short = open(shortPath, O_RDONLY)
        defer { for descriptor in [source, same, otherCopy, short] { close(descriptor) } }

        func run(_ copy: Int32, at copyOffset: UInt64) throws -> String? {
            let check = FileByteSink.CopyCheck(source: source, at: 0, copy: copy, at: copyOffset, bufferSize: 1 << 20, releasingSource: false)
            // Announced in uneven pieces, as a kernel copy may return them.
            let pieces: [UInt64] = [1_000_000, 4_194_304, 8_388_608, UInt64(size)]
            if onAThread {
                let thread = try #require(JoinableThread { check.follow() })
                for end in pieces { check.copied(upTo: end, compareHere: false) }
                check.finish()
                thread.join()
            } else {
                for end in pieces { check.copied(upTo: end, compareHere: true) }
            }
            return check.failure
        }
        #expect(try run(same, at: 0) == nil)
        #expect(try run(otherCopy, at: 3) == "byte 7000004 of the copy, read back, differs from byte 7000001 of the original it was copied from")
        #expect(try run(short, at: 0) == "the copy ends at byte 5000000, before the bytes copied")
    }

    /// The padding that keeps a large copy aligned: the smallest amount, at least the padding
    /// asked for, that makes the shift a multiple of 64 KiB; unchanged for a copy under 64 MiB,
    /// a shift already aligned, and no padding.
    @Test func theAlignedPaddingMakesTheShiftAMultipleOf64KiB() {
        let large = CopyAlignment.threshold
        #expect(CopyAlignment.padding(1024, shift: 3000, moving: large) == 1024 + 65536 - 3000)
        #expect(CopyAlignment.padding(1024, shift: 65536 + 3000, moving: large) == 1024 + 65536 - 3000)
        #expect(CopyAlignment.padding(1024, shift: -3000, moving: large) == 1024 + 3000)
        #expect(CopyAlignment.padding(1024, shift: 131072, moving: large) == 1024)
        #expect(CopyAlignment.padding(1024, shift: 0, moving: large) == 1024)
        #expect(CopyAlignment.padding(1024, shift: 3000, moving: large - 1) == 1024)
        #expect(CopyAlignment.padding(0, shift: 3000, moving: large) == 0)
        for shift in stride(from: Int64(-200_000), through: 200_000, by: 4099) {
            let padding = CopyAlignment.padding(512, shift: shift, moving: large)
            #expect(padding >= 512 && padding < 512 + 65536)
            #expect((shift + Int64(padding - 512)) % 65536 == 0, "\(shift)")
        }
    }

    #if os(Linux)
    /// A save that replaces a file drops the replaced file's cached pages as each copied piece
    /// compares equal (what it did not copy stays cached); a save that creates another file
    /// leaves its source's pages alone. Checked with `mincore` through a descriptor kept on
    /// the replaced file. The files go beside the package's build products: a `tmpfs` (which
    /// `/tmp` can be) keeps its pages whatever is asked.
    @Test func aReplacingSaveDropsTheCachedPagesOfWhatItCopied() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/page-cache-test-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let count = Int(FileByteSink.copyPiece) * 2 + 64 * page  // three pieces, the last short
        // Written from memory: 2 MiB, so that the copy starts where a folio of the page cache
        // may (the kernel drops whole folios only, and a large one across where the copy
        // starts holds bytes that were not copied).
        let head = 2 << 20
        let bytes = Self.pattern(count)
        let path = directory + "/original.bin"
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        /// Whether each page of the file open at `descriptor` is in the page cache.
        func resident(_ descriptor: Int32) throws -> [Bool] {
            let mapping = try #require(mmap(nil, count, PROT_READ, MAP_SHARED, descriptor, 0))
            #expect(mapping != MAP_FAILED)
            defer { munmap(mapping, count) }
            var vector = [UInt8](repeating: 0, count: (count + page - 1) / page)
            #expect(mincore(mapping, count, &vector) == 0)
            return vector.map { $0 & 1 == 1 }
        }
        /// Flushes the file and reads it whole, so that every page is cached and clean.
        func cacheWhole(_ path: String) throws -> Int32 {
            let descriptor = open(path, O_RDONLY)
            #expect(descriptor >= 0 && fsync(descriptor) == 0)
            _ = try TemporaryFile.read(path)
            return descriptor
        }

        let replaced = try cacheWhole(path)
        defer { close(replaced) }
        try #require(try resident(replaced).allSatisfy { $0 }, "the file is not cached to begin with")
        let source = try FileByteSource(path: path)
        try FileReplacement.replace(path, write: { sink in
            try sink.write(Array(bytes[..<head]))
            try source.copy(from: UInt64(head), count: UInt64(count - head), to: &sink)
        }, verify: { _ in })
        #expect(try TemporaryFile.read(path) == bytes)
        let after = try resident(replaced)
        #expect(after[..<(head / page)].allSatisfy { $0 }, "pages that were not copied were dropped")
        #expect(after[(head / page)...].allSatisfy { !$0 }, "\(after[(head / page)...].filter { $0 }.count) copied pages are still cached")

        // Creating another file from it: its source stays cached. (A control file cached at the
        // same moment and never touched tells pages this code dropped from pages the system
        // evicted under the load of the tests running beside this one, gigabyte files among
        // them: then the step runs again, up to three times.)
        let controlPath = directory + "/control.bin"
        try Data(bytes).write(to: URL(fileURLWithPath: controlPath))
        for attempt in 1...3 {
            let kept = try cacheWhole(path)
            defer { close(kept) }
            let control = try cacheWhole(controlPath)
            defer { close(control) }
            try #require(try resident(kept).allSatisfy { $0 }, "the new file is not cached to begin with")
            let newSource = try FileByteSource(path: path)
            let copyPath = directory + "/copy-\(attempt).bin"
            try FileReplacement.create(copyPath, write: { sink in
                try newSource.copy(from: 0, count: UInt64(count), to: &sink)
            }, verify: { _ in })
            #expect(try TemporaryFile.read(copyPath) == bytes)
            let keptCached = try resident(kept).allSatisfy { $0 }
            if !keptCached, attempt < 3, try !resident(control).allSatisfy({ $0 }) { continue }
            #expect(keptCached, "the source's pages were dropped (the control file's stayed cached)")
            break
        }
    }
    #endif

    /// A failed read-back fails the save: the original stays, nothing is left beside it.
    @Test func aFailedReadBackLeavesTheOriginal() throws {
        let bytes = Self.pattern(Int(FileByteSink.copyPiece) + 5000)
        let source = try FileByteSource(path: try TemporaryFile.write(bytes))
        let directory = try TemporaryFile.makeDirectory()
        let target = directory + "/target.bin"
        try Data([9, 9, 9]).write(to: URL(fileURLWithPath: target))
        let recorder = FileFaultInjector()
        try FileFaultInjector.$current.withValue(recorder) {
            try FileReplacement.replace(target, write: { sink in try source.copy(from: 0, count: UInt64(bytes.count), to: &sink) }, verify: { _ in })
        }
        // Two pieces, each read back.
        #expect(recorder.operations.filter { $0 == .compareCopy }.count == 2)
        try Data([9, 9, 9]).write(to: URL(fileURLWithPath: target))
        let index = try #require(recorder.operations.lastIndex(of: .compareCopy))
        let injector = FileFaultInjector(failingAt: index, error: EIO)
        let error = #expect(throws: FileWriteError.self) {
            try FileFaultInjector.$current.withValue(injector) {
                try FileReplacement.replace(target, write: { sink in try source.copy(from: 0, count: UInt64(bytes.count), to: &sink) }, verify: { _ in })
            }
        }
        #expect(error?.reason.hasPrefix("verification failed: cannot read the copy back: ") == true, "\(String(describing: error))")
        #expect(try TemporaryFile.read(target) == [9, 9, 9])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["target.bin"])
    }
}
