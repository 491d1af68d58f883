import Foundation
import FuzzHarness
import TestSupport
import Testing

/// The fuzz targets, run by the normal test suite: every target on its seeds (made from the
/// fixtures, as Tools/fuzz.sh starts), and every finding ever kept in Fuzz/Findings replayed
/// through its target. A regression fails here without a fuzzing run.
@Suite struct FuzzRegressionTests {
    static let findingsDirectory = TestFixtures.packageRoot + "/Fuzz/Findings"

    static var fixturePaths: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: TestFixtures.directory)) ?? []).map { TestFixtures.directory + "/" + $0 }
    }

    @Test(arguments: FuzzTarget.allCases)
    func seedsRunWithoutFindings(_ target: FuzzTarget) throws {
        let seeds = target.seeds(from: Self.fixturePaths)
        #expect(seeds.count >= 2, "\(target.rawValue) has seeds")
        for (index, seed) in seeds.enumerated() {
            #expect(throws: Never.self, "\(target.rawValue) seed \(index)") { try target.run(seed) }
        }
    }

    @Test func everyFindingsFolderNamesATarget() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.findingsDirectory).filter { $0 != "README.md" }
        for folder in folders {
            #expect(FuzzTarget(rawValue: folder) != nil, "Fuzz/Findings/\(folder) is not a target")
        }
    }

    @Test(arguments: FuzzTarget.allCases)
    func keptFindingsReplayWithoutFindings(_ target: FuzzTarget) throws {
        let folder = Self.findingsDirectory + "/" + target.rawValue
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        for name in names {
            let bytes = try TemporaryFile.read(folder + "/" + name)
            let started = Date()
            #expect(throws: Never.self, "\(target.rawValue)/\(name)") { try target.run(bytes) }
            // A hang guard matching the fuzzer's -timeout (this is a debug build).
            #expect(Date().timeIntervalSince(started) < 2, "\(target.rawValue)/\(name) is slow")
        }
    }
}
