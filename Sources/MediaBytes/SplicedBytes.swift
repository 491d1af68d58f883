#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes made of pieces, some in memory and some still in a source (a file), read only when
/// asked for: a tag of a few KiB around a 200 MB picture is a few KiB in memory and one range
/// of the file. Writing it to a file sink copies the ranges in the kernel; reading it chunk by
/// chunk (`forEachChunk`) never holds more than a chunk; as a `ByteSource` it can be parsed.
///
/// ```swift
/// var tag = SplicedBytes([0x49, 0x44, 0x33])
/// tag.append(from: file, at: 4096, count: 200 << 20)  // nothing read
/// try tag.write(to: &sink)                              // the range copied file to file
/// ```
public struct SplicedBytes: ByteSource, Hashable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// A piece: bytes in memory, or `count` bytes of `source` at `offset`.
    public enum Piece: Sendable {
        case bytes(ArraySlice<UInt8>)
        case range(source: any ByteSource, offset: UInt64, count: Int)

        public var count: Int {
            switch self {
            case .bytes(let bytes): bytes.count
            case .range(_, _, let count): count
            }
        }
    }

    /// The pieces in order; none is empty.
    public private(set) var pieces: [Piece] = []
    /// The number of bytes.
    public private(set) var count = 0

    public init() {}
    public init(_ bytes: [UInt8]) { append(bytes[...]) }
    public init(_ bytes: ArraySlice<UInt8>) { append(bytes) }
    public init(arrayLiteral elements: UInt8...) { append(elements[...]) }

    /// `count` bytes of `source` at `offset`, not read.
    public init(from source: any ByteSource, at offset: UInt64, count: Int) {
        append(from: source, at: offset, count: count)
    }

    public var size: UInt64 { UInt64(count) }
    public var isEmpty: Bool { count == 0 }

    /// True when every byte is in memory.
    public var isInMemory: Bool {
        pieces.allSatisfy { if case .bytes = $0 { true } else { false } }
    }

    /// The bytes in memory (all of them: their count), not counting those left in sources.
    public var countInMemory: Int {
        pieces.reduce(0) { if case .bytes(let bytes) = $1 { $0 + bytes.count } else { $0 } }
    }

    // MARK: - Building

    public mutating func append(_ bytes: ArraySlice<UInt8>) {
        guard !bytes.isEmpty else { return }
        count += bytes.count
        // Small appends go into the last piece when it is in memory.
        if case .bytes(var last)? = pieces.last, bytes.count < 4096 {
            pieces.removeLast()
            last.append(contentsOf: bytes)
            pieces.append(.bytes(last))
        } else {
            pieces.append(.bytes(bytes))
        }
    }

    public mutating func append(_ bytes: [UInt8]) { append(bytes[...]) }

    public mutating func append(from source: any ByteSource, at offset: UInt64, count: Int) {
        guard count > 0 else { return }
        // A range of spliced bytes is spliced from their own pieces.
        if let spliced = source as? SplicedBytes {
            append(spliced.subrange(Int(offset)..<Int(offset) + count))
            return
        }
        self.count += count
        pieces.append(.range(source: source, offset: offset, count: count))
    }

    public mutating func append(_ other: SplicedBytes) {
        for piece in other.pieces {
            switch piece {
            case .bytes(let bytes): append(bytes)
            case .range(let source, let offset, let count):
                self.count += count
                pieces.append(.range(source: source, offset: offset, count: count))
            }
        }
    }

    /// The bytes of `range` (positions counted from 0), sharing this value's pieces.
    public func subrange(_ range: Range<Int>) -> SplicedBytes {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "subrange out of bounds")
        var result = SplicedBytes()
        var position = 0
        for piece in pieces {
            let start = max(range.lowerBound, position), end = min(range.upperBound, position + piece.count)
            if start < end {
                switch piece {
                case .bytes(let bytes):
                    result.append(bytes[bytes.startIndex + start - position..<bytes.startIndex + end - position])
                case .range(let source, let offset, _):
                    result.count += end - start
                    result.pieces.append(.range(source: source, offset: offset + UInt64(start - position), count: end - start))
                }
            }
            position += piece.count
            if position >= range.upperBound { break }
        }
        return result
    }

    /// True when the last `suffix.count` bytes are `suffix`'s. The two are compared piece
    /// against piece from their ends: where both are ranges of sources of the same `identity`
    /// at the same place (a picture left in its file, in the frame that holds it and in the
    /// picture read from that frame), they are equal without a read; other bytes are compared
    /// a MiB at a time.
    public func hasSuffix(_ suffix: SplicedBytes) throws(ByteSourceError) -> Bool {
        guard suffix.count <= count else { return false }
        // The current piece of each (counting from the end), and its bytes not yet compared
        // (the first `left` of it).
        var mine = pieces.count, theirs = suffix.pieces.count
        var mineLeft = 0, theirsLeft = 0
        var remaining = suffix.count
        while remaining > 0 {
            if mineLeft == 0 { mine -= 1; mineLeft = pieces[mine].count }
            if theirsLeft == 0 { theirs -= 1; theirsLeft = suffix.pieces[theirs].count }
            let length = min(mineLeft, theirsLeft)
            guard try Self.equal(pieces[mine], at: mineLeft - length, suffix.pieces[theirs], at: theirsLeft - length, count: length) else { return false }
            mineLeft -= length
            theirsLeft -= length
            remaining -= length
        }
        return true
    }

    /// True when `count` bytes of piece `a` from its position `aStart` are those of `b` from
    /// `bStart`.
    private static func equal(_ a: Piece, at aStart: Int, _ b: Piece, at bStart: Int, count: Int) throws(ByteSourceError) -> Bool {
        if case .range(let first, let x, _) = a, case .range(let second, let y, _) = b, let identity = first.identity,
           identity == second.identity, x + UInt64(aStart) == y + UInt64(bStart) {
            return true
        }
        // The last 4 KiB first: two different pictures of the same size differ there too, and a
        // frame that does not hold a picture is told from it without reading a MiB of each.
        let tail = min(count, 4096)
        guard try sameBytes(a, at: aStart + count - tail, b, at: bStart + count - tail, count: tail) else { return false }
        return try sameBytes(a, at: aStart, b, at: bStart, count: count - tail)
    }

    /// `count` bytes of two pieces compared a MiB at a time.
    private static func sameBytes(_ a: Piece, at aStart: Int, _ b: Piece, at bStart: Int, count: Int) throws(ByteSourceError) -> Bool {
        var done = 0
        while done < count {
            let length = min(count - done, 1 << 20)
            let first = try bytes(of: a, at: aStart + done, count: length), second = try bytes(of: b, at: bStart + done, count: length)
            // Bytes in memory of one storage (a cover's data, in its item and in the picture
            // list) are equal where they lie; others are compared by memcmp.
            let equal = first.withUnsafeBufferPointer { x in
                second.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress || memcmp(x.baseAddress!, y.baseAddress!, length) == 0 }
            }
            guard equal else { return false }
            done += length
        }
        return true
    }

    private static func bytes(of piece: Piece, at start: Int, count: Int) throws(ByteSourceError) -> ArraySlice<UInt8> {
        switch piece {
        case .bytes(let bytes): bytes[bytes.startIndex + start..<bytes.startIndex + start + count]
        case .range(let source, let offset, _): try read(source, at: offset + UInt64(start), count: count)[...]
        }
    }

    // MARK: - Reading

    public func read(at offset: UInt64, count wanted: Int) throws(ByteSourceError) -> [UInt8] {
        try checkRange(offset: offset, count: wanted)
        var result: [UInt8] = []
        result.reserveCapacity(wanted)
        let end = offset + UInt64(wanted)
        var position: UInt64 = 0
        for piece in pieces {
            let pieceEnd = position + UInt64(piece.count)
            defer { position = pieceEnd }
            guard pieceEnd > offset else { continue }
            guard position < end else { break }
            let start = max(offset, position) - position, stop = min(end, pieceEnd) - position
            switch piece {
            case .bytes(let bytes):
                result += bytes[bytes.startIndex + Int(start)..<bytes.startIndex + Int(stop)]
            case .range(let source, let base, _):
                result += try Self.read(source, at: base + start, count: Int(stop - start))
            }
        }
        return result
    }

    /// The bytes of a range, checked after the read to be those of the file as it was when
    /// the range was taken: a file written in place since (same name, same size) has another
    /// modification time, and its new bytes must never pass for the old ones (an export would
    /// put a picture's new bytes beside the old tag's fields).
    private static func read(_ source: any ByteSource, at offset: UInt64, count: Int) throws(ByteSourceError) -> [UInt8] {
        let bytes = try source.read(at: offset, count: count)
        try source.checkUnchanged()
        return bytes
    }

    /// Checks every source the pieces come from is as it was.
    public func checkUnchanged() throws(ByteSourceError) {
        for piece in pieces {
            if case .range(let source, _, _) = piece { try source.checkUnchanged() }
        }
    }

    /// Every byte, read into memory.
    public func materialized() throws(ByteSourceError) -> [UInt8] {
        if pieces.count == 1, case .bytes(let bytes) = pieces[0] { return Array(bytes) }
        return try read(at: 0, count: count)
    }

    /// Calls `body` with the bytes in order, `chunkSize` at a time (the last chunk may be
    /// shorter), through one reused buffer: ranges are read a chunk at a time.
    public func forEachChunk(size chunkSize: Int = 1 << 20, _ body: (ArraySlice<UInt8>) throws -> Void) throws {
        precondition(chunkSize > 0)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(min(chunkSize, count))
        for piece in pieces {
            switch piece {
            case .bytes(let bytes):
                var start = bytes.startIndex
                while start < bytes.endIndex {
                    let take = min(chunkSize - buffer.count, bytes.endIndex - start)
                    if buffer.isEmpty && take == chunkSize {
                        try body(bytes[start..<start + take])
                    } else {
                        buffer += bytes[start..<start + take]
                        if buffer.count == chunkSize {
                            try body(buffer[...])
                            buffer.removeAll(keepingCapacity: true)
                        }
                    }
                    start += take
                }
            case .range(let source, let offset, let count):
                var done = 0
                while done < count {
                    let take = min(chunkSize - buffer.count, count - done)
                    buffer += try Self.read(source, at: offset + UInt64(done), count: take)
                    if buffer.count == chunkSize {
                        try body(buffer[...])
                        buffer.removeAll(keepingCapacity: true)
                    }
                    done += take
                }
            }
        }
        if !buffer.isEmpty { try body(buffer[...]) }
    }

    /// Writes every byte to `sink`, ranges through `ByteSink.write(from:at:count:)` (a file
    /// sink copies them in the kernel). Throws when a range's file changed since the range was
    /// taken (checked before and after each copy), as every read of a range here does.
    public func write<Sink: ByteSink>(to sink: inout Sink) throws {
        for piece in pieces {
            switch piece {
            case .bytes(let bytes): try sink.write(bytes)
            case .range(let source, let offset, let count):
                // Before the copy too: a sink that is a stream (a FIFO, a device) cannot take
                // back what it was given.
                try source.checkUnchanged()
                try sink.write(from: source, at: offset, count: UInt64(count))
                try source.checkUnchanged()
            }
        }
    }

    /// How many bytes of ranges would have to be read to write this value at `position` in a
    /// file that already holds some of its ranges: all but the ranges whose source is that file
    /// (`isSame`) and that are already where they would be written.
    public func bytesToMove(at position: UInt64, over isSame: (any ByteSource) -> Bool) -> Int {
        var at = position
        var moved = 0
        for piece in pieces {
            if case .range(let source, let offset, let count) = piece, !(offset == at && isSame(source)) { moved += count }
            at += UInt64(piece.count)
        }
        return moved
    }

    /// The pieces as patches of such a file: where the bytes would go when written at
    /// `position` in it, leaving out the ranges already in place (see `bytesToMove`, which
    /// counts the ranges read here).
    public func patches(at position: UInt64, over isSame: (any ByteSource) -> Bool) throws(ByteSourceError) -> [(offset: UInt64, bytes: [UInt8])] {
        var patches: [(offset: UInt64, bytes: [UInt8])] = []
        var at = position
        for piece in pieces {
            defer { at += UInt64(piece.count) }
            var bytes: ArraySlice<UInt8>
            switch piece {
            case .bytes(let inMemory):
                bytes = inMemory
            case .range(let source, let offset, let count):
                if offset == at && isSame(source) { continue }
                bytes = try Self.read(source, at: offset, count: count)[...]
            }
            if let last = patches.last, last.offset + UInt64(last.bytes.count) == at {
                patches[patches.count - 1].bytes += bytes
            } else {
                patches.append((at, Array(bytes)))
            }
        }
        return patches
    }

    /// Where these bytes first differ from those at `otherOffset` in `other` (counted from
    /// the start), or nil when they are equal; a range is compared with its source's own
    /// `firstDifference`, so what `checked` says a file sink copied from it and read back
    /// equal is not read again.
    public func firstDifference(from other: any ByteSource, at otherOffset: UInt64, skipping checked: CheckedCopies = CheckedCopies()) throws -> UInt64? {
        var position: UInt64 = 0
        for piece in pieces {
            switch piece {
            case .bytes(let bytes):
                let theirs = try other.read(at: otherOffset + position, count: bytes.count)
                if !bytes.elementsEqual(theirs), let index = (0..<bytes.count).first(where: { bytes[bytes.startIndex + $0] != theirs[$0] }) {
                    return position + UInt64(index)
                }
            case .range(let source, let offset, let count):
                if let difference = try source.firstDifference(at: offset, from: other, at: otherOffset + position, count: UInt64(count), skipping: checked) {
                    return position + difference
                }
            }
            position += UInt64(piece.count)
        }
        return nil
    }

    // MARK: - Equality

    /// Equal when the bytes are; ranges are compared a chunk at a time (bytes that cannot be
    /// read equal nothing).
    public static func == (lhs: SplicedBytes, rhs: SplicedBytes) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.isInMemory && rhs.isInMemory, let a = try? lhs.materialized(), let b = try? rhs.materialized() { return a == b }
        return (try? lhs.firstDifference(at: 0, from: rhs, at: 0, count: UInt64(lhs.count), chunkSize: 1 << 20)) == .some(nil)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(count) }

    public var description: String {
        let inMemory = countInMemory
        return inMemory == count ? "\(count) bytes" : "\(count) bytes (\(count - inMemory) in a file)"
    }
}
