import Carriers
import MediaBytes
import VorbisComment

/// Inspection nodes for Ogg files: each page up to the end of the header packets, with the
/// packet pieces it carries (the identification header's fields, the comment header's fields
/// as children), then the audio pages as one node whose table lists every page, read and
/// checked (CRC, sequence, granule order) when asked for.
public enum OggInspection {
    /// A piece of a header packet on a page.
    struct Piece {
        var page: Int
        var offset: UInt64
        var count: Int
        var packet: Int
        var offsetInPacket: Int
        var ends: Bool
    }

    /// The header packets' pieces, page by page, in the order the reader assembled them.
    static func pieces(_ file: OggFile) -> [Piece] {
        var result: [Piece] = []
        var packet = 0, inPacket = 0
        for (index, page) in file.pages.enumerated() where page.serial == file.serial {
            for (pieceIndex, piece) in page.pieces.enumerated() {
                if pieceIndex == 0, page.isContinued, inPacket == 0 { continue }
                guard packet < file.headerPackets.count else { return result }
                result.append(Piece(page: index, offset: page.bodyOffset + UInt64(piece.start), count: piece.count, packet: packet, offsetInPacket: inPacket, ends: piece.ends))
                inPacket += piece.count
                if piece.ends { packet += 1; inPacket = 0 }
            }
        }
        return result
    }

    public static func nodes(for file: OggFile) -> [InspectionNode] {
        let pieces = pieces(file)
        var nodes: [InspectionNode] = []
        for (index, page) in file.pages.enumerated() {
            let path = "OggS[\(index)]"
            let mine = pieces.filter { $0.page == index }
            let children = mine.enumerated().map { number, piece in pieceNode(file, piece, path: path + "/packet" + (mine.count > 1 ? "[\(number)]" : "")) }
            nodes.append(pageNode(file, page, path: path, children: children))
        }
        if file.headerEnd < file.fileSize {
            nodes.append(audioNode(file))
        }
        return nodes
    }

    static func flagsText(_ flags: UInt8) -> String {
        var parts: [String] = []
        if flags & OggPage.firstFlag != 0 { parts.append("first") }
        if flags & OggPage.continuedFlag != 0 { parts.append("continued") }
        if flags & OggPage.lastFlag != 0 { parts.append("last") }
        return parts.joined(separator: ", ")
    }

    static func granuleValue(_ granule: UInt64) -> JSONValue { granule == OggPage.noGranule ? .int(-1) : .int(Int64(bitPattern: granule)) }

    static func pageNode(_ file: OggFile, _ page: OggPage, path: String, children: [InspectionNode]) -> InspectionNode {
        let o = page.offset
        let fields = [
            InspectionField("version", .uint(UInt64(page.version)), range: o + 4..<o + 5),
            InspectionField("headerType", .string(flagsText(page.flags)), range: o + 5..<o + 6),
            InspectionField("granulePosition", granuleValue(page.granule), range: o + 6..<o + 14),
            InspectionField("serialNumber", .uint(UInt64(page.serial)), range: o + 14..<o + 18),
            InspectionField("sequenceNumber", .uint(UInt64(page.sequence)), range: o + 18..<o + 22),
            InspectionField("crc", .string("0x" + String(page.crc, radix: 16)), range: o + 22..<o + 26),
            InspectionField("segments", .uint(UInt64(page.lacing.count)), range: o + 26..<o + 27 + UInt64(page.lacing.count)),
        ]
        let flags = flagsText(page.flags)
        var summary = "stream 0x\(String(page.serial, radix: 16)), page \(page.sequence)\(flags.isEmpty ? "" : " (\(flags))"), \(page.bodySize) bytes"
        if page.serial != file.serial { summary += "; another stream, kept as it is" }
        let diagnostics = file.diagnostics.filter { page.range.contains($0.offset) }
        return InspectionNode(kind: .page, type: "OggS", offset: page.offset, size: page.size, headerSize: page.headerSize, path: path,
                              fields: fields, summary: summary, diagnostics: diagnostics, children: children)
    }

    static func pieceNode(_ file: OggFile, _ piece: Piece, path: String) -> InspectionNode {
        let packet = file.headerPackets[piece.packet]
        let whole = piece.offsetInPacket == 0 && piece.ends
        let part = whole ? "" : " (bytes \(piece.offsetInPacket)-\(piece.offsetInPacket + piece.count) of \(packet.bytes.count))"
        var fields: [InspectionField] = []
        var children: [InspectionNode] = []
        var summary: String
        func at(_ start: Int, _ count: Int) -> Range<UInt64>? {
            guard start >= piece.offsetInPacket, start + count <= piece.offsetInPacket + piece.count else { return nil }
            return piece.offset + UInt64(start - piece.offsetInPacket)..<piece.offset + UInt64(start - piece.offsetInPacket + count)
        }
        switch piece.packet {
        case 0:
            let id = file.identification
            summary = "\(file.codec.name) identification header: \(id.channels) ch, \(id.sampleRate) Hz"
            switch file.codec {
            case .vorbis:
                fields = [InspectionField("channels", .uint(UInt64(id.channels)), range: at(11, 1)),
                          InspectionField("sampleRate", .uint(UInt64(id.sampleRate)), range: at(12, 4)),
                          InspectionField("nominalBitrate", .int(Int64(id.nominalBitrate ?? 0)), range: at(20, 4))]
            case .opus:
                fields = [InspectionField("channels", .uint(UInt64(id.channels)), range: at(9, 1)),
                          InspectionField("preSkip", .uint(UInt64(id.preSkip ?? 0)), range: at(10, 2)),
                          InspectionField("inputSampleRate", .uint(UInt64(id.inputSampleRate ?? 0)), range: at(12, 4)),
                          InspectionField("outputGain", .int(Int64(id.outputGain ?? 0)), range: at(16, 2)),
                          InspectionField("mappingFamily", .uint(UInt64(id.mappingFamily ?? 0)), range: at(18, 1))]
                summary += ", pre-skip \(id.preSkip ?? 0)"
            case .flac:
                if let info = id.streamInfo {
                    fields = [InspectionField("sampleRate", .uint(UInt64(info.sampleRate)), range: at(27, 3)),
                              InspectionField("channels", .uint(UInt64(info.channels)), range: at(29, 1)),
                              InspectionField("bitsPerSample", .uint(UInt64(info.bitsPerSample)), range: at(29, 2)),
                              InspectionField("totalSamples", .uint(info.totalSamples), range: at(30, 5))]
                }
            case .speex:
                fields = [InspectionField("sampleRate", .uint(UInt64(id.sampleRate)), range: at(36, 4)),
                          InspectionField("mode", .uint(UInt64(id.speexMode ?? 0)), range: at(40, 4)),
                          InspectionField("channels", .uint(UInt64(id.channels)), range: at(48, 4))]
            }
        case OggFile.commentPacketIndex:
            summary = "comment header"
            if let comment = file.comment {
                summary += ": vendor \(ID3Inspection.quoted(comment.vendor)), \(comment.fields.count) fields"
                if !file.commentTrailing.isEmpty { summary += ", \(file.commentTrailing.count) bytes after them" }
                var position = file.codec.commentPrefix.count + 8 + comment.vendorBytes.count
                let indexes = InspectionPath.siblingIndexes(comment.fields.map(\.key))
                for (index, field) in comment.fields.enumerated() {
                    let size = 4 + field.bytes.count
                    if position >= piece.offsetInPacket, position < piece.offsetInPacket + piece.count {
                        let start = piece.offset + UInt64(position - piece.offsetInPacket)
                        let inPiece = min(size, piece.offsetInPacket + piece.count - position)
                        let shown = field.key == "METADATA_BLOCK_PICTURE" ? "\(field.valueBytes.count) bytes of Base64 (a FLAC picture)" : ID3Inspection.quoted(field.value)
                        children.append(InspectionNode(kind: .item, type: field.name, offset: start, size: UInt64(inPiece), headerSize: 4,
                                                       path: path + "/" + ID3Inspection.component(field.key, indexes[index]),
                                                       fields: [InspectionField("name", .string(field.name), range: at(position + 4, field.name.utf8.count)),
                                                                InspectionField("value", .string(field.key == "METADATA_BLOCK_PICTURE" ? "" : field.value),
                                                                                range: at(position + 5 + field.name.utf8.count, field.valueBytes.count))],
                                                       summary: shown))
                    }
                    position += size
                }
            }
        default:
            let bytes = packet.bytes
            summary = switch file.codec {
            case .vorbis where bytes.first == 5: "Vorbis setup header"
            case .flac: "FLAC metadata block \(FLACFile.BlockType(rawValue: (bytes.first ?? 0) & 0x7F))"
            default: "\(file.codec.name) header packet \(piece.packet + 1)"
            }
        }
        return InspectionNode(kind: .item, type: "packet", offset: piece.offset, size: UInt64(piece.count), headerSize: 0, path: path,
                              fields: fields, summary: summary + part + ", \(packet.bytes.count) bytes", children: children)
    }

    /// The audio pages: a table of every page, walked when the details are asked for.
    static func audioNode(_ file: OggFile) -> InspectionNode {
        let size = file.fileSize - file.headerEnd
        let summary = "\(size) bytes of audio pages" + (file.duration.map { ", " + ID3Inspection.format3($0) + " s" } ?? "")
        return InspectionNode(kind: .stream, type: "pages", offset: file.headerEnd, size: size, headerSize: 0, path: "pages", hasChildren: false,
                              children: { [] }, details: {
            let walk = file.walkPages(from: file.headerEnd)
            let rows = walk.pages
            let table = InspectionTable(title: "pages", columns: ["page", "offset", "size", "serial", "sequence", "granule", "flags", "segments", "crc"],
                                        rowCount: rows.count) { range in
                range.map { index in
                    let row = rows[index]
                    return InspectionRow(index: index, values: [.int(Int64(index)), .uint(row.offset), .uint(UInt64(row.size)), .uint(UInt64(row.serial)),
                                                                .uint(UInt64(row.sequence)), granuleValue(row.granule), .string(flagsText(row.flags)),
                                                                .uint(UInt64(row.segments)), .string(row.crcMatches ? "ok" : "mismatch")],
                                         range: row.offset..<row.offset + UInt64(row.size))
                }
            }
            let streams = Set(rows.map(\.serial)).count
            var fields: [InspectionField] = [InspectionField("pages", .uint(UInt64(walk.count))), InspectionField("streams", .uint(UInt64(streams)))]
            if let duration = file.duration { fields.append(InspectionField("duration", .string(ID3Inspection.format3(duration)))) }
            let text = summary + ", \(walk.count) pages" + (streams > 1 ? " of \(streams) streams" : "")
            return InspectionDetails(fields: fields, summary: text, diagnostics: walk.diagnostics, table: table)
        })
    }
}
