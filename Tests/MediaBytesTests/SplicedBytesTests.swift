import Foundation
import MediaBytes
import TestSupport
import Testing

/// `SplicedBytes`: bytes in memory and ranges of files, read only when asked for.
@Suite struct SplicedBytesTests {
    /// A file of 1,000 bytes counting 0, 1, 2... (mod 256), and spliced bytes of memory, a
    /// range of it, memory again.
    static func sample() throws -> (file: FileByteSource, spliced: SplicedBytes, expected: [UInt8]) {
        let content = (0..<1000).map { UInt8($0 % 256) }
        let file = try FileByteSource(path: try TemporaryFile.write(content))
        var spliced = SplicedBytes([0xAA, 0xBB])
        spliced.append(from: file, at: 100, count: 500)
        spliced.append([0xCC])
        return (file, spliced, [0xAA, 0xBB] + Array(content[100..<600]) + [0xCC])
    }

    @Test func aRangeIsNotReadUntilAskedForAndThenReadsAsTheFile() throws {
        let (_, spliced, expected) = try Self.sample()
        #expect(spliced.count == 503)
        #expect(spliced.countInMemory == 3)
        #expect(!spliced.isInMemory)
        #expect(try spliced.materialized() == expected)
        // Reads that cross the pieces' edges.
        for (offset, count) in [(0, 3), (1, 10), (500, 3), (501, 2), (250, 253)] {
            #expect(try spliced.read(at: UInt64(offset), count: count) == Array(expected[offset..<offset + count]), "\(offset)+\(count)")
        }
        #expect(throws: ByteSourceError.self) { try spliced.read(at: 500, count: 4) }
    }

    @Test func chunksHaveTheSizeAskedForWhereverThePiecesEnd() throws {
        let (_, spliced, expected) = try Self.sample()
        for size in [1, 3, 7, 64, 502, 503, 4096] {
            var chunks: [[UInt8]] = []
            try spliced.forEachChunk(size: size) { chunks.append(Array($0)) }
            #expect(chunks.dropLast().allSatisfy { $0.count == size }, "\(size)")
            #expect(chunks.flatMap { $0 } == expected, "\(size)")
        }
    }

    @Test func aSubrangeSharesThePiecesAndReadsTheSameBytes() throws {
        let (_, spliced, expected) = try Self.sample()
        for range in [0..<503, 1..<2, 2..<502, 0..<0, 400..<503, 501..<503] {
            let part = spliced.subrange(range)
            #expect(part.count == range.count)
            #expect(try part.materialized() == Array(expected[range]), "\(range)")
        }
        #expect(spliced.subrange(2..<502).countInMemory == 0, "a range of the file stays a range")
        // A range of spliced bytes appended elsewhere is spliced from the same pieces.
        var other = SplicedBytes()
        other.append(from: spliced, at: 1, count: 10)
        #expect(other.countInMemory == 1)
        #expect(try other.materialized() == Array(expected[1..<11]))
    }

    @Test func writingToAFileSinkGivesTheBytesAndTheComparisonFindsTheFirstDifference() throws {
        let (_, spliced, expected) = try Self.sample()
        let path = try TemporaryFile.makeDirectory() + "/out.bin"
        try FileReplacement.create(path, contents: spliced)
        #expect(try TemporaryFile.read(path) == expected)
        let written = try FileByteSource(path: path)
        #expect(try spliced.firstDifference(from: written, at: 0) == nil)
        var changed = expected
        changed[300] ^= 1
        #expect(try spliced.firstDifference(from: FileByteSource(path: TemporaryFile.write(changed)), at: 0) == 300)
        #expect(spliced == SplicedBytes(expected))
        #expect(spliced != SplicedBytes(changed))
    }

    @Test func patchesLeaveOutARangeAlreadyInPlaceAndReadOneThatMoves() throws {
        let content = (0..<1000).map { UInt8($0 % 256) }
        let file = try FileByteSource(path: try TemporaryFile.write(content))
        // New header bytes, then the file's bytes 10..<1000 where they are.
        var inPlace = SplicedBytes([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
        inPlace.append(from: file, at: 10, count: 990)
        let isFile: (any ByteSource) -> Bool = { $0 as? FileByteSource === file }
        #expect(inPlace.bytesToMove(at: 0, over: isFile) == 0)
        let kept = try inPlace.patches(at: 0, over: isFile)
        #expect(kept.count == 1 && kept[0].offset == 0 && kept[0].bytes == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
        // The same bytes written one byte further on: the range would move.
        #expect(inPlace.bytesToMove(at: 1, over: isFile) == 990)
        // One more header byte: the range moves by one and is read.
        var moved = SplicedBytes([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
        moved.append(from: file, at: 10, count: 989)
        #expect(moved.bytesToMove(at: 0, over: isFile) == 989)
        let shifted = try moved.patches(at: 0, over: isFile)
        #expect(shifted.count == 1 && shifted[0].bytes == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] + Array(content[10..<999]))
    }

    @Test func twoOpeningsOfTheSameUnchangedFileAreTheSameVersion() throws {
        let path = try TemporaryFile.write([1, 2, 3])
        let first = try FileByteSource(path: path), second = try FileByteSource(path: path)
        #expect(first.isSameVersion(as: second))
        #expect(!first.isSameVersion(as: try FileByteSource(path: TemporaryFile.write([1, 2, 3]))))
        usleep(10_000)
        try Data([4, 5, 6, 7]).write(to: URL(fileURLWithPath: path))
        #expect(!first.isSameVersion(as: try FileByteSource(path: path)), "a file written since is another version")
    }
    /// A file written in place after a range of it was taken (same name, same size, other
    /// bytes): every way of reading the range fails, and what was handed on before the
    /// failure is the range's bytes as they were. (The range lies past the first 64 KiB, which
    /// a source keeps from when it was opened.)
    @Test func aRangeOfAFileWrittenInPlaceSinceIsNotRead() throws {
        let size = FileByteSource.headLength + 10_000
        let path = try TemporaryFile.write([UInt8](repeating: 0x11, count: size))
        let file = try FileByteSource(path: path)
        var spliced = SplicedBytes([0xAA])
        spliced.append(from: file, at: UInt64(FileByteSource.headLength), count: 10_000)
        usleep(10_000)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.write(contentsOf: Data(repeating: 0xEE, count: size))
        try handle.close()
        #expect(throws: ByteSourceError.self) { try spliced.read(at: 0, count: 10) }
        #expect(throws: ByteSourceError.self) { try spliced.materialized() }
        var handed: [UInt8] = []
        #expect(throws: ByteSourceError.self) { try spliced.forEachChunk(size: 64) { handed += $0 } }
        #expect(!handed.contains(0xEE), "a chunk of the new bytes was handed on")
        #expect(throws: ByteSourceError.self) { try spliced.patches(at: 0, over: { _ in false }) }
        var sink = try FileByteSink(path: try TemporaryFile.makeDirectory() + "/copy")
        #expect(throws: (any Error).self) { try spliced.write(to: &sink) }
        try sink.close()
    }

    /// A suffix is found in memory byte for byte, and across a file's ranges without reading
    /// when both are the same range of one opened file (through a prefetching reader too): an
    /// export finds the picture an APIC frame ends with without reading either again.
    @Test func aSuffixIsFoundByContentOrBySameRangeWithoutARead() throws {
        let memory = SplicedBytes([1, 2, 3, 4, 5])
        #expect(try memory.hasSuffix(SplicedBytes([4, 5])))
        #expect(try memory.hasSuffix(SplicedBytes()))
        #expect(try !memory.hasSuffix(SplicedBytes([3, 5])))
        #expect(try !memory.hasSuffix(SplicedBytes([0, 1, 2, 3, 4, 5])))
        let bytes = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ $0 >> 13) }
        let path = try TemporaryFile.write(bytes)
        let file = try FileByteSource(path: path)
        let reader = try PrefetchedByteSource(file, head: 64 << 10, tail: 0)
        var frame = SplicedBytes([9, 9, 9])
        frame.append(from: reader, at: 100_000, count: 2_500_000)
        let picture = SplicedBytes(from: reader, at: 100_000, count: 2_500_000)
        let sameBytesElsewhere = SplicedBytes(bytes[100_000..<2_600_000])
        // A frame read as one range, its header and fields before the picture in the same piece.
        let wholeFrame = SplicedBytes(from: reader, at: 90_000, count: 2_510_000)
        #expect(try frame.hasSuffix(picture))
        #expect(try wholeFrame.hasSuffix(picture))
        #expect(try frame.hasSuffix(sameBytesElsewhere), "compared by reading, a MiB at a time")
        #expect(try !frame.hasSuffix(SplicedBytes(from: reader, at: 100_001, count: 2_500_000)))
        // The file changes: a read of it now fails, the same range still matches unread.
        var changed = bytes
        changed[2_000_000] ^= 0xFF
        try Data(changed).write(to: URL(fileURLWithPath: path))
        #expect(try frame.hasSuffix(picture))
        #expect(try wholeFrame.hasSuffix(picture))
        #expect(throws: ByteSourceError.self) { try frame.hasSuffix(SplicedBytes(from: try FileByteSource(path: path), at: 100_000, count: 2_500_000)) }
    }
}
