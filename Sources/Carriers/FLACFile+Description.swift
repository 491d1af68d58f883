import ID3
import MediaBytes
import VorbisComment

extension FLACFile: StructureDescribing {
    /// The file as the inspector shows it: ID3v2 tags before the stream, the `fLaC` marker,
    /// each metadata block with its fields (the comment's fields and a picture's header as
    /// children and fields), and the audio frames.
    public var structure: DescribedParts {
        var parts: [StructureDescription] = []
        for tag in leadingTags {
            if let bytes = try? source.read(at: tag.lowerBound, count: Int(min(UInt64(tag.count), 64 << 20))),
               let parsed = try? ID3v2Tag(parsing: bytes, at: tag.lowerBound) {
                parts.append(parsed.structure)
            } else {
                parts.append(StructureDescription(.tag, type: "ID3v2", offset: tag.lowerBound, size: UInt64(tag.count), headerSize: 10,
                                                  summary: "ID3v2 tag before fLaC, \(tag.count) bytes (not read)"))
            }
        }
        parts.append(StructureDescription(.block, type: "fLaC", offset: markerOffset, size: 4, headerSize: 4, summary: "FLAC stream marker"))
        for index in blocks.indices { parts.append(blockStructure(index)) }
        if audioOffset < fileSize {
            var fields = [DescribedField("size", audioSize)]
            var summary = "\(audioSize) bytes of audio frames"
            if let info = streamInfo, let duration = info.duration, let bitrate = Int(exactly: (Double(audioSize) * 8 / duration / 1000).rounded()) {
                fields.append(DescribedField("averageBitrate", bitrate))
                summary += ", \(bitrate) kbit/s"
            }
            parts.append(StructureDescription(.stream, type: "frames", offset: audioOffset, size: audioSize, headerSize: 0, fields: fields, summary: summary))
        }
        return DescribedParts(parts)
    }

    /// Metadata block `index` with its header's and its body's fields.
    func blockStructure(_ index: Int) -> StructureDescription {
        let block = blocks[index]
        let body = block.bodyRange
        var fields = [DescribedField("last", block.isLast, range: block.offset..<block.offset + 1),
                      DescribedField("length", block.length, range: block.offset + 1..<block.offset + 4)]
        var summary = "\(block.length) bytes"
        var children: [StructureDescription] = []
        func at(_ start: UInt64, _ count: UInt64) -> Range<UInt64> { body.lowerBound + start..<body.lowerBound + start + count }
        switch block.type {
        case .streamInfo where blocks.firstIndex(where: { $0.type == .streamInfo }) == index:
            if let info = streamInfo {
                fields += [
                    DescribedField("minBlockSize", info.minBlockSize, range: at(0, 2)), DescribedField("maxBlockSize", info.maxBlockSize, range: at(2, 2)),
                    DescribedField("minFrameSize", info.minFrameSize, range: at(4, 3)), DescribedField("maxFrameSize", info.maxFrameSize, range: at(7, 3)),
                    DescribedField("sampleRate", info.sampleRate, range: at(10, 3)), DescribedField("channels", info.channels, range: at(12, 1)),
                    DescribedField("bitsPerSample", info.bitsPerSample, range: at(12, 2)), DescribedField("totalSamples", info.totalSamples, range: at(13, 5)),
                    DescribedField("md5", info.md5.hexString, range: at(18, 16)),
                ]
                summary = "\(info.sampleRate) Hz, \(info.channels) ch, \(info.bitsPerSample) bit"
                if let duration = info.duration { summary += ", " + FieldValue.seconds(duration) + " s" }
            }
        case .vorbisComment where index == commentBlockIndex:
            if let comment {
                let described = comment.structure(base: 0) { start, count in at(UInt64(start), UInt64(count)) }
                fields += described.fields
                children = described.items
                summary = "vendor \(FieldValue.quoted(comment.vendor)), \(comment.fields.count) fields"
            }
        case .picture:
            if let picture = pictures.first(where: { $0.blockIndex == index }) {
                let h = picture.header
                fields += h.describedFields(at: body.lowerBound)
                summary = "\(ID3PictureType.name(h.type)), \(h.mimeType), \(h.width)x\(h.height), \(h.dataLength) bytes"
            }
        case .application:
            if let id = try? source.read(at: body.lowerBound, count: Int(min(block.length, 4))), id.count == 4 {
                let code = FourCC(id[0], id[1], id[2], id[3])
                fields.append(DescribedField("applicationID", code.description, range: at(0, 4)))
                summary = "application \(code), \(block.length) bytes"
            }
        case .seekTable:
            fields.append(DescribedField("seekPoints", block.length / 18))
            summary = "\(block.length / 18) seek points"
        case .padding:
            summary = "\(block.length) bytes of padding"
        default: break
        }
        return StructureDescription(.block, type: block.type.description, offset: block.offset, size: 4 + UInt64(block.length), headerSize: 4,
                                    fields: fields, summary: summary, diagnostics: diagnostics.filter { body.contains($0.offset) || $0.offset == block.offset },
                                    children: children)
    }
}
