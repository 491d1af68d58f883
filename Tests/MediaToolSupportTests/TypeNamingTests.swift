import MediaBytes
import MediaToolSupport
import TestSupport
import Testing

/// One name for a type everywhere: a type of control bytes is `%00%00%00%01` in the tree, the
/// browser, its path, `--path`, JSON and the HTML page (before 2026-11-29 the tree said `0x00000001`,
/// the path `%00%00%00%01`, and `--path 0x00000001` found nothing; that form is still taken).
@Suite struct TypeNamingTests {
    @Test func aControlByteTypeHasOneName() throws {
        let odd = FourCC(0, 0, 0, 1)
        let bytes = AtomBuilder.ftyp() + AtomBuilder.atom("moov", AtomBuilder.atom("udta", AtomBuilder.atom(odd, [1, 2, 3, 4])))
        let file = try FileInspection.open(try TemporaryFile.write(bytes, name: "odd.m4a"))
        let node = try #require(file.node(at: "moov/udta/%00%00%00%01"))
        #expect(node.path == "moov/udta/%00%00%00%01")
        #expect(node.displayType == "%00%00%00%01")
        #expect(file.node(at: "moov/udta/0x00000001")?.offset == node.offset)
        let tree = InspectionRendering.text(file.nodes)
        #expect(tree.contains("%00%00%00%01 @"), "\(tree)")
        #expect(!tree.contains("0x00000001"))
        // JSON names it so too (it gave the raw bytes, "\u0000\u0000\u0000\u0001").
        let json = InspectionRendering.json(node).serialized(pretty: false)
        #expect(json.hasPrefix(#"{"type":"%00%00%00%01","#), "\(json)")
        let other = try FileInspection.open(try TemporaryFile.write(AtomBuilder.ftyp() + AtomBuilder.atom("moov", AtomBuilder.atom("udta", [])), name: "plain.m4a"))
        let diff = InspectionDiff(file, other).json(a: "odd.m4a", b: "plain.m4a").serialized(pretty: false)
        #expect(diff.contains(#""path":"moov/udta/%00%00%00%01","type":"%00%00%00%01""#), "\(diff)")
    }
}

/// A part named in paths otherwise than by its type is found by that name: a Vorbis comment
/// field stored as `title` has the path `VORBIS_COMMENT/TITLE`, and that path finds it (before
/// 2026-11-29 only `title`, which is not its path, did).
@Suite struct PathNameTests {
    @Test func aVorbisFieldIsFoundByItsPath() throws {
        let file = try FileInspection.open(TestFixtures.path("flac-tags-picture.flac"))
        let node = try #require(file.node(at: "VORBIS_COMMENT/TITLE"))
        #expect(node.type == "title")
        #expect(node.path == "VORBIS_COMMENT/TITLE")
        #expect(node.details.summary == "\"FLAC Title\"")
    }
}

/// The comparison matches a node with the node of its type at the same index among its
/// siblings: a file's only `free` is `free` in its path and the first of two is `free[0]`, and
/// they are one node (before 2026-11-29 a second `free` added at the end showed as the first
/// removed and two added).
@Suite struct SiblingMatchingTests {
    @Test func aSecondBoxOfATypeIsOneAddition() throws {
        let head = AtomBuilder.ftyp() + AtomBuilder.atom("moov", AtomBuilder.atom("udta", [])) + AtomBuilder.atom("free", [0, 0])
        let a = try FileInspection.open(try TemporaryFile.write(head, name: "a.m4a"))
        let b = try FileInspection.open(try TemporaryFile.write(head + AtomBuilder.atom("free", [1]), name: "b.m4a"))
        let diff = InspectionDiff(a, b)
        #expect(diff.lines == ["+ free[1] @\(head.count) size 9"])
        #expect(InspectionDiff.counterpart(of: "free", in: a, b)?.node.path == "free[0]")
        #expect(InspectionDiff.counterpart(of: "moov/udta", in: a, b)?.exact == true)
    }
}
