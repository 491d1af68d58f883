/// The first bytes of a collection, at most 16, held in the value itself: a frame or tag
/// header copied out of any collection of bytes without a heap allocation (`Array(prefix(4))`
/// allocated for each of the several headers every MP3 file opened reads).
///
/// ```swift
/// let b = HeaderBytes(bytes, count: 4)
/// guard b.count == 4, b[0] == 0xFF else { return nil }
/// ```
public struct HeaderBytes: RandomAccessCollection, Sendable, Hashable {
    /// The bytes, the first in the low byte of `low`.
    @usableFromInline var low: UInt64 = 0
    @usableFromInline var high: UInt64 = 0
    /// How many bytes it holds: `count` or fewer when `bytes` has fewer.
    public let endIndex: Int

    /// The largest count it holds.
    public static let capacity = 16

    /// The first `count` bytes of `bytes` (all of them when it has fewer); `count` is at most 16.
    /// Inlinable, so that it is specialized for the caller's collection (generic, it took
    /// longer than the array it replaces).
    @inlinable public init<C: Collection<UInt8>>(_ bytes: C, count: Int) {
        precondition(count >= 0 && count <= Self.capacity, "HeaderBytes holds at most \(Self.capacity) bytes")
        var taken = 0
        for byte in bytes.prefix(count) {
            if taken < 8 { low |= UInt64(byte) << (8 * taken) } else { high |= UInt64(byte) << (8 * (taken - 8)) }
            taken += 1
        }
        endIndex = taken
    }

    @inlinable public var startIndex: Int { 0 }

    @inlinable public subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < endIndex, "HeaderBytes index out of range")
        return UInt8(truncatingIfNeeded: position < 8 ? low >> (8 * position) : high >> (8 * (position - 8)))
    }
}
