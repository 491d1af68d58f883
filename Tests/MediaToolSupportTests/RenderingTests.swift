import Foundation
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

    /// Every byte value that needs an escape, at every position of a word-at-a-time scan and
    /// next to multi-byte characters, comes out as a plain per-character writer escapes it.
    @Test func escapesEveryCharacterWhereverItFallsInALongString() {
        func reference(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                    out += "\\u00" + String(scalar.value >> 4, radix: 16) + String(scalar.value & 0xF, radix: 16)
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        let specials = (0..<0x20).map { Unicode.Scalar(UInt8($0)) } + ["\"", "\\", "\u{7F}", "é", "✓", "\u{1F3B5}", " ", "~"]
        for special in specials {
            for position in 0..<20 {
                var scalars = String.UnicodeScalarView(Array(repeating: "a", count: 23))
                scalars.replaceSubrange(scalars.index(scalars.startIndex, offsetBy: position)..<scalars.index(scalars.startIndex, offsetBy: position + 1), with: [special])
                let text = String(scalars)
                #expect(JSONValue.string(text).serialized() == reference(text), "U+\(String(special.value, radix: 16)) at \(position)")
            }
        }
        let long = Base64.encode((0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        #expect(JSONValue.string(long).serialized() == "\"" + long + "\"")
    }

    @Test func base64MatchesTheRFCVectorsAndDecodesBack() {
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors {
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
            #expect(Base64.encode(plain.utf8) == encoded)
            #expect(Base64.decode(encoded) == Array(plain.utf8))
        }
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 131) }
        for count in [997, 998, 999, 1000] {
            #expect(Base64.decode(Base64.encode(bytes[..<count])) == Array(bytes[..<count]))
        }
    }

    /// The encoder's six-bytes-at-a-time loop and its tail agree with Foundation's encoder for
    /// every length up to 100 and for a cover-sized input, every byte value in every position.
    @Test func base64MatchesFoundationAtEveryLength() {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<40_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let ramp = (0..<768).map { UInt8(truncatingIfNeeded: $0 / 3) }  // each value at each of the three positions
        for input in [random, ramp] {
            for count in Array(0...100) + [765, 766, 767, 768, 32_771, 40_000] where count <= input.count {
                let slice = input[..<count]
                #expect(Base64.encode(slice) == Data(slice).base64EncodedString(), "\(count) bytes")
                var appended: [UInt8] = [1, 2]
                Base64.append(slice, to: &appended)
                #expect(appended == [1, 2] + Array(Data(slice).base64EncodedString().utf8), "\(count) bytes appended")
            }
        }
    }

    /// A `base64` value writes, compares and reads as the `string` of its Base64 text, for every
    /// length of the last group and after other bytes in the buffer; `Base64.append` writes the
    /// same characters as `Base64.encode`.
    @Test func base64ValuesAreTheStringsOfTheirEncoding() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }
        for count in [0, 1, 2, 3, 4, 5, 997, 998, 999, 1000] {
            let data = Array(bytes[..<count])
            let text = Base64.encode(data)
            var out: [UInt8] = Array("prefix".utf8)
            Base64.append(data, to: &out)
            #expect(out == Array("prefix".utf8) + Array(text.utf8))
            var sliced: [UInt8] = []
            Base64.append(bytes[..<count], to: &sliced)
            #expect(sliced == Array(text.utf8))
            var mapped: [UInt8] = []
            Base64.append(data.lazy.map { $0 }, to: &mapped)  // no contiguous storage
            #expect(mapped == Array(text.utf8))
            let document = JSONValue.object([("data", .base64(data)), ("n", .int(1))])
            #expect(document.serialized() == JSONValue.object([("data", .string(text)), ("n", .int(1))]).serialized())
            #expect(document.serialized(pretty: false) == #"{"data":"\#(text)","n":1}"#)
            #expect(JSONValue.base64(data) == .string(text) && JSONValue.string(text) == .base64(data))
            #expect(JSONValue.base64(data) != .string(text + "A"))
            #expect(JSONValue.base64(data).stringValue == text)
        }
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
        #expect(lines[0] == "        16  41 42 43 44 45 46 47 48  49 4a 4b 4c 4d 4e 4f 50  |ABCDEFGHIJKLMNOP|")
        #expect(lines[1].hasPrefix("        32  51 52 53 54 "))
        #expect(lines[1].firstIndex(of: "|").map { lines[1].distance(from: lines[1].startIndex, to: $0) } == 62)
    }
}

@Suite struct InspectionRenderingTests {
    func nodes() throws -> (AtomTree, [InspectionNode]) {
        var bytes = AtomBuilder.ftyp()
        bytes += AtomBuilder.atom64("mdat", [1, 2, 3])
        bytes += AtomBuilder.rawAtom(size: 100, "free", [0])
        let tree = try AtomTree(source: MemoryByteSource(bytes))
        return (tree, InspectionNode.atoms(of: tree))
    }

    @Test func textLinesShowHeaderFormsAndTruncation() throws {
        let (_, nodes) = try nodes()
        let lines = InspectionRendering.text(nodes).split(separator: "\n").map(String.init)
        #expect(lines[0] == "ftyp @0 size=24  major=M4A  minor=0 compatible=M4A ,isom")
        #expect(lines[1] == "mdat @24 size=19 (64-bit size)")
        #expect(lines[2] == "free @43 size=9 (declares 100: truncated)")
    }

    @Test func diagnosticLineNamesPlaceAndOffset() throws {
        let (tree, _) = try nodes()
        let line = try #require(tree.diagnostics.first).description
        #expect(line.hasPrefix("warning: at byte offset 43 (free): atom 'free' declares 100 bytes"))
    }

    @Test func jsonNodeHasThePinnedKeysInOrder() throws {
        let (tree, nodes) = try nodes()
        let document = InspectionRendering.json(path: "x.mp4", format: nil, fileSize: tree.fileSize, nodes: nodes,
                                                diagnostics: tree.diagnostics)
        guard case .object(let top) = document else { Issue.record("not an object"); return }
        #expect(top.map(\.0) == ["path", "format", "fileSize", "atoms", "diagnostics"])
        guard case .array(let list) = document["atoms"]!, case .object(let mdat) = list[1] else { Issue.record("no atoms"); return }
        #expect(mdat.map(\.0) == ["type", "offset", "size", "headerSize", "path", "sizeForm", "fields", "children"])
        #expect(list[1]["headerSize"] == JSONValue.int(16))
        guard case .array(let diagnostics) = document["diagnostics"]!, case .object(let first) = diagnostics[0] else { Issue.record("no diagnostics"); return }
        #expect(first.map(\.0) == ["severity", "code", "offset", "path", "message"])
    }

    @Test func streamedJSONIsTheSameDocument() throws {
        let (tree, nodes) = try nodes()
        let diagnostics = tree.diagnostics
        var streamed = ""
        InspectionRendering.writeJSON(path: "x.mp4", format: "mp4", fileSize: tree.fileSize, nodes: nodes, diagnostics: diagnostics) { streamed += $0 }
        let whole = InspectionRendering.json(path: "x.mp4", format: "mp4", fileSize: tree.fileSize, nodes: nodes, diagnostics: diagnostics)
        #expect(streamed == whole.serialized() + "\n")
        var empty = ""
        InspectionRendering.writeJSON(path: "e", format: nil, fileSize: 0, nodes: [], diagnostics: []) { empty += $0 }
        #expect(empty == InspectionRendering.json(path: "e", format: nil, fileSize: 0, nodes: [], diagnostics: []).serialized() + "\n")
    }

    @Test func depthLimitCutsChildren() {
        let leaf = InspectionNode(kind: .atom, type: "b", offset: 8, size: 8, headerSize: 8, path: "a/b")
        let root = InspectionNode(kind: .atom, type: "a", offset: 0, size: 16, headerSize: 8, path: "a", children: [leaf])
        #expect(InspectionRendering.text([root], maxDepth: 1) == "a @0 size=16\n")
        #expect(InspectionRendering.text([root], maxDepth: 2) == "a @0 size=16\n  b @8 size=8\n")
        guard case .array(let children) = InspectionRendering.json(root, maxDepth: 1)["children"]! else { Issue.record("no children"); return }
        #expect(children.isEmpty)
    }
}

@Suite struct InspectionPathTests {
    @Test func parsesIndexesAndEscapes() throws {
        let components = try #require(InspectionPath.parse("moov/trak[1]/%A9nam"))
        #expect(components.map(\.type) == ["moov", "trak", "©nam"])
        #expect(components.map(\.index) == [0, 1, 0])
        #expect(InspectionPath.parse("moov/trak[x]") == nil)
        #expect(InspectionPath.escape("\u{0}\u{0}\u{0}\u{1}") == "%00%00%00%01")
    }

    @Test func findsNodesByTypeAndIndex() {
        let frames = ["TXXX", "TIT2", "TXXX"].enumerated().map { InspectionNode(kind: .frame, type: $1, offset: UInt64($0), size: 1, headerSize: 0, path: "") }
        let tag = InspectionNode(kind: .tag, type: "ID3v2", offset: 0, size: 3, headerSize: 10, path: "ID3v2", children: frames)
        #expect(InspectionPath.find(InspectionPath.parse("ID3v2/TXXX[1]")!, in: [tag])?.offset == 2)
        #expect(InspectionPath.find(InspectionPath.parse("ID3v2/TXXX")!, in: [tag])?.offset == 0)
        #expect(InspectionPath.find(InspectionPath.parse("ID3v2/TXXX[2]")!, in: [tag]) == nil)
    }
}

@Suite struct ID3InspectionTests {
    @Test func mp3FileShowsTagsStreamAndID3v1() throws {
        let file = try FileInspection.open(TestFixtures.path("id3v24-full.mp3"))
        #expect(file.format?.rawValue == "mp3")
        #expect(file.nodes.map(\.type) == ["ID3v2", "mpeg", "ID3v1"])
        let tag = file.nodes[0]
        #expect(tag.children.first?.type == "TIT2")
        #expect(tag.children.first?.path == "ID3v2/TIT2")
        #expect(file.node(at: "ID3v2/APIC[1]")?.details.summary.hasPrefix("front cover image/jpeg") == true)
        #expect(file.node(at: "ID3v2/CHAP[1]/TIT2")?.details.summary == "\"Chapter 2\"")
        #expect(file.findings().isEmpty)
    }

    @Test func wavShowsChunksWithTheTagInside() throws {
        let file = try FileInspection.open(TestFixtures.path("wav-id3-info.wav"))
        #expect(file.nodes.first?.type == "RIFF")
        #expect(file.node(at: "RIFF/LIST/INAM")?.details.summary == "\"WAV INFO Title\"")
        #expect(file.node(at: "RIFF/id3 /ID3v2/TIT2")?.details.summary == "\"WAV ID3 Title\"")
    }

    @Test func strictModeRefusesAnomalies() throws {
        var bytes = ID3Builder.tag(frames: [ID3Builder.frame("TIT2", ID3Builder.text(["x"])), [0, 0, 7, 0]])
        bytes += ID3Builder.mp3Frame() + ID3Builder.mp3Frame()
        let path = try TemporaryFile.write(bytes, name: "junk-padding.mp3")
        #expect(throws: InspectionFailure.self) { try FileInspection.open(path, strict: true) }
        #expect(try FileInspection.open(path).findings().count == 1)
    }
}

@Suite struct PictureDigestTests {
    @Test func matchesTheFIPSVectors() {
        #expect(PictureDigest.sha256Hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(PictureDigest.sha256Hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(PictureDigest.sha256Hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(PictureDigest.sha256Hex([UInt8](repeating: 0x61, count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Every length across the padding's edges (55, 56, 63, 64 bytes and their multiples) and
    /// some long ones, each fed whole and in random pieces, agree with coreutils' sha256sum.
    @Test func agreesWithSha256sumAtEveryLengthAndInPieces() throws {
        var random = SplitMix64(seed: 0x5A256)
        let lengths = Array(0...300) + [1_000, 4_095, 4_096, 65_599, 1 << 20, (1 << 20) + 7]
        let folder = NSTemporaryDirectory() + "sha-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var ours: [String] = []
        for (index, length) in lengths.enumerated() {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            try Data(bytes).write(to: URL(fileURLWithPath: "\(folder)/\(index)"))
            let whole = PictureDigest.sha256Hex(bytes)
            var pieces = SHA256()
            var start = 0
            while start < length {
                let end = min(length, start + Int.random(in: 1...130, using: &random))
                bytes[start..<end].withUnsafeBytes { pieces.update($0) }
                start = end
            }
            #expect(pieces.finalize() == Self.bytes(ofHex: whole), "length \(length)")
            ours.append(whole)
        }
        let result = try ChildProcess.run("/usr/bin/sha256sum", lengths.indices.map { "\(folder)/\($0)" })
        let theirs = String(decoding: result.standardOutput, as: UTF8.self).split(separator: "\n").map { String($0.prefix(64)) }
        #expect(result.status == 0)
        #expect(theirs == ours)
    }

    private static func bytes(ofHex hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)! }
    }
}
