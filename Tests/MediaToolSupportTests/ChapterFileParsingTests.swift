import MediaMetadata
import MediaToolSupport
import Testing

/// Reading chapter files for `tagedit chapters set`: each format read back from what `export`
/// writes, exact times, escapes and entities, the format told from the content, and errors
/// that name the line.
@Suite struct ChapterFileParsingTests {
    let chapters = [
        Chapter(start: .milliseconds(0), end: .milliseconds(61_500), title: "Intro = start; #1 \\ \"quoted\"\nnext", url: "https://example.org/?a=1&b=2"),
        Chapter(start: ChapterTime(2_712_150, timescale: 44100), end: ChapterTime(5_424_300, timescale: 44100), title: "Second <b> & ü"),
    ]

    func roundTrip(_ format: ChapterFileFormat) throws -> [Chapter] {
        let text = format.render(chapters, path: "x.m4b", lists: [ChapterList(form: .quickTime, chapters: chapters)])
        #expect(ChapterFileFormat.detect(text) == format)
        return try format.parse(text)
    }

    @Test func ffmetadataReadsBackExactlyWithItsEscapes() throws {
        let read = try roundTrip(.ffmetadata)
        #expect(read.map(\.title) == chapters.map(\.title))
        #expect(read.map(\.start) == chapters.map(\.start))
        #expect(read[1].start.timescale == 44100 && read[1].start.value == 2_712_150)
        #expect(read.map(\.end) == chapters.map(\.end))
    }

    @Test func mp4chapsReadsStartsAndTitles() throws {
        let read = try roundTrip(.mp4chaps)
        #expect(read.map(\.start) == [.milliseconds(0), .milliseconds(61_500)])
        #expect(read.map(\.title) == ["Intro = start; #1 \\ \"quoted\" next", "Second <b> & ü"])
        // Hours past 99, minutes-and-seconds, plain seconds, fractions to the nanosecond, comments.
        let more = try ChapterFileFormat.mp4chaps.parse("# a comment\r\n100:00:00.5 Long\n\n01:02 Short\n7 Seven\n0:00:01.123456789 Fine\n")
        #expect(more.map(\.start) == [ChapterTime(360_000_500, timescale: 1000), .milliseconds(62_000), .milliseconds(7000),
                                      ChapterTime(1_123_456_789, timescale: 1_000_000_000)])
        #expect(more.map(\.title) == ["Long", "Short", "Seven", "Fine"])
    }

    @Test func podloveReadsAttributesAndEntities() throws {
        let read = try roundTrip(.podlove)
        #expect(read.map(\.title) == chapters.map(\.title))
        #expect(read.first?.url == "https://example.org/?a=1&b=2")
        #expect(read.map { $0.start.converted(to: 1000) } == [0, 61_500])
        let other = try ChapterFileFormat.podlove.parse("<chapters><chapter start='1.5' title='A &#x263A; &#65;'/></chapters>")
        #expect(other.map(\.title) == ["A ☺ A"])
        #expect(other.map(\.start) == [.milliseconds(1500)])
    }

    @Test func jsonFormsReadStartsInSeconds() throws {
        for format in [ChapterFileFormat.json, .podcastJSON] {
            let read = try roundTrip(format)
            #expect(read.map(\.title) == chapters.map(\.title), "\(format.rawValue)")
            #expect(read.map { $0.start.converted(to: 1000) } == [0, 61_500], "\(format.rawValue)")
            #expect(read.first?.url == chapters.first?.url, "\(format.rawValue)")
        }
        // A bare array of chapters is read too.
        #expect(try ChapterFileFormat.json.parse("[{\"start\": 2.25, \"title\": \"x\"}]").map(\.start) == [.milliseconds(2250)])
    }

    @Test func errorsNameTheLine() {
        func failure(_ format: ChapterFileFormat, _ text: String) -> ChapterFileError? {
            do { _ = try format.parse(text) } catch { return error }
            return nil
        }
        #expect(failure(.mp4chaps, "00:00:00.000 A\n\n0:61:00 B\n")?.line == 3)
        #expect(failure(.mp4chaps, "00:00:00.000 A\n1:2:3:4 B\n")?.line == 2)
        #expect(failure(.ffmetadata, "[CHAPTER]\nSTART=0\n")?.line == 1)
        #expect(failure(.ffmetadata, ";FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/0\nSTART=0\n")?.line == 3)
        #expect(failure(.ffmetadata, ";FFMETADATA1\n\n[CHAPTER]\nTIMEBASE=1/1000\ntitle=x\n")?.line == 3)
        #expect(failure(.ffmetadata, ";FFMETADATA1\n[CHAPTER]\nno equals sign\n")?.line == 3)
        #expect(failure(.json, "{\"chapters\": [\n\n  {\"start\": 1,]}")?.line == 3)
        #expect(failure(.podlove, "<psc:chapters>\n<psc:chapter title=\"x\"/>\n</psc:chapters>")?.line == 2)
        #expect(failure(.podlove, "<psc:chapters>\n<psc:chapter start=\"0\" title=\"x/>\n</psc:chapters>") != nil)
        #expect(failure(.mp4chaps, "# nothing\n")?.message.contains("no chapters") == true)
    }

    @Test func theFormatIsToldFromTheContent() {
        #expect(ChapterFileFormat.detect("\u{FEFF};FFMETADATA1\n") == .ffmetadata)
        #expect(ChapterFileFormat.detect("  <?xml version=\"1.0\"?><psc:chapters/>") == .podlove)
        #expect(ChapterFileFormat.detect("{\"version\": \"1.2.0\", \"chapters\": [{\"startTime\": 0}]}") == .podcastJSON)
        #expect(ChapterFileFormat.detect("[{\"path\": \"x\", \"chapters\": []}]") == .json)
        #expect(ChapterFileFormat.detect("00:00:00.000 Intro\n") == .mp4chaps)
        #expect(ChapterFileFormat.detect("CHAPTER01=00:00:00.000\nCHAPTER01NAME=Intro\n") == .ogm)
    }

    /// What a chapter file says that chapters do not keep is named for a note (issue 35:
    /// Podcasting 2.0 `img` was dropped without a word; now an image URL is kept as a linked
    /// picture, and only `location` and `toc: false` are named).
    @Test func whatChaptersDoNotKeepIsNamed() {
        let podcast = "{\"version\": \"1.2.0\", \"chapters\": [{\"startTime\": 0, \"title\": \"A\", \"img\": \"https://x/a.jpg\"},"
            + " {\"startTime\": 5, \"title\": \"B\", \"img\": \"https://x/b.jpg\", \"toc\": false}, {\"startTime\": 9, \"title\": \"C\", \"location\": {}}]}"
        #expect(ChapterFileFormat.podcastJSON.unkept(in: podcast) == [
            "1 chapter's location not kept: a chapter here holds its times, title, subtitle, URL and image",
            "1 chapter's toc: false (hidden from the table of contents) not kept: a chapter here holds its times, title, subtitle, URL and image",
        ])
        let podlove = "<psc:chapters><psc:chapter start=\"0\" title=\"A\" image=\"a.jpg\"/></psc:chapters>"
        #expect(ChapterFileFormat.podlove.unkept(in: podlove).isEmpty)
        #expect(ChapterFileFormat.mp4chaps.unkept(in: "00:00:00.000 A").isEmpty)
        #expect(ChapterFileFormat.podcastJSON.unkept(in: "{\"chapters\": [{\"startTime\": 0}]}").isEmpty)
    }

    /// A chapter's image URL (Podcasting 2.0 `img`, Podlove `image`, this project's
    /// `image.url`) is a linked picture (ID3's `APIC` with MIME type `-->`), written back by
    /// each format that has a place for it.
    @Test func imageURLsAreLinkedPicturesAndWrittenBack() throws {
        let podcast = "{\"version\": \"1.2.0\", \"chapters\": [{\"startTime\": 0, \"title\": \"A\", \"img\": \"https://x/a.jpg\"}, {\"startTime\": 5, \"title\": \"B\"}]}"
        let chapters = try ChapterFileFormat.podcastJSON.parse(podcast)
        #expect(chapters[0].image == .link(to: "https://x/a.jpg"))
        #expect(chapters[0].image?.mimeType == "-->" && chapters[0].image?.linkedURL == "https://x/a.jpg")
        #expect(chapters[1].image == nil)
        for format in [ChapterFileFormat.podcastJSON, .podlove, .json] {
            let written = format.render(chapters, path: "x", lists: [])
            let again = try format.parse(written)
            #expect(again.map(\.image) == chapters.map(\.image), "\(format.rawValue): \(written)")
        }
        let written = try JSONValue.parse(ChapterFileFormat.podcastJSON.render(chapters, path: "x", lists: []))
        #expect(written["chapters"]?.arrayValue?.map { $0["img"]?.stringValue } == ["https://x/a.jpg", nil])
        let podlove = try ChapterFileFormat.podlove.parse("<psc:chapters><psc:chapter start=\"0\" title=\"A\" image=\"a.jpg\"/></psc:chapters>")
        #expect(podlove.first?.image?.linkedURL == "a.jpg")
    }

    /// The OGM (mkvmerge simple) format, read and written (issue 35): pairs by number in number
    /// order whatever the line order, names in any case, a title with `=` kept whole, and the
    /// line of what does not read.
    @Test func ogmChaptersReadAndWriteBack() throws {
        let text = "CHAPTER02=00:01:00.500\nchapter02name=Two = Deux\nCHAPTER01=00:00:00.000\nCHAPTER01NAME=Intro\n\n"
        let chapters = try ChapterFileFormat.ogm.parse(text)
        #expect(chapters.map(\.title) == ["Intro", "Two = Deux"])
        #expect(chapters[1].start.seconds == 60.5)
        let written = ChapterFileFormat.ogm.render(chapters, path: "x", lists: [])
        #expect(written == "CHAPTER01=00:00:00.000\nCHAPTER01NAME=Intro\nCHAPTER02=00:01:00.500\nCHAPTER02NAME=Two = Deux\n")
        #expect(try ChapterFileFormat.ogm.parse(written) == chapters)
        #expect(throws: ChapterFileError.self) { try ChapterFileFormat.ogm.parse("CHAPTER01=soon\n") }
        #expect(throws: ChapterFileError.self) { try ChapterFileFormat.ogm.parse("CHAPTER01NAME=Orphan\n") }
        #expect(throws: ChapterFileError.self) { try ChapterFileFormat.ogm.parse("TITLE=x\n") }
    }
}
