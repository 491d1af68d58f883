import MediaMetadata
import MediaToolSupport
import Testing

/// The chapter files `tagedit chapters export` writes, rendered from chapters built here.
@Suite struct ChapterFileFormatTests {
    let chapters = [
        Chapter(start: .milliseconds(0), end: .milliseconds(61_500), title: "Intro = start; #1 \\ \"quoted\"\nnext", url: "https://example.org/?a=1&b=2"),
        Chapter(start: ChapterTime(2_712_150, timescale: 44100), end: ChapterTime(5_424_300, timescale: 44100), title: "Second <b>"),
    ]

    func render(_ format: ChapterFileFormat) -> String {
        format.render(chapters, path: "x.m4b", lists: [ChapterList(form: .quickTime, chapters: chapters)])
    }

    @Test func mp4chapsKeepsOneChapterALine() {
        #expect(render(.mp4chaps) == "00:00:00.000 Intro = start; #1 \\ \"quoted\" next\n00:01:01.500 Second <b>\n")
    }

    @Test func ffmetadataKeepsExactTimesAndEscapes() {
        #expect(render(.ffmetadata) == """
            ;FFMETADATA1

            [CHAPTER]
            TIMEBASE=1/1000
            START=0
            END=61500
            title=Intro \\= start\\; \\#1 \\\\ "quoted"\\
            next

            [CHAPTER]
            TIMEBASE=1/44100
            START=2712150
            END=5424300
            title=Second <b>

            """)
    }

    @Test func podloveEscapesAttributes() {
        let xml = render(.podlove)
        #expect(xml.contains("<psc:chapter start=\"00:00:00.000\" title=\"Intro = start; #1 \\ &quot;quoted&quot;&#10;next\" href=\"https://example.org/?a=1&amp;b=2\"/>"))
        #expect(xml.contains("<psc:chapter start=\"00:01:01.500\" title=\"Second &lt;b&gt;\"/>"))
    }

    @Test func podcastJSONHasStartTimesInSeconds() throws {
        let json = try JSONValue.parse(render(.podcastJSON))
        guard case .object(let members) = json, case .array(let items)? = members.first(where: { $0.0 == "chapters" })?.1 else {
            Issue.record("no chapters array")
            return
        }
        #expect(items.count == 2)
        guard case .object(let second) = items[1] else { return }
        #expect(second.first { $0.0 == "startTime" }?.1 == .double(61.5))
    }
}

/// Every text format `chapters export` writes, read back by the reader `chapters set` uses,
/// with titles drawn from all of Unicode and biased to what each format treats as structure
/// (line breaks of every kind, `=`, `;`, `#`, `\`, quotes, markup, combining marks that would
/// join a separator into one Character). A title never adds, drops or moves a chapter, in any
/// format; where the format can hold the title, it comes back exactly.
///
/// Before 2026-11-27, mp4chaps wrote U+2028, U+2029, U+0085, VT and FF raw (re-importing added
/// a chapter at a time the title's author chose), and ffmetadata wrote CR LF unescaped (the
/// tool refused its own export, and ffmpeg cut the title).
@Suite struct ChapterFileRoundTripTests {
    static let structural: [Unicode.Scalar] = [
        "\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}", "=", ";", "#", "\\", "\"", "'", "<", ">", "&",
        "[", "]", "{", "}", ":", " ", "\t", "\u{FEFF}", "\u{301}", "\u{200D}", "0", "1", ".", "\u{0}", "\u{7F}", "é", "😀",
    ]

    static func randomTitle(_ generator: inout some RandomNumberGenerator) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...12, using: &generator) {
            if Bool.random(using: &generator) {
                scalars.append(structural.randomElement(using: &generator)!)
            } else if let scalar = Unicode.Scalar(UInt32.random(in: 1...0x10FFFF, using: &generator)) {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// The title as the format holds it: mp4chaps turns each line break into a space and loses
    /// the spaces and tabs at the start; XML 1.0 (Podlove) cannot hold control characters other
    /// than tab, LF and CR at all (they are written as U+FFFD); the others keep every title.
    static func expected(_ title: String, in format: ChapterFileFormat) -> String? {
        switch format {
        case .mp4chaps:
            let line = String(String.UnicodeScalarView(title.unicodeScalars.map { Character($0).isNewline ? " " : $0 }))
            return String(String.UnicodeScalarView(line.unicodeScalars.drop { $0 == " " || $0 == "\t" }))
        case .ogm:
            // No escapes either: line breaks become spaces; the text after `=` is kept whole.
            return String(String.UnicodeScalarView(title.unicodeScalars.map { Character($0).isNewline ? " " : $0 }))
        case .podlove:
            return title.unicodeScalars.contains { ($0.value < 0x20 && !"\n\r\t".unicodeScalars.contains($0)) || $0.value == 0xFFFE || $0.value == 0xFFFF } ? nil : title
        default:
            return title
        }
    }

    @Test(arguments: ChapterFileFormat.allCases)
    func randomTitlesNeverChangeTheChapters(_ format: ChapterFileFormat) throws {
        var generator = SystemRandomNumberGenerator()
        var exact = 0
        for round in 0..<400 {
            let chapters = (0..<Int.random(in: 1...4, using: &generator)).map { index in
                Chapter(start: .milliseconds(UInt64(index) * 90_000 + UInt64(round)), end: .milliseconds(UInt64(index + 1) * 90_000), title: Self.randomTitle(&generator))
            }
            let text = format.render(chapters, path: "book.m4b", lists: [ChapterList(form: .quickTime, chapters: chapters)])
            let read: [Chapter]
            do { read = try format.parse(text) } catch {
                Issue.record("\(format): its own export does not read: \(error)\n\(text.debugDescription)")
                continue
            }
            #expect(read.map(\.start.seconds) == chapters.map(\.start.seconds), "\(format): \(text.debugDescription)")
            guard read.count == chapters.count else { continue }
            for (written, back) in zip(chapters, read) {
                guard let title = Self.expected(written.title, in: format) else { continue }
                #expect(back.title == title, "\(format): \(written.title.debugDescription) came back as \(back.title.debugDescription)")
                exact += 1
            }
        }
        #expect(exact > 300, "\(format): too few titles compared exactly (\(exact))")
    }
}
