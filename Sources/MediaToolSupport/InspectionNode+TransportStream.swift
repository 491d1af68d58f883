import Carriers
import ID3
import MediaBytes

/// Inspection nodes for an MPEG-2 transport stream: each program with its streams, then each
/// timed ID3 event with its frames, in file order.
public enum TransportStreamInspection {
    public static func nodes(for file: TransportStreamFile) -> [InspectionNode] {
        // What each top-level node is (a program or an event, by index), in file order; nodes
        // are made a page at a time (a stream of 200,000 timed events lists 4096 at once).
        let entries = (file.programs.indices.map { (offset: file.programs[$0].pmtOffset ?? 0, isEvent: false, index: $0) }
            + file.events.indices.map { (offset: file.events[$0].offset, isEvent: true, index: $0) }).sorted { $0.offset < $1.offset }
        let indexes = InspectionPath.siblingIndexes(entries.map { $0.isEvent ? "ID3" : "program" })
        let packet = UInt64(file.packetSize)
        return InspectionNode.paged(count: entries.count, parentPath: "", range: { entries[$0].offset..<entries[$0].offset + packet }) { i in
            let entry = entries[i]
            let path = ID3Inspection.component(entry.isEvent ? "ID3" : "program", indexes[i])
            return entry.isEvent ? eventNode(file.events[entry.index], packet: packet, path: path)
                : programNode(file.programs[entry.index], packet: packet, path: path)
        }
    }

    static func programNode(_ program: TransportStreamFile.Program, packet: UInt64, path: String) -> InspectionNode {
        let offset = program.pmtOffset ?? 0
        let indexes = InspectionPath.siblingIndexes(program.streams.map { _ in "stream" })
        let streams = program.streams.enumerated().map { index, stream in
            streamNode(stream, offset: offset, packet: packet, path: path + "/" + ID3Inspection.component("stream", indexes[index]))
        }
        return InspectionNode(
            kind: .block, type: "program", offset: offset, size: packet, headerSize: 4, path: path,
            fields: [("number", .uint(UInt64(program.number))), ("pmtPID", .uint(UInt64(program.pmtPID))),
                     ("pcrPID", program.pcrPID.map { .uint(UInt64($0)) } ?? .null),
                     ("descriptors", .array(program.descriptors.map(descriptorJSON)))],
            summary: "program \(program.number), PMT PID \(program.pmtPID), \(program.streams.count) streams"
                + (program.descriptors.contains { $0.formatIdentifier == "ID3 " } ? ", metadata pointer to ID3" : ""),
            children: streams)
    }

    static func descriptorJSON(_ descriptor: TransportStreamFile.Descriptor) -> JSONValue {
        var members: [(String, JSONValue)] = [("tag", .uint(UInt64(descriptor.tag))), ("name", .string(descriptor.name))]
        if let format = descriptor.formatIdentifier { members.append(("formatIdentifier", .string(format.description))) }
        members.append(("data", .string(descriptor.bytes.hexString)))
        return .object(members)
    }

    /// A time in 90 kHz ticks and seconds: `900000 (10.000 s)`.
    static func time(_ ticks: UInt64) -> String { "\(ticks) (\(TagReport.seconds(Double(ticks) / 90_000)))" }

    static func streamNode(_ stream: TransportStreamFile.Stream, offset: UInt64, packet: UInt64, path: String) -> InspectionNode {
        var summary = "PID \(stream.pid) \(stream.typeName)" + (stream.isID3 ? " (timed ID3)" : "")
            + ", \(stream.packetCount) packets, \(stream.pesCount) PES"
        if let first = stream.firstPTS, let last = stream.lastPTS { summary += ", PTS \(time(first)) to \(time(last))" }
        return InspectionNode(
            kind: .stream, type: "stream", offset: offset, size: packet, headerSize: 4, path: path,
            fields: [("pid", .uint(UInt64(stream.pid))), ("streamType", .uint(UInt64(stream.streamType))), ("typeName", .string(stream.typeName)),
                     ("kind", .string(stream.kind)), ("timedID3", .bool(stream.isID3)), ("packets", .int(Int64(stream.packetCount))),
                     ("pesPackets", .int(Int64(stream.pesCount))), ("firstPTS", stream.firstPTS.map { .uint($0) } ?? .null),
                     ("lastPTS", stream.lastPTS.map { .uint($0) } ?? .null), ("descriptors", .array(stream.descriptors.map(descriptorJSON)))],
            summary: summary)
    }

    static func eventNode(_ event: TransportStreamFile.ID3Event, packet: UInt64, path: String) -> InspectionNode {
        var fields: [(String, JSONValue)] = [("pid", .uint(UInt64(event.pid))), ("pts", event.pts.map { .uint($0) } ?? .null),
                                             ("ptsSeconds", event.time.map(JSONValue.double) ?? .null), ("dts", event.dts.map { .uint($0) } ?? .null),
                                             ("size", .int(Int64(event.size)))]
        if let problem = event.problem { fields.append(("problem", .string(problem))) }
        let when = event.pts.map { "PTS \(time($0))" } ?? "no PTS"
        let tag = event.tag
        // The tag was reassembled from packets: its frames' offsets are within the PES, not the file.
        let frames = tag.map { ID3Inspection.frameNodes($0.frames, parentPath: path, version: $0.majorVersion, offsetsAreInFile: false) } ?? []
        return InspectionNode(
            kind: .tag, type: "ID3", offset: event.offset, size: packet, headerSize: 4, path: path, fields: fields,
            summary: "PID \(event.pid) \(when), " + (tag.map { "ID3v2.\($0.majorVersion), \($0.frames.count) frames" } ?? "no readable tag"),
            children: frames)
    }
}
