import Foundation
import Synchronization
import MediaBytes
import TestSupport
import Testing

@Suite struct FourCCTests {
    @Test func literalKeepsTheFourBytes() {
        let code: FourCC = "moov"
        #expect(code.rawValue == 0x6D6F_6F76)
        #expect(code.bytes == [0x6D, 0x6F, 0x6F, 0x76])
    }

    @Test func descriptionReadsBytesAsLatin1() {
        let title = FourCC(0xA9, 0x6E, 0x61, 0x6D)
        #expect(title.description == "©nam")
        #expect(FourCC(latin1: "©nam") == title)
        // Every byte value at every position reads as the ISO-8859-1 character of that value.
        for byte in UInt8.min...UInt8.max {
            for position in 0..<4 {
                var bytes: [UInt8] = Array("ab c".utf8)
                bytes[position] = byte
                let expected = String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
                #expect(FourCC(bytes[0], bytes[1], bytes[2], bytes[3]).description == expected, "byte \(byte) at \(position)")
            }
        }
        #expect(FourCC(0xA9, 0xA9, 0xFF, 0xA0).description.utf8.count == 8)
    }

    @Test func latin1InitRejectsWrongLengthAndWideCharacters() {
        #expect(FourCC(latin1: "moo") == nil)
        #expect(FourCC(latin1: "moovs") == nil)
        #expect(FourCC(latin1: "m€ov") == nil)
    }

    @Test func printableTellsTypesFromControlBytes() {
        #expect(FourCC("©nam").isPrintable)
        #expect(!FourCC(rawValue: 1).isPrintable)
    }

    @Test func aNonASCIILiteralIsItsLatin1Bytes() {
        let literal: FourCC = "©day"
        #expect(literal.rawValue == 0xA964_6179)
    }
}

@Suite struct FourCCSetTests {
    /// The sorted table answers exactly as a hashed set of the same codes, for the members, for
    /// codes between and beside them, and for the extremes of the 32-bit range.
    @Test func membershipMatchesAHashedSet() {
        var generator = SystemRandomNumberGenerator()
        for size in [0, 1, 2, 3, 7, 31, 64] {
            let codes = (0..<size).map { _ in FourCC(rawValue: UInt32.random(in: 0...UInt32.max, using: &generator)) }
            let table = FourCCSet(codes + codes.prefix(2))  // duplicates are kept once
            let reference = Set(codes)
            #expect(table.count == reference.count)
            #expect(Array(table) == reference.sorted())
            var probes = codes + [FourCC(rawValue: 0), FourCC(rawValue: .max)]
            probes += codes.map { FourCC(rawValue: $0.rawValue &+ 1) } + codes.map { FourCC(rawValue: $0.rawValue &- 1) }
            for probe in probes { #expect(table.contains(probe) == reference.contains(probe), "size \(size), probe \(probe.rawValue)") }
        }
    }

    @Test func literalsBuildTheTable() {
        let table: FourCCSet = ["moov", "trak", "©nam", "moov"]
        #expect(table.count == 3)
        #expect(table.contains("trak") && table.contains("©nam") && !table.contains("mdat"))
    }
}

@Suite struct FourCCMapTests {
    /// The sorted table answers exactly as the dictionary it was made from, for its codes, for
    /// codes between and beside them, and for the extremes of the 32-bit range.
    @Test func lookupsMatchTheDictionary() {
        var generator = SystemRandomNumberGenerator()
        for size in [0, 1, 2, 3, 7, 31, 64] {
            var dictionary: [FourCC: Int] = [:]
            for index in 0..<size { dictionary[FourCC(rawValue: UInt32.random(in: 0...UInt32.max, using: &generator))] = index }
            let table = FourCCMap(dictionary)
            #expect(table.count == dictionary.count)
            var probes = Array(dictionary.keys) + [FourCC(rawValue: 0), FourCC(rawValue: .max)]
            probes += dictionary.keys.map { FourCC(rawValue: $0.rawValue &+ 1) } + dictionary.keys.map { FourCC(rawValue: $0.rawValue &- 1) }
            for probe in probes { #expect(table[probe] == dictionary[probe], "size \(size), probe \(probe.rawValue)") }
        }
    }
}

@Suite struct ByteReaderTests {
    @Test func readsATableOfBigEndianWordsAtOnceOrNotAtAll() throws {
        var bytes: [UInt8] = [0xFF]
        for value: UInt32 in [1, 0x0102_0304, 0xFFFF_FFFE, 7] { bytes += withUnsafeBytes(of: value.bigEndian) { Array($0) } }
        var reader = ByteReader(bytes, baseOffset: 100)
        _ = try reader.readUInt8()
        #expect(try reader.readUInt32Array(3) == [1, 0x0102_0304, 0xFFFF_FFFE])
        #expect(throws: ByteReaderError.self) { try reader.readUInt32Array(2) }
        #expect(throws: ByteReaderError.self) { try reader.readUInt32Array(Int.max / 2) }
        #expect(try reader.readUInt32Array(1) == [7])
        #expect(try reader.readUInt32Array(0) == [])
        #expect(reader.isAtEnd)
    }

    @Test func readsBigEndianIntegersAndAdvances() throws {
        var reader = ByteReader([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09])
        #expect(try reader.readUInt8() == 0x01)
        #expect(try reader.readUInt16() == 0x0203)
        #expect(try reader.readUInt24() == 0x040506)
        #expect(reader.remaining == 3)
        #expect(try reader.readUInt(width: 3) == 0x070809)
        #expect(reader.isAtEnd)
    }

    @Test func readsSignedIntegersOfAnyWidth() throws {
        var reader = ByteReader([0xFF, 0xFE, 0x80, 0x00, 0x00, 0xFF, 0xFF, 0xFF])
        #expect(try reader.readInt(width: 1) == -1)
        #expect(try reader.readInt(width: 1) == -2)
        #expect(try reader.readInt(width: 3) == -8_388_608)
        #expect(try reader.readInt(width: 3) == -1)
    }

    @Test func readsFixedPointNumbers() throws {
        var reader = ByteReader([0x00, 0x01, 0x80, 0x00, 0x01, 0x80])
        #expect(try reader.readFixed16_16() == 1.5)
        #expect(try reader.readFixed8_8() == 1.5)
    }

    @Test func runningShortThrowsWithTheAbsoluteOffset() {
        var reader = ByteReader([0, 0, 0], baseOffset: 1000)
        #expect(throws: ByteReaderError(offset: 1000, needed: 4, available: 3)) { try reader.readUInt32() }
        do {
            _ = try reader.readUInt32()
        } catch {
            #expect(error.offset == 1000)
            #expect(error.description.contains("offset 1000"))
        }
    }

    @Test func getAndPeekDoNotAdvance() throws {
        var reader = ByteReader([0, 0, 0, 42, 7])
        #expect(try reader.getUInt32(at: 0) == 42)
        #expect(try reader.peekUInt32() == 42)
        #expect(reader.consumed == 0)
        try reader.skip(4)
        #expect(try reader.peekUInt8() == 7)
    }

    @Test func subReaderIsBoundedAndKeepsFileOffsets() throws {
        var reader = ByteReader([1, 2, 3, 4, 5, 6], baseOffset: 100)
        try reader.skip(1)
        var sub = try reader.readSubReader(2)
        #expect(sub.offset == 101)
        #expect(try sub.readUInt16() == 0x0203)
        #expect(throws: ByteReaderError.self) { try sub.readUInt8() }
        #expect(try reader.readUInt8() == 4)
    }

    @Test func hugeEntryCountsAreRefusedBeforeAllocating() {
        let reader = ByteReader([0, 0, 0, 0])
        #expect(throws: ByteReaderError.self) { try reader.require(entries: UInt32.max, of: 8) }
    }

    @Test func cStringStopsAtTheTerminatorOrTheEnd() {
        var reader = ByteReader(Array("abc\0de".utf8))
        #expect(reader.readCString() == "abc")
        #expect(reader.readCString() == "de")
        #expect(reader.isAtEnd)
    }

    /// A slice is read where it lies (its indices are the array's, not from 0): every read is
    /// relative to the slice's first byte and bounded by its last.
    @Test func aSliceInTheMiddleOfItsArrayReadsFromItsOwnStart() throws {
        let bytes: [UInt8] = [9, 9, 9, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x03, 0x41, 0x42, 0x00, 0x07, 9, 9]
        var reader = ByteReader(bytes[3..<15], baseOffset: 500)
        #expect(reader.count == 12)
        #expect(try reader.getUInt8(at: 0) == 0)
        #expect(try reader.readUInt32Array(2) == [2, 3])
        #expect(reader.offset == 508)
        var sub = try reader.readSubReader(3)
        #expect(sub.readCString() == "AB")
        #expect(try reader.readUInt8() == 0x07)
        #expect(reader.isAtEnd)
        #expect(throws: ByteReaderError.self) { try reader.readUInt8() }
        var whole = ByteReader(bytes[3..<15])
        #expect(whole.readRemainingBytes() == Array(bytes[3..<15]))
    }
}

@Suite struct HeaderBytesTests {
    @Test func holdsTheFirstBytesOfAnyCollectionInPlace() {
        let bytes: [UInt8] = Array(1...20)
        let header = HeaderBytes(bytes[4...], count: 10)
        #expect(header.count == 10)
        #expect(Array(header) == Array(5...14))
        #expect(header[9] == 14)
        #expect(Array(header[6..<10]) == [11, 12, 13, 14])
        // All 16 bytes, both halves of the value.
        #expect(Array(HeaderBytes(bytes, count: 16)) == Array(1...16))
    }

    @Test func aShorterCollectionGivesFewerBytes() {
        let header = HeaderBytes([0xFF, 0xFB], count: 4)
        #expect(header.count == 2)
        #expect(Array(header) == [0xFF, 0xFB])
        #expect(HeaderBytes(EmptyCollection<UInt8>(), count: 4).isEmpty)
    }
}

@Suite struct ByteWriterTests {
    @Test func writesBigEndianAndPatchesPlaceholders() {
        var writer = ByteWriter()
        writer.writeUInt32(0)
        writer.writeFourCC("free")
        writer.writeUInt16(0xABCD)
        writer.setUInt32(UInt32(writer.count), at: 0)
        #expect(writer.bytes == [0, 0, 0, 10, 0x66, 0x72, 0x65, 0x65, 0xAB, 0xCD])
    }
}

@Suite struct ByteSourceTests {
    @Test func memorySourceChecksRanges() throws {
        let source = MemoryByteSource([1, 2, 3])
        #expect(try source.read(at: 1, count: 2) == [2, 3])
        #expect(throws: ByteSourceError(.outOfRange)) { try source.read(at: 2, count: 2) }
        #expect(try source.readAvailable(at: 2, upTo: 10) == [3])
    }

    @Test func firstDifferenceFindsTheByteAcrossPieces() throws {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let a = MemoryByteSource(bytes)
        #expect(try a.firstDifference(at: 0, from: MemoryByteSource(bytes), at: 0, count: 1000, chunkSize: 64) == nil)
        #expect(try a.hasSameBytes(at: 10, as: MemoryByteSource([0, 0] + bytes), at: 12, count: 900, chunkSize: 7))
        for position in [0, 63, 64, 65, 500, 999] {
            var changed = bytes
            changed[position] &+= 1
            let b = MemoryByteSource(changed)
            #expect(try a.firstDifference(at: 0, from: b, at: 0, count: 1000, chunkSize: 64) == UInt64(position))
            #expect(try a.firstDifference(at: 0, from: b, at: 0, count: 1000) == UInt64(position))
            #expect(try !a.hasSameBytes(at: 0, as: b, at: 0, count: 1000, chunkSize: 64))
        }
        #expect(throws: ByteSourceError.self) { try a.firstDifference(at: 900, from: a, at: 0, count: 200) }
    }

    @Test func fileSourceReadsByPosition() throws {
        let path = try TemporaryFile.write([10, 20, 30, 40, 50])
        let source = try FileByteSource(path: path)
        #expect(source.size == 5)
        #expect(try source.read(at: 3, count: 2) == [40, 50])
        #expect(try source.read(at: 0, count: 1) == [10])
        #expect(throws: ByteSourceError(.outOfRange)) { try source.read(at: 4, count: 2) }
    }

    @Test func missingFileIsNotFound() {
        #expect(throws: ByteSourceError(.notFound)) { try FileByteSource(path: "/nonexistent/file.m4a") }
    }

    @Test func directoryIsRefused() {
        #expect(throws: ByteSourceError(.isDirectory)) { try FileByteSource(path: "/tmp") }
    }

    @Test func copyStreamsInPieces() throws {
        let source = MemoryByteSource(Array(0..<100))
        var writer = ByteWriter()
        try source.copy(from: 10, count: 50, to: &writer, chunkSize: 7)
        #expect(writer.bytes == Array(10..<60))
    }

    /// A file read through its first 64 KiB (kept from the open) and beyond: every read, inside
    /// the head, across its end and past it, gives the file's bytes.
    @Test func readsInsideAndBeyondTheHeadGiveTheFilesBytes() throws {
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        let source = try FileByteSource(path: try TemporaryFile.write(bytes))
        let head = FileByteSource.headLength
        for (offset, count) in [(0, 8), (100, 4000), (head - 8, 8), (head - 8, 16), (head, 100), (0, head), (0, 200_000), (150_000, 50_000)] {
            #expect(try source.read(at: UInt64(offset), count: count) == Array(bytes[offset..<offset + count]), "read of \(count) at \(offset)")
            var buffer = [UInt8](repeating: 0, count: count)
            try buffer.withUnsafeMutableBytes { try source.read(into: $0, at: UInt64(offset)) }
            #expect(buffer == Array(bytes[offset..<offset + count]), "read into a buffer of \(count) at \(offset)")
        }
        #expect(throws: ByteSourceError.self) { try source.read(at: 199_999, count: 2) }
        // Slices give the same bytes, inside the head (sharing the bytes read at the open) and
        // beyond it, and fail where reads fail.
        for (offset, count) in [(0, 0), (0, 8), (100, 4000), (head - 8, 8), (head - 8, 16), (head, 100), (0, head), (150_000, 50_000)] {
            #expect(Array(try source.slice(at: UInt64(offset), count: count)) == Array(bytes[offset..<offset + count]), "slice of \(count) at \(offset)")
        }
        #expect(throws: ByteSourceError.self) { try source.slice(at: 199_999, count: 2) }
        let memory = MemoryByteSource(bytes)
        #expect(Array(try memory.slice(at: 10, count: 20)) == Array(bytes[10..<30]))
        #expect(throws: ByteSourceError.self) { try memory.slice(at: 199_990, count: 20) }
        // A file smaller than the head is held whole; reads past its end still fail.
        let small = try FileByteSource(path: try TemporaryFile.write([1, 2, 3]))
        #expect(try small.read(at: 1, count: 2) == [2, 3])
        #expect(throws: ByteSourceError.self) { try small.read(at: 2, count: 2) }
    }

    /// A file opened with a shorter head (a format whose metadata needs less, FLAC) reads the
    /// same bytes, and a prefetching reader over it takes that head as it is instead of
    /// reading 64 KiB again.
    @Test func aShorterHeadReadsTheSameBytesAndIsTakenAsTheHead() throws {
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 7) }
        let path = try TemporaryFile.write(bytes)
        let source = try FileByteSource(path: path, headLength: 8192)
        #expect(source.headCount == 8192)
        #expect(try FileByteSource(path: path).headCount == FileByteSource.headLength)
        #expect(try FileByteSource(path: try TemporaryFile.write([1, 2, 3]), headLength: 8192).headCount == 3)
        let prefetched = try PrefetchedByteSource(source, head: 64 << 10, tail: 100)
        #expect(prefetched.headCount == 8192, "the file's own head, not a second read")
        for (offset, count) in [(0, 8), (8180, 20), (8192, 4), (30_000, 40_000), (99_950, 50)] {
            #expect(try prefetched.read(at: UInt64(offset), count: count) == Array(bytes[offset..<offset + count]), "read of \(count) at \(offset)")
            #expect(Array(try prefetched.slice(at: UInt64(offset), count: count)) == Array(bytes[offset..<offset + count]), "slice of \(count) at \(offset)")
        }
        // Over a source that holds nothing of its own, the head asked for is read.
        #expect(try PrefetchedByteSource(MemoryByteSource(bytes), head: 64 << 10, tail: 0).headCount == 64 << 10)
    }

    /// File to file, a sink copies in the kernel (copy_file_range on Linux); the result is the
    /// same as through a buffer, at the sink's position between ordinary writes, for pieces
    /// that start anywhere (not on a page boundary) and are larger than one call copies.
    @Test func fileToFileCopiesLandBetweenWritesByteForByte() throws {
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) }
        let source = try FileByteSource(path: try TemporaryFile.write(bytes))
        let output = try TemporaryFile.makeDirectory() + "/copy.bin"
        var sink = try FileByteSink(path: output)
        try sink.write([0xAA, 0xBB, 0xCC])
        try source.copy(from: 12_345, count: 200_001, to: &sink)
        try sink.write([0xDD])
        try source.copy(from: 0, count: 7, to: &sink)
        try source.copy(from: 299_990, count: 10, to: &sink)
        try sink.close()
        let expected = [0xAA, 0xBB, 0xCC] + Array(bytes[12_345..<212_346]) + [0xDD] + Array(bytes[0..<7]) + Array(bytes[299_990...])
        #expect(try TemporaryFile.read(output) == expected)
        // A copy past the source's end fails before anything is written.
        var other = try FileByteSink(path: output + ".2")
        #expect(throws: ByteSourceError.self) { try source.copy(from: 299_990, count: 11, to: &other) }
        try other.close()
        #expect(try TemporaryFile.read(output + ".2").isEmpty)
    }

    /// A kernel copy is a write step to fault injection: a failure there fails the copy.
    @Test func aFailingKernelCopyFailsTheCopy() throws {
        let source = try FileByteSource(path: try TemporaryFile.write(Array(repeating: 7, count: 100_000)))
        var sink = try FileByteSink(path: try TemporaryFile.makeDirectory() + "/copy.bin")
        let injector = FileFaultInjector(failingAt: 0, error: EIO)
        #expect(throws: FileWriteError.self) {
            try FileFaultInjector.$current.withValue(injector) { try source.copy(from: 0, count: 100_000, to: &sink) }
        }
        #expect(injector.operations.first == .write)
        try sink.close()
    }
}

@Suite struct SyncsafeIntegerTests {
    @Test func roundTripsAndRejectsHighBits() {
        #expect(SyncsafeInteger.encode(0x0FFF_FFFF) == [0x7F, 0x7F, 0x7F, 0x7F])
        #expect(SyncsafeInteger.decode([0x00, 0x00, 0x02, 0x01]) == 257)
        #expect(SyncsafeInteger.decode([0x80, 0, 0, 0]) == nil)
        #expect(SyncsafeInteger.encode(1 << 28) == nil)
    }
}

@Suite struct FileLockTests {
    /// Another process (util-linux `flock -n`) is refused while this one holds the lock, and
    /// gets it once the lock is dropped.
    static func otherProcessCanLock(_ path: String) throws -> Bool {
        try ChildProcess.run("/usr/bin/flock", ["-n", path, "true"], timeout: 30).status == 0
    }

    @Test func anotherProcessIsRefusedWhileTheLockIsHeld() throws {
        let path = try TemporaryFile.write([1, 2, 3], name: "locked.bin")
        let first = try FileLock(path)
        #expect(try !Self.otherProcessCanLock(path))
        _ = consume first
        #expect(try Self.otherProcessCanLock(path))
    }

    @Test func anotherThreadOfTheProcessIsRefusedLikeAnotherProcess() throws {
        let path = try TemporaryFile.write([1, 2, 3], name: "locked.bin")
        let first = try FileLock(path)
        let refused = Mutex<FileLockError?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            do { _ = try FileLock(path) } catch let error as FileLockError { refused.withLock { $0 = error } } catch {}
            done.signal()
        }.start()
        done.wait()
        let error = try #require(refused.withLock { $0 })
        #expect(error.isHeldElsewhere)
        #expect(error.reason.contains("another thread of this process"))
        _ = consume first
    }

    @Test func aSecondLockInTheSameProcessSharesTheFirstUntilBothAreDropped() throws {
        // `tagedit` locks a file from reading to saving and `MediaFile.save()` locks it again.
        let path = try TemporaryFile.write([1, 2, 3], name: "locked.bin")
        let first = try FileLock(path)
        let second = try FileLock(path)
        _ = consume first
        #expect(try !Self.otherProcessCanLock(path), "the second lock still holds the file")
        _ = consume second
        #expect(try Self.otherProcessCanLock(path))
    }

    @Test func aMissingFileIsNotReportedAsLocked() {
        do {
            _ = try FileLock("/nonexistent/file.mp3")
            Issue.record("locked a missing file")
        } catch {
            #expect(!error.isHeldElsewhere)
        }
    }
}

/// Mac OS Roman, the fallback of AIFF text chunks that are not UTF-8: every byte against
/// Apple's table (as Python's `mac_roman` codec has it), ASCII as itself.
@Suite struct MacRomanTests {
    @Test func everyHighByteIsApplesCharacter() {
        #expect(TextDecoding.macRoman(Array("Plain".utf8)) == "Plain")
        #expect(TextDecoding.macRoman([0x80, 0x8E, 0xA5, 0xC9, 0xD2, 0xD3, 0xDB, 0xF0, 0xFF]) == "Äé•…“”€\u{F8FF}ˇ")
        let all = TextDecoding.macRoman((0x80...0xFF).map(UInt8.init))
        #expect(all.unicodeScalars.count == 128)
        #expect(Set(all.unicodeScalars).count == 128, "each byte its own character")
        #expect(!all.unicodeScalars.contains { $0.value < 0xA0 }, "no control character")
    }
}
