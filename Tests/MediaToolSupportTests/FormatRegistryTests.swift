import Foundation
import MediaBytes
import MediaMetadata
import MediaToolSupport
import TestSupport
import Testing

/// The format table (`MediaFormat.definitions`) is what everything reads: detection of a file
/// of each row finds that row, `MediaFile` opens exactly the rows with metadata (and says which
/// in its refusal), the folder walks take each row's extensions, and both tools' help names
/// every row it serves.
@Suite struct FormatRegistryTests {
    /// A fixture of each format in the table.
    static let fixtures: [MediaFormat: String] = [
        .mp4: "aac-itunes-tags-cover.m4a", .mov: "quicktime-udta-text.mov", .threeGP: "mobile.3gp", .heif: "heif-image.heic",
        .mp3: "id3v24-full.mp3", .aac: "hls-timestamp.aac", .aiff: "aiff-id3.aiff", .wav: "wav-id3-info.wav",
        .flac: "flac-tags-picture.flac", .ogg: "ogg-vorbis-tags.ogg", .ts: "timed-id3.ts",
    ]

    @Test func everyRowIsDetectedOpenedAndWalkedAsTheTableSays() throws {
        #expect(Set(MediaFormat.definitions.map(\.format)) == Set(Self.fixtures.keys), "a row without a fixture here, or the other way round")
        for definition in MediaFormat.definitions {
            let path = TestFixtures.path(try #require(Self.fixtures[definition.format]))
            #expect(MediaFormat.detect(try FileByteSource(path: path)) == definition.format, "\(path)")
            #expect(definition.extensions.contains((path as NSString).pathExtension.lowercased()), "\(path)")
            #expect(definition.format.definition?.format == definition.format)
            #expect(MediaFile.family(of: definition.format) == definition.family)
            if definition.hasMetadata {
                #expect(try MediaFile(path: path).format == definition.format)
            } else {
                #expect(throws: MetadataError.self) { try MediaFile(path: path) }
            }
            // The walks: tagedit's takes the rows with metadata, atominspect's every row.
            for ext in definition.extensions {
                #expect(MediaFileList.inspectableExtensions.contains(ext))
                #expect(MediaFileList.mediaExtensions.contains(ext) == definition.hasMetadata, "\(ext)")
                #expect(MediaFileList.hasMediaExtension("song." + ext.uppercased()) == definition.hasMetadata, "\(ext)")
            }
        }
        #expect(MediaFileList.inspectableExtensions == MediaFormat.extensions())
    }

    /// A short MP3 stream after junk (five frames, fewer than the eight a nameless file needs,
    /// a false frame sync in the junk) is MP3 when the file's name says so, as ffprobe reads
    /// it; without the name it is not taken for audio. Before 2026-11-30 such a file was
    /// refused ("no MP3 file begins as it does").
    @Test func aShortStreamAfterJunkIsTakenWhenTheNameSaysMP3() throws {
        var junk = [UInt8](repeating: 0, count: 1252)
        junk.replaceSubrange(937..<941, with: [0xFF, 0xE3, 0x6F, 0xC9])  // a sync that starts nothing
        let bytes = junk + (0..<5).flatMap { _ in ID3Builder.mp3Frame() }
        let named = try TemporaryFile.write(bytes, name: "short.mp3")
        #expect(MediaFormat.detect(try FileByteSource(path: named), named: named) == .mp3)
        #expect(MediaFormat.detect(try FileByteSource(path: named)) == nil)
        let file = try MediaFile(path: named)
        #expect(file.format == .mp3)
        #expect(file.properties.audio?.codec == "mp3")
        let other = try TemporaryFile.write(bytes, name: "short.bin")
        #expect(throws: MetadataError.self) { try MediaFile(path: other) }
    }

    @Test func theRefusalNamesEveryFormatWithMetadata() throws {
        let path = try TemporaryFile.write(Array("not a media file at all".utf8), name: "notes.txt")
        let error = #expect(throws: MetadataError.self) { try MediaFile(path: path) }
        for definition in MediaFormat.definitions where definition.hasMetadata {
            for name in definition.names { #expect(error?.description.contains(name) == true, "\(name): \(error.map(String.init(describing:)) ?? "")") }
        }
        #expect(error?.description.contains("HEIF") == false)
    }

    @Test func bothToolsHelpNamesTheFormatsTheyServe() async throws {
        let tagedit = try await ToolRunner.run("tagedit", ["--help"])
        let atominspect = try await ToolRunner.run("atominspect", ["--help"])
        let check = try await ToolRunner.run("atominspect", ["check", "--help"])
        for definition in MediaFormat.definitions {
            for name in definition.names {
                #expect(atominspect.standardOutput.contains(name), "atominspect --help: \(name)")
                #expect(tagedit.standardOutput.contains(name) == definition.hasMetadata, "tagedit --help: \(name)")
                if definition.structure != .atoms { #expect(check.standardOutput.contains(name), "atominspect check --help: \(name)") }
            }
        }
    }

    @Test func theKeySpaceReferenceHasAColumnForEveryFamily() throws {
        let reference = try String(contentsOfFile: TestFixtures.packageRoot + "/Documentation/KeySpace.md", encoding: .utf8)
        let header = try #require(reference.split(separator: "\n").first { $0.hasPrefix("| Key |") })
        let columns: [MetadataFamily: [String]] = [.mp4: ["iTunes", "QuickTime udta", "QuickTime mdta", "3GPP"], .id3: ["ID3v2.4", "ID3v2.3", "RIFF INFO", "APE"], .vorbis: ["Vorbis"]]
        for family in Set(MediaFormat.definitions.compactMap(\.family)) {
            let expected = try #require(columns[family], "a family without columns listed here: \(family)")
            for column in expected { #expect(header.contains(column), "\(family): \(column)") }
        }
    }
}
