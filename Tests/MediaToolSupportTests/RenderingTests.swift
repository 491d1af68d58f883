import ISOBMFF
import MediaBytes
import MediaToolSupport
import TestSupport
import Testing

@Suite struct JSONValueTests {
    @Test func keepsKeyOrderAndEscapes() {
        let value = JSONValue.object([("b", .int(-1)), ("a", .string("q\"\\\n\u{1}©")), ("c", .array([.bool(true), .null]))])
        #expect(value.serialized(pretty: false) == #"{"b":-1,"a":"q\"\\\n\u0001©","c":[true,null]}"#)
    }

    @Test func prettyPrintsWithTwoSpaces() {
        let value = JSONValue.object([("a", .array([.uint(1)])), ("e", .object([]))])
        #expect(value.serialized() == "{\n  \"a\": [\n    1\n  ],\n  \"e\": {}\n}")
    }

    @Test func wholeDoublesPrintAsIntegers() {
        #expect(JSONValue.double(2).serialized() == "2")
        #expect(JSONValue.double(1.5).serialized() == "1.5")
        #expect(JSONValue.double(.nan).serialized() == "null")
    }
}

@Suite struct HexDumpTests {
    @Test func fullAndPartialRowsAlign() {
        let lines = HexDump.lines(Array(0x41..<0x55), startingAt: 0x10)
        #expect(lines.count == 2)
        #expect(lines[0] == "00000010  41 42 43 44 45 46 47 48  49 4a 4b 4c 4d 4e 4f 50  |ABCDEFGHIJKLMNOP|")
        #expect(lines[1].hasPrefix("00000020  51 52 53 54 "))
        #expect(lines[1].firstIndex(of: "|").map { lines[1].distance(from: lines[1].startIndex, to: $0) } == 60)
    }
}

@Suite struct AtomTreeRenderingTests {
    func tree() throws -> AtomTree {
        var bytes = AtomBuilder.ftyp()
        bytes += AtomBuilder.atom64("mdat", [1, 2, 3])
        bytes += AtomBuilder.rawAtom(size: 100, "free", [0])
        return try AtomTree(source: MemoryByteSource(bytes))
    }

    @Test func textLinesShowHeaderFormsAndTruncation() throws {
        let tree = try tree()
        let text = AtomTreeRendering.text(AtomInspector(tree: tree).inspect().atoms)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0] == "ftyp @0 size=24  major=M4A  minor=0 compatible=M4A ,isom")
        #expect(lines[1] == "mdat @24 size=19 (64-bit size)")
        #expect(lines[2] == "free @43 size=9 (declares 100: truncated)")
    }

    @Test func diagnosticLineNamesPlaceAndOffset() throws {
        let tree = try tree()
        let line = AtomTreeRendering.line(try #require(tree.diagnostics.first))
        #expect(line.hasPrefix("warning: free at offset 43: atom 'free' declares 100 bytes"))
    }

    @Test func jsonAtomHasThePinnedKeysInOrder() throws {
        let tree = try tree()
        let atoms = AtomInspector(tree: tree).inspect().atoms
        let document = AtomTreeRendering.json(path: "x.mp4", format: nil, fileSize: tree.fileSize, atoms: atoms, diagnostics: tree.diagnostics)
        guard case .object(let top) = document else { Issue.record("not an object"); return }
        #expect(top.map(\.0) == ["path", "format", "fileSize", "atoms", "diagnostics"])
        guard case .array(let list) = document["atoms"]!, case .object(let mdat) = list[1] else { Issue.record("no atoms"); return }
        #expect(mdat.map(\.0) == ["type", "offset", "size", "headerSize", "path", "sizeForm", "fields", "children"])
        #expect(list[1]["headerSize"] == JSONValue.int(16))
        guard case .array(let diagnostics) = document["diagnostics"]!, case .object(let first) = diagnostics[0] else { Issue.record("no diagnostics"); return }
        #expect(first.map(\.0) == ["severity", "offset", "path", "message"])
    }
}
