import MediaBytes
import MediaToolSupport
import TestSupport
import Testing

/// One name for a type everywhere: a type of control bytes is `%00%00%00%01` in the tree, the
/// browser, its path, `--path` and the HTML page (before 2026-11-29 the tree said `0x00000001`,
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
