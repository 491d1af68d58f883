import Foundation
@testable import MediaMetadata
import TestSupport
import Testing

/// `tags` is made from each store's `forEachTagContribution`, which the atom and ID3 stores
/// read without building the items' views. These tests hold it to the views: for every file,
/// the tags equal those the listed items (`rankedItems`, with their contributions and ranks)
/// give by the precedence rules, computed here the plain way, and those `MediaFile` makes
/// from its items when they were listed first.
@Suite struct TagContributionTests {
    /// The tags the store's items give, from their views: each key from the best-ranked area
    /// that has it when the store merges areas per key, else every key of the best-ranked area
    /// that gives any tag.
    static func tagsFromViews(_ file: MediaFile) -> [String: [String]] {
        let ranked = file.container.rankedItems
        var contributions: [(rank: Int, key: String, values: [String])] = []
        for (rank, item) in zip(ranked.ranks, ranked.items) {
            for contribution in item.contributions { contributions.append((rank, contribution.key, contribution.values)) }
        }
        var result: [String: [String]] = [:]
        if file.container.mergesAreasPerKey {
            for key in Set(contributions.map(\.key)) {
                let best = contributions.filter { $0.key == key }.map(\.rank).min()!
                result[key] = contributions.filter { $0.key == key && $0.rank == best }.flatMap(\.values)
            }
        } else if let best = contributions.map(\.rank).min() {
            for contribution in contributions where contribution.rank == best { result[contribution.key, default: []] += contribution.values }
        }
        return result
    }

    /// The tags `MediaFile` gives, as a dictionary.
    static func tags(_ file: MediaFile) -> [String: [String]] {
        file.tags.dictionary
    }

    static func check(_ paths: [String]) -> (compared: Int, differences: [String]) {
        var compared = 0
        var differences: [String] = []
        for path in paths {
            guard let file = try? MediaFile(path: path), MediaFile.family(of: file.format) != nil else { continue }
            compared += 1
            let expected = tagsFromViews(file)
            let actual = tags(file)
            if expected != actual { differences.append("\(path): views give \(expected), tags are \(actual)") }
            // Listed after its items (a JSON listing), a file's tags are made from their views.
            if let listed = try? MediaFile(path: path) {
                _ = listed.items
                let fromItems = tags(listed)
                if fromItems != actual { differences.append("\(path): after its items, tags are \(fromItems), alone \(actual)") }
            }
        }
        return (compared, differences)
    }

    @Test func everyFixturesTagsAreItsItemsContributions() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: TestFixtures.directory).sorted()
        let (compared, differences) = Self.check(names.map(TestFixtures.path))
        #expect(compared > 30, "only \(compared) fixtures read")
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: TestFixtures.corpusDirectory + "/MANIFEST.md"), "../shared/corpus is not beside the project"))
    func everyCorpusFilesTagsAreItsItemsContributions() throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: TestFixtures.corpusDirectory).sorted()
            .filter { !$0.hasPrefix("oracles/") }.map { TestFixtures.corpusDirectory + "/" + $0 }
        let (compared, differences) = Self.check(files)
        #expect(compared > 300, "only \(compared) corpus files read")
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }

    /// The cases the lean reading handles apart: a second item of a type and a second freeform
    /// item of an identifier give no tag (TagLib's rule); `IPLS` and a v2.3 date split over `TYER` and
    /// `TDAT` are read through their views; an ID3v2 tag without any tag leaves ID3v1's.
    @Test func itemsReadApartGiveTheirViewsTags() throws {
        func freeform(_ mean: String, _ name: String, _ text: String) -> [UInt8] {
            AtomBuilder.atom("----", AtomBuilder.fullBox("mean", Array(mean.utf8)) + AtomBuilder.fullBox("name", Array(name.utf8))
                + AtomBuilder.atom("data", [0, 0, 0, 1, 0, 0, 0, 0] + Array(text.utf8)))
        }
        var builder = MovieBuilder()
        builder.userData = [MovieBuilder.itemListMeta([
            MovieBuilder.textItem("©nam", "First"), MovieBuilder.textItem("©nam", "Second"),
            freeform("com.apple.iTunes", "MOOD", "Calm"), freeform("com.apple.iTunes", "MOOD", "Angry"), freeform("org.example", "MOOD", "Other"),
            // The same identifier, `----:com.apple.iTunes:FOO:BAR`, split differently: the
            // second is the first's duplicate (which gives no tag, its mean not being Apple's).
            freeform("com.apple.iTunes:FOO", "BAR", "a"), freeform("com.apple.iTunes", "FOO:BAR", "b"),
        ])]
        let movie = builder.build()
        func text(_ id: String, _ values: [String]) -> [UInt8] { ID3Builder.frame(id, ID3Builder.text(values, encoding: 0), version: 3) }
        let audio = Array(repeating: ID3Builder.mp3Frame(), count: 4).flatMap { $0 }
        let id3 = ID3Builder.tag(version: 3, frames: [
            text("IPLS", ["producer", "P. Roducer", "engineer", "E. Ngineer"]), text("TYER", ["2021"]), text("TDAT", ["0503"]), text("TCON", ["(17)Rock"]),
        ]) + audio
        func field(_ text: String, _ width: Int) -> [UInt8] { Array(text.utf8) + [UInt8](repeating: 0, count: width - text.utf8.count) }
        let v1 = Array("TAG".utf8) + field("Old title", 30) + field("Old artist", 30) + field("", 30) + field("1999", 4) + field("", 30) + [255]
        let onlyV1 = ID3Builder.tag(version: 4, frames: [ID3Builder.frame("PRIV", Array("owner".utf8) + [0, 1, 2], version: 4)]) + audio + v1
        let files = [("m4a", movie), ("mp3", id3), ("mp3", onlyV1)]
        for (index, (ext, bytes)) in files.enumerated() {
            let path = try TemporaryFile.write(bytes, name: "contributions-\(index).\(ext)")
            let file = try MediaFile(path: path)
            #expect(Self.tags(file) == Self.tagsFromViews(file), "file \(index)")
            #expect(!Self.tags(file).isEmpty, "file \(index)")
        }
        let titles = try MediaFile(path: TemporaryFile.write(movie, name: "contributions-titles.m4a")).tags
        #expect(titles["TITLE"] == ["First"])
        #expect(titles["MOOD"] == ["Calm"])
        #expect(titles["FOO:BAR"] == nil)
        let credits = try MediaFile(path: TemporaryFile.write(id3, name: "contributions-credits.mp3")).tags
        #expect(credits["PRODUCER"] == ["P. Roducer"])
        #expect(credits["DATE"] == ["2021-03-05"])
        #expect(credits["GENRE"] == ["Rock"])
        let old = try MediaFile(path: TemporaryFile.write(onlyV1, name: "contributions-v1.mp3")).tags
        #expect(old["TITLE"] == ["Old title"])
        #expect(old["DATE"] == ["1999"])
    }
}
