import Carriers
import Foundation
import MediaBytes
import MediaMetadata
import TagLibOracle
import TestSupport
import Testing
import VorbisComment

/// Native FLAC through the metadata layer: the Vorbis comment as uniform keys, PICTURE blocks
/// as pictures, CHAPTERnnn fields as chapters; saves in place within the padding (the audio
/// never rewritten) or as a verified rewrite, every other block and every audio byte kept.
@Suite struct FLACTests {
    func copy(_ fixture: String) throws -> String {
        try TemporaryFile.write(TemporaryFile.read(TestFixtures.path(fixture)), name: fixture)
    }

    func flac(_ path: String) throws -> FLACFile { try FLACFile(source: try FileByteSource(path: path)) }

    /// The bytes from the first audio frame to the end.
    func audio(_ path: String) throws -> [UInt8] {
        let file = try flac(path)
        return Array(try TemporaryFile.read(path)[Int(file.audioOffset)...])
    }

    @Test func theFixtureReadsAsUniformKeysPicturesAndChapters() throws {
        let file = try MediaFile(path: TestFixtures.path("flac-tags-picture.flac"))
        #expect(file.format == .flac)
        #expect(file.family == .vorbis)
        #expect(file.tags["TITLE"] == ["FLAC Title"])
        // `ALBUM ARTIST` (with a space) is the album artist; number and total fields are a pair.
        #expect(file.tags["ALBUMARTIST"] == ["FLAC Album Artist"])
        #expect(file.tags["TRACKNUMBER"] == ["3/12"])
        #expect(try file.values("TRACKTOTAL") == ["12"])
        #expect(file.tags["DISCNUMBER"] == ["1/2"])
        #expect(file.tags["FIXTURE NOTE"] == ["kept as written"])
        let pictures = try file.pictures
        #expect(pictures.map(\.type) == [.frontCover])
        #expect(pictures.first?.mimeType == "image/png")
        #expect(pictures.first?.data.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true)
        #expect(file.chapters.map(\.title) == ["Opening", "Second half"])
        #expect(file.chapters.map { $0.start.converted(to: 1000) } == [0, 500])
        #expect(file.audio?.sampleRate == 8000)
        #expect(file.audio?.channels == 1)
        #expect(file.audio?.bitsPerSample == 16)
        #expect(file.audio?.duration == 1.0)
        #expect(file.items.contains { $0.identifier.description == "vorbis/TITLE" })
        #expect(file.items.contains { $0.identifier.description == "flac/PICTURE[0]" })
    }

    @Test func aTitleThatFitsThePaddingIsWrittenInPlaceAndTheAudioDoesNotMove() throws {
        let path = try copy("flac-tags-picture.flac")
        let before = try TemporaryFile.read(path), audioBefore = try audio(path), offset = try flac(path).audioOffset
        var file = try MediaFile(path: path)
        try file.set("TITLE", ["A longer title written in place"])
        let plan = try file.save()
        #expect(plan.method == .inPlace)
        let after = try TemporaryFile.read(path)
        #expect(after.count == before.count)
        #expect(try flac(path).audioOffset == offset)
        #expect(try audio(path) == audioBefore)
        #expect(try MediaFile(path: path).tags["TITLE"] == ["A longer title written in place"])
        // Only the metadata region changed.
        #expect(after[Int(offset)...] == before[Int(offset)...])
        #expect(after[..<42] == before[..<42])
    }

    @Test func growingPastThePaddingRewritesAndKeepsEveryOtherBlockAndTheAudio() throws {
        let path = try copy("flac-tags-picture.flac")
        let original = try flac(path)
        let audioBefore = try audio(path)
        let streamInfo = try original.bytes(of: original.blocks[0])
        let pictureBefore = try original.picture(original.pictures[0])
        var file = try MediaFile(path: path)
        let long = String(repeating: "a comment that does not fit the padding ", count: 400)
        try file.set("COMMENT", [long])
        let plan = try file.save()
        #expect(plan.method == .rewrite)
        let written = try flac(path)
        #expect(written.diagnostics.filter(\.isProblem).isEmpty)
        #expect(try written.bytes(of: written.blocks[0]) == streamInfo)
        #expect(try written.picture(written.pictures[0]) == pictureBefore)
        #expect(try audio(path) == audioBefore)
        #expect(written.blocks.last?.type == .padding)
        #expect(written.blocks.last?.length == 4096)
        #expect(written.comment?.values("COMMENT") == [long])
        // Every field that was not edited is still there, in its order and spelling.
        #expect(written.comment?.fields.dropLast().map(\.name) == original.comment?.fields.map(\.name))
    }

    @Test func numberPairsAreWrittenAsANumberFieldAndATotalField() throws {
        let path = try copy("flac-tags-picture.flac")
        var file = try MediaFile(path: path)
        try file.set("TRACKNUMBER", ["4/10"])
        try file.save()
        #expect(try flac(path).comment?.values("TRACKNUMBER") == ["4"])
        #expect(try flac(path).comment?.values("TRACKTOTAL") == ["10"])
        // A number alone keeps the total (TRACKTOTAL is a key of its own); `5/` drops it.
        try file.set("TRACKNUMBER", ["5"])
        try file.save()
        #expect(try flac(path).comment?.values("TRACKNUMBER") == ["5"])
        #expect(try flac(path).comment?.values("TRACKTOTAL") == ["10"])
        try file.set("TRACKNUMBER", ["6/"])
        try file.save()
        #expect(try flac(path).comment?.values("TRACKNUMBER") == ["6"])
        #expect(try flac(path).comment?.values("TRACKTOTAL") == [])
        try file.set("DISCTOTAL", ["3"])
        try file.save()
        #expect(try flac(path).comment?.values("DISCNUMBER") == ["1"])
        #expect(try flac(path).comment?.values("DISCTOTAL") == ["3"])
        #expect(try MediaFile(path: path).tags["DISCNUMBER"] == ["1/3"])
    }

    @Test func aKeyKeepsTheSpellingTheFileUsesAndLeavesNoSecondOne() throws {
        let path = try copy("flac-tags-picture.flac")
        var file = try MediaFile(path: path)
        try file.set("ALBUMARTIST", ["Another Album Artist"])
        try file.set("title", ["lower-case key"])
        try file.save()
        let comment = try #require(try flac(path).comment)
        #expect(comment.fields.filter { $0.key == "ALBUM ARTIST" }.map(\.value) == ["Another Album Artist"])
        #expect(comment.values("ALBUMARTIST") == [])
        // ffmpeg spelled it `title`; the edit keeps that spelling.
        #expect(comment.fields.filter { $0.key == "TITLE" }.map(\.name) == ["title"])
        #expect(try MediaFile(path: path).tags["TITLE"] == ["lower-case key"])
    }

    @Test func multipleValuesAreSeparateFieldsInOrder() throws {
        let path = try copy("flac-tags-picture.flac")
        var file = try MediaFile(path: path)
        try file.set("ARTIST", ["One", "Two", "Three"])
        try file.save()
        #expect(try flac(path).comment?.values("ARTIST") == ["One", "Two", "Three"])
        #expect(try MediaFile(path: path).tags["ARTIST"] == ["One", "Two", "Three"])
        try file.remove("ARTIST")
        try file.save()
        #expect(try flac(path).comment?.values("ARTIST") == [])
    }

    @Test func picturesAreAddedAndRemovedAsPictureBlocks() throws {
        let path = try copy("flac-tags-picture.flac")
        var file = try MediaFile(path: path)
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 7, count: 300) + [0xFF, 0xD9]
        try file.addPicture(MediaPicture(type: .backCover, mimeType: "image/jpeg", description: "Back", data: jpeg))
        try file.save()
        var written = try flac(path)
        #expect(written.pictures.map(\.header.type) == [3, 4])
        #expect(try written.picture(written.pictures[1]).data == jpeg)
        #expect(written.pictures[1].header.description == "Back")
        #expect(file.removePictures(type: .frontCover) == 1)
        try file.save()
        written = try flac(path)
        #expect(written.pictures.map(\.header.type) == [4])
        #expect(try MediaFile(path: path).pictures.map(\.description) == ["Back"])
    }

    /// `MediaFile` reads a FLAC's first 8 KiB at once (its row's head length), not 64 KiB:
    /// blocks that lie past that, a comment longer than the head, a picture and the blocks
    /// after it, are read where they are and give what a reader of the whole file gives.
    @Test func blocksPastTheFirstReadAreReadWhereTheyAre() throws {
        #expect(MediaFormat.definition(named: "/music/a.b/Song.FLAC")?.headLength == 8 << 10)
        #expect(MediaFormat.definition(named: "/music/a.flac/song")?.format == nil, "a folder's extension is not the file's")
        let path = try copy("flac-tags-picture.flac")
        var file = try MediaFile(path: path)
        let lyrics = String(repeating: "a line of lyrics\n", count: 1500)
        try file.set("LYRICS", [lyrics])
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 9, count: 40_000) + [0xFF, 0xD9]
        try file.addPicture(MediaPicture(type: .backCover, mimeType: "image/jpeg", description: "Back", data: jpeg))
        try file.save()
        let whole = try FLACFile(source: MemoryByteSource(try TemporaryFile.read(path)))
        #expect(whole.blocks.last!.offset > 8 << 10 && whole.comment!.fields.count > 10)
        let read = try MediaFile(path: path)
        #expect(read.tags["LYRICS"] == [lyrics])
        #expect(read.tags["TITLE"] == ["FLAC Title"])
        #expect(try read.pictureSummaries.map(\.size) == [whole.pictures[0].header.dataLength, 40_006].map(Int.init))
        #expect(try read.pictures[1].data == jpeg)
        #expect(read.chapters.map(\.title) == ["Opening", "Second half"])
        #expect(try flac(path).blocks.map(\.offset) == whole.blocks.map(\.offset))
    }

    @Test func chaptersAreWrittenAsNumberedCommentFields() throws {
        let path = try copy("flac-tags-picture.flac")
        var file = try MediaFile(path: path)
        #expect(file.chapterForms == [.vorbis])
        try file.setChapters([Chapter(start: .milliseconds(0), title: "Intro"), Chapter(start: .milliseconds(250), title: "Main", url: "https://example.org/main"),
                              Chapter(start: .milliseconds(750), title: "Outro")])
        try file.save()
        let comment = try #require(try flac(path).comment)
        #expect(comment.values("CHAPTER001") == ["00:00:00.000"])
        #expect(comment.values("CHAPTER002NAME") == ["Main"])
        #expect(comment.values("CHAPTER002URL") == ["https://example.org/main"])
        #expect(comment.values("CHAPTER003") == ["00:00:00.750"])
        let reread = try MediaFile(path: path)
        #expect(reread.chapters.map(\.title) == ["Intro", "Main", "Outro"])
        #expect(reread.chapters.map { $0.start.converted(to: 1000) } == [0, 250, 750])
        // The chapter fields are chapters, not tags.
        #expect(reread.tags.keys.contains { $0.hasPrefix("CHAPTER") } == false)
    }

    @Test func clearKeepsTheVendorAndRemovesTheID3TagBeforeTheStream() throws {
        let path = try copy("flac-id3-leading.flac")
        let audioBefore = try audio(path)
        var file = try MediaFile(path: path)
        #expect(file.format == .flac)
        #expect(file.tags["TITLE"] == ["Vorbis Title"])
        #expect(file.diagnostics.contains { $0.place.hasPrefix("ID3v2") && !$0.isProblem })
        file.removeAll()
        try file.save()
        let bytes = try TemporaryFile.read(path)
        #expect(Array(bytes.prefix(4)) == Array("fLaC".utf8))
        let written = try flac(path)
        #expect(written.leadingTags.isEmpty)
        #expect(written.comment?.fields.isEmpty == true)
        #expect(written.comment?.vendor == "ffmpeg")
        #expect(try audio(path) == audioBefore)
    }

    @Test func anEditKeepsTheID3TagBeforeTheStreamByteForByte() throws {
        let path = try copy("flac-id3-leading.flac")
        let tagBytes = Array(try TemporaryFile.read(path).prefix(65))
        var file = try MediaFile(path: path)
        try file.set("TITLE", ["Edited"])
        #expect(try file.save().method == .inPlace)
        #expect(Array(try TemporaryFile.read(path).prefix(65)) == tagBytes)
        // And past the padding too.
        try file.set("COMMENT", [String(repeating: "x", count: 10_000)])
        #expect(try file.save().method == .rewrite)
        #expect(Array(try TemporaryFile.read(path).prefix(65)) == tagBytes)
        #expect(try MediaFile(path: path).tags["TITLE"] == ["Edited"])
    }

    /// A FLAC file with an APPLICATION block, a reserved block type, a field without `=` and a
    /// field that is not UTF-8, built from the fixture's STREAMINFO and audio frames.
    func unusualFile() throws -> (path: String, blocks: [[UInt8]]) {
        let source = try flac(TestFixtures.path("flac-tags-picture.flac"))
        let streamInfo = try source.bytes(of: source.blocks[0])
        func block(_ type: UInt8, _ body: [UInt8]) -> [UInt8] {
            [type, UInt8(body.count >> 16), UInt8((body.count >> 8) & 0xFF), UInt8(body.count & 0xFF)] + body
        }
        var comment = VorbisComment(vendor: "test vendor")
        comment.fields = [VorbisComment.Field(name: "TITLE", value: "Unusual"), VorbisComment.Field(bytes: Array("NOEQUALSSIGN".utf8)),
                          VorbisComment.Field(bytes: Array("LATIN1=caf".utf8) + [0xE9])]
        let application = block(2, Array("TEST".utf8) + [1, 2, 3, 4, 5])
        let reserved = block(10, [9, 8, 7])
        let blocks = [streamInfo, application, block(4, comment.serialized()), reserved]
        var bytes = Array("fLaC".utf8) + blocks.joined()
        bytes += [0x81, 0, 0, 16] + [UInt8](repeating: 0, count: 16)
        bytes += try TemporaryFile.read(TestFixtures.path("flac-tags-picture.flac"))[Int(source.audioOffset)...]
        return (try TemporaryFile.write(bytes, name: "unusual.flac"), [application, reserved])
    }

    @Test func unknownBlocksAndFieldsSurviveEveryWrite() throws {
        let (path, kept) = try unusualFile()
        for (key, value, method) in [("ARTIST", "short", SaveMethod.inPlace), ("COMMENT", String(repeating: "long ", count: 100), .rewrite)] {
            var file = try MediaFile(path: path)
            try file.set(key, [value])
            #expect(try file.save().method == method)
            let written = try flac(path)
            #expect(try written.blocks.filter { [2, 10].contains($0.type.rawValue) }.map { try written.bytes(of: $0) } == kept)
            let fields = try #require(written.comment?.fields)
            #expect(fields.contains { $0.bytes == Array("NOEQUALSSIGN".utf8) })
            #expect(fields.contains { $0.bytes == Array("LATIN1=caf".utf8) + [0xE9] })
            #expect(written.comment?.vendor == "test vendor")
        }
    }

    @Test func exportedItemsRestoreTheCommentAndPicturesExactly() throws {
        let source = try MediaFile(path: TestFixtures.path("flac-tags-picture.flac"))
        let path = try copy("flac-id3-leading.flac")
        var target = try MediaFile(path: path)
        try target.replaceAll(with: try source.nativeItems())
        try target.save()
        let written = try flac(path), original = try flac(TestFixtures.path("flac-tags-picture.flac"))
        #expect(written.comment?.fields == original.comment?.fields)
        #expect(try written.picture(written.pictures[0]) == original.picture(original.pictures[0]))
    }

    @Test func flacToM4AAndBackKeepsTagsPicturesAndChapters() throws {
        let m4a = try TemporaryFile.write(TemporaryFile.read(TestFixtures.path("moov-before-mdat.m4a")), name: "target.m4a")
        let source = try MediaFile(path: TestFixtures.path("flac-tags-picture.flac"))
        var movie = try MediaFile(path: m4a)
        let report = try movie.copyMetadata(from: source)
        #expect(report.count(.notRepresentable) == 0, "\(report.entries.filter { $0.outcome == .notRepresentable }.map(\.key))")
        try movie.save()
        let back = try copy("flac-tags-picture.flac")
        var flacFile = try MediaFile(path: back)
        flacFile.removeAll()
        _ = try flacFile.copyMetadata(from: try MediaFile(path: m4a))
        try flacFile.save()
        let reread = try MediaFile(path: back)
        for key in ["TITLE", "ARTIST", "ALBUM", "ALBUMARTIST", "DATE", "GENRE", "TRACKNUMBER", "DISCNUMBER", "FIXTURE NOTE"] {
            #expect(reread.tags[key] == source.tags[key], "\(key)")
        }
        #expect(try reread.pictures.map(\.data) == source.pictures.map(\.data))
        #expect(reread.chapters.map(\.title) == source.chapters.map(\.title))
        #expect(reread.chapters.map { $0.start.converted(to: 1000) } == source.chapters.map { $0.start.converted(to: 1000) })
    }

    @Test func taglibReadsTheSamePropertiesFromTheFixturesAndAfterAnEdit() throws {
        let path = try copy("flac-tags-picture.flac")
        var file = try MediaFile(path: path)
        try file.set("TITLE", ["Zürich ✓"])
        try file.set("ARTIST", ["One", "Two"])
        try file.set("TRACKNUMBER", ["7/9"])
        try file.save()
        for checked in [TestFixtures.path("flac-tags-picture.flac"), TestFixtures.path("flac-id3-leading.flac"), path] {
            let taglib = try #require(TagLibReading.read(checked))
            let ours = try MediaFile(path: checked).tags
            #expect(FLACCrossCheck.differences(taglib.properties, ours).isEmpty, "\(checked): \(FLACCrossCheck.differences(taglib.properties, ours))")
        }
    }

    @Test func taglibAgreesOnEveryFLACOfTheCorpus() throws {
        let corpus = TestFixtures.corpusDirectory
        guard let names = FileManager.default.enumerator(atPath: corpus)?.allObjects as? [String] else { return }
        var compared = 0
        for name in names.sorted() where name.lowercased().hasSuffix(".flac") {
            let path = corpus + "/" + name
            guard let taglib = TagLibReading.read(path), let file = try? MediaFile(path: path) else {
                Issue.record("\(name): TagLib or MediaFile cannot open it")
                continue
            }
            #expect(FLACCrossCheck.differences(taglib.properties, file.tags).isEmpty, "\(name): \(FLACCrossCheck.differences(taglib.properties, file.tags))")
            compared += 1
        }
        // The corpus is beside the project in CI and here; without it there is nothing to compare.
        if FileManager.default.fileExists(atPath: corpus) { #expect(compared >= 25) }
    }
}

/// Where TagLib's property map of a FLAC file and `MediaFile.tags` may differ, by design:
/// number and total fields are one pair key here (`TRACKNUMBER=3/12`, as every other format
/// has it), `ALBUM ARTIST` is `ALBUMARTIST`, and `CHAPTERnnn` fields are chapters. Everything
/// else must be equal.
enum FLACCrossCheck {
    static func differences(_ taglib: [String: [String]], _ ours: TagMap) -> [String] {
        var expected = taglib
        for (number, totals) in [("TRACKNUMBER", ["TRACKTOTAL", "TOTALTRACKS"]), ("DISCNUMBER", ["DISCTOTAL", "TOTALDISCS"])] {
            let total = totals.lazy.compactMap { taglib[$0]?.first }.first
            if let total, let first = taglib[number]?.first, !first.contains("/") {
                expected[number] = [first + "/" + total] + (taglib[number]?.dropFirst() ?? [])
                for key in totals { expected[key] = nil }
            }
        }
        if let spaced = expected.removeValue(forKey: "ALBUM ARTIST") { expected["ALBUMARTIST", default: []] += spaced }
        for key in expected.keys where key.hasPrefix("CHAPTER") && key.dropFirst(7).first?.isNumber == true { expected[key] = nil }
        var found: [String] = []
        let ourKeys = Set(ours.dictionary.keys)
        for (key, values) in expected where ours[key] != values { found.append("\(key): TagLib \(values), here \(ours[key] ?? [])") }
        for key in ourKeys where expected[key] == nil { found.append("\(key): only here (\(ours[key] ?? []))") }
        return found.sorted()
    }
}
