import MediaBytes

// How ID3 tags describe themselves to the structure inspector: the tag's header fields, each
// frame's flags and content, the fixed fields of ID3v1, each with the bytes it was read from.

extension ID3v2Tag {
    /// The tag as the inspector shows it: its header fields and its frames (chapter frames with
    /// their subframes).
    public var structure: StructureDescription {
        var fields: [DescribedField] = [
            DescribedField("version", "2.\(majorVersion).\(revision)", range: offset + 3..<offset + 5),
            DescribedField("flags", headerFlags, range: offset + 5..<offset + 6),
            DescribedField("unsynchronised", isUnsynchronised, range: offset + 5..<offset + 6),
            DescribedField("footer", hasFooter, range: offset + 5..<offset + 6),
        ]
        if let extended = extendedHeader {
            var members = [DescribedField("size", extended.storedSize)]
            if let crc = extended.crc { members.append(DescribedField("crc", crc)) }
            if let padding = extended.paddingSize { members.append(DescribedField("paddingSize", padding)) }
            if extended.isUpdate { members.append(DescribedField("update", true)) }
            if let restrictions = extended.restrictions { members.append(DescribedField("restrictions", restrictions)) }
            let range = isUnsynchronised ? nil : offset + 10..<offset + 10 + UInt64(extended.storedSize)
            fields.append(DescribedField("extendedHeader", record: members, range: range))
        }
        let paddingEnd = offset + totalSize - (hasFooter ? 10 : 0)
        let paddingRange = paddingSize > 0 && UInt64(paddingSize) <= paddingEnd - offset ? paddingEnd - UInt64(paddingSize)..<paddingEnd : nil
        fields += [DescribedField("frameCount", frames.count), DescribedField("paddingSize", paddingSize, range: paddingRange)]
        return StructureDescription(
            .tag, type: "ID3v2", offset: offset, size: totalSize, headerSize: 10, fields: fields,
            summary: "v2.\(majorVersion).\(revision), \(frames.count) frames, \(paddingSize) bytes padding" + (isUnsynchronised ? ", unsynchronised" : ""),
            children: ID3Frame.structures(frames, version: majorVersion, offsetsAreInFile: !(isUnsynchronised && majorVersion < 4)))
    }
}

extension ID3Frame {
    /// Frames as the inspector shows them. `offsetsAreInFile` is false when the frames' offsets
    /// are not the file's (a tag unsynchronised as a whole counts undone bytes; a tag put
    /// together from transport-stream packets counts within the packets): no byte ranges then.
    public static func structures(_ frames: [ID3Frame], version: UInt8, offsetsAreInFile: Bool) -> [StructureDescription] {
        frames.map { $0.structure(version: version, offsetsAreInFile: offsetsAreInFile) }
    }

    /// The frame as the inspector shows it: its stored identifier, flags, content fields (and
    /// subframes), each with its bytes where they are the file's as stored.
    public func structure(version: UInt8, offsetsAreInFile: Bool) -> StructureDescription {
        var fields: [DescribedField] = []
        if id != storedID { fields.append(DescribedField("id", id)) }
        let flagFields = flags.describedFields
        if !flagFields.isEmpty { fields.append(DescribedField("flags", record: flagFields)) }
        let (contentFields, summary) = content.described
        fields += contentFields
        if id == "TRCK" || id == "TPOS", let value = textValues?.first {
            let (index, total) = ID3v2Tag.position(value)
            if let index { fields.append(DescribedField("index", index)) }
            if let total { fields.append(DescribedField("total", total)) }
        }
        let ranges = fieldRanges(version: version, offsetsAreInFile: offsetsAreInFile)
        for index in fields.indices { fields[index].range = ranges[fields[index].name] }
        let subframes = content.chapter?.subframes ?? content.tableOfContents?.subframes ?? []
        return StructureDescription(.frame, type: storedID, offset: offset, size: UInt64(storedSize), headerSize: version == 2 ? 6 : 10,
                                    fields: fields, summary: summary,
                                    children: Self.structures(subframes, version: version, offsetsAreInFile: offsetsAreInFile))
    }

    /// Where the frame's fields are in the file: the header's identifier and flags always; the
    /// content's encoding byte, text or URL, and a picture's or object's data (`size`), when the
    /// content is stored as it reads (no unsynchronisation, compression, encryption, group or
    /// length prefix).
    func fieldRanges(version: UInt8, offsetsAreInFile: Bool) -> [String: Range<UInt64>] {
        guard offsetsAreInFile else { return [:] }
        let start = offset
        let headerSize = UInt64(version == 2 ? 6 : 10)
        let end = start + UInt64(storedSize)
        var ranges: [String: Range<UInt64>] = ["id": start..<start + (version == 2 ? 3 : 4)]
        if version > 2 { ranges["flags"] = start + 8..<start + 10 }
        guard !flags.compressed, !flags.unsynchronised, flags.encryptionMethod == nil, flags.groupID == nil, flags.dataLength == nil,
              end >= start + headerSize else { return ranges }
        let payload = start + headerSize
        switch content.kind {
        case .text:
            if end > payload { ranges["encoding"] = payload..<payload + 1; ranges["values"] = payload + 1..<end }
        case .url:
            ranges["url"] = payload..<end
        case .userText, .userURL, .comment, .syncedLyrics, .picture, .object:
            if end > payload { ranges["encoding"] = payload..<payload + 1 }
            // A picture's or object's data ends the frame: `size` covers those bytes.
            let data = content.picture?.data.count ?? content.object?.data.count
            if let count = data.map(UInt64.init), count <= end - payload { ranges["size"] = end - count..<end }
        case .playCounter:
            ranges["count"] = payload..<end
        default:
            if content.binary != nil { ranges["data"] = payload..<end }
        }
        return ranges
    }
}

extension ID3FrameFlags {
    /// The flags that are set, by name.
    var describedFields: [DescribedField] {
        var fields: [DescribedField] = []
        if discardOnTagAlter { fields.append(DescribedField("discardOnTagAlter", true)) }
        if discardOnFileAlter { fields.append(DescribedField("discardOnFileAlter", true)) }
        if readOnly { fields.append(DescribedField("readOnly", true)) }
        if let groupID { fields.append(DescribedField("groupID", groupID)) }
        if compressed { fields.append(DescribedField("compressed", true)) }
        if let encryptionMethod { fields.append(DescribedField("encryptionMethod", encryptionMethod)) }
        if unsynchronised { fields.append(DescribedField("unsynchronised", true)) }
        if let dataLength { fields.append(DescribedField("dataLength", dataLength)) }
        return fields
    }
}

/// The picture types of ID3v2's `APIC` frame (which FLAC's PICTURE block shares), in the
/// specification's words.
public enum ID3PictureType {
    public static let names = [
        "other", "file icon", "other file icon", "front cover", "back cover", "leaflet page", "media", "lead artist",
        "artist", "conductor", "band", "composer", "lyricist", "recording location", "during recording",
        "during performance", "video capture", "bright coloured fish", "illustration", "band logo", "publisher logo",
    ]

    /// The name of picture type `type` (`front cover`), or `type N` for one the list lacks.
    public static func name<T: BinaryInteger>(_ type: T) -> String {
        type >= 0 && type < names.count ? names[Int(type)] : "type \(type)"
    }
}

extension ID3FrameContent {
    /// The content's fields and a one-line summary, as the inspector shows them.
    public var described: (fields: [DescribedField], summary: String) {
        let quoted = FieldValue.quoted
        func encoding(_ e: ID3TextEncoding) -> DescribedField { DescribedField("encoding", e.name) }
        func texts(_ values: [String]) -> FieldValue { .list(values.map(FieldValue.text)) }
        func bytes<C: Collection>(_ data: C) -> [DescribedField] where C.Element == UInt8 {
            [DescribedField("size", data.count)] + (data.count <= 64 ? [DescribedField("data", .bytes(Array(data)))] : [])
        }
        switch kind {
        case .text:
            let (e, values) = text!
            return ([encoding(e), DescribedField("values", texts(values))], values.map(quoted).joined(separator: "; "))
        case .userText:
            let (e, description, values) = userText!
            return ([encoding(e), DescribedField("description", description), DescribedField("values", texts(values))],
                    "\(quoted(description)): " + values.map(quoted).joined(separator: "; "))
        case .url:
            let url = url!
            return ([DescribedField("url", url)], url)
        case .userURL:
            let (e, description, url) = userURL!
            return ([encoding(e), DescribedField("description", description), DescribedField("url", url)], "\(quoted(description)): \(url)")
        case .comment:
            let (e, language, description, text) = comment!
            return ([encoding(e), DescribedField("language", language), DescribedField("description", description), DescribedField("text", text)],
                    "[\(language)] \(quoted(description)): \(quoted(text))")
        case .syncedLyrics:
            let (e, language, format, type, description, lines) = syncedLyrics!
            return ([encoding(e), DescribedField("language", language), DescribedField("timestampFormat", format),
                     DescribedField("contentType", type), DescribedField("description", description),
                     DescribedField("lines", .list(lines.map { .record([DescribedField("time", $0.time), DescribedField("text", $0.text)]) }))],
                    "[\(language)] \(lines.count) lines")
        case .picture:
            let (e, mime, type, description, data) = picture!
            let typeName = ID3PictureType.name(type)
            return ([encoding(e), DescribedField("mimeType", mime), DescribedField("pictureType", type), DescribedField("pictureTypeName", typeName),
                     DescribedField("description", description), DescribedField("size", data.count)],
                    "\(typeName) \(mime) \(data.count) bytes" + (description.isEmpty ? "" : " \(quoted(description))"))
        case .object:
            let (e, mime, filename, description, data) = object!
            return ([encoding(e), DescribedField("mimeType", mime), DescribedField("filename", filename), DescribedField("description", description),
                     DescribedField("size", data.count)], "\(mime) \(quoted(filename)) \(data.count) bytes")
        case .privateData:
            let (owner, data) = privateData!
            var fields = [DescribedField("owner", owner)] + bytes(data)
            var summary = "\(owner) \(data.count) bytes"
            if owner == ID3v2Tag.transportStreamTimestampOwner, data.count == 8 {
                let value = data.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } & ((1 << 33) - 1)
                fields += [DescribedField("transportStreamTimestamp", value), DescribedField("seconds", Double(value) / 90000)]
                summary = "MPEG-2 TS timestamp \(value) (\(Double(value) / 90000) s)"
            }
            return (fields, summary)
        case .uniqueFileID:
            let (owner, identifier) = uniqueFileID!
            let text = String(validating: identifier, as: UTF8.self) ?? identifier.hexString
            return ([DescribedField("owner", owner), DescribedField("identifier", text)], "\(owner): \(text)")
        case .popularimeter:
            let (email, rating, counter) = popularimeter!
            var fields = [DescribedField("email", email), DescribedField("rating", rating)]
            if let counter { fields.append(DescribedField("counter", counter)) }
            return (fields, "\(email) rating \(rating)" + (counter.map { " played \($0)" } ?? ""))
        case .playCounter:
            let count = playCounter!
            return ([DescribedField("count", count)], "played \(count)")
        case .chapter:
            let (id, start, end, startOffset, endOffset, _) = chapter!
            return ([DescribedField("elementID", id), DescribedField("startTime", start), DescribedField("endTime", end),
                     DescribedField("startOffset", startOffset), DescribedField("endOffset", endOffset)],
                    "\(id) \(start)-\(end) ms")
        case .tableOfContents:
            let (id, top, ordered, children, _) = tableOfContents!
            return ([DescribedField("elementID", id), DescribedField("isTopLevel", top), DescribedField("isOrdered", ordered),
                     DescribedField("children", texts(children))], "\(id): \(children.joined(separator: ", "))")
        case .musicCDIdentifier:
            let data = musicCDIdentifier!
            return (bytes(data), "\(data.count) bytes")
        case .relativeVolume:
            let (identification, channels) = relativeVolume!
            return ([DescribedField("identification", identification),
                     DescribedField("channels", .list(channels.map { .record([DescribedField("channel", $0.channel), DescribedField("adjustment", $0.adjustment),
                                                                              DescribedField("peakBits", $0.peakBits)]) }))],
                    "\(identification): " + channels.map { "\($0.adjustment) dB" }.joined(separator: ", "))
        default:
            // Binary frames, and any frame family not described yet, as bytes.
            let data = binary ?? []
            return (bytes(data), "\(data.count) bytes")
        }
    }
}

extension ID3v1Tag {
    /// The tag, at `offset`, as the inspector shows it: its fixed fields at their fixed places.
    public func structure(at offset: UInt64) -> StructureDescription {
        // The fixed layout: "TAG", title 30, artist 30, album 30, year 4, comment 30 (28, a zero
        // and the track in v1.1), genre 1.
        let at = { (start: UInt64, count: UInt64) in offset + start..<offset + start + count }
        var fields = [
            DescribedField("version", track == nil ? "1.0" : "1.1"), DescribedField("title", title, range: at(3, 30)),
            DescribedField("artist", artist, range: at(33, 30)), DescribedField("album", album, range: at(63, 30)),
            DescribedField("year", year, range: at(93, 4)), DescribedField("comment", comment, range: at(97, track == nil ? 30 : 28)),
        ]
        if let track { fields.append(DescribedField("track", track, range: at(126, 1))) }
        fields.append(DescribedField("genreIndex", genreIndex, range: at(127, 1)))
        if let genre { fields.append(DescribedField("genre", genre, range: at(127, 1))) }
        return StructureDescription(.tag, type: "ID3v1", offset: offset, size: 128, headerSize: 3, fields: fields,
                                    summary: "v\(track == nil ? "1.0" : "1.1") \(FieldValue.quoted(title))" + (track.map { " track \($0)" } ?? ""))
    }
}
