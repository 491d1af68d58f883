import Foundation
import MediaToolSupport
import TestSupport
import Testing

/// `atominspect diff` of large files says how far it has got: the comparison reports the bytes
/// compared every 64 MiB of a large payload, and still finds the first difference.
@Suite struct InspectionDiffProgressTests {
    /// A movie whose `mdat` holds `size` bytes (a sparse file: nothing large is written), the
    /// last one `last`.
    static func movie(size: UInt64, last: UInt8) throws -> String {
        let head = MovieBuilder().build()
        let path = try TemporaryFile.makeDirectory() + "/movie.m4a"
        let handle = try #require(FileHandle(forWritingAtPath: { FileManager.default.createFile(atPath: path, contents: nil); return path }()))
        let mdat = try #require(head.indices.first { head[$0..<min($0 + 4, head.count)].elementsEqual("mdat".utf8) }) - 4
        // The movie's header and tables, then a 64-bit mdat of `size` bytes in place of its own.
        try handle.write(contentsOf: Data(head[..<mdat]) + Data([0, 0, 0, 1]) + Data("mdat".utf8) + Data((0..<8).map { UInt8(truncatingIfNeeded: (size + 16) >> (56 - 8 * $0)) }))
        try handle.seek(toOffset: UInt64(mdat) + 16 + size - 1)
        try handle.write(contentsOf: Data([last]))
        try handle.close()
        return path
    }

    @Test func aLargePayloadReportsItsProgressAndItsFirstDifference() throws {
        let size: UInt64 = 200 << 20
        let a = try FileInspection.open(try Self.movie(size: size, last: 0))
        let b = try FileInspection.open(try Self.movie(size: size, last: 1))
        var reports: [UInt64] = []
        let diff = InspectionDiff(a, b, progress: { reports.append($0) })
        // Cumulative (the small atoms compared before it count too), in steps of 64 MiB
        // through the payload's node (its 16-byte header and 200 MiB).
        #expect(reports.count == 4)
        #expect(zip(reports.dropFirst(), reports).map { $0 - $1 } == [64 << 20, 64 << 20, (8 << 20) + 16])
        #expect((reports.last ?? 0) >= size + 16)
        let change = try #require(diff.changes.first { $0.path == "mdat" })
        #expect(change.kind == .bytes)
        // The atom's 16-byte header, then the payload's last byte.
        #expect(change.firstDifference == 16 + size - 1)
    }
}
