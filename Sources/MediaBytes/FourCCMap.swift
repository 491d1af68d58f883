/// A fixed table from four-character codes to values, for the tables a reader consults on
/// every item of every file (an `ilst` item's value kind, its row of the key table): the codes
/// sorted once and found by binary search on their 32-bit values, like `FourCCSet`, instead of
/// hashed with SipHash on every lookup. Tables built at run time or handed out by a public API
/// stay dictionaries.
public struct FourCCMap<Value: Sendable>: Sendable {
    @usableFromInline let codes: [UInt32]
    @usableFromInline let values: [Value]

    /// The table of `dictionary` (its keys are unique already).
    public init(_ dictionary: [FourCC: Value]) {
        codes = dictionary.keys.map(\.rawValue).sorted()
        values = codes.map { dictionary[FourCC(rawValue: $0)]! }
    }

    /// The value of `code`, or nil when the table has none. (Inlinable, so that it is made for
    /// the caller's value type rather than run through generic witnesses.)
    @inlinable
    public subscript(code: FourCC) -> Value? {
        sortedIndex(of: code.rawValue, in: codes).map { values[$0] }
    }

    public var count: Int { codes.count }
}
