import ISOBMFF
import MediaBytes
import MediaToolSupport
import TestSupport
import Testing

/// The one inspection model: lazy nodes, fields with their bytes, references, paged tables.
@Suite struct InspectionModelTests {
    /// The value of `row` in the column named `column`.
    static func value(_ table: InspectionTable, _ row: InspectionRow, _ column: String) -> JSONValue? {
        table.columns.firstIndex(of: column).flatMap { row.values.indices.contains($0) ? row.values[$0] : nil }
    }

    func open(_ fixture: String) throws -> FileInspection { try FileInspection.open(TestFixtures.path(fixture)) }

    func bytes(_ file: FileInspection, _ range: Range<UInt64>) throws -> [UInt8] {
        Array(try file.source.read(at: range.lowerBound, count: range.count))
    }

    @Test func fieldRangesHoldTheBytesTheValueWasReadFrom() throws {
        let file = try open("video-h264-aac.mp4")
        let mvhd = try #require(file.node(at: "moov/mvhd"))
        let fields = mvhd.details.fields
        let timescale = try #require(fields.first { $0.name == "timescale" })
        let range = try #require(timescale.range)
        #expect(try bytes(file, range).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } == 1000)
        #expect(timescale.value == .uint(1000))
        let ftyp = try #require(file.node(at: "ftyp")).details.fields
        #expect(try bytes(file, try #require(ftyp.first { $0.name == "majorBrand" }?.range)) == Array("isom".utf8))
    }

    /// Every node of `nodes` and below.
    func everyNode(_ nodes: [InspectionNode]) -> [InspectionNode] {
        nodes.flatMap { [$0] + everyNode($0.children) }
    }

    /// Whether `bytes` read as text (ID3's encodings, as stored) contain `text`.
    func bytes(_ bytes: [UInt8], holdText text: String) -> Bool {
        let trimmed = Array(bytes.drop { $0 == 0 })
        let readings = [String(decoding: trimmed, as: UTF8.self), String(trimmed.map { Character(Unicode.Scalar($0)) }),
                        String(bytes: trimmed, encoding: .utf16) ?? "", String(bytes: trimmed, encoding: .utf16BigEndian) ?? ""]
        return readings.contains { $0.replacingOccurrences(of: "\u{0}", with: "").contains(text) }
    }

    @Test(arguments: ["id3v24-full.mp3", "id3v23-utf16.mp3", "id3v22.mp3", "ape-lyrics3-id3v1.mp3", "id3v1-only.mp3",
                      "wav-id3-info.wav", "aiff-id3.aiff", "id3v24-frame-unsync-compressed.mp3"])
    func tagAndChunkFieldRangesHoldTheirValues(_ fixture: String) throws {
        let file = try open(fixture)
        var checked = 0
        for node in everyNode(file.nodes) {
            for field in node.details.fields {
                guard let range = field.range else { continue }
                #expect(node.range.lowerBound <= range.lowerBound && range.upperBound <= node.range.upperBound,
                        "\(node.path).\(field.name) lies outside its node")
                let stored = try bytes(file, range)
                switch (field.name, field.value) {
                case ("id", .string):
                    // The identifier as stored (v2.2's three letters), which the field names as read.
                    #expect(String(decoding: stored, as: UTF8.self) == node.type, "\(node.path).id")
                case ("formType", .string(let id)):
                    #expect(String(decoding: stored, as: UTF8.self) == id, "\(node.path).formType")
                case ("genre", _), ("kind", _):
                    // Named from a number (an ID3v1 genre index, an APE item's flags): the number's bytes.
                    #expect(!stored.isEmpty)
                case ("encoding", .string(let name)):
                    let expected = ["latin1": 0, "utf16": 1, "utf16BigEndian": 2, "utf8": 3][name]
                    #expect(stored.count == 1 && expected == Int(stored[0]), "\(node.path).encoding")
                case ("version", .string(let version)) where node.type == "ID3v2":
                    #expect("2.\(stored[0]).\(stored[1])" == version)
                case (_, .string(let text)) where !text.isEmpty:
                    #expect(self.bytes(stored, holdText: text), "\(node.path).\(field.name) = \(text)")
                case (_, .array(let values)):
                    for case .string(let text) in values where !text.isEmpty {
                        #expect(self.bytes(stored, holdText: text), "\(node.path).\(field.name) holds \(text)")
                    }
                case (let name, .uint(let value)) where ["count", "channels", "bitsPerSample", "formatTag", "frameCount", "genreIndex",
                                                          "track", "declaredSize"].contains(name):
                    let bigEndian = stored.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                    let littleEndian = stored.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                    #expect(bigEndian == value || littleEndian == value, "\(node.path).\(name)")
                case (let name, .int(let value)) where ["channels", "bitsPerSample"].contains(name):
                    let bigEndian = stored.reduce(Int64(0)) { $0 << 8 | Int64($1) }
                    let littleEndian = stored.reversed().reduce(Int64(0)) { $0 << 8 | Int64($1) }
                    #expect(bigEndian == value || littleEndian == value, "\(node.path).\(name)")
                default:
                    break
                }
                checked += 1
            }
        }
        #expect(checked >= 5, "\(fixture): only \(checked) fields have byte ranges")
    }

    @Test func framesOfATagUnsynchronisedAsAWholeClaimNoFileBytes() throws {
        // Their offsets count the bytes after unsynchronisation was undone, not the file's.
        let file = try open("id3v23-unsynchronised.mp3")
        let frames = everyNode(file.nodes).filter { $0.kind == .frame }
        #expect(!frames.isEmpty)
        #expect(frames.allSatisfy { $0.details.fields.allSatisfy { $0.range == nil } })
        let tag = try #require(file.nodes.first { $0.type == "ID3v2" })
        #expect(try bytes(file, try #require(tag.details.fields.first { $0.name == "flags" }?.range)) == [0x80])
    }

    @Test func chunkOffsetRowsPointAtTheirChunksInMediaData() throws {
        let file = try open("video-h264-aac.mp4")
        let stco = try #require(file.node(at: "moov/trak[1]/mdia/minf/stbl/stco"))
        let table = try #require(stco.details.table)
        #expect(table.rowCount == 9)
        let rows = table.rows(0..<9)
        let samples = try #require(file.node(at: "moov/trak[1]")?.details.table)
        let firstSamples = samples.rows(0..<samples.rowCount)
        for row in rows {
            guard case .bytes(let chunk)? = row.reference?.target, case .uint(let offset) = row.values[1] else {
                Issue.record("row \(row.index) points nowhere")
                continue
            }
            #expect(chunk.lowerBound == offset)
            // The entry's own bytes hold the offset.
            #expect(try bytes(file, try #require(row.range)).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } == offset)
            // The chunk is inside mdat, and its samples fill it exactly.
            #expect(file.nodes(containing: chunk.lowerBound).last?.type == "mdat")
            let inChunk = firstSamples.filter { if case .uint(let at) = Self.value(samples, $0, "offset") { return chunk.contains(at) } else { return false } }
            let total = inChunk.reduce(UInt64(0)) { sum, row in if case .uint(let size) = Self.value(samples, row, "size") { sum + size } else { sum } }
            #expect(total == UInt64(chunk.count))
        }
    }

    @Test func sampleSizeRowsPointAtTheSamples() throws {
        let file = try open("video-h264-aac.mp4")
        let stsz = try #require(file.node(at: "moov/trak[0]/mdia/minf/stbl/stsz")?.details.table)
        let first = try #require(stsz.rows(0..<1).first)
        let stco = try #require(file.node(at: "moov/trak[0]/mdia/minf/stbl/stco")?.details.table?.rows(0..<1).first)
        guard case .bytes(let sample)? = first.reference?.target, case .bytes(let chunk)? = stco.reference?.target else {
            Issue.record("no references")
            return
        }
        #expect(sample.lowerBound == chunk.lowerBound)
        #expect(first.values[1] == .uint(UInt64(sample.count)))
    }

    @Test func trackReferencesPointAtTheTrackWithThatID() throws {
        let file = try open("audiobook-chapters.m4b")
        let chap = try #require(file.node(at: "moov/trak[0]/tref/chap"))
        guard case .node(let path)? = chap.details.references.first?.target else {
            Issue.record("chap points nowhere")
            return
        }
        #expect(path == "moov/trak[1]")
        guard case .array(let ids)? = chap.details.fields.first(where: { $0.name == "trackIDs" })?.value else {
            Issue.record("no track IDs")
            return
        }
        let tkhd = try #require(file.node(at: path + "/tkhd")).details.fields
        #expect(ids == [.uint(2)])
        #expect(tkhd.first { $0.name == "trackID" }?.value == ids.first)
    }

    @Test func itemListItemsPointAtTheirValueAndImageItemsAtTheirExtents() throws {
        let m4a = try open("aac-itunes-tags-cover.m4a")
        let item = try #require(m4a.node(at: "moov/udta/meta/ilst/©nam"))
        #expect(item.details.references.first?.target == .node("moov/udta/meta/ilst/©nam/data"))
        let heif = try open("heif-jpeg-item.heif")
        let iloc = try #require(heif.nodes.first { $0.type == "meta" }?.children.first { $0.type == "iloc" })
        let extents = iloc.details.references
        #expect(!extents.isEmpty)
        for extent in extents {
            guard case .bytes(let range) = extent.target else { continue }
            #expect(range.upperBound <= heif.source.size)
        }
    }

    @Test func fragmentRunsPointAtTheirSamples() throws {
        let file = try open("fragmented.mp4")
        let trun = try #require(file.node(at: "moof[0]/traf[0]/trun"))
        let rows = try #require(trun.details.table).rows(0..<2)
        #expect(rows.count == 2)
        for row in rows {
            guard case .bytes(let range)? = row.reference?.target else {
                Issue.record("run sample \(row.index) points nowhere")
                continue
            }
            #expect(file.nodes(containing: range.lowerBound).last?.type == "mdat")
        }
    }

    @Test func theInnermostNodeHoldingAnOffset() throws {
        let file = try open("video-h264-aac.mp4")
        #expect(file.nodes(containing: 0x30).map(\.path) == ["moov", "moov/mvhd"])
        // A header byte belongs to the node itself, not to its first child.
        #expect(file.nodes(containing: 33).map(\.path) == ["moov"])
        #expect(file.nodes(containing: 7448).isEmpty)
    }

    @Test func aMillionSampleMovieOpensWithoutDecodingItsTables() throws {
        let path = try TemporaryFile.makeDirectory() + "/million.mp4"
        try LargeMovieBuilder.write(to: path, sampleCount: 1_000_000, mediaSize: 5 << 30)
        let file = try FileInspection.open(path)
        #expect(file.nodes.map(\.type) == ["ftyp", "moov", "mdat"])
        #expect(file.nodes[2].size == (5 << 30) + 16)
        let samples = try #require(file.node(at: "moov/trak")?.details.table)
        #expect(samples.rowCount == 1_000_000)
        let last = try #require(samples.rows(999_999..<1_000_000).first)
        // Sizes cycle 16, 17, 18 from the chunk's start at the mdat payload.
        let mdat = file.nodes[2].payloadRange.lowerBound
        let before = (0..<999_999).reduce(UInt64(0)) { $0 + 16 + UInt64($1 % 3) }
        #expect(Self.value(samples, last, "offset") == .uint(mdat + before))
        #expect(Self.value(samples, last, "size") == .uint(16))
        #expect(Self.value(samples, last, "decodeTime") == .uint(999_999 * 1024))
        #expect(Self.value(samples, try #require(samples.rows(500_000..<500_001).first), "sync") == .bool(true))
        #expect(Self.value(samples, try #require(samples.rows(500_001..<500_002).first), "sync") == .bool(false))
    }
}
