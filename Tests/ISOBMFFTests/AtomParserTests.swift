import Foundation
import ISOBMFF
import MediaBytes
import TestSupport
import Testing

typealias B = AtomBuilder

func parse(_ bytes: [UInt8], _ options: AtomReadingOptions = .lenient) throws -> AtomTree {
    try AtomTree(source: MemoryByteSource(bytes), options: options)
}

func roundTrip(_ tree: AtomTree) throws -> [UInt8] { try AtomSerializer.bytes(of: tree) }

@Suite struct AtomHeaderTests {
    @Test func compactHeaderGivesTypeOffsetAndSize() throws {
        let tree = try parse(B.ftyp() + B.atom("free", [0, 0, 0, 0]))
        #expect(tree.atoms.map(\.type) == ["ftyp", "free"])
        #expect(tree.atoms[1].offset == 24)
        #expect(tree.atoms[1].size == 12)
        #expect(tree.atoms[1].headerSize == 8)
        #expect(tree.diagnostics.isEmpty)
    }

    @Test func sixtyFourBitSizeOnASmallAtomIsReadAndWrittenBackAsIs() throws {
        let bytes = B.ftyp() + B.atom64("mdat", [1, 2, 3])
        let tree = try parse(bytes)
        let mdat = tree.atoms[1]
        #expect(mdat.header.sizeForm == .extended)
        #expect(mdat.headerSize == 16)
        #expect(mdat.size == 19)
        #expect(try roundTrip(tree) == bytes)
    }

    @Test func sizeZeroAtTopLevelRunsToTheEndOfTheFile() throws {
        let bytes = B.ftyp() + B.rawAtom(size: 0, "mdat", [9, 9, 9, 9, 9])
        let tree = try parse(bytes)
        #expect(tree.atoms[1].header.sizeForm == .toEnd)
        #expect(tree.atoms[1].size == 13)
        #expect(tree.diagnostics.isEmpty)
        #expect(try roundTrip(tree) == bytes)
    }

    @Test func sizeZeroInsideAContainerIsADiagnostic() throws {
        let bytes = B.ftyp() + B.container("moov", B.rawAtom(size: 0, "free", [1, 2, 3, 4]))
        let tree = try parse(bytes)
        let free = try #require(tree.atom(at: AtomPath(parsing: "moov/free")!))
        #expect(free.size == 12)
        #expect(tree.diagnostics.map(\.code) == ["zeroSizeInContainer"])
        #expect(tree.diagnostics.first?.path.description == "moov/free")
        #expect(try roundTrip(tree) == bytes)
    }

    @Test func sizeBelowTheHeaderStopsTheWalkAndKeepsTheRest() throws {
        let bytes = B.ftyp() + B.container("moov", B.atom("free"), B.rawAtom(size: 5, "junk", [1, 2, 3]))
        let tree = try parse(bytes)
        let moov = tree.atoms[1]
        #expect(moov.children.map(\.type) == ["free"])
        #expect(moov.trailingSize == 11)
        let diagnostic = try #require(tree.diagnostics.first)
        #expect(diagnostic.code == "invalidSize")
        #expect(diagnostic.offset == 40)
        #expect(diagnostic.path.description == "moov")
        #expect(diagnostic.message.contains("size of 5"))
        #expect(try roundTrip(tree) == bytes)
    }

    @Test func largeSizeBelowSixteenIsInvalid() throws {
        var bytes = B.ftyp()
        bytes += [0, 0, 0, 1] + FourCC("mdat").bytes + B.be(8, width: 8)
        let tree = try parse(bytes)
        #expect(tree.atoms.count == 1)
        #expect(tree.trailingSize == 16)
        #expect(tree.diagnostics.map(\.code) == ["invalidSize"])
        #expect(try roundTrip(tree) == bytes)
    }

    @Test func uuidAtomCarriesItsExtendedType() throws {
        let uuid: [UInt8] = Array(0..<16)
        let bytes = B.ftyp() + B.atom("uuid", uuid + [0xAA, 0xBB])
        let tree = try parse(bytes)
        let atom = tree.atoms[1]
        #expect(atom.header.extendedType == uuid)
        #expect(atom.headerSize == 24)
        #expect(atom.payloadSize == 2)
        #expect(try roundTrip(tree) == bytes)
    }

    @Test func truncatedLastAtomIsADiagnosticAndKeepsItsDeclaredSize() throws {
        let bytes = B.ftyp() + B.rawAtom(size: 1000, "mdat", [1, 2, 3, 4])
        let tree = try parse(bytes)
        let mdat = tree.atoms[1]
        #expect(mdat.size == 12)
        #expect(mdat.isTruncated)
        #expect(mdat.header.declaredSize == 1000)
        #expect(tree.diagnostics.map(\.code) == ["truncated"])
        #expect(tree.diagnostics.first?.message.contains("1000") == true)
        #expect(try roundTrip(tree) == bytes)
    }

    @Test func childOverrunningItsParentIsCutAtTheParentEnd() throws {
        let child = B.rawAtom(size: 64, "free", [1, 2, 3, 4])
        let bytes = B.ftyp() + B.container("moov", child) + B.atom("mdat", [7])
        let tree = try parse(bytes)
        let free = try #require(tree.atom(at: AtomPath(parsing: "moov/free")!))
        #expect(free.size == 12)
        #expect(tree.atoms.map(\.type) == ["ftyp", "moov", "mdat"])
        #expect(tree.diagnostics.map(\.code) == ["overrun"])
        #expect(tree.diagnostics.first?.path.description == "moov/free")
        #expect(try roundTrip(tree) == bytes)
    }

    @Test func trailingBytesInsideAContainerAreKeptAndReported() throws {
        let bytes = B.ftyp() + B.atom("moov", B.atom("free") + [1, 2, 3])
        let tree = try parse(bytes)
        #expect(tree.atoms[1].trailingSize == 3)
        #expect(tree.diagnostics.map(\.code) == ["trailingBytes"])
        #expect(try roundTrip(tree) == bytes)
    }

    @Test func quickTimeUserDataTerminatorIsNotAnAnomaly() throws {
        let bytes = B.ftyp() + B.container("moov", B.atom("udta", B.atom("©nam", [0, 1, 0x55, 0xC4, 0x41]) + [0, 0, 0, 0]))
        let tree = try parse(bytes)
        #expect(tree.diagnostics.isEmpty)
        #expect(try roundTrip(tree) == bytes)
    }

    @Test func dataThatDoesNotOpenLikeAnAtomIsNotISOBMFF() {
        #expect(throws: AtomError(.notISOBMFF)) { try parse(Array("ID3\u{3}\0\0\0\0\0\0abcdefgh".utf8)) }
        #expect(throws: AtomError(.notISOBMFF)) { try parse(Array("RIFF\0\0\0\0WAVEfmt ".utf8)) }
        #expect(throws: AtomError(.notISOBMFF)) { try parse([0, 0, 0]) }
    }

    @Test func strictModeThrowsTheFirstDiagnostic() {
        let bytes = B.ftyp() + B.rawAtom(size: 1000, "mdat", [1, 2, 3, 4])
        #expect(throws: AtomError(.truncated)) { try parse(bytes, .strict) }
    }
}

@Suite struct MetaFormTests {
    @Test func isoMetaIsAFullBox() throws {
        let hdlr = B.fullBox("hdlr", [0, 0, 0, 0] + FourCC("mdir").bytes + [UInt8](repeating: 0, count: 13))
        let bytes = B.ftyp() + B.container("moov", B.container("udta", B.fullBox("meta", hdlr + B.container("ilst"))))
        let tree = try parse(bytes)
        let meta = try #require(tree.atom(at: AtomPath(parsing: "moov/udta/meta")!))
        #expect(meta.prefixSize == 4)
        #expect(meta.children.map(\.type) == ["hdlr", "ilst"])
        #expect(tree.diagnostics.isEmpty)
    }

    @Test func quickTimeMetaHasNoVersionAndFlags() throws {
        let hdlr = B.fullBox("hdlr", [0, 0, 0, 0] + FourCC("mdta").bytes + [UInt8](repeating: 0, count: 13))
        let bytes = B.ftyp("qt  ") + B.container("moov", B.container("meta", hdlr, B.fullBox("keys", B.be(0, width: 4))))
        let tree = try parse(bytes)
        let meta = try #require(tree.atom(at: AtomPath(parsing: "moov/meta")!))
        #expect(meta.prefixSize == 0)
        #expect(meta.children.map(\.type) == ["hdlr", "keys"])
        #expect(try roundTrip(tree) == bytes)
    }
}

@Suite struct ContainerContextTests {
    @Test func itemListChildrenAreContainersWhateverTheirType() throws {
        let data = B.fullBox("data", flags: 1, [0, 0, 0, 0] + B.utf8("x"))
        let bytes = B.ftyp() + B.container("moov", B.container("meta", B.container("ilst",
            B.container("©nam", data), B.atom(FourCC(rawValue: 1), data))))
        let tree = try parse(bytes)
        let ilst = try #require(tree.atom(at: AtomPath(parsing: "moov/meta/ilst")!))
        #expect(ilst.children.allSatisfy { $0.children.map(\.type) == ["data"] })
    }

    @Test func userDataTextItemIsALeafOutsideAnItemList() throws {
        let bytes = B.ftyp() + B.container("moov", B.container("udta", B.atom("©nam", [0, 2, 0x55, 0xC4] + B.utf8("hi"))))
        let tree = try parse(bytes)
        let item = try #require(tree.atom(at: AtomPath(parsing: "moov/udta/©nam")!))
        #expect(item.role == .leaf)
    }

    @Test func waveInsideASoundDescriptionHoldsLeaves() throws {
        let wave = B.container("wave", B.atom("frma", FourCC("mp4a").bytes), B.atom("mp4a", [0, 0, 0, 0]), B.atom(FourCC(rawValue: 0)))
        let fields = [UInt8](repeating: 0, count: 6) + [0, 1] + [0, 1] + [UInt8](repeating: 0, count: 6) + [0, 2, 0, 16, 0xFF, 0xFE, 0, 0, 0xAC, 0x44, 0, 0]
            + [UInt8](repeating: 0, count: 16)
        let entry = B.atom("mp4a", fields + wave)
        let stsd = B.fullBox("stsd", B.be(1, width: 4) + entry)
        let hdlr = B.fullBox("hdlr", [0, 0, 0, 0] + FourCC("soun").bytes + [UInt8](repeating: 0, count: 13))
        let bytes = B.ftyp("qt  ") + B.container("moov", B.container("trak", B.container("mdia", hdlr, B.container("minf", B.container("stbl", stsd)))))
        let tree = try parse(bytes)
        let mp4a = try #require(tree.atom(at: AtomPath(parsing: "moov/trak/mdia/minf/stbl/stsd/mp4a")!))
        #expect(mp4a.role == .sampleEntry(.audio))
        #expect(mp4a.prefixSize == 44)
        #expect(mp4a.children.map(\.type) == ["wave"])
        #expect(mp4a.children[0].children.map(\.type) == ["frma", "mp4a", FourCC(rawValue: 0)])
        #expect(mp4a.children[0].children[1].role == .leaf)
        #expect(tree.diagnostics.isEmpty)
        #expect(try roundTrip(tree) == bytes)
    }
}

@Suite struct AtomLimitTests {
    @Test func nestingBeyondTheDepthLimitIsKeptOpaque() throws {
        var inner = B.atom("free")
        for _ in 0..<20 { inner = B.container("moov", inner) }
        let bytes = B.ftyp() + inner
        let tree = try parse(bytes, AtomReadingOptions(limits: AtomLimits(maxDepth: 5)))
        #expect(tree.diagnostics.contains { $0.code == "depthLimit" })
        var depth = 0
        tree.walk { _, _, d in depth = max(depth, d); return true }
        #expect(depth == 5)
        #expect(try roundTrip(tree) == bytes)
    }

    @Test func atomCountLimitStopsReadingAndKeepsTheRest() throws {
        let bytes = B.ftyp() + B.container("moov", [UInt8]((0..<50).flatMap { _ in B.atom("free") }))
        let tree = try parse(bytes, AtomReadingOptions(limits: AtomLimits(maxAtomCount: 10)))
        var count = 0
        tree.walk { _, _, _ in count += 1; return true }
        #expect(count == 10)
        #expect(tree.diagnostics.map(\.code) == ["atomCountLimit"])
        #expect(try roundTrip(tree) == bytes)
    }

    @Test func containersLargerThanThePayloadLimitAreWalkedHeaderByHeader() throws {
        let bytes = B.ftyp() + B.container("moov", B.atom("free", [UInt8](repeating: 0, count: 100)), B.atom("skip"))
        let source = RecordingByteSource(MemoryByteSource(bytes))
        let tree = try AtomTree(source: source, options: AtomReadingOptions(limits: AtomLimits(maxPayloadInMemory: 64)))
        #expect(tree.atoms[1].children.map(\.type) == ["free", "skip"])
        #expect(source.reads.allSatisfy { $0.count <= 64 })
        #expect(throws: AtomError(.payloadLimit)) { try tree.fieldBytes(of: tree.atoms[1].children[0]) }
    }

    @Test func absurdEntryCountsInTablesAreDecodeErrors() throws {
        let stsz = B.fullBox("stsz", B.be(0, width: 4) + B.be(0xFFFF_FFFF, width: 4) + [0, 0, 0, 1])
        let bytes = B.ftyp() + B.container("moov", B.container("trak", B.container("mdia", B.container("minf", B.container("stbl", stsz)))))
        let tree = try parse(bytes)
        let (_, diagnostics) = AtomInspector(tree: tree).inspect()
        #expect(diagnostics.map(\.code) == ["invalidPayload"])
        #expect(diagnostics.first?.path.description == "moov/trak/mdia/minf/stbl/stsz")
    }
}

@Suite struct AtomPathTests {
    @Test func printsIndexesOnlyForRepeatedTypes() throws {
        let trak = B.container("trak", B.atom("tkhd"))
        let tree = try parse(B.ftyp() + B.container("moov", B.atom("mvhd"), trak, trak))
        var paths: [String] = []
        tree.walk { _, path, _ in paths.append(path.description); return true }
        #expect(paths == ["ftyp", "moov", "moov/mvhd", "moov/trak[0]", "moov/trak[0]/tkhd", "moov/trak[1]", "moov/trak[1]/tkhd"])
    }

    @Test func parsesLatin1AndPercentEscapes() throws {
        let a = try #require(AtomPath(parsing: "moov/udta/meta/ilst/©nam"))
        let b = try #require(AtomPath(parsing: "moov/udta/meta/ilst/%A9nam"))
        #expect(a == b)
        #expect(AtomPath(parsing: "moov/trak[1]/mdia")?.components[1].index == 1)
        #expect(AtomPath.escapedTypeName(FourCC(rawValue: 1)) == "%00%00%00%01")
        #expect(AtomPath(parsing: "moov/tr") == nil)
        #expect(AtomPath(parsing: "moov/trak[x]") == nil)
    }
}

@Suite struct ReadCostTests {
    @Test func typicalTaggedFileTakesAHandfulOfReadsAndNeverTouchesMediaData() throws {
        let source = RecordingByteSource(try FileByteSource(path: TestFixtures.path("aac-itunes-tags-cover.m4a")))
        let tree = try AtomTree(source: source)
        #expect(source.reads.count <= 8)
        let mdat = try #require(tree.atoms.first { $0.type == "mdat" })
        let payload = mdat.payloadOffset..<mdat.endOffset
        #expect(source.reads.allSatisfy { !$0.overlaps(payload) })
    }
}

@Suite struct LargeFileTests {
    /// A sparse 5 GiB file: ftyp, a 64-bit `mdat` of 5 GiB, then a `moov`. Nothing large is
    /// written to disk on file systems with holes.
    @Test func fiveGigabyteFileWithSixtyFourBitMediaDataParsesWithoutReadingIt() throws {
        let payload: UInt64 = 5 << 30
        let moov = B.container("moov", B.fullBox("mvhd", [UInt8](repeating: 0, count: 96)))
        var head = B.ftyp("isom")
        head += [0, 0, 0, 1] + FourCC("mdat").bytes + B.be(payload + 16, width: 8)
        let written = try TemporaryFile.write(head, name: "large.mp4")
        let file = try #require(FileHandle(forWritingAtPath: written))
        try file.seek(toOffset: UInt64(head.count) + payload)
        try file.write(contentsOf: Data(moov))
        try file.close()

        let source = RecordingByteSource(try FileByteSource(path: written))
        let tree = try AtomTree(source: source)
        #expect(tree.diagnostics.isEmpty)
        #expect(tree.atoms.map(\.type) == ["ftyp", "mdat", "moov"])
        let mdat = tree.atoms[1]
        #expect(mdat.size == payload + 16)
        #expect(tree.atoms[2].offset == UInt64(head.count) + payload)
        #expect(source.reads.allSatisfy { !$0.overlaps(mdat.payloadOffset..<mdat.endOffset) })
        #expect(source.reads.count <= 6)
    }
}

@Suite struct GenericSampleEntryTests {
    @Test func entryWhoseTailIsNotAtomsHasNoChildren() throws {
        let c608 = B.atom("c608", [UInt8](repeating: 0, count: 6) + [0, 1] + [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 9, 9, 9])
        let hdlr = B.fullBox("hdlr", [0, 0, 0, 0] + FourCC("clcp").bytes + [UInt8](repeating: 0, count: 13))
        let bytes = B.ftyp("qt  ") + B.container("moov", B.container("trak", B.container("mdia", hdlr, B.container("minf", B.container("stbl", B.fullBox("stsd", B.be(1, width: 4) + c608))))))
        let tree = try parse(bytes)
        #expect(tree.diagnostics.isEmpty)
        let entry = try #require(tree.atom(at: AtomPath(parsing: "moov/trak/mdia/minf/stbl/stsd/c608")!))
        #expect(entry.children.isEmpty)
        #expect(try roundTrip(tree) == bytes)
    }
}

/// A long run of small atoms outside any window (a million `free` atoms at the top level) is
/// read ahead 64 KiB at a time instead of a read per header, and parses exactly as before:
/// headers crossing a read-ahead boundary, 64-bit sizes and `uuid` headers in the run, and the
/// large atom that ends it.
@Suite struct SmallAtomRunTests {
    /// Counts the reads that reach the bytes.
    final class CountingSource: ByteSource, @unchecked Sendable {
        let inner: MemoryByteSource
        var reads = 0
        init(_ bytes: [UInt8]) { inner = MemoryByteSource(bytes) }
        var size: UInt64 { inner.size }
        func read(at offset: UInt64, count: Int) throws(ByteSourceError) -> [UInt8] {
            reads += 1
            return try inner.read(at: offset, count: count)
        }
        func checkUnchanged() throws(ByteSourceError) {}
    }

    @Test func aLongRunOfSmallAtomsIsReadAheadAndParsesTheSame() throws {
        // 12- and 13-byte atoms so that headers cross every 64 KiB boundary at varying places,
        // a 64-bit-size atom and a uuid atom in the run, then a large mdat.
        var run: [UInt8] = []
        var expected: [(String, Int)] = [("ftyp", 0)]
        var sizes: [Int] = []
        for index in 0..<20_000 {
            let atom: [UInt8]
            switch index {
            case 7_000: atom = B.atom64("free", [1, 2, 3])
            case 12_345: atom = [0, 0, 0, 28] + Array("uuid".utf8) + [UInt8](repeating: 0xAB, count: 16) + [9, 9, 9, 9]
            default: atom = B.atom(index % 2 == 0 ? "free" : "skip", [UInt8](repeating: 0, count: 4 + index % 2))
            }
            expected.append((index == 12_345 ? "uuid" : index % 2 == 0 || index == 7_000 ? "free" : "skip", 0))
            sizes.append(atom.count)
            run += atom
        }
        let bytes = B.ftyp() + run + B.atom("mdat", [UInt8](repeating: 7, count: 200_000))
        let source = CountingSource(bytes)
        let tree = try AtomTree(source: source, options: .lenient)
        #expect(tree.diagnostics.isEmpty)
        #expect(tree.atoms.count == 1 + 20_000 + 1)
        #expect(tree.atoms.dropFirst().dropLast().map(\.type.description) == expected.dropFirst().map(\.0))
        #expect(tree.atoms.dropFirst().dropLast().map { Int($0.size) } == sizes)
        #expect(tree.atoms[7_001].header.sizeForm == .extended)
        #expect(tree.atoms[12_346].header.extendedType == [UInt8](repeating: 0xAB, count: 16))
        #expect(tree.atoms.last?.type == "mdat" && tree.atoms.last?.size == 200_008)
        // A read per header would be 20,000 reads; 64 KiB at a time is a handful.
        #expect(source.reads < 200, "\(source.reads) reads")
        #expect(try AtomSerializer.bytes(of: tree) == bytes)
    }

    @Test func aFewSmallAtomsAreStillReadAHeaderAtATime() throws {
        // Fewer than the run length: no read-ahead (a typical file reads 8 bytes per top-level atom).
        let bytes = B.ftyp() + (0..<10).flatMap { _ in B.atom("free") } + B.atom("mdat", [UInt8](repeating: 7, count: 1 << 20))
        let source = CountingSource(bytes)
        let tree = try AtomTree(source: source, options: .lenient)
        #expect(tree.atoms.count == 12)
        #expect(source.reads <= 14, "\(source.reads) reads")
    }
}

/// A sample entry whose fields would be a payload of 2 GiB or more (a generic entry with no
/// children, in a sparse file of 3 GiB) is kept as opaque bytes: `Atom.prefixSize` holds 32 bits.
@Suite struct HugeSampleEntryTests {
    @Test func aSampleEntryOfThreeGiBIsKeptAsALeaf() throws {
        let entrySize: UInt64 = 3 << 30
        // moov/trak/mdia/minf/stbl/stsd holding one `mp4s` entry with a 64-bit size; the file
        // ends where the entry does (the bytes between are a hole).
        // Each container's 64-bit size reaches the end of the file.
        let ftyp = B.ftyp()
        let entryStart = UInt64(ftyp.count + 6 * 16 + 8)
        let end = entryStart + entrySize
        var prefix = ftyp
        for type in ["moov", "trak", "mdia", "minf", "stbl", "stsd"] {
            prefix += [0, 0, 0, 1] + Array(type.utf8) + B.be(end - UInt64(prefix.count), width: 8)
        }
        prefix += [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 1] + Array("mp4s".utf8) + B.be(entrySize, width: 8)
        let path = try TemporaryFile.write(prefix, name: "huge-entry.mp4")
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: end)
        try handle.close()
        let tree = try AtomTree(source: FileByteSource(path: path), options: .lenient)
        let entryPath = try #require(AtomPath(parsing: "moov/trak/mdia/minf/stbl/stsd/mp4s"))
        let entry = try #require(tree.atom(at: entryPath))
        #expect(entry.size == entrySize)
        #expect(entry.role == .leaf)
        #expect(entry.children.isEmpty)
    }
}

/// Long runs of siblings: the indexes paths give them, and small containers read in a run.
@Suite struct LongSiblingRunTests {
    /// Each atom's index among its siblings of the same type is the count of those before it
    /// (none when its type is unique), for a few siblings (compared pairwise) and for many
    /// (sorted by type).
    @Test func siblingIndexesCountTheSameTypeInFileOrder() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % bound
        }
        let common: [FourCC] = ["free", "skip", "wide", "\u{A9}nam"]
        for count in [1, 2, 3, 16, 17, 300, 2000] {
            var types: [FourCC] = []
            for i in 0..<count {
                // Mostly a few repeated types, some unique ones (types 0x00000000 and
                // 0xFFFFFFFF among them: the ends of the sort).
                let pick = next(10)
                types.append(pick < 7 ? common[next(common.count)] : pick == 7 ? FourCC(rawValue: UInt32(i) | 0x4000_0000)
                             : pick == 8 ? FourCC(rawValue: 0) : FourCC(rawValue: .max))
            }
            let tree = try parse(B.ftyp() + types.flatMap { B.atom($0) })
            let atoms = Array(tree.atoms.dropFirst())
            #expect(atoms.map(\.type) == types)
            let expected: [Int?] = types.indices.map { i in
                let same = types.indices.filter { types[$0] == types[i] }
                return same.count > 1 ? same.firstIndex(of: i) : nil
            }
            #expect(AtomTree.siblingIndexes(atoms) == expected, "\(count) siblings")
        }
    }

    /// An `ilst` of more than a MiB of small items (outside any window read whole) is read
    /// ahead 64 KiB at a time, and each item takes its bytes from what was read ahead: every
    /// item and value is where it is, with its bytes.
    @Test func aRunOfSmallContainersReadAheadKeepsEveryValue() throws {
        let count = 40_000
        let items = (0..<count).map { MovieBuilder.textItem("\u{A9}cmt", "v\($0)") }
        var movie = MovieBuilder()
        movie.userData = [MovieBuilder.itemListMeta(items)]
        let path = try TemporaryFile.write(movie.build(), name: "long-ilst.m4a")
        let tree = try AtomTree(source: try FileByteSource(path: path))
        #expect(tree.diagnostics.isEmpty)
        let ilst = try #require(tree.atom(at: AtomPath([.init(type: "moov"), .init(type: "udta"), .init(type: "meta"), .init(type: "ilst")])))
        #expect(ilst.size > 1 << 20, "the list is larger than a window")
        #expect(ilst.children.count == count)
        for (i, item) in ilst.children.enumerated() {
            let data = try #require(item.children.first, "item \(i)")
            #expect(data.type == "data")
            let value = Array(try tree.fieldBytes(of: data).dropFirst(8))
            if value != Array("v\(i)".utf8) {
                Issue.record("item \(i) reads \(value)")
                break
            }
        }
    }
}
