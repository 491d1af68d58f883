import APEv2
import ID3
import MediaBytes

extension MPEGStreamFile: StructureDescribing {
    /// The file as the inspector shows it, in file order: its ID3v2 tags, junk before the
    /// audio, the stream header, the APE tag, the Lyrics3v2 block and the ID3v1 tag.
    public var structure: DescribedParts {
        var parts: [StructureDescription] = []
        for tag in leadingTags + (appendedTag.map { [$0] } ?? []) { parts.append(tag.structure.cut(at: fileSize)) }
        if let junk = junkBeforeAudio {
            parts.append(StructureDescription(.block, type: "junk", offset: junk.lowerBound, size: UInt64(junk.count), headerSize: 0,
                                              summary: "\(junk.count) bytes before the first audio frame"))
        }
        if kind != nil { parts.append(streamStructure) }
        if let range = apeBlock, let tag = apeTag { parts.append(tag.structure(range: range)) }
        if let lyrics = lyrics3Block {
            parts.append(StructureDescription(.block, type: "Lyrics3v2", offset: lyrics.lowerBound, size: UInt64(lyrics.count), headerSize: 11,
                                              summary: "Lyrics3v2 block, preserved as is"))
        }
        if let v1 = id3v1 { parts.append(v1.structure(at: id3v1Block?.lowerBound ?? fileSize - 128)) }
        parts.sort { $0.offset < $1.offset }
        return DescribedParts(parts)
    }

    /// The audio stream: its first frame's header (and Xing/Info header), average bit rate and
    /// duration; when its details are asked for, every frame, as a table (`walkFrames`).
    var streamStructure: StructureDescription {
        var fields: [DescribedField] = []
        var summary = ""
        if let header = mpegHeader {
            fields += [
                DescribedField("version", header.version.rawValue), DescribedField("layer", header.layer), DescribedField("bitrate", header.bitrate),
                DescribedField("sampleRate", header.sampleRate), DescribedField("channelMode", header.channelMode.rawValue),
                DescribedField("channels", header.channelCount), DescribedField("crc", header.hasCRC),
            ]
            summary = "\(header.version.rawValue) layer \(header.layer), \(header.sampleRate) Hz, \(header.channelMode.rawValue)"
            if let xing = xingHeader {
                var members = [DescribedField("tag", xing.tag)]
                if let frames = xing.frameCount { members.append(DescribedField("frames", frames)) }
                if let bytes = xing.byteCount { members.append(DescribedField("bytes", bytes)) }
                if let quality = xing.quality { members.append(DescribedField("quality", quality)) }
                if let encoder = xing.encoder { members.append(DescribedField("encoder", encoder)) }
                fields.append(DescribedField("xing", record: members))
                if let encoder = xing.encoder { summary += ", \(encoder)" }
            }
        } else if let header = adtsHeader {
            fields += [
                DescribedField("audioObjectType", header.audioObjectType), DescribedField("sampleRate", header.sampleRate.map { FieldValue($0) } ?? .absent),
                DescribedField("channelConfiguration", header.channelConfiguration), DescribedField("frameLength", header.frameLength),
                DescribedField("crc", header.hasCRC),
            ]
            summary = "ADTS AAC (object type \(header.audioObjectType)), \(header.sampleRate.map { String($0) } ?? "?") Hz, \(header.channelConfiguration) ch"
        }
        if let bitrate {
            fields.append(DescribedField("averageBitrate", bitrate))
            summary += ", \(bitrate) kbit/s"
        }
        if let duration {
            fields.append(DescribedField("durationSeconds", duration))
            summary += ", " + FieldValue.seconds(duration) + " s"
        }
        return StructureDescription(.stream, type: kind == .aac ? "adts" : "mpeg", offset: audio.lowerBound, size: UInt64(audio.count),
                                    headerSize: kind == .aac ? 7 : 4, summary: summary, deferred: { [self, fields, summary] in
            let walk = walkFrames()
            let rows = walk.frames
            let table = DescribedTable(title: "frames", columns: ["frame", "offset", "size", "bitrate", "crc"], rowCount: rows.count) { range in
                range.map { index in
                    let row = rows[index]
                    return DescribedTable.Row(index: index, values: [FieldValue(index), FieldValue(row.offset), FieldValue(row.size), FieldValue(row.bitrate),
                                                                     .boolean(row.hasCRC)],
                                              range: row.offset..<row.offset + UInt64(row.size))
                }
            }
            return StructureDescription.Deferred(fields: fields + [DescribedField("frames", walk.count)], summary: summary + ", \(walk.count) frames",
                                                 diagnostics: walk.diagnostics, table: table)
        })
    }
}
