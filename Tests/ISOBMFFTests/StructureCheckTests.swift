import ISOBMFF
import MediaBytes
import TestSupport
import Testing

@Suite struct StructureCheckTests {
    /// A one-track movie whose tables say `samples` samples of 10 bytes in chunks at `offsets`.
    func movie(stszCount: UInt64 = 4, sttsCount: UInt64 = 4, offsets: [UInt64], mdatPayload: Int = 40, moovCount: Int = 1) -> [UInt8] {
        let stts = B.fullBox("stts", B.be(1, width: 4) + B.be(sttsCount, width: 4) + B.be(1024, width: 4))
        let stsc = B.fullBox("stsc", B.be(1, width: 4) + B.be(1, width: 4) + B.be(2, width: 4) + B.be(1, width: 4))
        let stsz = B.fullBox("stsz", B.be(10, width: 4) + B.be(stszCount, width: 4))
        let stco = B.fullBox("stco", B.be(UInt64(offsets.count), width: 4) + offsets.flatMap { B.be($0, width: 4) })
        let moov = B.container("moov", B.container("trak", B.container("mdia", B.container("minf", B.container("stbl", stts, stsc, stsz, stco)))))
        return B.ftyp() + [UInt8]((0..<moovCount).flatMap { _ in moov }) + B.atom("mdat", [UInt8](repeating: 0, count: mdatPayload))
    }

    /// Offsets of two 20-byte chunks at the start of the `mdat` payload.
    var soundOffsets: [UInt64] {
        let payloadStart = UInt64(movie(offsets: [0, 0]).count - 40)
        return [payloadStart, payloadStart + 20]
    }

    func findings(_ bytes: [UInt8]) throws -> [Diagnostic] {
        AtomStructureCheck.findings(in: try parse(bytes)).filter { $0.severity >= .warning }
    }

    @Test func soundMovieHasNoFindings() throws {
        #expect(try findings(movie(offsets: soundOffsets)).isEmpty)
    }

    @Test func chunkOutsideMediaDataIsAFinding() throws {
        let found = try findings(movie(offsets: [0, 5]))
        #expect(found.map(\.code) == ["chunkOffsetOutsideMediaData", "chunkOffsetOutsideMediaData"])
        #expect(found.first?.path.description == "moov/trak/mdia/minf/stbl/stco")
    }

    @Test func chunkRunningPastTheEndOfMediaDataIsAFinding() throws {
        let found = try findings(movie(offsets: [soundOffsets[0], soundOffsets[0] + 30]))
        #expect(found.map(\.code) == ["chunkOffsetOutsideMediaData"])
        #expect(found.first?.message.contains("chunk 2") == true)
    }

    @Test func disagreeingSampleCountsAreFindings() throws {
        let found = try findings(movie(stszCount: 4, sttsCount: 5, offsets: soundOffsets))
        #expect(found.map(\.code).contains("inconsistentTables"))
        #expect(found.contains { $0.message.contains("'stts' covers 5") })
    }

    @Test func twoMoviesAreAFinding() throws {
        #expect(try findings(movie(offsets: [], moovCount: 2)).map(\.code).contains("movieCount"))
    }

    @Test func parseDiagnosticsAreFindings() throws {
        let bytes = movie(offsets: soundOffsets) + [1, 2, 3]
        #expect(try findings(bytes).map(\.code) == ["trailingBytes"])
    }
}
