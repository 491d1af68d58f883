import Foundation
import Carriers
import ID3
import MediaBytes
import MediaMetadata
import TagLibOracle
import TestSupport
import Testing

/// The `tags` of every fixture and corpus file equal TagLib's property map, except for the
/// differences the key table documents (each normalised by a named rule in
/// `TagLibPropertyMap.differences`, which the `taglib` fuzz target shares).
@Suite struct TagLibPropertyMapTests {
    static let mediaExtensions: Set<String> = ["m4a", "m4b", "m4v", "mp4", "mov", "3gp", "3g2", "mp3", "aac", "aif", "aiff", "aifc", "wav"]

    /// Corpus files whose tags TagLib 1.13 reads worse than this project, each for a reason
    /// checked by hand (atominspect shows the frames).
    static let tagLibMisreads: [String: String] = [
        "Borewit__music-metadata/test/samples/mp3/issue-381.mp3": "TagLib gives no property at all for this valid v2.3 tag",
        "Borewit__music-metadata/test/samples/mp3/issue-471.mp3": "TagLib decodes the UTF-16 text frames as empty strings",
        "Borewit__music-metadata/test/samples/mp3/issue-691.mp3": "TagLib stops at an empty PRIV frame and misses the four frames after it",
        "Zeugma440__atldotnet/ATL.unit-test/Resources/WAV/illegal_id3v2.wav": "TagLib rejects the id3 chunk's tag; it reads as valid v2.3 here",
        "Zeugma440__atldotnet/ATL.unit-test/Resources/MP3/id3v2.3_ISO_multipleGenres.mp3": "TagLib drops the genre name in parentheses of TCON \"(17)(Pop)(02)\"",
        "chicio__ID3TagEditor/Tests/Examples/example-newframes-v2-written.mp3": "TagLib reads the v2.2 lyricist frame TXT as the original lyricist (TOLY)",
        "beetbox__mediafile/test/rsrc/full.wav": "TagLib ignores the v2.3 frame TORY written into this v2.4 tag; it reads as ORIGINALDATE here",
    ]
    /// Corpus files this project reads worse than TagLib: known limitations (README).
    static let knownLimitations: [String: String] = [:]

    @Test func fixturesAgreeWithTagLib() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: TestFixtures.directory).sorted()
            .filter { Self.mediaExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
        var compared = 0
        for name in names {
            guard let problems = TagLibPropertyMap.differences(TestFixtures.path(name)) else { continue }
            compared += 1
            #expect(problems.isEmpty, "\(name): \(problems.joined(separator: "; "))")
        }
        #expect(compared >= 20)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: TestFixtures.corpusDirectory + "/MANIFEST.md"), "../shared/corpus is not beside the project"))
    func corpusFilesAgreeWithTagLib() throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: TestFixtures.corpusDirectory).sorted()
            .filter { !$0.hasPrefix("oracles") && Self.mediaExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
        var compared = 0
        var failures: [String] = []
        var outOfScope: [String] = []
        for file in files where Self.tagLibMisreads[file] == nil && Self.knownLimitations[file] == nil {
            guard let problems = TagLibPropertyMap.differences(TestFixtures.corpusDirectory + "/" + file) else {
                outOfScope.append(file)
                continue
            }
            compared += 1
            if !problems.isEmpty { failures.append("\(file): \(problems.joined(separator: "; "))") }
        }
        print("TagLib property maps: \(compared) corpus files compared, \(failures.count) differ; out of scope (TagLib cannot read them, or a judged difference covers the whole file): \(outOfScope.joined(separator: ", "))")
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}
