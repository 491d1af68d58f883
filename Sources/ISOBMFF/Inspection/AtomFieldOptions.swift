import MediaBytes

/// Options for turning decoded payloads into fields.
public struct AtomFieldOptions: Sendable, Hashable {
    /// Most table entries listed per atom (sample sizes, chunk offsets…); nil lists them all.
    public var maxEntries: Int?

    public init(maxEntries: Int? = 32) { self.maxEntries = maxEntries }

    public static let `default` = AtomFieldOptions()
    public static let complete = AtomFieldOptions(maxEntries: nil)

    /// Appends `entryCount`, the first `maxEntries` entries, and `entriesTruncated` when cut.
    public func tableFields<T>(_ entries: [T], count: Int? = nil, _ transform: (T) -> FieldValue) -> [DescribedField] {
        let shown = maxEntries.map { min($0, entries.count) } ?? entries.count
        var fields = [DescribedField("entryCount", count ?? entries.count)]
        fields.append(DescribedField("entries", .list(entries.prefix(shown).map(transform))))
        if shown < entries.count { fields.append(DescribedField("entriesTruncated", true)) }
        return fields
    }

    /// The same fields for entries read one after another from `bytes` (the part of a payload
    /// that holds them), only as many as are listed: a table of a million entries costs its
    /// bytes, not a million values. `count` is how many the box says it has; reading stops at
    /// the end of the bytes, at an entry that does not read, or at one that takes no bytes.
    ///
    /// `countRange` and `entriesRange` are the file bytes of the count and of the entries, for
    /// the fields' byte ranges.
    public func tableFields(count: Int, bytes: [UInt8], countRange: Range<UInt64>? = nil, entriesRange: Range<UInt64>? = nil,
                            _ next: (inout ByteReader) throws -> FieldValue) -> [DescribedField] {
        var reader = ByteReader(bytes)
        let wanted = maxEntries.map { min($0, count) } ?? count
        var entries: [FieldValue] = []
        while entries.count < wanted, !reader.isAtEnd {
            let before = reader.remaining
            guard let entry = try? next(&reader) else { break }
            entries.append(entry)
            if reader.remaining == before { break }
        }
        var fields = [DescribedField("entryCount", count, range: countRange), DescribedField("entries", .list(entries), range: entriesRange)]
        if entries.count < count { fields.append(DescribedField("entriesTruncated", true)) }
        return fields
    }
}
