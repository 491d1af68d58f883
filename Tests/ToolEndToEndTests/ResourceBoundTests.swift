import Foundation
import MediaBytes
import TestSupport
import Testing

/// Hostile files built to cost memory or time: size fields that claim gigabytes, deep nesting,
/// huge entry and item counts (a million atoms, 200,000 timed events), decompression bombs,
/// atoms that do not advance. Each goes through `tagedit show --json`, `export` and `set`, and
/// `atominspect` (tree, `--json`, `html`, `check`); each run must peak under 256 MiB of
/// resident memory (measured by GNU time), and must end: in `swift test` (a debug build) a hang
/// guard far above any real run catches a tool that never finishes without making this a
/// speed test; `Tools/benchmark.sh` runs this suite against the release build with a limit of
/// 2 s a run (`RESOURCE_BOUND_TOOLS`, `RESOURCE_BOUND_SECONDS`). A run may fail with one of the
/// documented exit codes, never by a signal; a `set` that succeeds leaves a file that reads.
@Suite struct ResourceBoundTests {
    typealias A = AtomBuilder

    static let memoryLimitKiB = 256 << 10
    /// Not a speed limit: only a run that hangs reaches it.
    static let hangGuard: TimeInterval = 300
    /// The folder of the tools measured: the build's own (debug, in `swift test`), or a release
    /// build's named by `RESOURCE_BOUND_TOOLS` (as `Tools/benchmark.sh` runs this suite), where
    /// each run must also end within `RESOURCE_BOUND_SECONDS`.
    static let toolsDirectory = ProcessInfo.processInfo.environment["RESOURCE_BOUND_TOOLS"]
    static let timeLimit = ProcessInfo.processInfo.environment["RESOURCE_BOUND_SECONDS"].flatMap(TimeInterval.init)
    /// A folder to leave a copy of each hostile file in, for profiling a slow run by hand
    /// (`RESOURCE_BOUND_KEEP`).
    static let keepDirectory = ProcessInfo.processInfo.environment["RESOURCE_BOUND_KEEP"]

    struct Hostile: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var testDescription: String { "\(name) (\(bytes.count) bytes)" }
    }

    // MARK: - The files

    static func movie(_ extras: [UInt8]..., userData: [UInt8] = []) -> [UInt8] {
        var builder = MovieBuilder()
        builder.movieExtras = extras
        if !userData.isEmpty { builder.userData = [userData] }
        return builder.build()
    }

    /// `moov/trak/mdia/minf/stbl` whose tables each claim 2^32-1 entries in a few bytes.
    static func hugeTableCounts() -> [UInt8] {
        let count = A.be(0xFFFF_FFFF, width: 4)
        let stbl = A.container(
            "stbl", A.fullBox("stsd", count), A.fullBox("stts", count + A.be(1, width: 8)), A.fullBox("stsc", count),
            A.fullBox("stsz", A.be(0, width: 4) + count + A.be(7, width: 4)), A.fullBox("stco", count), A.fullBox("co64", count),
            A.fullBox("ctts", count), A.fullBox("stss", count), A.fullBox("sdtp", count))
        let trak = A.container("trak", A.fullBox("tkhd", flags: 3, [UInt8](repeating: 0, count: 80)),
                               A.container("mdia", A.container("minf", stbl)), A.fullBox("elst", count))
        return A.ftyp() + A.container("moov", A.fullBox("mvhd", [UInt8](repeating: 0, count: 96)), trak) + A.atom("mdat", [1, 2, 3])
    }

    /// 20,000 containers nested in each other under `moov/udta`.
    static func deepNesting() -> [UInt8] {
        var inner: [UInt8] = A.atom("free", [0])
        for index in 0..<20_000 { inner = A.atom(index % 2 == 0 ? "udta" : "meta", (index % 2 == 1 ? [0, 0, 0, 0] : []) + inner) }
        return movie(inner)
    }

    static func mp3(_ tag: [UInt8]) -> [UInt8] { tag + ID3Builder.mp3Frame() + ID3Builder.mp3Frame() }

    static let hostiles: [Hostile] = {
        let frame = ID3Builder.frame
        var files: [Hostile] = []
        // Size fields that claim gigabytes.
        files.append(Hostile(name: "moov-claims-4GiB.m4a", bytes: A.ftyp() + A.rawAtom(size: 0xFFFF_FFF0, "moov", A.fullBox("mvhd", [UInt8](repeating: 0, count: 96)))))
        files.append(Hostile(name: "mdat-largesize-2^62.m4a", bytes: movie() + [0, 0, 0, 1] + Array("mdat".utf8) + A.be(1 << 62, width: 8) + [1, 2, 3]))
        files.append(Hostile(name: "ilst-data-claims-4GiB.m4a", bytes: movie(userData: MovieBuilder.itemListMeta([A.atom("\u{A9}nam", A.rawAtom(size: 0xFFFF_FFFF, "data", [0, 0, 0, 1, 0, 0, 0, 0, 65]))]))))
        files.append(Hostile(name: "id3-tag-claims-256MiB.mp3", bytes: Array("ID3".utf8) + [4, 0, 0, 0x7F, 0x7F, 0x7F, 0x7F] + frame("TIT2", ID3Builder.text(["x"]), 4, (0, 0), false) + ID3Builder.mp3Frame()))
        files.append(Hostile(name: "id3-frame-claims-256MiB.mp3", bytes: mp3(ID3Builder.tag(Array("TIT2".utf8) + [0x7F, 0x7F, 0x7F, 0x7F, 0, 0, 3] + Array("x".utf8), padding: 64))))
        files.append(Hostile(name: "wav-chunk-claims-4GiB.wav", bytes: Array("RIFF".utf8) + [0xFF, 0xFF, 0xFF, 0xFF] + Array("WAVEfmt ".utf8) + [16, 0, 0, 0] + [UInt8](repeating: 1, count: 16) + Array("id3 ".utf8) + [0xF0, 0xFF, 0xFF, 0xFF] + ID3Builder.tag(frames: [frame("TIT2", ID3Builder.text(["x"]), 4, (0, 0), false)])))
        // Deep nesting and huge counts.
        files.append(Hostile(name: "containers-nested-20000-deep.m4a", bytes: deepNesting()))
        files.append(Hostile(name: "tables-claim-2^32-entries.m4a", bytes: hugeTableCounts()))
        files.append(Hostile(name: "100000-atoms.m4a", bytes: movie() + (0..<100_000).flatMap { _ in A.atom("free") }))
        files.append(Hostile(name: "ilst-with-25000-items.m4a", bytes: movie(userData: MovieBuilder.itemListMeta((0..<25_000).map { _ in MovieBuilder.textItem("\u{A9}cmt", "c") }))))
        files.append(Hostile(name: "id3-with-100000-frames.mp3", bytes: mp3(ID3Builder.tag(frames: (0..<100_000).map { _ in frame("TXXX", [3, 0x61, 0, 0x62], 4, (0, 0), false) }))))
        files.append(Hostile(name: "id3-text-with-1000000-values.mp3", bytes: mp3(ID3Builder.tag(frames: [frame("TPE1", [3] + [UInt8](repeating: 0, count: 1_000_000), 4, (0, 0), false)]))))
        files.append(Hostile(name: "id3-chap-nested-1000-deep.mp3", bytes: mp3(ID3Builder.tag(frames: [(0..<1000).reduce(frame("TIT2", ID3Builder.text(["x"]), 4, (0, 0), false)) { inner, index in
            frame("CHAP", Array("c\(index)".utf8) + [0] + [UInt8](repeating: 0, count: 16) + inner, 4, (0, 0), false)
        }]))))
        files.append(Hostile(name: "aiff-with-20000-chunks.aiff", bytes: {
            let chunk: [UInt8] = Array("ANNO".utf8) + [0, 0, 0, 2, 0x61, 0x62]
            let chunks = (0..<20_000).flatMap { _ in chunk }
            return Array("FORM".utf8) + A.be(UInt64(4 + chunks.count), width: 4) + Array("AIFF".utf8) + chunks
        }()))
        // A decompression bomb: a compressed frame that inflates to 64 MiB (16 MiB is the cap).
        let bomb = ID3Builder.zlibZeros(64 << 20)
        files.append(Hostile(name: "id3-compressed-frame-64MiB-bomb.mp3", bytes: mp3(ID3Builder.tag(frames: [
            frame("TIT2", SyncsafeInteger.encode(UInt32(64 << 20))! + bomb, 4, (0, 0x09), false),
        ]))))
        // Loops: CTOC tables of contents that list each other, atoms that do not advance.
        files.append(Hostile(name: "id3-ctoc-cycle.mp3", bytes: mp3(ID3Builder.tag(frames: [
            frame("CTOC", Array("a".utf8) + [0, 0x03, 1] + Array("b".utf8) + [0], 4, (0, 0), false),
            frame("CTOC", Array("b".utf8) + [0, 0x01, 1] + Array("a".utf8) + [0], 4, (0, 0), false),
        ]))))
        files.append(Hostile(name: "atoms-that-do-not-advance.m4a", bytes: A.ftyp() + [0, 0, 0, 1] + Array("free".utf8) + A.be(0, width: 8) + [0, 0, 0, 4] + Array("skip".utf8) + A.rawAtom(size: 0, "mdat")))
        // The sizes an adversarial run used: a million atoms in 8 MB, 500,000 ilst items (12.5
        // MB), 200,000 timed ID3 events, frames that each inflate to just past the limit (100 of
        // them: this encoder's streams are 160 to 1, so 100 frames take 10 MB).
        files.append(Hostile(name: "1000000-free-atoms.m4a", bytes: movie() + [UInt8]((0..<1_000_000).lazy.flatMap { _ in A.atom("free") })))
        files.append(Hostile(name: "ilst-with-500000-items.m4a", bytes: movie(userData: MovieBuilder.itemListMeta(
            [[UInt8]](repeating: MovieBuilder.textItem("\u{A9}cmt", "c"), count: 500_000)))))
        files.append(Hostile(name: "ts-with-200000-id3-events.ts", bytes: {
            var stream = TransportStreamBuilder()
            let tag = ID3Builder.tag(frames: [frame("TXXX", [3, 0x61, 0, 0x62], 4, (0, 0), false)])
            for index in 0..<200_000 { stream.addID3(tag, pts: UInt64(index) * 900) }
            return stream.bytes
        }()))
        let overLimit = (16 << 20) + 1024  // just past ID3v2Tag.maxDecompressedFrameSize
        let inflatingPastTheLimit = frame("TIT2", SyncsafeInteger.encode(UInt32(overLimit))! + ID3Builder.zlibZeros(overLimit), 4, (0, 0x09), false)
        files.append(Hostile(name: "id3-100-frames-inflating-past-the-limit.mp3", bytes: mp3(ID3Builder.tag(frames: Array(repeating: inflatingPastTheLimit, count: 100)))))
        let undeclared = frame("TIT2", ID3Builder.zlibZeros(overLimit), 4, (0, 0x08), false)
        files.append(Hostile(name: "id3-100-undeclared-frames-inflating-past-the-limit.mp3", bytes: mp3(ID3Builder.tag(frames: Array(repeating: undeclared, count: 100)))))
        files.append(Hostile(name: "mp3-without-sync-8MiB.mp3", bytes: ID3Builder.tag(frames: [frame("TIT2", ID3Builder.text(["x"]), 4, (0, 0), false)]) + [UInt8](repeating: 0xFF, count: 8 << 20)))
        // Eight frames, then 8 MiB of bytes dense in frame syncs and header bytes: `check`'s
        // frame walk searches every hole for the next two frames in a row.
        files.append(Hostile(name: "mp3-frames-then-8MiB-of-sync-junk.mp3", bytes: {
            var generator = SplitMix64(seed: 7)
            let alphabet: [UInt8] = [0xFF, 0xFB, 0xE3, 0x90, 0x44, 0x00, 0x64]
            return (0..<8).flatMap { _ in ID3Builder.mp3Frame() } + (0..<(8 << 20)).map { _ in alphabet[Int(generator.next() % 7)] }
        }()))
        // An HEIF `iloc` whose offset and length sizes are 0: 28 items of 65,535 extents of 0
        // bytes each fit in 200 bytes (found by the read-mp4 fuzz target on 2026-11-29: 400 MB
        // and 3 s for the JSON tree).
        let zeroSizedExtents: [UInt8] = (0..<28).flatMap { (id: Int) -> [UInt8] in
            let itemID: [UInt8] = A.be(UInt64(id + 1), width: 2)
            return itemID + [0, 0, 0xFF, 0xFF]
        }
        files.append(Hostile(name: "heif-iloc-with-1835000-empty-extents.heic",
                             bytes: A.ftyp("heic", compatible: ["mif1", "heic"]) + A.fullBox("iloc", [0x00, 0x00] + A.be(28, width: 2) + zeroSizedExtents)))
        // The entry tables of the decoders of 2026-11-29, as long as their bytes allow (8
        // million sample flags, 8 million `rap ` descriptions, 2 million item associations):
        // decoded only as far as a view lists them.
        files.append(Hostile(name: "sdtp-sgpd-ipma-8MiB-each.m4a", bytes: movie() + A.fullBox("sdtp", [UInt8](repeating: 0x24, count: 8 << 20))
            + A.fullBox("sgpd", Array("rap ".utf8) + A.be(8 << 20, width: 4) + [UInt8](repeating: 0x80, count: 8 << 20))
            + A.fullBox("ipma", A.be(2 << 20, width: 4) + [UInt8]((0..<(2 << 20)).lazy.flatMap { _ in [0, 1, 1, 0x81] as [UInt8] }))))
        return files
    }()

    // MARK: - The runs

    @Test(arguments: hostiles)
    func hostileFilesStayWithinMemoryAndTimeLimits(_ hostile: Hostile) throws {
        let path = try TemporaryFile.write(hostile.bytes, name: hostile.name)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        if let keep = Self.keepDirectory { try Data(hostile.bytes).write(to: URL(fileURLWithPath: keep).appendingPathComponent(hostile.name)) }
        // The codes both tools share (ToolExitCode) a file can cause.
        let documented: Set<Int32> = [0, 1, 65, 66, 67, 68, 73, 74]
        let page = path + ".html"
        let runs = [("tagedit", ["show", "--json", path]), ("tagedit", ["export", path]), ("atominspect", [path]), ("atominspect", ["--json", path]),
                    ("atominspect", ["html", path, "--output", page]), ("atominspect", ["check", path]), ("tagedit", ["set", path, "TITLE=Bounded"])]
        for (tool, arguments) in runs {
            let run = try ToolRunner.measure(tool, arguments, in: Self.toolsDirectory)
            let command = "\(tool) \(arguments.first ?? "")"
            print("resource bound: \(hostile.name) \(command): exit \(run.status), \(Int(run.seconds * 1000)) ms, \(run.peakMemoryKiB / 1024) MiB peak")
            #expect(documented.contains(run.status), "\(command) on \(hostile.name) ended with \(run.status): \(run.standardError)")
            #expect(run.seconds < Self.hangGuard, "hang guard: \(command) on \(hostile.name) ran \(run.seconds) s")
            if let limit = Self.timeLimit {
                #expect(run.seconds < limit, "\(command) on \(hostile.name) ran \(run.seconds) s, over \(limit) s")
            }
            #expect(run.peakMemoryKiB > 1024, "the measurement works: no tool runs in under 1 MiB")
            #expect(run.peakMemoryKiB < Self.memoryLimitKiB, "\(command) on \(hostile.name) peaked at \(run.peakMemoryKiB / 1024) MiB")
        }
        // A save that went through leaves a file that reads back (67: a format tagedit does not
        // edit, a transport stream).
        let reread = try ToolRunner.measure("tagedit", ["get", path, "TITLE"], in: Self.toolsDirectory)
        #expect([0, 1, 67, 68].contains(reread.status), "\(hostile.name) after set: \(reread.status) \(reread.standardError)")
    }
}

