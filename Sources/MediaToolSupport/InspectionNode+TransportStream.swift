import Carriers
import ID3
import MediaBytes

/// Inspection nodes for an MPEG-2 transport stream: each program with its streams, then each
/// timed ID3 event with its frames, in file order.
public enum TransportStreamInspection {
    public static func nodes(for file: TransportStreamFile) -> [InspectionNode] {
        var nodes: [(UInt64, String, (String) -> InspectionNode)] = []
        let packet = UInt64(file.packetSize)
        for program in file.programs {
            let offset = program.pmtOffset ?? 0
            nodes.append((offset, "program", { path in
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
            }))
        }
        for event in file.events {
            nodes.append((event.offset, "ID3", { path in eventNode(event, packet: packet, path: path) }))
        }
        nodes.sort { $0.0 < $1.0 }
        let indexes = InspectionPath.siblingIndexes(nodes.map(\.1))
        return nodes.enumerated().map { i, entry in entry.2(ID3Inspection.component(entry.1, indexes[i])) }
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
