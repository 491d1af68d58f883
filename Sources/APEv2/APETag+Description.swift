import MediaBytes

extension APETag {
    /// The tag, whose bytes are `range`, as the inspector shows it: its version and items (key,
    /// kind, flags and value), each with the bytes it was read from.
    public func structure(range: Range<UInt64>) -> StructureDescription {
        let children = items.map { item -> StructureDescription in
            let start = item.offset ?? range.lowerBound
            // An item: value size 4, flags 4, the key and a zero, the value.
            let keyEnd = start + 8 + UInt64(item.key.utf8.count)
            let valueRange = keyEnd + 1..<start + UInt64(item.encoded.count)
            let known = item.offset != nil
            var fields = [DescribedField("key", item.key, range: known ? start + 8..<keyEnd : nil),
                          DescribedField("kind", item.kind.description, range: known ? start + 4..<start + 8 : nil),
                          DescribedField("readOnly", item.isReadOnly, range: known ? start + 4..<start + 8 : nil)]
            let summary: String
            if let texts = item.texts {
                fields.append(DescribedField("values", .list(texts.map(FieldValue.text)), range: known ? valueRange : nil))
                summary = texts.map(FieldValue.quoted).joined(separator: ", ")
            } else if let cover = item.coverArt {
                fields += [DescribedField("description", cover.description), DescribedField("imageSize", cover.data.count, range: known ? valueRange : nil)]
                summary = "cover \(FieldValue.quoted(cover.description)), \(cover.data.count) bytes"
            } else {
                fields.append(DescribedField("size", item.value.count, range: known ? valueRange : nil))
                summary = "\(item.kind), \(item.value.count) bytes"
            }
            return StructureDescription(.item, type: item.key, offset: start, size: UInt64(item.encoded.count), headerSize: 9 + item.key.utf8.count,
                                        fields: fields, summary: summary)
        }
        return StructureDescription(.tag, type: "APEv2", offset: range.lowerBound, size: UInt64(range.count), headerSize: hasHeader ? 32 : 0,
                                    fields: [DescribedField("version", version), DescribedField("items", items.count), DescribedField("readOnly", isReadOnly)],
                                    summary: "\(version >= 2000 ? "APEv2" : "APEv1"), \(items.count) items", children: children)
    }
}
