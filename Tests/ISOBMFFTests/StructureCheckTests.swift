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

    func findings(_ bytes: [UInt8]) throws -> [AtomDiagnostic] {
        AtomStructureCheck.findings(in: try parse(bytes)).filter { $0.severity >= .warning }
    }

    @Test func soundMovieHasNoFindings() throws {
        #expect(try findings(movie(offsets: soundOffsets)).isEmpty)
    }

    @Test func chunkOutsideMediaDataIsAFinding() throws {
        let found = try findings(movie(offsets: [0, 5]))
        #expect(found.map(\.code) == [.chunkOffsetOutsideMediaData, .chunkOffsetOutsideMediaData])
        #expect(found.first?.path.description == "moov/trak/mdia/minf/stbl/stco")
    }

    @Test func chunkRunningPastTheEndOfMediaDataIsAFinding() throws {
        let found = try findings(movie(offsets: [soundOffsets[0], soundOffsets[0] + 30]))
        #expect(found.map(\.code) == [.chunkOffsetOutsideMediaData])
        #expect(found.first?.message.contains("chunk 2") == true)
    }

    @Test func disagreeingSampleCountsAreFindings() throws {
        let found = try findings(movie(stszCount: 4, sttsCount: 5, offsets: soundOffsets))
        #expect(found.map(\.code).contains(.inconsistentTables))
        #expect(found.contains { $0.message.contains("'stts' covers 5") })
    }

    @Test func twoMoviesAreAFinding() throws {
        #expect(try findings(movie(offsets: [], moovCount: 2)).map(\.code).contains(.movieCount))
    }

    @Test func parseDiagnosticsAreFindings() throws {
        let bytes = movie(offsets: soundOffsets) + [1, 2, 3]
        #expect(try findings(bytes).map(\.code) == [.trailingBytes])
    }
}

@Suite struct TrackSampleLocatorTests {
    /// A locator of a 400,000-sample track reads only the sample-size header when it is made
    /// (what `atominspect --json` needs, the sample count); the first page of samples reads the
    /// sizes of the first block only, a sample near the end the whole size table (once), and each
    /// gives the sample's place, size, time and sync flag.
    @Test func aLocatorReadsItsTablesOnlyWhenASampleIsAskedFor() throws {
        let count = 400_000
        let path = try TemporaryFile.write([], name: "long-locator.m4a")
        try LargeMovieBuilder.write(to: path, sampleCount: count, mediaSize: 8 << 20)
        let source = RecordingByteSource(try FileByteSource(path: path))
        let tree = try AtomTree(source: source)
        let trak = try #require(tree.atom(at: AtomPath(parsing: "moov/trak")!))
        let stsz = try #require(tree.atom(at: AtomPath(parsing: "moov/trak/mdia/minf/stbl/stsz")!))
        let entries = stsz.payloadOffset + 12..<stsz.endOffset
        let chunkStart = try #require(tree.atoms.first { $0.type == "mdat" }).offset + 16
        let readsBefore = source.reads.count

        let locator = try #require(TrackSampleLocator(trak: trak, tree: tree))
        #expect(locator.sampleCount == count)
        #expect(source.reads.dropFirst(readsBefore).allSatisfy { !$0.overlaps(entries) })
        #expect(source.reads.dropFirst(readsBefore).reduce(0) { $0 + $1.count } <= 64)

        // Sample i is 16 + i % 3 bytes, 1024 ticks long, in one chunk; samples 1 and 200,001 are sync.
        func bytesBefore(_ i: Int) -> UInt64 { UInt64(16 * i + (i / 3) * 3 + (i % 3 == 2 ? 1 : 0)) }
        // The first page reads the entries of the first 4096 samples at most, not the table.
        let first = locator.samples(0..<3)
        #expect(first.map(\.offset) == [chunkStart, chunkStart + 16, chunkStart + 33])
        #expect(first.map(\.isSync) == [true, false, false])
        let entryBytes = source.reads.dropFirst(readsBefore).filter { $0.overlaps(entries) }.reduce(0) { $0 + $1.count }
        #expect(entryBytes > 0 && entryBytes <= 4 * 4096)
        let last = locator.samples(count - 2..<count + 5)
        #expect(last.map(\.number) == [count - 1, count])
        #expect(last.map(\.size) == [UInt32(16 + (count - 2) % 3), UInt32(16 + (count - 1) % 3)])
        #expect(last.map(\.offset) == [chunkStart + bytesBefore(count - 2), chunkStart + bytesBefore(count - 1)])
        #expect(last.map(\.decodeTime) == [UInt64(1024 * (count - 2)), UInt64(1024 * (count - 1))])
        #expect(last.map(\.isSync) == [false, false])
        #expect(locator.samples(200_000..<200_001).first?.isSync == true)
        #expect(source.reads.dropFirst(readsBefore).filter { $0.overlaps(entries) }.reduce(0) { $0 + $1.count } >= count * 4)
        #expect(locator.chunkExtent(0) == chunkStart..<chunkStart + bytesBefore(count))
        #expect(locator.chunkCount == 1)
    }
}
