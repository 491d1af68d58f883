import Foundation
import MediaBytes
import MediaToolSupport
import TestSupport
import Testing

/// The export document, version 2: each picture's bytes once, digests on request, a version
/// member; `import` restores version 1 documents (written by the code before it, kept in
/// `Fixtures/export-v1`) exactly as it restores today's.
@Suite struct ExportDocumentTests {
    func tagedit(_ arguments: String...) async throws -> ToolRunner.Result { try await ToolRunner.run("tagedit", arguments) }

    func copy(_ fixture: String) throws -> String {
        try TemporaryFile.write(TemporaryFile.read(TestFixtures.path(fixture)), name: fixture)
    }

    /// The fixtures with pictures whose version 1 exports are kept (one per way a format holds
    /// a picture: an `covr` item, APIC frames, a FLAC PICTURE block, a PICTURE in an Opus
    /// comment, an APE cover item), and one without.
    static let fixtures = ["aac-itunes-tags-cover.m4a", "id3v24-full.mp3", "flac-tags-picture.flac", "opus-tags-picture.opus",
                           "ape-lyrics3-id3v1.mp3", "wav-id3-info.wav"]

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Each picture's Base64 is in the document once; every native item that held a picture's
    /// bytes refers to it; digests only with --digests; the version says 2.
    @Test(arguments: fixtures)
    func everyPictureIsInTheDocumentOnce(_ fixture: String) async throws {
        let result = try await tagedit("export", TestFixtures.path(fixture))
        #expect(result.status == 0, "\(result.standardError)")
        let document = try Self.object(result.standardOutput)
        #expect(document["version"] as? Int == 2)
        let pictures = try #require(document["pictures"] as? [[String: Any]])
        for picture in pictures {
            let data = try #require(picture["data"] as? String)
            #expect(result.standardOutput.components(separatedBy: data).count == 2, "\(fixture): a picture's Base64 once")
            #expect(picture["sha256"] == nil)
        }
        let references = result.standardOutput.components(separatedBy: "\"picture\": ").count - 1
        #expect(references == pictures.count, "\(fixture): each picture is held by one native item")
        let digested = try Self.object(try await tagedit("export", "--digests", TestFixtures.path(fixture)).standardOutput)
        for picture in digested["pictures"] as? [[String: Any]] ?? [] {
            let text = try #require(picture["data"] as? String)
            let data = try #require(Base64.decode(text))
            #expect(picture["sha256"] as? String == PictureDigest.sha256Hex(data))
        }
    }

    /// A version 1 document (no version member, each picture also in its native item, with
    /// digests), written by the code of 2026-11-29 before version 2, restores the file exactly
    /// as today's document does: the same bytes, and the metadata of the source.
    @Test(arguments: fixtures)
    func aVersion1DocumentRestoresAsTodaysDoes(_ fixture: String) async throws {
        let old = TestFixtures.path("export-v1/\(fixture).json")
        #expect(try Self.object(String(decoding: try TemporaryFile.read(old), as: UTF8.self))["version"] == nil)
        let current = try TemporaryFile.makeDirectory() + "/export.json"
        #expect(try await tagedit("export", TestFixtures.path(fixture), "--output", current).status == 0)
        var restored: [[UInt8]] = []
        for document in [old, current] {
            let target = try copy(fixture)
            #expect(try await tagedit("clear", target).status == 0)
            let result = try await tagedit("import", target, document)
            #expect(result.status == 0, "\(fixture): \(result.standardError)")
            restored.append(try TemporaryFile.read(target))
            let before = try await tagedit("show", "--json", "--native", TestFixtures.path(fixture))
            let after = try await tagedit("show", "--json", "--native", target)
            func comparable(_ text: String) throws -> NSDictionary {
                var object = try #require((try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])?.first)
                object["path"] = nil
                // ID3v1 is refreshed from the restored ID3v2 tag by the save.
                object["items"] = (object["items"] as? [[String: Any]])?.filter { $0["keySpace"] as? String != "id3v1" }
                return object as NSDictionary
            }
            #expect(try comparable(before.standardOutput) == comparable(after.standardOutput), "\(fixture) from \(document)")
        }
        #expect(restored[0] == restored[1], "\(fixture): the two documents restore the same bytes")
    }

    /// Restoring an MP3's export into a file of the same family that cannot hold all of it (a
    /// WAV: no APE tag) restores the rest and names each item it left out; into an MP3 that
    /// lost its APE tag (`clear`), the tag is made again (before 2026-11-29 its items were
    /// dropped without a word).
    @Test func itemsAFileCannotHoldAreNamedAndAnAPETagIsMadeAgain() async throws {
        let document = try TemporaryFile.makeDirectory() + "/ape.json"
        #expect(try await tagedit("export", TestFixtures.path("ape-lyrics3-id3v1.mp3"), "--output", document).status == 0)
        let wav = try copy("wav-id3-info.wav")
        let result = try await tagedit("import", wav, document)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("note: ape/Title not imported: ape/Title: this file cannot hold an APE tag"), "\(result.standardError)")
        #expect(try await tagedit("get", wav, "TITLE").standardOutput == "Leading ID3v2.3 Title\n")
        let mp3 = try copy("ape-lyrics3-id3v1.mp3")
        #expect(try await tagedit("clear", mp3).status == 0)
        #expect(try await tagedit("import", mp3, document).status == 0)
        let native = try await tagedit("show", "--native", mp3).standardOutput
        #expect(native.contains("ape/Cover Art (Front)") && native.contains("ape/Catalog"), "\(native)")
    }

    @Test func importRefusesADocumentOfALaterVersionOrABadPictureReference() async throws {
        let path = try copy("aac-itunes-tags-cover.m4a")
        let original = try TemporaryFile.read(path)
        let exported = try await tagedit("export", path).standardOutput
        let cases: [(String, String)] = [
            (exported.replacingOccurrences(of: "\"version\": 2", with: "\"version\": 3"), "versions 1 to 2, not 3"),
            (exported.replacingOccurrences(of: "\"picture\": 1", with: "\"picture\": 7"), "expected the index of one of the 2 pictures"),
            (exported.replacingOccurrences(of: "\"prefix\": \"\"", with: "\"prefix\": 5"), "prefix: expected Base64"),
        ]
        for (text, message) in cases {
            #expect(text != exported, "\(message): the case changes the document")
            let document = try TemporaryFile.write(Array(text.utf8), name: "doc.json")
            let result = try await tagedit("import", path, document)
            #expect(result.status == 65, "\(message)")
            #expect(result.standardError.contains(message), "\(result.standardError)")
            #expect(try TemporaryFile.read(path) == original)
        }
    }
}
