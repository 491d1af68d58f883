import Foundation
import TestSupport
import Testing

/// `picture add` adds: a second front cover in an MP3 is kept beside the first, as in an M4A.
/// ID3 holds one picture of each description, so the second gets a numbered one and the note
/// says so. Before 2026-11-27 the second replaced the first without a word.
@Suite struct PictureAddTests {
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x11, count: 60) + [0xFF, 0xD9]
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0x22, count: 60)

    @Test(arguments: ["no-tags.mp3", "id3v24-full.mp3", "wav-id3-info.wav", "moov-before-mdat.m4a"])
    func aSecondPictureIsAddedNotSwapped(_ fixture: String) async throws {
        let path = try TemporaryFile.write(try TemporaryFile.read(TestFixtures.path(fixture)), name: fixture)
        let before = try await ToolRunner.run("tagedit", ["show", "--json", path])
        let existing = before.standardOutput.components(separatedBy: "\"mimeType\"").count - 1
        let first = try TemporaryFile.write(Self.jpeg, name: "a.jpg"), second = try TemporaryFile.write(Self.png, name: "b.png")
        #expect(try await ToolRunner.run("tagedit", ["picture", "add", path, "--image", first]).status == 0)
        let added = try await ToolRunner.run("tagedit", ["picture", "add", path, "--image", second])
        #expect(added.status == 0, "\(added.standardError)")
        let after = try await ToolRunner.run("tagedit", ["show", "--json", path])
        #expect(after.standardOutput.components(separatedBy: "\"mimeType\"").count - 1 == existing + 2, "\(after.standardOutput)")
        #expect(after.standardOutput.contains("image/jpeg") && after.standardOutput.contains("image/png"))
        if !fixture.hasSuffix(".m4a") {
            #expect(added.standardError.contains("note: ID3 needs distinct picture descriptions"), "\(added.standardError)")
            if OtherReaders.hasMutagen || OtherReaders.isRequired, !fixture.hasSuffix(".wav") {
                let tags = try await OtherReaders.mutagenTags(path)
                #expect(tags.keys.filter { $0.hasPrefix("APIC") }.count == existing + 2, "\(tags.keys.sorted())")
            }
        }
    }

    @Test func aFileIconReplacesTheOneThereAndSaysSo() async throws {
        let path = try TemporaryFile.write(try TemporaryFile.read(TestFixtures.path("no-tags.mp3")), name: "icon.mp3")
        let first = try TemporaryFile.write(Self.png, name: "a.png")
        var result = try await ToolRunner.run("tagedit", ["picture", "add", path, "--image", first, "--type", "file-icon", "--description", "one"])
        #expect(result.status == 0, "\(result.standardError)")
        result = try await ToolRunner.run("tagedit", ["picture", "add", path, "--image", first, "--type", "file-icon", "--description", "two"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("replaces the one the tag had"), "\(result.standardError)")
        let shown = try await ToolRunner.run("tagedit", ["show", "--json", path])
        #expect(shown.standardOutput.components(separatedBy: "\"mimeType\"").count - 1 == 1)
    }
}
