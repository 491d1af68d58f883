import Foundation
import TestSupport
import Testing

/// `atominspect diff`: what a tagger changed, run as a person runs it.
@Suite struct DiffTests {
    func copies(_ fixture: String) throws -> (String, String) {
        let directory = try TemporaryFile.makeDirectory()
        let bytes = try TemporaryFile.read(TestFixtures.path(fixture))
        let ext = (fixture as NSString).pathExtension
        let a = directory + "/a." + ext
        let b = directory + "/b." + ext
        try Data(bytes).write(to: URL(fileURLWithPath: a))
        try Data(bytes).write(to: URL(fileURLWithPath: b))
        return (a, b)
    }

    @Test func identicalFilesExitZero() async throws {
        let (a, b) = try copies("aac-itunes-tags-cover.m4a")
        let result = try await ToolRunner.run("atominspect", ["diff", a, b])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("same structure and bytes"))
    }

    @Test func aRetitledMovieShowsTheValueTheResizedAtomsAndTheMediaMoved() async throws {
        let (a, b) = try copies("moov-before-mdat.m4a")
        let title = String(repeating: "Long title ", count: 300)
        #expect(try await ToolRunner.run("tagedit", ["set", b, "TITLE=\(title)"]).status == 0)
        let result = try await ToolRunner.run("atominspect", ["diff", a, b])
        #expect(result.status == 1)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("~ moov  size 1056 -> ") })
        // The title's own characters are counted (3,300), not its JSON quotes (3,302 before 2026-11-29).
        #expect(lines.contains { $0.hasPrefix("  moov/udta/meta/ilst/©nam/data  value: \"Layout Title\" -> \"Long title Long") && $0.hasSuffix("\"... (3300 characters)") })
        #expect(lines.contains { $0.hasPrefix("= mdat  byte-identical, moved 1092 -> ") })
        // The chunk offsets moved with the media.
        #expect(lines.contains { $0.contains("/stbl/stco  entries:") })
        #expect(lines.last?.contains("media data byte-identical: 3393 bytes in 1 atom, moved") == true)
    }

    @Test func jsonListsEachChangeWithBothSides() async throws {
        let (a, b) = try copies("id3v24-full.mp3")
        #expect(try await ToolRunner.run("tagedit", ["set", b, "TITLE=New"]).status == 0)
        let result = try await ToolRunner.run("atominspect", ["diff", a, b, "--json"])
        #expect(result.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(document["equal"] as? Bool == false)
        let changes = try #require(document["changes"] as? [[String: Any]])
        let title = try #require(changes.first { $0["path"] as? String == "ID3v2/TIT2" && $0["field"] as? String == "values" })
        #expect((title["b"] as? [String: Any])?["value"] as? [String] == ["New"])
        #expect(((title["a"] as? [String: Any])?["value"] as? [String])?.first == "Fixture Title ♪")
        #expect((document["shiftedInside"] as? Int ?? 0) > 0)
    }

    /// `--structure-only` takes media of the same size as the same without reading it: a
    /// changed byte inside `mdat` (or an MP3's frames) is a difference of the full compare
    /// only, and a metadata change is found either way.
    @Test func structureOnlyComparesMediaBySize() async throws {
        for (fixture, media) in [("moov-before-mdat.m4a", "mdat"), ("id3v24-full.mp3", "mpeg")] {
            let (a, b) = try copies(fixture)
            let tree = try await ToolRunner.run("atominspect", ["--json", b])
            let nodes = try #require((try JSONSerialization.jsonObject(with: Data(tree.standardOutput.utf8)) as? [String: Any])?["atoms"] as? [[String: Any]])
            let node = try #require(nodes.first { $0["type"] as? String == media })
            let offset = try #require(node["offset"] as? Int), size = try #require(node["size"] as? Int)
            var bytes = try TemporaryFile.read(b)
            bytes[offset + size - 5] ^= 0x5A
            try Data(bytes).write(to: URL(fileURLWithPath: b))
            let full = try await ToolRunner.run("atominspect", ["diff", a, b])
            #expect(full.status == 1, "\(fixture): \(full.standardOutput)")
            let structural = try await ToolRunner.run("atominspect", ["diff", "--structure-only", a, b])
            #expect(structural.status == 0, "\(fixture): \(structural.standardOutput)")
            #expect(structural.standardOutput.contains("same structure and metadata (media data not compared: \(size) bytes in 1 node)"), "\(structural.standardOutput)")
            #expect(try await ToolRunner.run("tagedit", ["set", b, "TITLE=Other"]).status == 0)
            let retitled = try await ToolRunner.run("atominspect", ["diff", "--structure-only", "--json", a, b])
            #expect(retitled.status == 1)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(retitled.standardOutput.utf8)) as? [String: Any])
            #expect((document["mediaNotCompared"] as? [String: Any])?["nodes"] as? Int == 1, "\(fixture)")
        }
    }

    /// A byte changed inside the media: the line and the JSON say where, in the node and in
    /// both files.
    @Test func aChangedPayloadNamesItsFirstDifferingByte() async throws {
        let (a, b) = try copies("moov-before-mdat.m4a")
        var bytes = try TemporaryFile.read(b)
        let mdat = try #require(bytes.indices.first { bytes[$0..<min($0 + 4, bytes.count)].elementsEqual("mdat".utf8) }) - 4
        bytes[mdat + 100] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: b))
        let result = try await ToolRunner.run("atominspect", ["diff", a, b])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("~ mdat  same size, other bytes from byte 100 of it (file offsets \(mdat + 100) and \(mdat + 100))"),
                "\(result.standardOutput)")
        let json = try await ToolRunner.run("atominspect", ["diff", "--json", a, b])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let changes = try #require(document["changes"] as? [[String: Any]])
        #expect(changes.first { $0["path"] as? String == "mdat" }?["firstDifference"] as? Int == 100)
    }

    @Test func aMissingFileIsExit66() async throws {
        let (a, _) = try copies("no-tags.mp3")
        let result = try await ToolRunner.run("atominspect", ["diff", a, a + ".missing"])
        #expect(result.status == 66)
        #expect(result.standardError.contains(".missing"))
    }
}
