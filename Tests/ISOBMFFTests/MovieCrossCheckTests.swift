import Foundation
import ISOBMFF
import MediaBytes
import TagLibOracle
import TestSupport
import Testing

/// What other tools make of the files this library writes: TagLib reads the iTunes items, and
/// ffmpeg decodes the same audio and video as before the save.
@Suite struct MovieCrossCheckTests {
    @Test(arguments: ["moov-before-mdat.m4a", "moov-after-mdat.m4a", "aac-itunes-tags-cover.m4a", "video-h264-aac.mp4", "audiobook-chapters.m4b"])
    func tagLibReadsTheItemsThisLibraryWrites(_ name: String) throws {
        let path = try copyOfMovieFixture(name)
        var file = try MovieFile(path: path)
        file.metadata.movie.setItem(MetadataItem(type: "©nam", values: [.text("Written Títle ♪")]))
        file.metadata.movie.setItem(MetadataItem(type: "©ART", values: [.text("Artist One"), .text("Artist Two")]))
        file.metadata.movie.setItem(MetadataItem(type: "trkn", values: [.pair(index: 4, total: 10, trailingPad: true)]))
        file.metadata.movie.setItem(MetadataItem(type: "disk", values: [.pair(index: 1, total: 2, trailingPad: false)]))
        file.metadata.movie.setItem(MetadataItem(type: "tmpo", values: [.integer(128, width: 2)]))
        file.metadata.movie.setItem(MetadataItem(type: "cpil", values: [.flag(true)]))
        file.metadata.movie.setItem(.freeform(mean: "com.apple.iTunes", name: "CATALOGNUMBER", values: [.text("CAT-1")]))
        file.metadata.movie.setItem(MetadataItem(type: "covr", values: [ItemValue.image([0x89, 0x50, 0x4E, 0x47, 0, 0, 0, 0], mimeType: "image/png")!]))
        try file.save()

        let reading = try #require(TagLibReading.read(path))
        let items = try #require(reading.mp4Items)
        #expect(items["©nam"]?["values"] as? [String] == ["Written Títle ♪"])
        #expect(items["©ART"]?["values"] as? [String] == ["Artist One", "Artist Two"])
        #expect(items["trkn"]?["index"] as? Int == 4 && items["trkn"]?["total"] as? Int == 10)
        #expect(items["disk"]?["index"] as? Int == 1 && items["disk"]?["total"] as? Int == 2)
        #expect(items["tmpo"]?["value"] as? Int == 128)
        #expect(items["cpil"]?["value"] as? Bool == true)
        #expect(items["----:com.apple.iTunes:CATALOGNUMBER"]?["values"] as? [String] == ["CAT-1"])
        let covers = items["covr"]?["values"] as? [[String: Any]]
        #expect(covers?.first?["format"] as? String == "png")
        #expect(reading.properties["TITLE"] == ["Written Títle ♪"])
    }

    @Test func thisLibraryReadsWhatTagLibWrites() throws {
        let path = try copyOfMovieFixture("moov-before-mdat.m4a")
        #expect(TagLibReading.setMP4Items(in: path, title: "TagLib Títle", artist: "TagLib Artist", track: 7, total: 11))
        let movie = try MovieFile(path: path).metadata.movie
        #expect(movie.item("©nam")?.texts == ["TagLib Títle"])
        #expect(movie.item("©ART")?.texts == ["TagLib Artist"])
        let pair = try #require(movie.item("trkn")?.values.first?.pair)
        #expect(pair.index == 7 && pair.total == 11)
        #expect(try structureFindings(path).isEmpty)
    }
}

/// ffmpeg, which `.ci/run` installs; the decode checks need it in CI and run wherever it is.
enum FFmpeg {
    static let path = "/usr/bin/ffmpeg"
    static let isAvailable = FileManager.default.isExecutableFile(atPath: path)
    static let isRequired = ProcessInfo.processInfo.environment["CI"] != nil

    /// The MD5 of every decoded stream of the file (ffmpeg's `md5` muxer over all streams).
    static func decodeChecksum(_ file: String) async throws -> String {
        try await OtherReaders.decodeChecksum(file)
    }
}

@Suite(.enabled(if: FFmpeg.isAvailable || FFmpeg.isRequired, "ffmpeg is not installed (.ci/run installs it)"))
struct MovieDecodeChecksumTests {
    static let cases: [(String, MovieSaveOptions, Int)] = [
        ("video-h264-aac.mp4", MovieSaveOptions(), 4000),  // rewrite, moov before mdat: offsets move
        ("moov-after-mdat.m4a", MovieSaveOptions(), 4000),  // movie at end
        ("moov-after-mdat.m4a", MovieSaveOptions(fastStart: true), 10),  // fast start
        ("fragmented.mp4", MovieSaveOptions(), 4000),  // fragments move
        ("quicktime-udta-text.mov", MovieSaveOptions(), 4000),
        ("co64-chunk-offsets.m4a", MovieSaveOptions(), 4000),
        ("aac-itunes-tags-cover.m4a", MovieSaveOptions(), 10),  // in place
    ]

    @Test(arguments: 0..<cases.count)
    func ffmpegDecodesTheSameMediaAfterASave(_ index: Int) async throws {
        try #require(FFmpeg.isAvailable, "ffmpeg is required in CI")
        let (name, options, titleLength) = Self.cases[index]
        let path = try copyOfMovieFixture(name)
        let before = try await FFmpeg.decodeChecksum(path)
        let plan = try titled(try MovieFile(path: path), String(repeating: "t", count: titleLength)).save(options)
        #expect(plan.strategy != .unchanged)
        let after = try await FFmpeg.decodeChecksum(path)
        #expect(!before.isEmpty)
        #expect(after == before, "\(name) with \(plan.strategy)")
    }
}
