import Foundation
import ISOBMFF
import MediaBytes
import TestSupport
import Testing

/// Small movies, fragments and images for the conformance rules: each conforms to every rule
/// until one part is changed to break one rule.
struct LintFile {
    struct Track {
        var id: UInt32 = 1
        var handler: FourCC = "vide"
        var codec: FourCC = "avc1"
        var timescale: UInt32 = 1000
        /// Samples of 100 ticks (`stts`), each 10 bytes in a chunk of its own (`stco`).
        var samples = 4
        var mediaDuration: UInt64?
        var headerDuration: UInt64?
        var enabled = true
        var edits: [UInt64] = []
        var chunkOffsets: [UInt64]?
        var chapterTrackIDs: [UInt32] = []
        var avcProfileLevel: (UInt8, UInt8)?
        var selfContained = true
    }

    struct TrackFragment {
        var trackID: UInt32 = 1
        var decodeTime: UInt64? = 0
        var samples = 3
        var saizCount: UInt64?
        var baseDataOffset: UInt64?
        /// Each sample's IV, in a `senc` of the fragment.
        var initializationVectors: [[UInt8]] = []
    }

    var brands: (major: FourCC, compatible: [FourCC]) = ("isom", ["isom", "iso6", "cmfc", "mp41"])
    var hasFileType = true
    var tracks = [Track()]
    var movieDuration: UInt64?
    var movieFirst = true
    /// Movie fragments (each with its track fragments); with any, `moov` has `mvex`.
    var fragments: [[TrackFragment]] = []
    var movieExtends: Bool?
    /// Top-level boxes between the movie and the first fragment (`sidx`, `emsg`...).
    var beforeFragments: [[UInt8]] = []
    var afterFragments: [[UInt8]] = []
    /// Every track's chunks at the same place (they overlap).
    var sharedChunks = false

    static let sampleDuration: UInt64 = 100
    static let fragmentSampleDuration: UInt64 = 1000

    func track(_ track: Track, chunkBase: UInt64) -> [UInt8] {
        let duration = UInt64(track.samples) * Self.sampleDuration
        let movieScale: UInt64 = 1000
        let converted = duration * movieScale / UInt64(track.timescale)
        let tkhd = B.fullBox("tkhd", flags: track.enabled ? 3 : 2,
                             B.be(0, width: 8) + B.be(UInt64(track.id), width: 4) + B.be(0, width: 4) + B.be(track.headerDuration ?? converted, width: 4)
                                 + [UInt8](repeating: 0, count: 60))
        let mdhd = B.fullBox("mdhd", B.be(0, width: 8) + B.be(UInt64(track.timescale), width: 4) + B.be(track.mediaDuration ?? duration, width: 4) + [0x55, 0xC4, 0, 0])
        let hdlr = B.fullBox("hdlr", B.be(0, width: 4) + track.handler.bytes + [UInt8](repeating: 0, count: 13))
        var entryChildren: [UInt8] = []
        if let (profile, level) = track.avcProfileLevel { entryChildren = B.atom("avcC", [1, profile, 0, level, 0xFF, 0xE0, 0]) }
        let entryFields = track.handler == "soun" ? [UInt8](repeating: 0, count: 20) : [UInt8](repeating: 0, count: 70)
        let entry = B.atom(track.codec, [0, 0, 0, 0, 0, 0, 0, 1] + entryFields + entryChildren)
        let stsd = B.fullBox("stsd", B.be(1, width: 4) + entry)
        let count = UInt64(track.samples)
        let stts = B.fullBox("stts", B.be(1, width: 4) + B.be(count, width: 4) + B.be(Self.sampleDuration, width: 4))
        let stsc = B.fullBox("stsc", B.be(1, width: 4) + B.be(1, width: 4) + B.be(1, width: 4) + B.be(1, width: 4))
        let stsz = B.fullBox("stsz", B.be(10, width: 4) + B.be(count, width: 4))
        let offsets = track.chunkOffsets ?? (0..<count).map { chunkBase + $0 * 10 }
        let stco = B.fullBox("stco", B.be(UInt64(offsets.count), width: 4) + offsets.flatMap { B.be($0, width: 4) })
        let url = B.fullBox("url ", flags: track.selfContained ? 1 : 0, track.selfContained ? [] : B.utf8("other.mp4\0"))
        let dinf = B.container("dinf", B.fullBox("dref", B.be(1, width: 4) + url))
        let minf = B.container("minf", dinf, B.container("stbl", stsd, stts, stsc, stsz, stco))
        var children = tkhd
        if !track.edits.isEmpty {
            children += B.container("edts", B.fullBox("elst", B.be(UInt64(track.edits.count), width: 4) + track.edits.flatMap { B.be($0, width: 4) + B.be(0, width: 4) + [0, 1, 0, 0] }))
        }
        if !track.chapterTrackIDs.isEmpty { children += B.container("tref", B.atom("chap", track.chapterTrackIDs.flatMap { B.be(UInt64($0), width: 4) })) }
        children += B.container("mdia", mdhd, hdlr, minf)
        return B.atom("trak", children)
    }

    func movie(chunkBase: UInt64) -> [UInt8] {
        let longest = tracks.map { $0.headerDuration ?? UInt64($0.samples) * Self.sampleDuration * 1000 / UInt64($0.timescale) }.max() ?? 0
        let fragmented = !fragments.isEmpty
        let mvhd = B.fullBox("mvhd", B.be(0, width: 8) + B.be(1000, width: 4) + B.be(movieDuration ?? (fragmented ? 0 : longest), width: 4)
                                 + [0, 1, 0, 0, 1, 0] + [UInt8](repeating: 0, count: 70) + B.be(UInt64(tracks.count + 1), width: 4))
        var children = mvhd
        var base = chunkBase
        for track in tracks {
            children += self.track(track, chunkBase: base)
            if !sharedChunks { base += UInt64(track.samples) * 10 }
        }
        if movieExtends ?? fragmented {
            children += B.container("mvex", tracks.map { B.fullBox("trex", B.be(UInt64($0.id), width: 4) + B.be(1, width: 4) + B.be(Self.fragmentSampleDuration, width: 4) + B.be(0, width: 8)) }.reduce([], +))
        }
        return B.atom("moov", children)
    }

    static func fragment(_ trafs: [TrackFragment], sequence: UInt64) -> [UInt8] {
        var children = B.fullBox("mfhd", B.be(sequence, width: 4))
        for traf in trafs {
            var tfhd = B.be(UInt64(traf.trackID), width: 4)
            var flags: UInt32 = 0x20000
            if let base = traf.baseDataOffset { tfhd += B.be(base, width: 8); flags = 1 }
            var boxes = B.fullBox("tfhd", flags: flags, tfhd)
            if let time = traf.decodeTime { boxes += B.fullBox("tfdt", version: 1, B.be(time, width: 8)) }
            boxes += B.fullBox("trun", B.be(UInt64(traf.samples), width: 4))
            if let count = traf.saizCount { boxes += B.fullBox("saiz", [8] + B.be(count, width: 4)) }
            if !traf.initializationVectors.isEmpty {
                boxes += B.fullBox("senc", B.be(UInt64(traf.initializationVectors.count), width: 4) + traf.initializationVectors.flatMap { $0 })
            }
            children += B.atom("traf", boxes)
        }
        return B.atom("moof", children) + B.atom("mdat", [UInt8](repeating: 0, count: 8))
    }

    func build() -> [UInt8] {
        let ftyp = hasFileType ? B.ftyp(brands.major, compatible: brands.compatible) : []
        let mediaSize = tracks.reduce(0) { $0 + $1.samples * 10 }
        let probe = movie(chunkBase: 0)
        let mdat = B.atom("mdat", [UInt8](repeating: 0, count: mediaSize))
        let chunkBase = UInt64(ftyp.count) + (movieFirst ? UInt64(probe.count) : 0) + 8
        let moov = movie(chunkBase: chunkBase)
        var bytes = ftyp + (movieFirst ? moov + mdat : mdat + moov)
        bytes += beforeFragments.flatMap { $0 }
        for (index, trafs) in fragments.enumerated() { bytes += Self.fragment(trafs, sequence: UInt64(index + 1)) }
        bytes += afterFragments.flatMap { $0 }
        return bytes
    }

    /// A HEIF image: one coded item (1, `hvc1`) with `ispe`, an `Exif` item (2) describing it.
    struct Image {
        var brands: [FourCC] = ["mif1", "heic"]
        var primary: UInt32? = 1
        var itemTypes: [(UInt32, FourCC)] = [(1, "hvc1"), (2, "Exif")]
        var associations: [(UInt32, [UInt8])] = [(1, [1])]
        var references: [(FourCC, UInt32, [UInt32])] = [("cdsc", 2, [1])]

        func build() -> [UInt8] {
            var meta = B.fullBox("hdlr", B.be(0, width: 4) + B.utf8("pict") + [UInt8](repeating: 0, count: 13))
            if let primary { meta += B.fullBox("pitm", B.be(UInt64(primary), width: 2)) }
            meta += B.fullBox("iinf", B.be(UInt64(itemTypes.count), width: 2)
                                  + itemTypes.flatMap { B.fullBox("infe", version: 2, B.be(UInt64($0.0), width: 2) + [0, 0] + $0.1.bytes + [0]) })
            let ipco = B.container("ipco", B.fullBox("ispe", B.be(64, width: 4) + B.be(64, width: 4)))
            let ipma = B.fullBox("ipma", B.be(UInt64(associations.count), width: 4)
                                     + associations.flatMap { B.be(UInt64($0.0), width: 2) + [UInt8($0.1.count)] + $0.1 })
            meta += B.container("iprp", ipco, ipma)
            meta += B.fullBox("iref", references.flatMap { B.atom($0.0, B.be(UInt64($0.1), width: 2) + B.be(UInt64($0.2.count), width: 2) + $0.2.flatMap { B.be(UInt64($0), width: 2) }) })
            return B.ftyp(brands[0], compatible: brands) + B.fullBox("meta", meta) + B.atom("mdat", [UInt8](repeating: 0, count: 16))
        }
    }
}

@Suite struct ConformanceRuleTests {

    /// The rule IDs `profiles` find in `bytes`.
    static func ruleIDs(_ bytes: [UInt8], _ profiles: [ConformanceProfile] = ConformanceProfile.allCases) throws -> Set<String> {
        Set(ConformanceRule.findings(in: try parse(bytes), profiles: profiles).map(\.code))
    }

    /// One case per rule: a file that conforms to it and the same file changed to break it.
    static let cases: [(rule: String, conforming: [UInt8], breaking: [UInt8])] = {
        var list: [(String, [UInt8], [UInt8])] = []
        func add(_ rule: String, _ base: LintFile, _ change: (inout LintFile) -> Void) {
            var broken = base
            change(&broken)
            list.append((rule, base.build(), broken.build()))
        }
        let plain = LintFile()
        add("moov-before-mdat", plain) { $0.movieFirst = false }
        add("movie-duration", plain) { $0.movieDuration = 5000 }
        add("track-duration", plain) { $0.tracks[0].headerDuration = 300 }
        add("track-duration", { var f = plain; f.tracks[0].edits = [400]; return f }()) { $0.tracks[0].edits = [200] }
        add("media-duration", plain) {
            $0.tracks[0].mediaDuration = 450
            $0.tracks[0].headerDuration = 450
        }
        add("chunks-overlap", { var f = plain; f.tracks.append(LintFile.Track(id: 2, handler: "soun", codec: "mp4a")); return f }()) { $0.sharedChunks = true }
        add("audio-brand-with-video", plain) { $0.brands = ("M4A ", ["M4A ", "isom", "cmfc"]) }
        add("web-codec", plain) { $0.tracks[0].codec = "mp4v" }
        add("external-data-reference", plain) { $0.tracks[0].selfContained = false }
        let fragmented = { var f = plain; f.fragments = [[.init(decodeTime: 0)], [.init(decodeTime: 3000)]]; return f }()
        add("ftyp-first", fragmented) { $0.hasFileType = false }
        add("fragments-without-mvex", fragmented) { $0.movieExtends = false }
        add("tfdt-missing", fragmented) { $0.fragments[1][0].decodeTime = nil }
        add("tfdt-continuity", fragmented) { $0.fragments[1][0].decodeTime = 2500 }
        add("aux-info-count", { var f = fragmented; f.fragments[0][0].saizCount = 3; return f }()) { $0.fragments[0][0].saizCount = 2 }
        add("emsg-placement", { var f = fragmented; f.beforeFragments = [B.fullBox("emsg", version: 1, [UInt8](repeating: 0, count: 20) + [0, 0])]; return f }()) {
            $0.afterFragments = $0.beforeFragments
            $0.beforeFragments = []
        }
        add("cmaf-brand", fragmented) { $0.brands = ("isom", ["isom", "iso6"]) }
        add("cmaf-one-track", fragmented) { $0.tracks.append(LintFile.Track(id: 2, handler: "soun", codec: "mp4a")) }
        add("hls-fragmented", fragmented) { $0.fragments = [] }
        add("hls-relative-addressing", fragmented) { $0.fragments[0][0].baseDataOffset = 0 }
        add("hls-video-codec", fragmented) { $0.tracks[0].codec = "mp4v" }
        add("hls-h264-profile-level", { var f = fragmented; f.tracks[0].avcProfileLevel = (100, 42); return f }()) { $0.tracks[0].avcProfileLevel = (100, 51) }
        let chaptered = {
            var f = plain
            f.tracks[0].chapterTrackIDs = [2]
            f.tracks.append(LintFile.Track(id: 2, handler: "text", codec: "text", enabled: false))
            return f
        }()
        add("chapter-track", chaptered) { $0.tracks[1].enabled = true }
        add("chapter-track", chaptered) { $0.tracks[0].chapterTrackIDs = [7] }
        add("chapter-track", chaptered) { $0.tracks[1].handler = "soun" }
        // An index of the two fragments: each reference's size is its fragment's, its duration
        // the 3 samples of 1000 ticks.
        let indexed = { (sizes: [Int], durations: [UInt64]) -> LintFile in
            var f = fragmented
            var sidx = B.be(1, width: 4) + B.be(1000, width: 4) + B.be(0, width: 4) + B.be(0, width: 4) + B.be(0, width: 2) + B.be(2, width: 2)
            for (size, duration) in zip(sizes, durations) { sidx += B.be(UInt64(size), width: 4) + B.be(duration, width: 4) + [0x90, 0, 0, 0] }
            f.beforeFragments = [B.fullBox("sidx", sidx)]
            return f
        }
        let fragmentSize = LintFile.fragment([.init()], sequence: 1).count
        add("sidx-references", indexed([fragmentSize, fragmentSize], [3000, 3000])) { $0 = indexed([fragmentSize, fragmentSize], [2000, 3000]) }
        add("sidx-references", indexed([fragmentSize, fragmentSize], [3000, 3000])) { $0 = indexed([fragmentSize - 4, fragmentSize], [3000, 3000]) }
        add("sidx-references", indexed([fragmentSize, fragmentSize], [3000, 3000])) { $0 = indexed([fragmentSize, fragmentSize + 100], [3000, 3000]) }

        func image(_ rule: String, _ change: (inout LintFile.Image) -> Void) {
            var broken = LintFile.Image()
            change(&broken)
            list.append((rule, LintFile.Image().build(), broken.build()))
        }
        image("heif-brand") { $0.brands = ["heic", "heic"] }
        image("heif-codec-brand") { $0.brands = ["mif1", "miaf"] }
        image("heif-primary-item") { $0.primary = nil }
        image("heif-primary-item") { $0.primary = 9 }
        image("heif-item-references") { $0.references = [("cdsc", 2, [5])] }
        image("heif-item-references") { $0.associations = [(1, [1]), (6, [1])] }
        image("heif-property-index") { $0.associations = [(1, [1, 2])] }
        image("heif-ispe") { $0.associations = [] }
        return list
    }()

    static func fixture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestFixtures.path(name))))
    }

    static func itemFile(_ type: FourCC, _ dataType: UInt8, _ value: [UInt8]) -> [UInt8] {
        var builder = MovieBuilder()
        builder.userData = [MovieBuilder.itemListMeta([B.atom(type, B.atom("data", [0, 0, 0, dataType, 0, 0, 0, 0] + value))])]
        return builder.build()
    }

    /// Under the rule's first profile, a conforming file gives no finding, and the same file
    /// with one change breaks that rule and no other.
    @Test(arguments: 0..<cases.count)
    func eachRuleFindsWhatBreaksIt(_ index: Int) throws {
        let (rule, conforming, breaking) = Self.cases[index]
        let profiles = try Array(#require(ConformanceRule.all.first { $0.id == rule }).profiles.prefix(1))
        let before = try Self.ruleIDs(conforming, profiles)
        let after = try Self.ruleIDs(breaking, profiles)
        #expect(before.isEmpty, "\(rule): the conforming file breaks \(before)")
        #expect(after == [rule], "\(rule): the changed file breaks \(after)")
    }

    /// Every rule has a case above.
    @Test func everyRuleHasACase() {
        #expect(Set(Self.cases.map(\.rule)) == Set(ConformanceRule.all.map(\.id)).subtracting(["itunes-data-type"]))
        #expect(Set(ConformanceRule.all.map(\.id)).count == ConformanceRule.all.count, "rule IDs are unique")
    }

    /// iTunes items with the types and widths iTunes writes pass; others are named.
    @Test func itunesItemsAreHeldToTheTypesITunesWrites() throws {
        #expect(try !Self.ruleIDs(Self.itemFile("\u{A9}nam", 1, Array("Title".utf8)), [.apple]).contains("itunes-data-type"))
        #expect(try !Self.ruleIDs(Self.itemFile("tmpo", 21, [0, 120]), [.apple]).contains("itunes-data-type"))
        #expect(try !Self.ruleIDs(Self.itemFile("trkn", 0, [0, 0, 0, 3, 0, 9, 0, 0]), [.apple]).contains("itunes-data-type"))
        #expect(try !Self.ruleIDs(Self.itemFile("covr", 13, [0xFF, 0xD8, 0xFF, 0xE0]), [.apple]).contains("itunes-data-type"))
        let cases: [(FourCC, UInt8, [UInt8])] = [
            ("\u{A9}nam", 2, [0, 0x54]), ("tmpo", 21, [120]), ("tmpo", 1, Array("120".utf8)), ("cpil", 21, [0, 1]), ("trkn", 0, [0, 0, 0, 3, 0, 9]),
            ("disk", 0, [0, 0, 0, 1, 0, 2, 0, 0]), ("gnre", 1, Array("Rock".utf8)), ("covr", 0, [0xFF, 0xD8]),
        ]
        for (type, dataType, value) in cases {
            let found = ConformanceRule.findings(in: try parse(Self.itemFile(type, dataType, value)), profiles: [.apple])
            #expect(found.map(\.code) == ["itunes-data-type"], "\(type) as \(dataType) \(value): \(found)")
            #expect(found.first?.path.hasSuffix("ilst/\(type)/data") == true)
        }
    }

    /// Each finding carries its rule, what was found, why it matters and the source.
    @Test func findingsNameTheRuleTheReasonAndTheSource() throws {
        var file = LintFile()
        file.movieFirst = false
        let found = ConformanceRule.findings(in: try parse(file.build()), profiles: [.web])
        let finding = try #require(found.first { $0.code == "moov-before-mdat" })
        let rule = try #require(ConformanceRule.all.first { $0.id == "moov-before-mdat" })
        #expect(finding.severity == .warning)
        #expect(finding.path == "moov")
        #expect(finding.message.hasPrefix("[moov-before-mdat] 'moov' at byte \(finding.offset) follows the media data"))
        #expect(finding.message.contains(rule.why) && finding.message.contains(rule.source))
    }

    /// A profile's rules are the only ones run: the movie at the end matters to the web, not to HLS.
    @Test func onlyTheProfilesAskedForAreApplied() throws {
        var file = LintFile()
        file.movieFirst = false
        #expect(try Self.ruleIDs(file.build(), [.web]).contains("moov-before-mdat"))
        #expect(try !Self.ruleIDs(file.build(), [.cmaf]).contains("moov-before-mdat"))
        #expect(try Self.ruleIDs(file.build(), []).isEmpty)
    }

    /// A rule reports five places and then how many more.
    @Test func manyBreachesAreCounted() throws {
        var file = LintFile()
        file.fragments = (0..<9).map { _ in [LintFile.TrackFragment(decodeTime: nil)] }
        let found = ConformanceRule.findings(in: try parse(file.build()), profiles: [.hls]).filter { $0.code == "tfdt-missing" }
        #expect(found.count == 6)
        #expect(found.last?.message == "[tfdt-missing] 4 more like these")
    }

    /// The references of an `iref` read by its version: 16-bit item IDs under version 0, 32-bit under 1.
    @Test func itemReferencesReadByTheirBoxVersion() throws {
        for version: UInt8 in [0, 1] {
            let width = version == 0 ? 2 : 4
            let reference = B.atom("dimg", B.be(4, width: width) + B.be(2, width: 2) + B.be(1, width: width) + B.be(3, width: width))
            let bytes = B.ftyp("heic", compatible: ["mif1", "heic"]) + B.fullBox("meta", B.fullBox("iref", version: version, reference))
            let inspector = AtomInspector(tree: try parse(bytes))
            let meta = try #require(inspector.topLevel().last)
            let iref = try #require(inspector.children(of: meta).first)
            let dimg = try #require(inspector.children(of: iref).first)
            let box = try #require(try inspector.decode(dimg) as? ItemReferenceBox)
            #expect(box.fromItemID == 4 && box.toItemIDs == [1, 3])
            #expect(box.summary == "from item 4 to 1, 3")
        }
    }

    /// A media segment (`styp`, `sidx`, `moof`, `mdat`, no movie) is not told it lacks a movie or an `ftyp`.
    @Test func aMediaSegmentNeedsNoMovie() throws {
        let segment = B.atom("styp", B.utf8("msdh") + B.be(0, width: 4) + B.utf8("msdhmsix")) + LintFile.fragment([.init()], sequence: 1)
        let tree = try parse(segment)
        #expect(AtomStructureCheck.findings(in: tree).filter(\.isProblem).isEmpty)
        #expect(ConformanceRule.findings(in: tree, profiles: ConformanceProfile.allCases).isEmpty)
    }

    /// The fixtures ffmpeg wrote: a fragmented file whose index points at its fragments with
    /// the presentation times they hold (B-frames: decode and presentation order differ), a fast
    /// start file and a HEIF image, each conforming to what it is for.
    @Test func fixturesConformToWhatTheyAreFor() throws {
        #expect(try Self.ruleIDs(Self.fixture("fragmented-sidx.mp4"), [.web, .hls]).isEmpty)
        #expect(try Self.ruleIDs(Self.fixture("moov-before-mdat.m4a"), [.web]).isEmpty)
        #expect(try Self.ruleIDs(Self.fixture("moov-after-mdat.m4a"), [.web]) == ["moov-before-mdat"])
        #expect(try Self.ruleIDs(Self.fixture("heif-image.heic"), [.heif]).isEmpty)
        #expect(try Self.ruleIDs(Self.fixture("heif-jpeg-item.heif"), [.heif]).isEmpty)
    }
}

/// The command reference's table of profiles lists each profile's rules as the code has them.
@Suite struct ConformanceDocumentationTests {
    @Test func theProfileTableMatchesTheRules() throws {
        let article = try String(contentsOfFile: TestFixtures.packageRoot + "/Sources/MediaMetadata/MediaMetadata.docc/AtomInspectTool.md", encoding: .utf8)
        for profile in ConformanceProfile.allCases {
            let row = try #require(article.split(separator: "\n").first { $0.hasPrefix("| `\(profile.rawValue)` |") }, "no row for \(profile)")
            let rules = ConformanceRule.rules(of: [profile]).map(\.id)
            // The rule IDs (code spans with a hyphen) of the row's last cell; "the three duration
            // rules" stands for those three.
            let cell = row.split(separator: "|").last.map(String.init) ?? ""
            let spans = cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            var named = Set(spans.filter { $0.contains("-") && !$0.contains("/") })
            if cell.contains("the three duration rules") { named.formUnion(["movie-duration", "track-duration", "media-duration"]) }
            #expect(named == Set(rules), "\(profile): the table says \(named.sorted()), the code \(rules.sorted())")
        }
    }
}

/// The rules at the sizes streams have: thousands of fragments indexed by a `sidx` of as many
/// references, and runs that claim billions of samples.
@Suite struct ConformanceAtScaleTests {
    @Test func anIndexOfThousandsOfFragmentsIsCheckedReferenceByReference() throws {
        var file = LintFile()
        let count = 5000
        file.fragments = (0..<count).map { [LintFile.TrackFragment(decodeTime: UInt64($0) * 3000)] }
        let size = LintFile.fragment([.init()], sequence: 1).count
        var sidx = B.be(1, width: 4) + B.be(1000, width: 4) + B.be(0, width: 4) + B.be(0, width: 4) + B.be(0, width: 2) + B.be(UInt64(count), width: 2)
        for index in 0..<count { sidx += B.be(UInt64(size), width: 4) + B.be(index == 4321 ? 2000 : 3000, width: 4) + [0x90, 0, 0, 0] }
        file.beforeFragments = [B.fullBox("sidx", sidx)]
        let found = ConformanceRule.findings(in: try parse(file.build()), profiles: [.web])
        #expect(found.map(\.code) == ["sidx-references"], "\(found)")
        #expect(found.first?.message.contains("reference 4322 says its subsegment lasts 2000") == true)
    }

    @Test func aRunClaimingBillionsOfSamplesIsWorkedOutNotWalked() throws {
        var file = LintFile()
        file.fragments = [[LintFile.TrackFragment(decodeTime: 0, samples: Int(UInt32.max))], [LintFile.TrackFragment(decodeTime: 0)]]
        let size = LintFile.fragment([.init(samples: Int(UInt32.max))], sequence: 1).count
        var sidx = B.be(1, width: 4) + B.be(1000, width: 4) + B.be(0, width: 4) + B.be(0, width: 4) + B.be(0, width: 2) + B.be(1, width: 2)
        sidx += B.be(UInt64(size), width: 4) + B.be(3000, width: 4) + [0x90, 0, 0, 0]
        file.beforeFragments = [B.fullBox("sidx", sidx)]
        let found = ConformanceRule.findings(in: try parse(file.build()), profiles: ConformanceProfile.allCases)
        // 4294967295 samples of 1000 ticks: the index's 3000 is wrong, and the second fragment
        // starts long before the first ends.
        #expect(found.contains { $0.code == "sidx-references" && $0.message.contains("4294967295000") })
        #expect(found.contains { $0.code == "tfdt-continuity" && $0.message.contains("an overlap") })
    }
}

/// A fragment's samples in a track's table carry the IVs of the fragment's `senc`.
@Suite struct FragmentSampleEncryptionTests {
    @Test func eachFragmentSampleHasItsInitializationVector() throws {
        var file = LintFile()
        let ivs: [[UInt8]] = [[1, 2, 3, 4, 5, 6, 7, 8], [9, 10, 11, 12, 13, 14, 15, 16], [17, 18, 19, 20, 21, 22, 23, 24]]
        file.fragments = [[LintFile.TrackFragment(decodeTime: 0, samples: 3, initializationVectors: ivs)], [LintFile.TrackFragment(decodeTime: 3000)]]
        let locator = FragmentSampleLocator(trackID: 1, tree: try parse(file.build()), firstSample: 4)
        #expect(locator.sampleCount == 6)
        let samples = locator.samples(4..<10)
        #expect(samples.map(\.number) == [5, 6, 7, 8, 9, 10])
        #expect(samples.prefix(3).map { $0.initializationVector ?? [] } == ivs)
        #expect(samples.dropFirst(3).allSatisfy { $0.initializationVector == nil })
        #expect(samples.map(\.decodeTime) == [0, 1000, 2000, 3000, 4000, 5000])
        #expect(samples.map(\.fragment) == [1, 1, 1, 2, 2, 2])
    }
}
