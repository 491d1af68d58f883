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
