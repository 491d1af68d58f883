import ISOBMFF
import MediaBytes
import TestSupport
import Testing

/// What each committed fixture is made to exercise (see Fixtures/README.md).
struct FixtureExpectation: Sendable, CustomTestStringConvertible {
    var name: String
    /// Paths that must exist.
    var paths: [String]
    var testDescription: String { name }
}

let fixtureExpectations: [FixtureExpectation] = [
    .init(name: "aac-itunes-tags-cover.m4a", paths: ["moov/udta/meta/ilst/covr", "moov/udta/meta/ilst/©nam/data", "moov/udta/meta/ilst/----[1]/name", "moov/trak/mdia/minf/stbl/stsd/mp4a/esds"]),
    .init(name: "audiobook-chapters.m4b", paths: ["moov/trak[0]/tref/chap", "moov/udta/chpl", "moov/trak[1]/mdia/minf/stbl/stsd/text"]),
    .init(name: "video-h264-aac.mp4", paths: ["moov/trak[0]/mdia/minf/stbl/stsd/avc1/avcC", "moov/trak[0]/mdia/minf/stbl/ctts", "moov/trak[0]/edts/elst"]),
    .init(name: "quicktime-udta-text.mov", paths: ["moov/udta/©nam", "moov/udta/©xyz", "moov/trak[1]/mdia/minf/stbl/stsd/mp4a/wave/esds"]),
    .init(name: "quicktime-mdta-keys.mov", paths: ["moov/udta/meta/keys", "moov/udta/meta/ilst/%00%00%00%02/data"]),
    .init(name: "quicktime-mdta-keys-moov-meta.mov", paths: ["moov/meta/keys", "moov/meta/ilst"]),
    .init(name: "fragmented.mp4", paths: ["moov/mvex/trex[0]", "moof[0]/traf[0]/trun", "moof[0]/traf[1]/tfdt", "mfra/tfra[1]", "mfra/mfro"]),
    .init(name: "fragmented-sidx.mp4", paths: ["sidx[0]", "sidx[1]", "moof[0]/mfhd"]),
    .init(name: "mobile.3gp", paths: ["moov/udta/titl", "moov/trak[0]/mdia/minf/stbl/stsd/s263"]),
    .init(name: "moov-before-mdat.m4a", paths: ["moov", "mdat"]),
    .init(name: "moov-after-mdat.m4a", paths: ["mdat", "moov"]),
    .init(name: "mdat-64bit-header.m4a", paths: ["mdat"]),
    .init(name: "co64-chunk-offsets.m4a", paths: ["moov/trak[0]/mdia/minf/stbl/co64", "moov/trak[1]/mdia/minf/stbl/co64"]),
    .init(name: "alac.m4a", paths: ["moov/trak/mdia/minf/stbl/stsd/alac/alac"]),
    .init(name: "mdat-size-zero.m4a", paths: ["mdat"]),
    .init(name: "quicktime-sound-v1-in24.mov", paths: ["moov/trak/mdia/minf/stbl/stsd/in24/wave/frma"]),
    .init(name: "quicktime-sound-v2-lpcm.mov", paths: ["moov/trak/mdia/minf/stbl/stsd/lpcm"]),
    .init(name: "heif-image.heic", paths: ["meta/iloc", "meta/iinf/infe[3]", "meta/pitm", "meta/iprp/ipco/ispe[0]"]),
    .init(name: "heif-jpeg-item.heif", paths: ["meta/iloc", "meta/iinf", "meta/pitm"]),
]

@Suite struct FixtureTests {
    @Test(arguments: fixtureExpectations)
    func fixtureParsesCleanlyAndHasItsStructure(_ fixture: FixtureExpectation) throws {
        let tree = try AtomTree(contentsOf: TestFixtures.path(fixture.name), options: .strict)
        for path in fixture.paths {
            #expect(tree.atom(at: try #require(AtomPath(parsing: path))) != nil, "missing \(path)")
        }
        let (_, diagnostics) = AtomInspector(tree: tree).inspect()
        #expect(diagnostics.isEmpty, "\(diagnostics)")
    }

    @Test(arguments: fixtureExpectations)
    func fixtureRoundTripsByteForByte(_ fixture: FixtureExpectation) throws {
        let path = TestFixtures.path(fixture.name)
        let tree = try AtomTree(contentsOf: path)
        #expect(try AtomSerializer.bytes(of: tree) == TemporaryFile.read(path))
    }

    @Test(arguments: fixtureExpectations)
    func fixturePassesTheStructureCheck(_ fixture: FixtureExpectation) throws {
        let tree = try AtomTree(contentsOf: TestFixtures.path(fixture.name))
        let findings = AtomStructureCheck.findings(in: tree).filter { $0.severity >= .warning }
        #expect(findings.isEmpty, "\(findings)")
    }

    @Test func sixtyFourBitMediaDataHeaderIsRecognised() throws {
        let tree = try AtomTree(contentsOf: TestFixtures.path("mdat-64bit-header.m4a"))
        let mdat = try #require(tree.atoms.first { $0.type == "mdat" })
        #expect(mdat.header.sizeForm == .extended)
        #expect(mdat.headerSize == 16)
    }

    @Test func sizeZeroMediaDataRunsToTheEnd() throws {
        let tree = try AtomTree(contentsOf: TestFixtures.path("mdat-size-zero.m4a"))
        let mdat = try #require(tree.atoms.last)
        #expect(mdat.type == "mdat")
        #expect(mdat.header.sizeForm == .toEnd)
        #expect(mdat.endOffset == tree.fileSize)
    }

    @Test func quickTimeSoundDescriptionVersionsGetTheirFieldLengths() throws {
        let v1 = try AtomTree(contentsOf: TestFixtures.path("quicktime-sound-v1-in24.mov"))
        #expect(v1.atom(at: AtomPath(parsing: "moov/trak/mdia/minf/stbl/stsd/in24")!)?.prefixSize == 44)
        let v2 = try AtomTree(contentsOf: TestFixtures.path("quicktime-sound-v2-lpcm.mov"))
        #expect(v2.atom(at: AtomPath(parsing: "moov/trak/mdia/minf/stbl/stsd/lpcm")!)?.prefixSize == 64)
    }

    @Test func chunkOffsetsOfTheCo64FixturePointIntoMediaData() throws {
        let tree = try AtomTree(contentsOf: TestFixtures.path("co64-chunk-offsets.m4a"))
        let atom = try #require(tree.atom(at: AtomPath(parsing: "moov/trak[0]/mdia/minf/stbl/co64")!))
        let box = try #require(try AtomInspector(tree: tree).decode(AtomDecodingContext(atom: atom, parent: "stbl")) as? ChunkOffsetBox)
        let mdat = try #require(tree.atoms.first { $0.type == "mdat" })
        #expect(box.is64Bit)
        #expect(box.offsets.allSatisfy { $0 >= mdat.payloadOffset && $0 < mdat.endOffset })
    }
}

@Suite struct FixtureBoxWalkTests {
    /// `Fixtures/box-walk.txt` is written by `Tools/make-fixtures.sh` with its own Python box
    /// walker: every box it lists must be an atom here at the same offset and depth, with the
    /// same type, header and total size; and every atom here must be in the walk.
    @Test func offsetsAndSizesAgreeWithTheGeneratorsBoxWalk() throws {
        let text = try String(decoding: TemporaryFile.read(TestFixtures.path("box-walk.txt")), as: UTF8.self)
        var file: String?
        var atoms: [String: Atom] = [:]
        var checked = 0
        for line in text.split(separator: "\n") {
            if !line.hasPrefix(" "), !line.contains("["), let colon = line.firstIndex(of: ":") {
                if !atoms.isEmpty { Issue.record("\(file ?? "?"): the walk does not list \(atoms.values.map { "\($0.type)@\($0.offset)" })") }
                file = String(line[..<colon])
                let tree = try AtomTree(contentsOf: TestFixtures.path(file!))
                atoms = [:]
                tree.walk { atom, _, depth in
                    atoms["\(atom.offset)/\(depth)"] = atom
                    // The generator's walker does not descend into `iref` (its children are
                    // item references, checked by the parser tests).
                    return atom.type != "iref"
                }
                continue
            }
            let depth = line.prefix { $0 == " " }.count / 2
            guard let open = line.firstIndex(of: "["), let close = line[open...].firstIndex(of: "]") else { continue }
            let inside = line[line.index(after: open)..<close]  // "8+20 @0"
            let parts = inside.split(whereSeparator: { $0 == "+" || $0 == " " || $0 == "@" })
            guard parts.count == 3, let header = Int(parts[0]), let payload = UInt64(parts[1]), let offset = UInt64(parts[2]) else {
                Issue.record("unreadable walk line: \(line)")
                continue
            }
            guard let atom = atoms.removeValue(forKey: "\(offset)/\(depth)") else {
                Issue.record("\(file ?? "?"): the walk has a box at \(offset) at depth \(depth), the parser has none")
                continue
            }
            let type = line.drop { $0 == " " }.prefix { $0 != " " && $0 != "[" }
            #expect(atom.type.isPrintable ? atom.type.description.hasPrefix(String(type)) : true, "\(file ?? "?") @\(offset): \(atom.type) vs \(type)")
            #expect(atom.headerSize == header, "\(file ?? "?") @\(offset)")
            #expect(atom.size == UInt64(header) + payload, "\(file ?? "?") @\(offset)")
            checked += 1
        }
        if !atoms.isEmpty { Issue.record("\(file ?? "?"): the walk does not list \(atoms.values.map { "\($0.type)@\($0.offset)" })") }
        #expect(checked > 900)
    }
}
