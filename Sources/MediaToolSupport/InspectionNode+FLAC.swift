import Carriers
import ID3
import MediaBytes
import VorbisComment

/// Inspection nodes for native FLAC files: ID3v2 tags before the stream, the `fLaC` marker,
/// each metadata block with its fields (the comment's fields and a picture's header as
/// children and fields), and the audio frames.
public enum FLACInspection {
    public static func nodes(for file: FLACFile) -> [InspectionNode] {
        var nodes: [(UInt64, String, (String) -> InspectionNode)] = []
        for tag in file.leadingTags {
            nodes.append((tag.lowerBound, "ID3v2", { path in
                if let bytes = try? file.source.read(at: tag.lowerBound, count: Int(min(UInt64(tag.count), 64 << 20))),
                   let parsed = try? ID3v2Tag(parsing: bytes, at: tag.lowerBound) {
                    return ID3Inspection.tagNode(parsed, path: path)
                }
                return InspectionNode(kind: .tag, type: "ID3v2", offset: tag.lowerBound, size: UInt64(tag.count), headerSize: 10, path: path,
                                      summary: "ID3v2 tag before fLaC, \(tag.count) bytes (not read)")
            }))
        }
        nodes.append((file.markerOffset, "fLaC", { path in
            InspectionNode(kind: .block, type: "fLaC", offset: file.markerOffset, size: 4, headerSize: 4, path: path, summary: "FLAC stream marker")
        }))
        for (index, block) in file.blocks.enumerated() {
            nodes.append((block.offset, block.type.description, { path in blockNode(file, index: index, block: block, path: path) }))
        }
        if file.audioOffset < file.fileSize {
            nodes.append((file.audioOffset, "frames", { path in
                var fields: [(String, JSONValue)] = [("size", .uint(file.audioSize))]
                var summary = "\(file.audioSize) bytes of audio frames"
                if let info = file.streamInfo, let duration = info.duration, let bitrate = Int(exactly: (Double(file.audioSize) * 8 / duration / 1000).rounded()) {
                    fields.append(("averageBitrate", .int(Int64(bitrate))))
                    summary += ", \(bitrate) kbit/s"
                }
                return InspectionNode(kind: .stream, type: "frames", offset: file.audioOffset, size: file.audioSize, headerSize: 0, path: path,
                                      fields: fields, summary: summary)
            }))
        }
        let indexes = InspectionPath.siblingIndexes(nodes.map(\.1))
        return nodes.enumerated().map { i, entry in entry.2(ID3Inspection.component(entry.1, indexes[i])) }
    }

    static func blockNode(_ file: FLACFile, index: Int, block: FLACFile.Block, path: String) -> InspectionNode {
        let body = block.bodyRange
        var fields: [InspectionField] = [InspectionField("last", .bool(block.isLast), range: block.offset..<block.offset + 1),
                                         InspectionField("length", .uint(UInt64(block.length)), range: block.offset + 1..<block.offset + 4)]
        var summary = "\(block.length) bytes"
        var children: [InspectionNode] = []
        func at(_ start: UInt64, _ count: UInt64) -> Range<UInt64> { body.lowerBound + start..<body.lowerBound + start + count }
        switch block.type {
        case .streamInfo where file.blocks.firstIndex(where: { $0.type == .streamInfo }) == index:
            if let info = file.streamInfo {
                fields += [
                    InspectionField("minBlockSize", .uint(UInt64(info.minBlockSize)), range: at(0, 2)),
                    InspectionField("maxBlockSize", .uint(UInt64(info.maxBlockSize)), range: at(2, 2)),
                    InspectionField("minFrameSize", .uint(UInt64(info.minFrameSize)), range: at(4, 3)),
                    InspectionField("maxFrameSize", .uint(UInt64(info.maxFrameSize)), range: at(7, 3)),
                    InspectionField("sampleRate", .uint(UInt64(info.sampleRate)), range: at(10, 3)),
                    InspectionField("channels", .uint(UInt64(info.channels)), range: at(12, 1)),
                    InspectionField("bitsPerSample", .uint(UInt64(info.bitsPerSample)), range: at(12, 2)),
                    InspectionField("totalSamples", .uint(info.totalSamples), range: at(13, 5)),
                    InspectionField("md5", .string(info.md5.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()), range: at(18, 16)),
                ]
                summary = "\(info.sampleRate) Hz, \(info.channels) ch, \(info.bitsPerSample) bit"
                if let duration = info.duration { summary += ", " + ID3Inspection.format3(duration) + " s" }
            }
        case .vorbisComment where index == file.commentBlockIndex:
            if let comment = file.comment {
                let vendorLength = UInt64(comment.vendorBytes.count)
                fields += [InspectionField("vendor", .string(comment.vendor), range: at(4, vendorLength)),
                           InspectionField("fields", .uint(UInt64(comment.fields.count)), range: at(4 + vendorLength, 4))]
                var position = 8 + vendorLength
                let indexes = InspectionPath.siblingIndexes(comment.fields.map(\.key))
                for (fieldIndex, field) in comment.fields.enumerated() {
                    let size = 4 + UInt64(field.bytes.count)
                    let nameLength = UInt64(field.name.utf8.count)
                    let item = InspectionNode(kind: .item, type: field.name, offset: body.lowerBound + position, size: size, headerSize: 4,
                                              path: path + "/" + ID3Inspection.component(field.key, indexes[fieldIndex]),
                                              fields: [InspectionField("name", .string(field.name), range: at(position + 4, nameLength)),
                                                       InspectionField("value", .string(field.value), range: at(position + 5 + nameLength, UInt64(field.valueBytes.count)))],
                                              summary: ID3Inspection.quoted(field.value))
                    children.append(item)
                    position += size
                }
                summary = "vendor \(ID3Inspection.quoted(comment.vendor)), \(comment.fields.count) fields"
            }
        case .picture:
            if let picture = file.pictures.first(where: { $0.blockIndex == index }) {
                let h = picture.header
                let mime = UInt64(h.mimeType.utf8.count), text = UInt64(h.description.utf8.count)
                fields += [
                    InspectionField("pictureType", .uint(UInt64(h.type)), range: at(0, 4)),
                    InspectionField("mimeType", .string(h.mimeType), range: at(8, mime)),
                    InspectionField("description", .string(h.description), range: at(12 + mime, text)),
                    InspectionField("width", .uint(UInt64(h.width)), range: at(12 + mime + text, 4)),
                    InspectionField("height", .uint(UInt64(h.height)), range: at(16 + mime + text, 4)),
                    InspectionField("colorDepth", .uint(UInt64(h.colorDepth)), range: at(20 + mime + text, 4)),
                    InspectionField("colorCount", .uint(UInt64(h.colorCount)), range: at(24 + mime + text, 4)),
                    InspectionField("dataLength", .uint(UInt64(h.dataLength)), range: at(UInt64(h.dataOffset), UInt64(h.dataLength))),
                ]
                let typeName = h.type < 21 ? ID3Inspection.pictureTypes[Int(h.type)] : "type \(h.type)"
                summary = "\(typeName), \(h.mimeType), \(h.width)x\(h.height), \(h.dataLength) bytes"
            }
        case .application:
            if let id = try? file.source.read(at: body.lowerBound, count: Int(min(block.length, 4))), id.count == 4 {
                fields.append(InspectionField("applicationID", .string(FourCC(id[0], id[1], id[2], id[3]).description), range: at(0, 4)))
                summary = "application \(FourCC(id[0], id[1], id[2], id[3])), \(block.length) bytes"
            }
        case .seekTable:
            fields.append(InspectionField("seekPoints", .uint(UInt64(block.length / 18))))
            summary = "\(block.length / 18) seek points"
        case .padding:
            summary = "\(block.length) bytes of padding"
        default: break
        }
        let diagnostics = file.diagnostics.filter { body.contains($0.offset) || $0.offset == block.offset }
        return InspectionNode(kind: .block, type: block.type.description, offset: block.offset, size: 4 + UInt64(block.length), headerSize: 4,
                              path: path, fields: fields, summary: summary, diagnostics: diagnostics, children: children)
    }
}
