import Foundation
import MediaBytes
import MediaToolSupport
import TestSupport
import Testing

/// The browser's list of diagnostics (`FileInspection.allDiagnostics`) holds everything
/// `atominspect check` reports (`findings`): on 2026-11-28 it showed 2 of the 4 problems of a
/// damaged movie, the cross-checks between atoms missing.
@Suite struct DiagnosticsListTests {
    static func write(_ bytes: [UInt8], _ name: String) throws -> String {
        try TemporaryFile.write(bytes, name: name)
    }

    /// A movie whose first chunk offset points before the media data, and the same with a
    /// second `moov`: problems only the cross-checks find.
    static func damagedMovies() throws -> [String] {
        var bytes = MovieBuilder().build()
        let stco = try #require(bytes.indices.first { bytes[$0..<min($0 + 4, bytes.count)].elementsEqual("stco".utf8) })
        // Version and flags, the count, then the first offset.
        bytes.replaceSubrange(stco + 12..<stco + 16, with: [0, 0, 0, 4])
        let moov = try #require(bytes.indices.first { bytes[$0..<min($0 + 4, bytes.count)].elementsEqual("moov".utf8) }) - 4
        let size = Int(bytes[moov]) << 24 | Int(bytes[moov + 1]) << 16 | Int(bytes[moov + 2]) << 8 | Int(bytes[moov + 3])
        return [try write(bytes, "chunk-outside.m4a"), try write(bytes + Array(bytes[moov..<moov + size]), "two-movies.m4a")]
    }

    @Test func theBrowsersListHoldsEveryFindingOfCheck() throws {
        let fixtures = try FileManager.default.contentsOfDirectory(atPath: TestFixtures.directory)
            .filter { !$0.hasSuffix(".md") && !$0.hasSuffix(".txt") && !$0.hasPrefix("export") }.map(TestFixtures.path)
        var checked = 0
        for path in try Self.damagedMovies() + fixtures {
            guard let file = try? FileInspection.open(path) else { continue }
            let listed = Set(file.allDiagnostics().map { "\($0.code)@\($0.offset)" })
            for finding in file.findings() {
                #expect(listed.contains("\(finding.code)@\(finding.offset)"), "\(path): \(finding) is not in the browser's list")
            }
            checked += 1
        }
        #expect(checked >= 40)
        let damaged = try FileInspection.open(try Self.damagedMovies()[1])
        #expect(Set(damaged.allDiagnostics().map(\.code)).isSuperset(of: ["chunkOffsetOutsideMediaData", "movieCount"]))
    }
}
