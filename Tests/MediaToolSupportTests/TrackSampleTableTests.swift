import Foundation
import MediaToolSupport
import TestSupport
import Testing

/// A track's table of samples, across its `moov` tables and every movie fragment, checked
/// sample by sample against the packets ffprobe reads from the same file: where each sample's
/// bytes are, how many, its decode time and duration, its composition offset and whether it is
/// a key frame. (Fragmented tracks showed "0 rows" before 2026-11-29.)
@Suite(.enabled(if: OtherReaders.isRequired || OtherReaders.hasFFprobe))
struct TrackSampleTableTests {
    /// The sample tables of the file's tracks, in track order.
    static func tables(_ path: String) throws -> [InspectionTable] {
        let file = try FileInspection.open(path)
        let movie = try #require(file.nodes.first { $0.type == "moov" })
        return movie.children.filter { $0.type == "trak" }.compactMap { $0.details.table }
    }

    static func column(_ table: InspectionTable, _ name: String, _ row: InspectionRow) -> JSONValue {
        row.values[table.columns.firstIndex(of: name)!]
    }

    /// Every row of `table` against every packet of ffprobe's stream `stream`.
    static func agree(_ table: InspectionTable, _ packets: [OtherReaders.Packet], _ label: String) {
        #expect(table.rowCount == packets.count, "\(label): \(table.rowCount) rows, ffprobe \(packets.count) packets")
        let rows = table.rows(0..<table.rowCount)
        guard rows.count == packets.count, let firstRow = rows.first, let firstPacket = packets.first else { return }
        guard case .uint(let time0) = column(table, "decodeTime", firstRow), let dts0 = firstPacket.dts else {
            Issue.record("\(label): no decode time")
            return
        }
        for (position, (row, packet)) in zip(rows, packets).enumerated() {
            let where_ = "\(label) sample \(row.index + 1)"
            #expect(column(table, "offset", row) == .uint(packet.position ?? 0), "\(where_)")
            #expect(column(table, "size", row) == .uint(UInt64(packet.size)), "\(where_)")
            #expect(column(table, "sync", row) == .bool(packet.isKey), "\(where_)")
            if case .uint(let time) = column(table, "decodeTime", row), let dts = packet.dts {
                #expect(Int64(time) - Int64(time0) == dts - dts0, "\(where_): decode time")
            } else {
                Issue.record("\(where_): no decode time")
            }
            // The container's duration is the step to the next decode time (ffprobe's own
            // duration comes from the codec: an AAC frame is 1024 whatever the container says).
            if position + 1 < packets.count, let dts = packet.dts, let next = packets[position + 1].dts {
                #expect(column(table, "duration", row) == .uint(UInt64(next - dts)), "\(where_): duration")
            }
            if let pts = packet.pts, let dts = packet.dts {
                let offset: Int64 = switch column(table, "compositionOffset", row) { case .int(let v): v; case .uint(let v): Int64(v); default: 0 }
                #expect(offset == pts - dts, "\(where_): composition offset")
            }
        }
    }

    @Test(arguments: ["fragmented.mp4", "fragmented-sidx.mp4", "video-h264-aac.mp4", "co64-chunk-offsets.m4a", "moov-after-mdat.m4a"])
    func samplesAgreeWithFFprobesPackets(_ fixture: String) async throws {
        let path = TestFixtures.path(fixture)
        let tables = try Self.tables(path)
        #expect(!tables.isEmpty)
        for (index, table) in tables.enumerated() {
            Self.agree(table, try await OtherReaders.ffprobePackets(path, stream: index), "\(fixture) track \(index + 1)")
        }
    }

    /// A fragmented track's samples say which `moof` holds them and have times in seconds.
    @Test func fragmentSamplesNameTheirFragmentAndTime() throws {
        let table = try #require(try Self.tables(TestFixtures.path("fragmented.mp4")).first)
        let rows = table.rows(0..<table.rowCount)
        #expect(Self.column(table, "fragment", rows[0]) == .uint(1))
        #expect(Self.column(table, "fragment", rows[rows.count - 1]) != .uint(1))
        #expect(Self.column(table, "decodeSeconds", rows[0]) == .double(0))
        guard case .double(let last) = Self.column(table, "decodeSeconds", rows[rows.count - 1]) else {
            Issue.record("no seconds")
            return
        }
        #expect(last > 0.5 && last < 2)
        // A page from the middle is the same as those rows of the whole.
        let middle = table.rows(5..<9)
        #expect(middle.map(\.values) == Array(rows[5..<9]).map(\.values))
    }

    /// The sample groups each sample is in (ffmpeg marks AAC's pre-roll with `roll`) and, for
    /// an encrypted track's samples, the IV `senc` gives each.
    @Test func samplesCarryTheirGroupsAndInitializationVectors() throws {
        let aac = try CodecConfigurationTests.make("aac.mp4", CodecConfigurationTests.audio + ["-c:a", "aac"])
        let table = try #require(try Self.tables(aac).first)
        let rows = table.rows(0..<table.rowCount)
        #expect(!rows.isEmpty)
        #expect(rows.allSatisfy { Self.column(table, "groups", $0) == .string("roll:1") })

        // (ffmpeg writes the `senc` of the samples `moov` lists into `stbl`.)
        let cenc = try CodecConfigurationTests.make("cenc.mp4", CodecConfigurationTests.audio + [
            "-c:a", "aac", "-encryption_scheme", "cenc-aes-ctr", "-encryption_key", "00112233445566778899aabbccddeeff",
            "-encryption_kid", "0123456789abcdef0123456789abcdef",
        ])
        let encrypted = try #require(try Self.tables(cenc).first)
        let samples = encrypted.rows(0..<encrypted.rowCount)
        #expect(samples.count > 5)
        let ivs = samples.compactMap { row -> String? in if case .string(let iv) = Self.column(encrypted, "iv", row) { iv } else { nil } }
        #expect(ivs.count == samples.count, "every encrypted sample has its IV")
        #expect(ivs.allSatisfy { $0.count == 16 }, "8-byte IVs, as the track's tenc says")
        #expect(Set(ivs).count == ivs.count, "each sample its own IV")
        // The IVs are those `senc` lists, in order.
        let file = try FileInspection.open(cenc)
        var listed: [String] = []
        func visit(_ nodes: [InspectionNode]) {
            InspectionNode.forEachListed(nodes) { node in
                if node.type == "senc", case .array(let entries)? = node.details.fields.first(where: { $0.name == "entries" })?.value {
                    for case .object(let members) in entries { if case .string(let iv)? = members.first(where: { $0.0 == "iv" })?.1 { listed.append(iv) } }
                }
                visit(node.children)
            }
        }
        visit(file.nodes)
        #expect(listed == ivs)
        #expect(!listed.isEmpty)
    }

    /// Encrypted H.264 with subsamples, more than the 1,024 samples between the offsets the
    /// table keeps into `senc`: samples past the first checkpoint have the IV and subsample map
    /// `senc` lists for them.
    @Test func subsampleMapsPastTheFirstCheckpointAreThoseSencLists() throws {
        let path = try CodecConfigurationTests.make("cenc-video.mp4", [
            "-f", "lavfi", "-i", "testsrc=size=96x64:rate=100:duration=11", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
            "-threads", "1", "-encryption_scheme", "cenc-aes-ctr", "-encryption_key", "00112233445566778899aabbccddeeff",
            "-encryption_kid", "0123456789abcdef0123456789abcdef",
        ])
        let table = try #require(try Self.tables(path).first)
        #expect(table.rowCount == 1100)
        let file = try FileInspection.open(path, fieldOptions: .complete)
        var listed: [JSONValue] = []
        func visit(_ nodes: [InspectionNode]) {
            InspectionNode.forEachListed(nodes) { node in
                if node.type == "senc", case .array(let entries)? = node.details.fields.first(where: { $0.name == "entries" })?.value { listed = entries }
                visit(node.children)
            }
        }
        visit(file.nodes)
        #expect(listed.count == 1100)
        for index in [0, 1023, 1024, 1050, 1099] {
            let row = try #require(table.rows(index..<index + 1).first)
            guard case .object(let entry) = listed[index], case .string(let iv)? = entry.first(where: { $0.0 == "iv" })?.1,
                  case .array(let pieces)? = entry.first(where: { $0.0 == "subsamples" })?.1 else {
                Issue.record("senc entry \(index) has no IV or subsamples")
                continue
            }
            let map = pieces.compactMap { piece -> String? in
                guard case .object(let parts) = piece, case .uint(let clear)? = parts.first(where: { $0.0 == "clear" })?.1,
                      case .uint(let protected)? = parts.first(where: { $0.0 == "protected" })?.1 else { return nil }
                return "\(clear)+\(protected)"
            }
            #expect(Self.column(table, "iv", row) == .string(iv), "sample \(index + 1)")
            #expect(Self.column(table, "subsamples", row) == .string(map.joined(separator: " ")), "sample \(index + 1)")
        }
    }
}
