import MediaBytes
import VorbisComment

extension OggFile: StructureDescribing {
    /// The file as the inspector shows it: each page up to the end of the header packets, with
    /// the packet pieces it carries (the identification header's fields, the comment header's
    /// fields as children), then the audio pages as one part whose table lists every page, read
    /// and checked (CRC, sequence, granule order) when asked for.
    public var structure: DescribedParts {
        let pieces = headerPieces
        var parts: [StructureDescription] = []
        for (index, page) in pages.enumerated() {
            let mine = pieces.filter { $0.page == index }
            parts.append(pageStructure(page, children: mine.map(pieceStructure)))
        }
        if headerEnd < fileSize { parts.append(audioStructure) }
        return DescribedParts(parts)
    }

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
    var headerPieces: [Piece] {
        var result: [Piece] = []
        var packet = 0, inPacket = 0
        for (index, page) in pages.enumerated() where page.serial == serial {
            for (pieceIndex, piece) in page.pieces.enumerated() {
                if pieceIndex == 0, page.isContinued, inPacket == 0 { continue }
                guard packet < headerPackets.count else { return result }
                result.append(Piece(page: index, offset: page.bodyOffset + UInt64(piece.start), count: piece.count, packet: packet, offsetInPacket: inPacket, ends: piece.ends))
                inPacket += piece.count
                if piece.ends { packet += 1; inPacket = 0 }
            }
        }
        return result
    }

    /// A page's header flags in words: `first, continued, last`.
    public static func flagsText(_ flags: UInt8) -> String {
        var parts: [String] = []
        if flags & OggPage.firstFlag != 0 { parts.append("first") }
        if flags & OggPage.continuedFlag != 0 { parts.append("continued") }
        if flags & OggPage.lastFlag != 0 { parts.append("last") }
        return parts.joined(separator: ", ")
    }

    /// A granule position, -1 for a page on which no packet ends.
    static func granuleValue(_ granule: UInt64) -> FieldValue { granule == OggPage.noGranule ? .integer(-1) : .integer(Int64(bitPattern: granule)) }

    func pageStructure(_ page: OggPage, children: [StructureDescription]) -> StructureDescription {
        let o = page.offset
        let fields = [
            DescribedField("version", page.version, range: o + 4..<o + 5),
            DescribedField("headerType", Self.flagsText(page.flags), range: o + 5..<o + 6),
            DescribedField("granulePosition", Self.granuleValue(page.granule), range: o + 6..<o + 14),
            DescribedField("serialNumber", page.serial, range: o + 14..<o + 18),
            DescribedField("sequenceNumber", page.sequence, range: o + 18..<o + 22),
            DescribedField("crc", "0x" + String(page.crc, radix: 16), range: o + 22..<o + 26),
            DescribedField("segments", page.lacing.count, range: o + 26..<o + 27 + UInt64(page.lacing.count)),
        ]
        let flags = Self.flagsText(page.flags)
        var summary = "stream 0x\(String(page.serial, radix: 16)), page \(page.sequence)\(flags.isEmpty ? "" : " (\(flags))"), \(page.bodySize) bytes"
        if page.serial != serial { summary += "; another stream, kept as it is" }
        return StructureDescription(.page, type: "OggS", offset: page.offset, size: page.size, headerSize: page.headerSize, fields: fields, summary: summary,
                                    diagnostics: diagnostics.filter { page.range.contains($0.offset) }, children: children)
    }

    func pieceStructure(_ piece: Piece) -> StructureDescription {
        let packet = headerPackets[piece.packet]
        let whole = piece.offsetInPacket == 0 && piece.ends
        let part = whole ? "" : " (bytes \(piece.offsetInPacket)-\(piece.offsetInPacket + piece.count) of \(packet.bytes.count))"
        var fields: [DescribedField] = []
        var children: [StructureDescription] = []
        var summary: String
        /// Where bytes of the packet are in the file, when they are on this piece.
        func at(_ start: Int, _ count: Int) -> Range<UInt64>? {
            guard start >= piece.offsetInPacket, start + count <= piece.offsetInPacket + piece.count else { return nil }
            return piece.offset + UInt64(start - piece.offsetInPacket)..<piece.offset + UInt64(start - piece.offsetInPacket + count)
        }
        switch piece.packet {
        case 0:
            let id = identification
            summary = "\(codec.name) identification header: \(id.channels) ch, \(id.sampleRate) Hz"
            switch codec {
            case .vorbis:
                fields = [DescribedField("channels", id.channels, range: at(11, 1)), DescribedField("sampleRate", id.sampleRate, range: at(12, 4)),
                          DescribedField("nominalBitrate", id.nominalBitrate ?? 0, range: at(20, 4))]
            case .opus:
                fields = [DescribedField("channels", id.channels, range: at(9, 1)), DescribedField("preSkip", id.preSkip ?? 0, range: at(10, 2)),
                          DescribedField("inputSampleRate", id.inputSampleRate ?? 0, range: at(12, 4)),
                          DescribedField("outputGain", id.outputGain ?? 0, range: at(16, 2)), DescribedField("mappingFamily", id.mappingFamily ?? 0, range: at(18, 1))]
                summary += ", pre-skip \(id.preSkip ?? 0)"
            case .flac:
                if let info = id.streamInfo {
                    fields = [DescribedField("sampleRate", info.sampleRate, range: at(27, 3)), DescribedField("channels", info.channels, range: at(29, 1)),
                              DescribedField("bitsPerSample", info.bitsPerSample, range: at(29, 2)), DescribedField("totalSamples", info.totalSamples, range: at(30, 5))]
                }
            case .speex:
                fields = [DescribedField("sampleRate", id.sampleRate, range: at(36, 4)), DescribedField("mode", id.speexMode ?? 0, range: at(40, 4)),
                          DescribedField("channels", id.channels, range: at(48, 4))]
            }
        case Self.commentPacketIndex:
            summary = "comment header"
            if let comment {
                summary += ": vendor \(FieldValue.quoted(comment.vendor)), \(comment.fields.count) fields"
                if !commentTrailing.isEmpty { summary += ", \(commentTrailing.count) bytes after them" }
                let pieceEnd = piece.offsetInPacket + piece.count
                let described = comment.structure(base: codec.commentPrefix.count) { start, count in
                    guard start >= piece.offsetInPacket, start < pieceEnd else { return nil }
                    let end = min(start + count, pieceEnd)
                    return piece.offset + UInt64(start - piece.offsetInPacket)..<piece.offset + UInt64(end - piece.offsetInPacket)
                }
                fields = described.fields.filter { $0.range != nil }
                children = described.items
            }
        default:
            let bytes = packet.bytes
            summary = switch codec {
            case .vorbis where bytes.first == 5: "Vorbis setup header"
            case .flac: "FLAC metadata block \(FLACFile.BlockType(rawValue: (bytes.first ?? 0) & 0x7F))"
            default: "\(codec.name) header packet \(piece.packet + 1)"
            }
        }
        return StructureDescription(.item, type: "packet", offset: piece.offset, size: UInt64(piece.count), headerSize: 0, fields: fields,
                                    summary: summary + part + ", \(packet.bytes.count) bytes", children: children)
    }

    /// The audio pages: a table of every page, walked when the details are asked for.
    var audioStructure: StructureDescription {
        let size = fileSize - headerEnd
        let summary = "\(size) bytes of audio pages" + (duration.map { ", " + FieldValue.seconds($0) + " s" } ?? "")
        return StructureDescription(.stream, type: "pages", offset: headerEnd, size: size, headerSize: 0, summary: summary, deferred: { [self] in
            let walk = walkPages(from: headerEnd)
            let rows = walk.pages
            let table = DescribedTable(title: "pages", columns: ["page", "offset", "size", "serial", "sequence", "granule", "flags", "segments", "crc"],
                                       rowCount: rows.count) { range in
                range.map { index in
                    let row = rows[index]
                    return DescribedTable.Row(index: index, values: [FieldValue(index), FieldValue(row.offset), FieldValue(row.size), FieldValue(row.serial),
                                                                     FieldValue(row.sequence), Self.granuleValue(row.granule), .text(Self.flagsText(row.flags)),
                                                                     FieldValue(row.segments), .text(row.crcMatches ? "ok" : "mismatch")],
                                              range: row.offset..<row.offset + UInt64(row.size))
                }
            }
            let streams = Set(rows.map(\.serial)).count
            var fields = [DescribedField("pages", walk.count), DescribedField("streams", streams)]
            if let duration { fields.append(DescribedField("duration", FieldValue.seconds(duration))) }
            let text = summary + ", \(walk.count) pages" + (streams > 1 ? " of \(streams) streams" : "")
            return StructureDescription.Deferred(fields: fields, summary: text, diagnostics: walk.diagnostics, table: table)
        })
    }
}
