import MediaBytes

extension VorbisComment {
    /// The comment as the inspector shows it: its vendor and field count, and each field as an
    /// item (name and value).
    ///
    /// Positions count from `base`, where the comment's bytes start (its vendor length) in the
    /// block or packet that holds it; `place(start, count)` says where bytes `start..<start +
    /// count` are in the file, cut at the end of the piece of the file that holds `start` (an
    /// Ogg packet goes on on the next page), or nil when `start` is not in the piece described
    /// (then the field is left out: another page shows it).
    public func structure(base: Int, place: (Int, Int) -> Range<UInt64>?) -> (fields: [DescribedField], items: [StructureDescription]) {
        let vendorLength = vendorBytes.count
        let fields = [DescribedField("vendor", vendor, range: place(base + 4, vendorLength)),
                      DescribedField("fields", self.fields.count, range: place(base + 4 + vendorLength, 4))]
        var items: [StructureDescription] = []
        var position = base + 8 + vendorLength
        for field in self.fields {
            let size = 4 + field.bytes.count
            defer { position += size }
            guard let bytes = place(position, size) else { continue }
            let nameLength = field.name.utf8.count
            let isPicture = field.key == "METADATA_BLOCK_PICTURE"
            let value = isPicture ? "" : field.value
            items.append(StructureDescription(
                .item, type: field.name, name: field.key, offset: bytes.lowerBound, size: UInt64(bytes.count), headerSize: 4,
                fields: [DescribedField("name", field.name, range: place(position + 4, nameLength)),
                         DescribedField("value", value, range: place(position + 5 + nameLength, field.valueBytes.count))],
                summary: isPicture ? "\(field.valueBytes.count) bytes of Base64 (a FLAC picture)" : FieldValue.quoted(value)))
        }
        return (fields, items)
    }
}

extension FLACPicture.Header {
    /// The header's fields, for a picture structure whose bytes start at `start` in the file.
    public func describedFields(at start: UInt64) -> [DescribedField] {
        let mime = UInt64(mimeType.utf8.count), text = UInt64(description.utf8.count)
        func at(_ offset: UInt64, _ count: UInt64) -> Range<UInt64> { start + offset..<start + offset + count }
        return [
            DescribedField("pictureType", type, range: at(0, 4)),
            DescribedField("mimeType", mimeType, range: at(8, mime)),
            DescribedField("description", description, range: at(12 + mime, text)),
            DescribedField("width", width, range: at(12 + mime + text, 4)),
            DescribedField("height", height, range: at(16 + mime + text, 4)),
            DescribedField("colorDepth", colorDepth, range: at(20 + mime + text, 4)),
            DescribedField("colorCount", colorCount, range: at(24 + mime + text, 4)),
            DescribedField("dataLength", dataLength, range: at(UInt64(dataOffset), UInt64(dataLength))),
        ]
    }
}
