import ID3
import MediaBytes

extension TransportStreamFile: StructureDescribing {
    /// The stream as the inspector shows it, in file order: each program with its streams, and
    /// each timed ID3 event with its frames, described one at a time when asked for (a stream
    /// of 200,000 timed events is not described at once).
    public var structure: DescribedParts {
        let entries = (programs.indices.map { (offset: programs[$0].pmtOffset ?? 0, isEvent: false, index: $0) }
            + events.indices.map { (offset: events[$0].offset, isEvent: true, index: $0) }).sorted { $0.offset < $1.offset }
        let packet = UInt64(packetSize)
        return DescribedParts(count: entries.count, name: { entries[$0].isEvent ? "ID3" : "program" },
                              range: { entries[$0].offset..<entries[$0].offset + packet }) { [self] i in
            let entry = entries[i]
            return entry.isEvent ? eventStructure(events[entry.index]) : programStructure(programs[entry.index])
        }
    }

    static func descriptorValue(_ descriptor: Descriptor) -> FieldValue {
        var members = [DescribedField("tag", descriptor.tag), DescribedField("name", descriptor.name)]
        if let format = descriptor.formatIdentifier { members.append(DescribedField("formatIdentifier", format.description)) }
        members.append(DescribedField("data", descriptor.bytes.hexString))
        return .record(members)
    }

    /// A time in 90 kHz ticks and seconds: `900000 (10.000 s)`.
    static func time(_ ticks: UInt64) -> String { "\(ticks) (\(FieldValue.seconds(Double(ticks) / 90_000)) s)" }

    func programStructure(_ program: Program) -> StructureDescription {
        let offset = program.pmtOffset ?? 0
        let packet = UInt64(packetSize)
        return StructureDescription(
            .block, type: "program", offset: offset, size: packet, headerSize: 4,
            fields: [DescribedField("number", program.number), DescribedField("pmtPID", program.pmtPID),
                     DescribedField("pcrPID", program.pcrPID.map { FieldValue($0) } ?? .absent),
                     DescribedField("descriptors", .list(program.descriptors.map(Self.descriptorValue)))],
            summary: "program \(program.number), PMT PID \(program.pmtPID), \(program.streams.count) streams"
                + (program.descriptors.contains { $0.formatIdentifier == "ID3 " } ? ", metadata pointer to ID3" : ""),
            children: program.streams.map { streamStructure($0, offset: offset) })
    }

    func streamStructure(_ stream: Stream, offset: UInt64) -> StructureDescription {
        var summary = "PID \(stream.pid) \(stream.typeName)" + (stream.isID3 ? " (timed ID3)" : "") + ", \(stream.packetCount) packets, \(stream.pesCount) PES"
        if let first = stream.firstPTS, let last = stream.lastPTS { summary += ", PTS \(Self.time(first)) to \(Self.time(last))" }
        return StructureDescription(
            .stream, type: "stream", offset: offset, size: UInt64(packetSize), headerSize: 4,
            fields: [DescribedField("pid", stream.pid), DescribedField("streamType", stream.streamType), DescribedField("typeName", stream.typeName),
                     DescribedField("kind", stream.kind), DescribedField("timedID3", stream.isID3), DescribedField("packets", stream.packetCount),
                     DescribedField("pesPackets", stream.pesCount), DescribedField("firstPTS", stream.firstPTS.map { FieldValue($0) } ?? .absent),
                     DescribedField("lastPTS", stream.lastPTS.map { FieldValue($0) } ?? .absent),
                     DescribedField("descriptors", .list(stream.descriptors.map(Self.descriptorValue)))],
            summary: summary)
    }

    func eventStructure(_ event: ID3Event) -> StructureDescription {
        var fields = [DescribedField("pid", event.pid), DescribedField("pts", event.pts.map { FieldValue($0) } ?? .absent),
                      DescribedField("ptsSeconds", event.time.map(FieldValue.number) ?? .absent), DescribedField("dts", event.dts.map { FieldValue($0) } ?? .absent),
                      DescribedField("size", event.size)]
        if let problem = event.problem { fields.append(DescribedField("problem", problem)) }
        let when = event.pts.map { "PTS \(Self.time($0))" } ?? "no PTS"
        let tag = event.tag
        // The tag was reassembled from packets: its frames' offsets are within the PES, not the file.
        return StructureDescription(
            .tag, type: "ID3", offset: event.offset, size: UInt64(packetSize), headerSize: 4, fields: fields,
            summary: "PID \(event.pid) \(when), " + (tag.map { "ID3v2.\($0.majorVersion), \($0.frames.count) frames" } ?? "no readable tag"),
            children: tag.map { ID3Frame.structures($0.frames, version: $0.majorVersion, offsetsAreInFile: false) } ?? [])
    }
}
