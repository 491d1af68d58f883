import ID3
import MediaBytes

extension IFFChunkFile: StructureDescribing {
    /// The chunk tree as the inspector shows it, with the ID3 tag inside its chunk.
    public var structure: DescribedParts { DescribedParts([structure(of: root, inList: false)]) }

    func structure(of chunk: IFFChunk, inList: Bool) -> StructureDescription {
        let data = chunk.dataOffset
        let end = data + chunk.dataSize
        var fields: [DescribedField] = []
        var summary = ""
        if let form = chunk.formType {
            fields.append(DescribedField("formType", form.description, range: data..<data + 4))
            summary = "form \(form)"
        }
        if chunk.dataSize < chunk.declaredSize { fields.append(DescribedField("declaredSize", chunk.declaredSize, range: chunk.offset + 4..<data)) }
        if let format = audioFormat, chunk.id == "COMM" || chunk.id == "fmt " {
            // The members of a WAV `fmt ` or an AIFF `COMM` at their fixed places.
            let layout: [String: (UInt64, UInt64)] = chunk.id == "fmt "
                ? ["formatTag": (0, 2), "channels": (2, 2), "sampleRate": (4, 4), "bitsPerSample": (14, 2)]
                : ["channels": (0, 2), "frameCount": (2, 4), "bitsPerSample": (6, 2), "sampleRate": (8, 10), "compressionType": (18, 4)]
            func at(_ name: String) -> Range<UInt64>? {
                guard let (start, count) = layout[name], data + start + count <= end else { return nil }
                return data + start..<data + start + count
            }
            if let tag = format.formatTag { fields.append(DescribedField("formatTag", tag, range: at("formatTag"))) }
            if let compression = format.compressionType { fields.append(DescribedField("compressionType", compression.description, range: at("compressionType"))) }
            fields += [DescribedField("channels", format.channels, range: at("channels")), DescribedField("sampleRate", format.sampleRate, range: at("sampleRate")),
                       DescribedField("bitsPerSample", format.bitsPerSample, range: at("bitsPerSample"))]
            if let frames = format.frameCount { fields.append(DescribedField("frameCount", frames, range: at("frameCount"))) }
            summary = "\(format.channels) ch, \(FieldValue.number(format.sampleRate).summaryText) Hz, \(format.bitsPerSample) bits"
        }
        // (Each entry chunk's own text: a second `ICMT`, or one a later list hides, shows its own.)
        if inList, let value = infoTextByOffset[chunk.offset] {
            fields.append(DescribedField("value", value, range: data..<end))
            summary = "\"\(value)\""
        }
        var children = chunk.children.map { structure(of: $0, inList: inList || chunk.id == "LIST") }
        if chunk.id == "ID3 " || chunk.id == "id3 ", let tag = id3Tag, tag.offset == chunk.dataOffset {
            children.append(tag.structure)
            summary = "ID3v2.\(tag.majorVersion) tag"
        }
        // The span in the file: an odd-sized last chunk whose pad byte the file lacks (common in
        // WAV and AIFF files) ends with its data (a save writes the pad byte).
        let span = min(chunk.totalSize, fileSize > chunk.offset ? fileSize - chunk.offset : 0)
        var notes = chunk.dataSize < chunk.declaredSize ? ["declares \(chunk.declaredSize): truncated"] : []
        if span < chunk.totalSize && chunk.dataSize == chunk.declaredSize { notes.append("no pad byte after its odd size: the file ends") }
        return StructureDescription(.chunk, type: chunk.id.description, offset: chunk.offset, size: span, headerSize: chunk.formType == nil ? 8 : 12,
                                    notes: notes, fields: fields, summary: summary, children: children)
    }
}
