import ISOBMFF
import MediaBytes
import TestSupport
import Testing

@Suite struct TrackSampleLocatorTests {
    /// A locator of a 400,000-sample track reads only the sample-size header when it is made
    /// (what `atominspect --json` needs, the sample count); the first page of samples reads the
    /// sizes of the first block only, a sample near the end the whole size table once (a later
    /// page far in reads its own block), and each gives the sample's place, size, time and
    /// sync flag.
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
        #expect(source.reads.dropFirst(readsBefore).reduce(0) { $0 + $1.count } <= 12)  // the stsz header

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
        func entryBytesRead() -> Int { source.reads.dropFirst(readsBefore).filter { $0.overlaps(entries) }.reduce(0) { $0 + $1.count } }
        #expect(entryBytesRead() >= count * 4)
        // The running totals are made once: another page far in reads its block only.
        let afterTotals = entryBytesRead()
        #expect(locator.samples(300_000..<300_010).map(\.offset) == (300_000..<300_010).map { chunkStart + bytesBefore($0) })
        #expect(entryBytesRead() - afterTotals <= 4 * (4096 + 10))
        #expect(locator.chunkExtent(0) == chunkStart..<chunkStart + bytesBefore(count))
        #expect(locator.chunkCount == 1)
    }
}
