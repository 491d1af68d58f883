/// A fixed set of four-character codes for the type tables a parser consults on every atom or
/// chunk: the codes sorted once, looked up by binary search on their 32-bit values.
///
/// A `Set<FourCC>` hashes every lookup with SipHash; for a table of a few dozen codes asked
/// about each atom of every file, comparing integers is several times cheaper. Use this for
/// the fixed tables a reader or writer consults per atom or chunk; a set built at run time, or
/// one a public API hands out, stays a `Set<FourCC>`.
public struct FourCCSet: Sendable, Hashable, ExpressibleByArrayLiteral, Sequence {
    private let sorted: [UInt32]

    public init<S: Sequence>(_ codes: S) where S.Element == FourCC {
        var values = codes.map(\.rawValue)
        values.sort()
        var unique: [UInt32] = []
        unique.reserveCapacity(values.count)
        for value in values where unique.last != value { unique.append(value) }
        sorted = unique
    }

    public init(arrayLiteral codes: FourCC...) { self.init(codes) }

    public func contains(_ code: FourCC) -> Bool { sortedIndex(of: code.rawValue, in: sorted) != nil }

    public var count: Int { sorted.count }

    /// The codes in ascending order of their values.
    public func makeIterator() -> some IteratorProtocol<FourCC> {
        sorted.lazy.map(FourCC.init(rawValue:)).makeIterator()
    }
}

/// The index of `value` in `sorted` (ascending, without repeats), found by binary search; nil
/// when it is not there. The lookup of `FourCCSet` and `FourCCMap`.
@inlinable
func sortedIndex(of value: UInt32, in sorted: [UInt32]) -> Int? {
    var low = 0, high = sorted.count
    while low < high {
        let middle = (low + high) / 2
        let candidate = sorted[middle]
        if candidate == value { return middle }
        if candidate < value { low = middle + 1 } else { high = middle }
    }
    return nil
}
