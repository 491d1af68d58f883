import APEv2
import Carriers
import ID3
import ISOBMFF
import MediaBytes

/// Inspection nodes for the files that carry ID3: MP3 and ADTS streams, AIFF and WAV chunks.
public enum ID3Inspection {
    /// Tags, stream header and trailing blocks of an MP3 or ADTS file, in file order.
    public static func nodes(for file: MPEGStreamFile) -> [InspectionNode] {
        var nodes: [(UInt64, String, (String) -> InspectionNode)] = []
        for tag in file.leadingTags + (file.appendedTag.map { [$0] } ?? []) {
            nodes.append((tag.offset, "ID3v2", { path in tagNode(tag, path: path) }))
        }
        if let junk = file.junkBeforeAudio {
            nodes.append((junk.lowerBound, "junk", { path in
                InspectionNode(kind: .block, type: "junk", offset: junk.lowerBound, size: UInt64(junk.count), headerSize: 0, path: path,
                               summary: "\(junk.count) bytes before the first audio frame")
            }))
        }
        if file.kind != nil {
            nodes.append((file.audio.lowerBound, file.kind == .aac ? "adts" : "mpeg", { path in streamNode(file, path: path) }))
        }
        if let range = file.apeBlock, let tag = file.apeTag {
            nodes.append((range.lowerBound, "APEv2", { path in apeNode(tag, range: range, path: path) }))
        }
        if let lyrics = file.lyrics3Block {
            nodes.append((lyrics.lowerBound, "Lyrics3v2", { path in
                InspectionNode(kind: .block, type: "Lyrics3v2", offset: lyrics.lowerBound, size: UInt64(lyrics.count), headerSize: 11, path: path,
                               summary: "Lyrics3v2 block, preserved as is")
            }))
        }
        if let v1 = file.id3v1 {
            let offset = file.id3v1Block?.lowerBound ?? file.fileSize - 128
            nodes.append((offset, "ID3v1", { path in v1Node(v1, offset: offset, path: path) }))
        }
        nodes.sort { $0.0 < $1.0 }
        let indexes = InspectionPath.siblingIndexes(nodes.map(\.1))
        return nodes.enumerated().map { i, entry in entry.2(component(entry.1, indexes[i])) }
    }

    /// An APE tag and its items (key, kind, flags and value).
    static func apeNode(_ tag: APETag, range: Range<UInt64>, path: String) -> InspectionNode {
        let indexes = InspectionPath.siblingIndexes(tag.items.map(\.key))
        let children = tag.items.enumerated().map { index, item -> InspectionNode in
            let start = item.offset ?? range.lowerBound
            var fields: [(String, JSONValue)] = [("key", .string(item.key)), ("kind", .string(item.kind.description)), ("readOnly", .bool(item.isReadOnly))]
            let summary: String
            if let texts = item.texts {
                fields.append(("values", .array(texts.map(JSONValue.string))))
                summary = texts.map(quoted).joined(separator: ", ")
            } else if let cover = item.coverArt {
                fields += [("description", .string(cover.description)), ("imageSize", .uint(UInt64(cover.data.count)))]
                summary = "cover \(quoted(cover.description)), \(cover.data.count) bytes"
            } else {
                fields.append(("size", .uint(UInt64(item.value.count))))
                summary = "\(item.kind), \(item.value.count) bytes"
            }
            // An item: value size 4, flags 4, the key and a zero, the value.
            let keyEnd = start + 8 + UInt64(item.key.utf8.count)
            let valueRange = keyEnd + 1..<start + UInt64(item.encoded.count)
            var ranges: [String: Range<UInt64>] = [:]
            if item.offset != nil {
                ranges = ["key": start + 8..<keyEnd, "kind": start + 4..<start + 8, "readOnly": start + 4..<start + 8,
                          "values": valueRange, "size": valueRange, "imageSize": valueRange]
            }
            return InspectionNode(kind: .item, type: item.key, offset: start, size: UInt64(item.encoded.count), headerSize: 9 + item.key.utf8.count,
                                  path: path + "/" + component(item.key, indexes[index]), fields: ranged(fields, ranges), summary: summary)
        }
        let version = tag.version >= 2000 ? "APEv2" : "APEv1"
        return InspectionNode(kind: .tag, type: "APEv2", offset: range.lowerBound, size: UInt64(range.count), headerSize: tag.hasHeader ? 32 : 0, path: path,
                              fields: [("version", .uint(UInt64(tag.version))), ("items", .uint(UInt64(tag.items.count))), ("readOnly", .bool(tag.isReadOnly))],
                              summary: "\(version), \(tag.items.count) items", children: children)
    }

    /// The chunk tree of an AIFF or WAV file, with the ID3 tag inside its chunk.
    public static func nodes(for file: IFFChunkFile) -> [InspectionNode] {
        [chunkNode(file.root, path: file.root.id.description, file: file)]
    }

    static func component(_ type: String, _ index: Int?) -> String {
        InspectionPath.escape(type) + (index.map { "[\($0)]" } ?? "")
    }

    static func chunkNode(_ chunk: IFFChunk, path: String, file: IFFChunkFile) -> InspectionNode {
        var fields: [(String, JSONValue)] = []
        var summary = ""
        if let form = chunk.formType {
            fields.append(("formType", .string(form.description)))
            summary = "form \(form)"
        }
        if chunk.dataSize < chunk.declaredSize { fields.append(("declaredSize", .uint(chunk.declaredSize))) }
        if let format = file.audioFormat, chunk.id == "COMM" || chunk.id == "fmt " {
            if let tag = format.formatTag { fields.append(("formatTag", .uint(UInt64(tag)))) }
            if let compression = format.compressionType { fields.append(("compressionType", .string(compression.description))) }
            fields += [("channels", .int(Int64(format.channels))), ("sampleRate", .double(format.sampleRate)),
                       ("bitsPerSample", .int(Int64(format.bitsPerSample)))]
            if let frames = format.frameCount { fields.append(("frameCount", .uint(UInt64(frames)))) }
            summary = "\(format.channels) ch, \(AtomFieldValue.number(format.sampleRate).summaryText) Hz, \(format.bitsPerSample) bits"
        }
        if let entry = file.info?.entries.first(where: { $0.id == chunk.id }), path.contains("LIST") {
            fields.append(("value", .string(entry.value)))
            summary = "\"\(entry.value)\""
        }
        var children: [InspectionNode] = []
        let indexes = InspectionPath.siblingIndexes(chunk.children.map(\.id.description))
        for (i, child) in chunk.children.enumerated() {
            children.append(chunkNode(child, path: path + "/" + component(child.id.description, indexes[i]), file: file))
        }
        if (chunk.id == "ID3 " || chunk.id == "id3 "), let tag = file.id3Tag, tag.offset == chunk.dataOffset {
            children.append(tagNode(tag, path: path + "/ID3v2"))
            summary = "ID3v2.\(tag.majorVersion) tag"
        }
        return InspectionNode(kind: .chunk, type: chunk.id.description, offset: chunk.offset, size: chunk.totalSize, headerSize: chunk.formType == nil ? 8 : 12,
                              path: path, notes: chunk.dataSize < chunk.declaredSize ? ["declares \(chunk.declaredSize): truncated"] : [],
                              fields: ranged(fields, chunkRanges(chunk, in: file)), summary: summary, children: children)
    }

    /// Where a chunk's fields are: the declared size and form type in its header; the value
    /// of an INFO entry; the members of a WAV `fmt ` or an AIFF `COMM` at their fixed places.
    static func chunkRanges(_ chunk: IFFChunk, in file: IFFChunkFile) -> [String: Range<UInt64>] {
        let data = chunk.dataOffset
        let end = data + chunk.dataSize
        var ranges: [String: Range<UInt64>] = ["declaredSize": chunk.offset + 4..<data, "value": data..<end]
        if chunk.formType != nil { ranges["formType"] = data..<data + 4 }
        let layout: [(String, UInt64, UInt64)]
        switch chunk.id.description {
        case "fmt ": layout = [("formatTag", 0, 2), ("channels", 2, 2), ("sampleRate", 4, 4), ("bitsPerSample", 14, 2)]
        case "COMM": layout = [("channels", 0, 2), ("frameCount", 2, 4), ("bitsPerSample", 6, 2), ("sampleRate", 8, 10), ("compressionType", 18, 4)]
        default: layout = []
        }
        for (name, start, count) in layout where data + start + count <= end {
            ranges[name] = data + start..<data + start + count
        }
        return ranges
    }

    static func tagNode(_ tag: ID3v2Tag, path: String) -> InspectionNode {
        var fields: [(String, JSONValue)] = [
            ("version", .string("2.\(tag.majorVersion).\(tag.revision)")), ("flags", .uint(UInt64(tag.headerFlags))),
            ("unsynchronised", .bool(tag.isUnsynchronised)), ("footer", .bool(tag.hasFooter)),
        ]
        if let extended = tag.extendedHeader {
            var members: [(String, JSONValue)] = [("size", .int(Int64(extended.storedSize)))]
            if let crc = extended.crc { members.append(("crc", .uint(crc))) }
            if let padding = extended.paddingSize { members.append(("paddingSize", .uint(UInt64(padding)))) }
            if extended.isUpdate { members.append(("update", .bool(true))) }
            if let restrictions = extended.restrictions { members.append(("restrictions", .uint(UInt64(restrictions)))) }
            fields.append(("extendedHeader", .object(members)))
        }
        fields += [("frameCount", .int(Int64(tag.frames.count))), ("paddingSize", .int(Int64(tag.paddingSize)))]
        let start = tag.offset
        let paddingEnd = tag.offset + tag.totalSize - (tag.hasFooter ? 10 : 0)
        var ranges: [String: Range<UInt64>] = [
            "version": start + 3..<start + 5, "flags": start + 5..<start + 6, "unsynchronised": start + 5..<start + 6,
            "footer": start + 5..<start + 6,
        ]
        if tag.paddingSize > 0, UInt64(tag.paddingSize) <= paddingEnd - start { ranges["paddingSize"] = paddingEnd - UInt64(tag.paddingSize)..<paddingEnd }
        if let extended = tag.extendedHeader, !tag.isUnsynchronised { ranges["extendedHeader"] = start + 10..<start + 10 + UInt64(extended.storedSize) }
        return InspectionNode(
            kind: .tag, type: "ID3v2", offset: tag.offset, size: tag.totalSize, headerSize: 10, path: path, fields: ranged(fields, ranges),
            summary: "v2.\(tag.majorVersion).\(tag.revision), \(tag.frames.count) frames, \(tag.paddingSize) bytes padding"
                + (tag.isUnsynchronised ? ", unsynchronised" : ""),
            children: frameNodes(tag.frames, parentPath: path, version: tag.majorVersion, offsetsAreInFile: !(tag.isUnsynchronised && tag.majorVersion < 4)))
    }

    /// `fields` with the byte ranges `ranges` gives by field name.
    static func ranged(_ fields: [(String, JSONValue)], _ ranges: [String: Range<UInt64>]) -> [InspectionField] {
        fields.map { InspectionField($0.0, $0.1, range: ranges[$0.0]) }
    }

    /// Where a frame's fields are in the file: the header's identifier and flags always; the
    /// content's encoding byte and text or URL when the content is stored as it reads (no
    /// unsynchronisation, compression, encryption, group or length prefix). Offsets of a tag
    /// unsynchronised as a whole count undone bytes and are not the file's: none then.
    static func frameRanges(_ frame: ID3Frame, version: UInt8, offsetsAreInFile: Bool) -> [String: Range<UInt64>] {
        guard offsetsAreInFile else { return [:] }
        let start = frame.offset
        let headerSize = UInt64(version == 2 ? 6 : 10)
        let end = start + UInt64(frame.storedSize)
        var ranges: [String: Range<UInt64>] = ["id": start..<start + (version == 2 ? 3 : 4)]
        if version > 2 { ranges["flags"] = start + 8..<start + 10 }
        let flags = frame.flags
        guard !flags.compressed, !flags.unsynchronised, flags.encryptionMethod == nil, flags.groupID == nil, flags.dataLength == nil,
              end >= start + headerSize else { return ranges }
        let payload = start + headerSize
        switch frame.content.kind {
        case .text:
            if end > payload { ranges["encoding"] = payload..<payload + 1; ranges["values"] = payload + 1..<end }
        case .url:
            ranges["url"] = payload..<end
        case .userText, .userURL, .comment, .syncedLyrics, .picture, .object:
            if end > payload { ranges["encoding"] = payload..<payload + 1 }
        case .playCounter:
            ranges["count"] = payload..<end
        default:
            if frame.content.binary != nil { ranges["data"] = payload..<end }
        }
        return ranges
    }

    static func frameNodes(_ frames: [ID3Frame], parentPath: String, version: UInt8, offsetsAreInFile: Bool) -> [InspectionNode] {
        let indexes = InspectionPath.siblingIndexes(frames.map(\.storedID))
        return frames.enumerated().map { i, frame in
            let path = parentPath + "/" + component(frame.storedID, indexes[i])
            var fields: [(String, JSONValue)] = []
            if frame.id != frame.storedID { fields.append(("id", .string(frame.id))) }
            let flags = flagFields(frame.flags)
            if !flags.isEmpty { fields.append(("flags", .object(flags))) }
            let (contentFields, summary) = describe(frame.content)
            fields += contentFields
            if frame.id == "TRCK" || frame.id == "TPOS", let value = frame.textValues?.first {
                let (index, total) = ID3v2Tag.position(value)
                if let index { fields.append(("index", .int(Int64(index)))) }
                if let total { fields.append(("total", .int(Int64(total)))) }
            }
            var children: [InspectionNode] = []
            if let subframes = frame.content.chapter?.subframes ?? frame.content.tableOfContents?.subframes {
                children = frameNodes(subframes, parentPath: path, version: version, offsetsAreInFile: offsetsAreInFile)
            }
            return InspectionNode(kind: .frame, type: frame.storedID, offset: frame.offset, size: UInt64(frame.storedSize), headerSize: version == 2 ? 6 : 10,
                                  path: path, fields: ranged(fields, frameRanges(frame, version: version, offsetsAreInFile: offsetsAreInFile)),
                                  summary: summary, children: children)
        }
    }

    static func flagFields(_ flags: ID3FrameFlags) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = []
        if flags.discardOnTagAlter { fields.append(("discardOnTagAlter", .bool(true))) }
        if flags.discardOnFileAlter { fields.append(("discardOnFileAlter", .bool(true))) }
        if flags.readOnly { fields.append(("readOnly", .bool(true))) }
        if let group = flags.groupID { fields.append(("groupID", .uint(UInt64(group)))) }
        if flags.compressed { fields.append(("compressed", .bool(true))) }
        if let method = flags.encryptionMethod { fields.append(("encryptionMethod", .uint(UInt64(method)))) }
        if flags.unsynchronised { fields.append(("unsynchronised", .bool(true))) }
        if let length = flags.dataLength { fields.append(("dataLength", .uint(UInt64(length)))) }
        return fields
    }

    static let pictureTypes = [
        "other", "file icon", "other file icon", "front cover", "back cover", "leaflet page", "media", "lead artist",
        "artist", "conductor", "band", "composer", "lyricist", "recording location", "during recording",
        "during performance", "video capture", "bright coloured fish", "illustration", "band logo", "publisher logo",
    ]

    static func quoted(_ text: String) -> String { AtomFieldValue.text(text).summaryText }

    static func bytesField<C: Collection>(_ data: C) -> [(String, JSONValue)] where C.Element == UInt8 {
        [("size", .int(Int64(data.count)))] + (data.count <= 64 ? [("data", .string(data.hexString))] : [])
    }

    /// Fields and a one-line summary for a frame's content.
    static func describe(_ content: ID3FrameContent) -> ([(String, JSONValue)], String) {
        func encoding(_ e: ID3TextEncoding) -> (String, JSONValue) { ("encoding", .string(e.name)) }
        switch content.kind {
        case .text:
            let (e, values) = content.text!
            return ([encoding(e), ("values", .array(values.map { .string($0) }))], values.map(quoted).joined(separator: "; "))
        case .userText:
            let (e, description, values) = content.userText!
            return ([encoding(e), ("description", .string(description)), ("values", .array(values.map { .string($0) }))],
                    "\(quoted(description)): " + values.map(quoted).joined(separator: "; "))
        case .url:
            let url = content.url!
            return ([("url", .string(url))], url)
        case .userURL:
            let (e, description, url) = content.userURL!
            return ([encoding(e), ("description", .string(description)), ("url", .string(url))], "\(quoted(description)): \(url)")
        case .comment:
            let (e, language, description, text) = content.comment!
            return ([encoding(e), ("language", .string(language)), ("description", .string(description)), ("text", .string(text))],
                    "[\(language)] \(quoted(description)): \(quoted(text))")
        case .syncedLyrics:
            let (e, language, format, type, description, lines) = content.syncedLyrics!
            return ([encoding(e), ("language", .string(language)), ("timestampFormat", .uint(UInt64(format))),
                     ("contentType", .uint(UInt64(type))), ("description", .string(description)),
                     ("lines", .array(lines.map { .object([("time", .uint(UInt64($0.time))), ("text", .string($0.text))]) }))],
                    "[\(language)] \(lines.count) lines")
        case .picture:
            let (e, mime, type, description, data) = content.picture!
            let typeName = Int(type) < pictureTypes.count ? pictureTypes[Int(type)] : "type \(type)"
            return ([encoding(e), ("mimeType", .string(mime)), ("pictureType", .uint(UInt64(type))), ("pictureTypeName", .string(typeName)),
                     ("description", .string(description)), ("size", .int(Int64(data.count)))],
                    "\(typeName) \(mime) \(data.count) bytes" + (description.isEmpty ? "" : " \(quoted(description))"))
        case .object:
            let (e, mime, filename, description, data) = content.object!
            return ([encoding(e), ("mimeType", .string(mime)), ("filename", .string(filename)), ("description", .string(description)),
                     ("size", .int(Int64(data.count)))], "\(mime) \(quoted(filename)) \(data.count) bytes")
        case .privateData:
            let (owner, data) = content.privateData!
            var fields: [(String, JSONValue)] = [("owner", .string(owner))] + bytesField(data)
            var summary = "\(owner) \(data.count) bytes"
            if owner == ID3v2Tag.transportStreamTimestampOwner, data.count == 8 {
                let value = data.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } & ((1 << 33) - 1)
                fields += [("transportStreamTimestamp", .uint(value)), ("seconds", .double(Double(value) / 90000))]
                summary = "MPEG-2 TS timestamp \(value) (\(Double(value) / 90000) s)"
            }
            return (fields, summary)
        case .uniqueFileID:
            let (owner, identifier) = content.uniqueFileID!
            let text = String(validating: identifier, as: UTF8.self)
            return ([("owner", .string(owner)), ("identifier", .string(text ?? identifier.hexString))], "\(owner): \(text ?? identifier.hexString)")
        case .popularimeter:
            let (email, rating, counter) = content.popularimeter!
            var fields: [(String, JSONValue)] = [("email", .string(email)), ("rating", .uint(UInt64(rating)))]
            if let counter { fields.append(("counter", .uint(counter))) }
            return (fields, "\(email) rating \(rating)" + (counter.map { " played \($0)" } ?? ""))
        case .playCounter:
            let count = content.playCounter!
            return ([("count", .uint(count))], "played \(count)")
        case .chapter:
            let (id, start, end, startOffset, endOffset, _) = content.chapter!
            return ([("elementID", .string(id)), ("startTime", .uint(UInt64(start))), ("endTime", .uint(UInt64(end))),
                     ("startOffset", .uint(UInt64(startOffset))), ("endOffset", .uint(UInt64(endOffset)))],
                    "\(id) \(start)-\(end) ms")
        case .tableOfContents:
            let (id, top, ordered, children, _) = content.tableOfContents!
            return ([("elementID", .string(id)), ("isTopLevel", .bool(top)), ("isOrdered", .bool(ordered)),
                     ("children", .array(children.map { .string($0) }))], "\(id): \(children.joined(separator: ", "))")
        case .musicCDIdentifier:
            let data = content.musicCDIdentifier!
            return (bytesField(data), "\(data.count) bytes")
        case .relativeVolume:
            let (identification, channels) = content.relativeVolume!
            return ([("identification", .string(identification)),
                     ("channels", .array(channels.map { .object([("channel", .uint(UInt64($0.channel))), ("adjustment", .double($0.adjustment)),
                                                                  ("peakBits", .uint(UInt64($0.peakBits)))]) }))],
                    "\(identification): " + channels.map { "\($0.adjustment) dB" }.joined(separator: ", "))
        default:
            // Binary frames, and any frame family this tool does not describe yet, as bytes.
            let data = content.binary ?? []
            return (bytesField(data), "\(data.count) bytes")
        }
    }

    static func streamNode(_ file: MPEGStreamFile, path: String) -> InspectionNode {
        var fields: [(String, JSONValue)] = []
        var summary = ""
        if let header = file.mpegHeader {
            fields += [
                ("version", .string(header.version.rawValue)), ("layer", .int(Int64(header.layer))), ("bitrate", .int(Int64(header.bitrate))),
                ("sampleRate", .int(Int64(header.sampleRate))), ("channelMode", .string(header.channelMode.rawValue)),
                ("channels", .int(Int64(header.channelCount))), ("crc", .bool(header.hasCRC)),
            ]
            summary = "\(header.version.rawValue) layer \(header.layer), \(header.sampleRate) Hz, \(header.channelMode.rawValue)"
            if let xing = file.xingHeader {
                var members: [(String, JSONValue)] = [("tag", .string(xing.tag))]
                if let frames = xing.frameCount { members.append(("frames", .uint(UInt64(frames)))) }
                if let bytes = xing.byteCount { members.append(("bytes", .uint(UInt64(bytes)))) }
                if let quality = xing.quality { members.append(("quality", .uint(UInt64(quality)))) }
                if let encoder = xing.encoder { members.append(("encoder", .string(encoder))) }
                fields.append(("xing", .object(members)))
                if let encoder = xing.encoder { summary += ", \(encoder)" }
            }
        } else if let header = file.adtsHeader {
            fields += [
                ("audioObjectType", .int(Int64(header.audioObjectType))), ("sampleRate", header.sampleRate.map { .int(Int64($0)) } ?? .null),
                ("channelConfiguration", .int(Int64(header.channelConfiguration))), ("frameLength", .int(Int64(header.frameLength))),
                ("crc", .bool(header.hasCRC)),
            ]
            summary = "ADTS AAC (object type \(header.audioObjectType)), \(header.sampleRate.map { String($0) } ?? "?") Hz, \(header.channelConfiguration) ch"
        }
        if let bitrate = file.bitrate {
            fields.append(("averageBitrate", .int(Int64(bitrate))))
            summary += ", \(bitrate) kbit/s"
        }
        if let duration = file.duration {
            fields.append(("durationSeconds", .double(duration)))
            summary += ", " + String(format3(duration)) + " s"
        }
        return InspectionNode(kind: .stream, type: file.kind == .aac ? "adts" : "mpeg", offset: file.audio.lowerBound, size: UInt64(file.audio.count),
                              headerSize: file.kind == .aac ? 7 : 4, path: path, fields: fields, summary: summary)
    }

    /// Seconds with three decimals (`12.345`). A value no count of milliseconds holds (a
    /// duration a damaged header makes of a huge granule or sample count, infinity, NaN) is
    /// shown as Swift writes the number.
    static func format3(_ value: Double) -> String {
        guard let millis = Int64(exactly: (value * 1000).rounded()), millis >= 0 else { return "\(value)" }
        let fraction = String(millis % 1000)
        return "\(millis / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    static func v1Node(_ tag: ID3v1Tag, offset: UInt64, path: String) -> InspectionNode {
        var fields: [(String, JSONValue)] = [
            ("version", .string(tag.track == nil ? "1.0" : "1.1")), ("title", .string(tag.title)), ("artist", .string(tag.artist)),
            ("album", .string(tag.album)), ("year", .string(tag.year)), ("comment", .string(tag.comment)),
        ]
        if let track = tag.track { fields.append(("track", .uint(UInt64(track)))) }
        fields.append(("genreIndex", .uint(UInt64(tag.genreIndex))))
        if let genre = tag.genre { fields.append(("genre", .string(genre))) }
        // The fixed layout: "TAG", title 30, artist 30, album 30, year 4, comment 30 (28, a zero
        // and the track in v1.1), genre 1.
        let at = { (start: UInt64, count: UInt64) in offset + start..<offset + start + count }
        let ranges: [String: Range<UInt64>] = [
            "title": at(3, 30), "artist": at(33, 30), "album": at(63, 30), "year": at(93, 4),
            "comment": at(97, tag.track == nil ? 30 : 28), "track": at(126, 1), "genreIndex": at(127, 1), "genre": at(127, 1),
        ]
        return InspectionNode(kind: .tag, type: "ID3v1", offset: offset, size: 128, headerSize: 3, path: path, fields: ranged(fields, ranges),
                              summary: "v\(tag.track == nil ? "1.0" : "1.1") \(quoted(tag.title))" + (tag.track.map { " track \($0)" } ?? ""))
    }
}

extension InspectionNode {
    /// A node whose fields have no byte ranges of their own.
    init(kind: Kind, type: String, offset: UInt64, size: UInt64, headerSize: Int, path: String, notes: [String] = [],
         fields: [(String, JSONValue)], summary: String = "", children: [InspectionNode] = []) {
        self.init(kind: kind, type: type, offset: offset, size: size, headerSize: headerSize, path: path, notes: notes,
                  fields: fields.map { InspectionField($0.0, $0.1) }, summary: summary, children: children)
    }
}
