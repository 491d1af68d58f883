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
}
