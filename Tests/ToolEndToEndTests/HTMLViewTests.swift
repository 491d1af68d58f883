import Foundation
import TestSupport
import Testing

/// `atominspect html`: the page is loaded in headless Chromium and the DOM its script built is
/// checked, as a person opening the attachment would see it.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") || ProcessInfo.processInfo.environment["CI"] != nil,
                "headless Chromium renders the page (.ci/run installs it)"))
struct HTMLViewTests {
    static let chromium = "/usr/bin/chromium"

    func page(_ fixture: String) async throws -> (page: String, directory: String) {
        let directory = try TemporaryFile.makeDirectory()
        let page = directory + "/page.html"
        let result = try await ToolRunner.run("atominspect", ["html", TestFixtures.path(fixture), "--output", page])
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty)
        return (page, directory)
    }

    func render(_ url: String, in directory: String) async throws -> String {
        let result = try await ToolRunner.runProgram(Self.chromium, [
            "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(directory)/profile", "--virtual-time-budget=5000",
            "--dump-dom", url,
        ])
        #expect(result.status == 0)
        return result.standardOutput
    }

    @Test func theRenderedPageHasTheTreeFieldsAndBytes() async throws {
        let (page, directory) = try await page("video-h264-aac.mp4")
        let dom = try await render("file://" + page, in: directory)
        for path in ["ftyp", "moov", "moov/mvhd", "moov/trak[1]/mdia/minf/stbl/stco", "mdat"] {
            #expect(dom.contains("data-path=\"\(path)\""), "no tree item for \(path)")
        }
        // The first node is selected: its fields are in the table and its bytes in the hex pane.
        #expect(dom.contains("<li data-path=\"ftyp\" class=\"selected\">"))
        #expect(dom.contains("<td class=\"name\">majorBrand</td><td>\"isom\"</td>"))
        #expect(dom.contains("         0  <span class=\"hdr\">00</span>"))

        let shot = directory + "/page.png"
        let result = try await ToolRunner.runProgram(Self.chromium, [
            "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(directory)/profile", "--window-size=1200,800",
            "--screenshot=\(shot)", "file://" + page,
        ])
        #expect(result.status == 0)
        let png = try TemporaryFile.read(shot)
        #expect(png.count > 10_000)
        #expect(Array(png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        print("screenshot of the HTML view: \(shot)")
    }

    /// A page of thousands of nodes (ffmpeg's fragmented AAC, a fragment every 0.1 s: about
    /// 3,100 `moof`s, cut at the page's 10,000 nodes) makes each list when it is opened: the
    /// top level is there, a fragment's boxes are not until a link or a search opens them.
    @Test func aPageOfThousandsOfFragmentsOpensItsListsWhenAsked() async throws {
        let directory = try TemporaryFile.makeDirectory()
        let movie = directory + "/fragments.m4a"
        try LongAudiobook.ffmpeg(["-f", "lavfi", "-i", "sine=duration=360", "-c:a", "aac", "-b:a", "32k",
                                  "-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-frag_duration", "100000", movie])
        let page = directory + "/page.html"
        #expect(try await ToolRunner.run("atominspect", ["html", movie, "--output", page]).status == 0)
        let plain = try await render("file://" + page, in: directory)
        #expect(plain.contains("10000 nodes, each list made when it is opened"))
        #expect(plain.contains("data-path=\"moof[100]\""))
        #expect(!plain.contains("data-path=\"moof[100]/traf\""))
        let linked = try await render("file://" + page + "#path=moof[100]/traf/trun", in: directory)
        #expect(linked.contains("<li data-path=\"moof[100]/traf/trun\" class=\"selected\">"))
        #expect(!linked.contains("data-path=\"moof[101]/traf\""))
        let searched = try await render("file://" + page + "#search=tfdt", in: directory)
        let count = try #require(searched.firstRange(of: "id=\"count\">").map { searched[$0.upperBound...].prefix { $0 != " " } })
        #expect((Int(count) ?? 0) > 1000, "\(count) found")
        #expect(searched.contains("<li data-path=\"moof[0]/traf/tfdt\" class=\"match selected\">"))
    }

    /// A link's path may leave out an index, as `--path` may: `moov/trak/mdia` is the first
    /// track's (before 2026-11-30 such a link selected nothing and the page showed `ftyp`).
    @Test func aLinkWithoutIndexesSelectsTheFirstOfEachType() async throws {
        let (page, directory) = try await page("video-h264-aac.mp4")
        let dom = try await render("file://" + page + "#path=moov/trak/mdia", in: directory)
        #expect(dom.contains("<li data-path=\"moov/trak[0]/mdia\" data-built=\"1\" class=\"selected\">"), "\(dom.prefix(2000))")
        let second = try await render("file://" + page + "#path=moov/trak[1]/mdia/hdlr", in: directory)
        #expect(second.contains("<li data-path=\"moov/trak[1]/mdia/hdlr\" class=\"selected\">"))
    }

    /// Embedded pictures are shown as images: an MP4 cover, a FLAC `PICTURE` block and an ID3
    /// `APIC` frame, each decoded by Chromium at the size ffprobe reads from the same picture
    /// extracted by `tagedit picture extract`.
    @Test(arguments: [("aac-itunes-tags-cover.m4a", "moov/udta/meta/ilst/covr/data[0]"), ("flac-tags-picture.flac", "PICTURE"),
                      ("id3v24-full.mp3", "ID3v2/APIC[0]")])
    func picturesAreShownAsImages(fixture: String, path: String) async throws {
        let (page, directory) = try await page(fixture)
        let dom = try await render("file://" + page + "#path=" + path, in: directory)
        #expect(dom.contains("<li data-path=\"\(path)\" class=\"selected\">"))
        #expect(dom.contains("<img id=\"picture\""))
        let pictures = directory + "/pictures"
        try FileManager.default.createDirectory(atPath: pictures, withIntermediateDirectories: true)
        let extracted = try await ToolRunner.run("tagedit", ["picture", "extract", TestFixtures.path(fixture), "--output", pictures])
        #expect(extracted.status == 0)
        let first = try #require(try FileManager.default.contentsOfDirectory(atPath: pictures).sorted().first)
        let stream = try #require(try await OtherReaders.ffprobeStreams(pictures + "/" + first).first)
        let width = try #require(stream["width"] as? Int), height = try #require(stream["height"] as? Int)
        let size = try TemporaryFile.read(pictures + "/" + first).count
        #expect(dom.contains(", \(size) bytes, \(width)×\(height)</figcaption>"), "\(first): \(width)×\(height), \(size) bytes")
    }

    /// A cover larger than the 64 KiB of bytes a page shows for a node is read from the file
    /// for its image (every byte of it, checked against the picture extracted); one over
    /// `maxPictureBytes` (2 MiB) is described but not embedded. Pictures made by ffmpeg.
    @Test func largeCoversAreReadWholeOrLeftOut() async throws {
        let directory = try TemporaryFile.makeDirectory()
        let noise = ["-f", "lavfi", "-i", "nullsrc=size=1024x1024,geq=random(1)*255:128:128", "-frames:v", "1"]
        try LongAudiobook.ffmpeg(noise + ["-q:v", "2", directory + "/mid.jpg"])
        try LongAudiobook.ffmpeg(["-f", "lavfi", "-i", "nullsrc=size=1600x1600,geq=random(1)*255:random(2)*255:128", "-frames:v", "1",
                                  directory + "/big.png"])
        for (image, embedded) in [("mid.jpg", true), ("big.png", false)] {
            let picture = try TemporaryFile.read(directory + "/" + image)
            #expect(picture.count > 64 * 1024)
            #expect(embedded == (picture.count <= 2 << 20), "\(image): \(picture.count) bytes")
            let song = directory + "/\(image).m4a"
            try Data(try TemporaryFile.read(TestFixtures.path("alac.m4a"))).write(to: URL(fileURLWithPath: song))
            #expect(try await ToolRunner.run("tagedit", ["picture", "add", song, "--image", directory + "/" + image]).status == 0)
            let page = directory + "/\(image).html"
            #expect(try await ToolRunner.run("atominspect", ["html", song, "--output", page]).status == 0)
            let html = try String(contentsOfFile: page, encoding: .utf8)
            let start = try #require(html.range(of: "<script id=\"data\" type=\"application/json\">"))
            let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
            let data = try #require(try JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8)) as? [String: Any])
            var images: [[String: Any]] = []
            func visit(_ nodes: [[String: Any]]) {
                for node in nodes {
                    if let image = node["image"] as? [String: Any] { images.append(image) }
                    visit(node["children"] as? [[String: Any]] ?? [])
                }
            }
            visit(try #require(data["nodes"] as? [[String: Any]]))
            if embedded {
                let image = try #require(images.first)
                #expect(images.count == 1)
                #expect(image["size"] as? Int == picture.count)
                #expect(Data(base64Encoded: try #require(image["base64"] as? String)) == Data(picture))
            } else {
                #expect(images.isEmpty)
            }
        }
    }

    @Test func aSearchInTheLinkMarksTheMatches() async throws {
        let (page, directory) = try await page("video-h264-aac.mp4")
        let dom = try await render("file://" + page + "#search=stco", in: directory)
        #expect(dom.contains("<li data-path=\"moov/trak[0]/mdia/minf/stbl/stco\" class=\"match selected\">"))
        #expect(dom.contains("<li data-path=\"moov/trak[1]/mdia/minf/stbl/stco\" class=\"match\">"))
        #expect(dom.contains("<span id=\"count\">2 found</span>"))
    }

    @Test func thePageIsSelfContainedAndLeavesMediaOut() async throws {
        let (page, _) = try await page("video-h264-aac.mp4")
        let html = String(decoding: try TemporaryFile.read(page), as: UTF8.self)
        #expect(!html.contains("http://") && !html.contains("https://"))
        #expect(!html.contains(" src=") && !html.contains("<link"))
        let start = try #require(html.range(of: "<script id=\"data\" type=\"application/json\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let data = try #require(try JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8)) as? [String: Any])
        let nodes = try #require(data["nodes"] as? [[String: Any]])
        let mdat = try #require(nodes.first { $0["type"] as? String == "mdat" })
        // Only the 8-byte header of the media data is embedded.
        #expect((mdat["hex"] as? String)?.count == 16)
        // A container embeds its header; its children carry the rest of its bytes.
        let trak = try #require(((nodes.first { $0["type"] as? String == "moov" }?["children"] as? [[String: Any]])?.first { $0["type"] as? String == "trak" }))
        #expect((trak["hex"] as? String)?.count == 16)
        let tkhd = try #require((trak["children"] as? [[String: Any]])?.first { $0["type"] as? String == "tkhd" })
        #expect((tkhd["hex"] as? String)?.count == 2 * (tkhd["size"] as? Int ?? 0))
    }

    @Test func anMP3PageShowsItsFrames() async throws {
        let (page, directory) = try await page("id3v24-full.mp3")
        let dom = try await render("file://" + page, in: directory)
        #expect(dom.contains("data-path=\"ID3v2/TIT2\""))
        #expect(dom.contains("data-path=\"ID3v2/APIC[0]\""))
        #expect(dom.contains("data-path=\"ID3v1\""))
    }
}
