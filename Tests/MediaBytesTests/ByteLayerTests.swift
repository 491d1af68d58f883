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
}

@Suite struct ByteReaderTests {
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
