#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A destination for bytes written in order: a buffer in memory, or (in the writing layers) a file.
public protocol ByteSink {
    /// Appends `bytes`.
    mutating func write(_ bytes: [UInt8]) throws
    /// Appends `bytes`.
    mutating func write(_ bytes: ArraySlice<UInt8>) throws
    /// Appends `count` bytes of `source` starting at `offset` (a file sink copies file to file
    /// in the kernel; every sink can copy through a buffer).
    mutating func write(from source: any ByteSource, at offset: UInt64, count: UInt64) throws
}

extension ByteSink {
    public mutating func write(from source: any ByteSource, at offset: UInt64, count: UInt64) throws {
        try writeThroughBuffer(from: source, at: offset, count: count)
    }

    /// Copies through one reused buffer of at most `chunkSize` bytes, so copying a large media
    /// payload never holds it in memory at once.
    mutating func writeThroughBuffer(from source: any ByteSource, at offset: UInt64, count: UInt64, chunkSize: Int = 1 << 22) throws {
        guard count > 0 else { return }
        var done: UInt64 = 0
        var buffer = [UInt8](repeating: 0, count: Int(min(UInt64(chunkSize), count)))
        while done < count {
            let piece = Int(min(UInt64(chunkSize), count - done))
            try buffer.withUnsafeMutableBytes { bytes in
                try source.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[0..<piece]), at: offset + done)
            }
            try write(buffer[0..<piece])
            done += UInt64(piece)
        }
    }
}

extension ByteWriter: ByteSink {
    public mutating func write(_ bytes: [UInt8]) { writeBytes(bytes) }
    public mutating func write(_ bytes: ArraySlice<UInt8>) { writeBytes(bytes) }
}

extension ByteSource {
    /// Copies `count` bytes starting at `offset` into `sink` (see `ByteSink.write(from:at:count:)`);
    /// with `chunkSize`, through a buffer of that size whatever the sink.
    public func copy<Sink: ByteSink>(from offset: UInt64, count: UInt64, to sink: inout Sink, chunkSize: Int? = nil) throws {
        if let chunkSize {
            try sink.writeThroughBuffer(from: self, at: offset, count: count, chunkSize: chunkSize)
        } else {
            try sink.write(from: self, at: offset, count: count)
        }
    }

    /// True when `count` bytes at `offset` here equal `count` bytes at `otherOffset` in
    /// `other`, compared in pieces through two reused buffers; the parts of a copy from here
    /// that `checked` says were read back equal already are not compared again.
    public func hasSameBytes(at offset: UInt64, as other: any ByteSource, at otherOffset: UInt64, count: UInt64,
                             skipping checked: CheckedCopies = CheckedCopies(), chunkSize: Int = 1 << 22) throws -> Bool {
        try firstDifference(at: offset, from: other, at: otherOffset, count: count, skipping: checked, chunkSize: chunkSize) == nil
    }

    /// Where the `count` bytes at `offset` here first differ from those at `otherOffset` in
    /// `other` (counted from the start of the range), or nil when they are equal. Both are read
    /// in pieces of `chunkSize` into two buffers allocated once. The parts `checked` covers (a
    /// file sink's copies from here to `other`, read back equal as they were written) are
    /// taken as equal.
    public func firstDifference(at offset: UInt64, from other: any ByteSource, at otherOffset: UInt64, count: UInt64,
                                skipping checked: CheckedCopies = CheckedCopies(), chunkSize: Int = 1 << 22) throws -> UInt64? {
        for part in checked.unchecked(self, at: offset, count: count, copyOffset: otherOffset) {
            let start = part.lowerBound - offset
            if let difference = try firstDifferenceReading(at: part.lowerBound, from: other, at: otherOffset + start, count: UInt64(part.count), chunkSize: chunkSize) {
                return start + difference
            }
        }
        return nil
    }

    private func firstDifferenceReading(at offset: UInt64, from other: any ByteSource, at otherOffset: UInt64, count: UInt64, chunkSize: Int) throws -> UInt64? {
        let size = Int(min(UInt64(chunkSize), count))
        var mine = [UInt8](repeating: 0, count: size)
        var theirs = [UInt8](repeating: 0, count: size)
        var done: UInt64 = 0
        while done < count {
            let piece = Int(min(UInt64(chunkSize), count - done))
            try mine.withUnsafeMutableBytes { bytes in
                try read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[0..<piece]), at: offset + done)
            }
            try theirs.withUnsafeMutableBytes { bytes in
                try other.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[0..<piece]), at: otherOffset + done)
            }
            let same = mine.withUnsafeBytes { a in theirs.withUnsafeBytes { b in memcmp(a.baseAddress!, b.baseAddress!, piece) == 0 } }
            if !same, let index = (0..<piece).first(where: { mine[$0] != theirs[$0] }) {
                return done + UInt64(index)
            }
            done += UInt64(piece)
        }
        return nil
    }
}
