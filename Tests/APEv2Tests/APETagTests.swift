import Foundation
import APEv2
import MediaBytes
import TestSupport
import Testing

/// APE tags built in code, byte by byte, as the APEv2 specification lays them out.
enum APEBuilder {
    static func le(_ value: UInt32) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)] }

    static func item(_ key: String, _ value: [UInt8], flags: UInt32 = 0) -> [UInt8] {
        le(UInt32(value.count)) + le(flags) + Array(key.utf8) + [0] + value
    }

    static func boundary(version: UInt32, size: UInt32, count: UInt32, flags: UInt32) -> [UInt8] {
        Array("APETAGEX".utf8) + le(version) + le(size) + le(count) + le(flags) + [UInt8](repeating: 0, count: 8)
    }

    /// A whole tag: header (v2 unless `header` is false), items, footer.
    static func tag(_ items: [[UInt8]], version: UInt32 = 2000, header: Bool = true, count: UInt32? = nil, size: UInt32? = nil) -> [UInt8] {
        let body = items.flatMap { $0 }
        let size = size ?? UInt32(body.count + 32)
        let count = count ?? UInt32(items.count)
        let flags: UInt32 = header ? 0x8000_0000 : 0
        return (header ? boundary(version: version, size: size, count: count, flags: flags | 0x2000_0000) : []) + body
            + boundary(version: version, size: size, count: count, flags: flags)
    }
}

@Suite struct APETagTests {
    @Test func aV2TagWithHeaderReadsItsItems() throws {
        let bytes = APEBuilder.tag([APEBuilder.item("Title", Array("Song".utf8)), APEBuilder.item("Artist", Array("A\0B".utf8))])
        let tag = try APETag(parsing: bytes)
        #expect(tag.version == 2000)
        #expect(tag.hasHeader)
        #expect(tag.items.map(\.key) == ["Title", "Artist"])
        #expect(tag.values("TITLE") == ["Song"])
        #expect(tag.values("artist") == ["A", "B"])
        #expect(tag.items.first?.offset == 32)
        #expect(tag.diagnostics.isEmpty)
    }

    @Test func aTagReadsBackToTheSameBytes() throws {
        let cover = [UInt8](Array("cover.jpg".utf8)) + [0, 0xFF, 0xD8, 0xFF, 0xE0]
        for bytes in [
            APEBuilder.tag([APEBuilder.item("Title", Array("Song".utf8)), APEBuilder.item("Cover Art (Front)", cover, flags: 2),
                            APEBuilder.item("Link", Array("https://example.org".utf8), flags: 4 | 1)]),
            APEBuilder.tag([APEBuilder.item("Title", Array("v2 no header".utf8))], header: false),
            APEBuilder.tag([APEBuilder.item("TITLE", Array("v1".utf8))], version: 1000, header: false),
        ] {
            let tag = try APETag(parsing: bytes)
            #expect(tag.diagnostics.isEmpty)
            #expect(tag.serialized() == bytes)
        }
    }

    @Test func itemKindsAndFlagsAreRead() throws {
        let cover = [UInt8](Array("cover.jpg".utf8)) + [0, 0xFF, 0xD8, 0xFF, 0xE0]
        let tag = try APETag(parsing: APEBuilder.tag([APEBuilder.item("Cover Art (Front)", cover, flags: 2),
                                                      APEBuilder.item("Link", Array("https://example.org".utf8), flags: 4 | 1)]))
        #expect(tag.items[0].kind == .binary)
        #expect(tag.items[0].texts == nil)
        #expect(tag.items[0].coverArt?.description == "cover.jpg")
        #expect(tag.items[0].coverArt?.data == [0xFF, 0xD8, 0xFF, 0xE0])
        #expect(tag.items[1].kind == .externalLocator)
        #expect(tag.items[1].isReadOnly)
        #expect(tag.items[1].texts == ["https://example.org"])
    }

    @Test func aNewTagIsWrittenWithHeaderAndFooter() throws {
        let tag = APETag(items: [.text("Title", ["New"]), .binary("Data", [1, 2, 3])])
        let bytes = tag.serialized()
        #expect(bytes.prefix(8).elementsEqual(Array("APETAGEX".utf8)))
        let reread = try APETag(parsing: bytes)
        #expect(reread.items == tag.items.map { item in var copy = item; copy.offset = reread.items.first { $0.key == item.key }?.offset; return copy })
        #expect(reread.values("Title") == ["New"])
    }

    @Test func aTagIsFoundByItsFooterAtTheEndOfAFile() throws {
        let tag = APEBuilder.tag([APEBuilder.item("Title", Array("End".utf8))])
        let file = [UInt8](repeating: 0x55, count: 100) + tag + Array("TAG".utf8) + [UInt8](repeating: 0, count: 125)
        let source = MemoryByteSource(file)
        let found = try #require(try APETag.read(from: source, endingAt: UInt64(file.count - 128)))
        #expect(found.range == 100..<UInt64(100 + tag.count))
        #expect(found.tag.values("title") == ["End"])
        #expect(found.tag.items.first?.offset == 132)
        #expect(try APETag.read(from: source, endingAt: UInt64(file.count)) == nil)
    }

    @Test func hostileCountsAndSizesStopAtTheTag() throws {
        // A footer claiming 2^31 items in a tag holding one.
        var tag = try APETag(parsing: APEBuilder.tag([APEBuilder.item("Title", Array("x".utf8))], count: 0x8000_0000))
        #expect(tag.items.count == 1)
        #expect(!tag.diagnostics.isEmpty)
        // A value size past the end of the tag.
        tag = try APETag(parsing: APEBuilder.tag([APEBuilder.le(0x7FFF_FFFF) + APEBuilder.le(0) + Array("Title".utf8) + [0] + Array("x".utf8)]))
        #expect(tag.items.isEmpty)
        #expect(tag.diagnostics.first?.message.contains("declares") == true)
        // A key without its NUL.
        tag = try APETag(parsing: APEBuilder.tag([APEBuilder.le(1) + APEBuilder.le(0) + Array("Title".utf8)]))
        #expect(tag.items.isEmpty)
        #expect(!tag.diagnostics.isEmpty)
        // A key of control characters.
        tag = try APETag(parsing: APEBuilder.tag([APEBuilder.item("\u{1}\u{2}", [1])]))
        #expect(tag.items.isEmpty)
    }

    @Test func aFooterClaimingMoreThanTheFileIsAnError() throws {
        let tag = APEBuilder.tag([APEBuilder.item("Title", Array("x".utf8))], size: 1 << 30)
        let source = MemoryByteSource([UInt8](repeating: 0, count: 10) + tag)
        #expect(throws: APEError(.malformed)) { try APETag.read(from: source, endingAt: source.size) }
        let tiny = APEBuilder.tag([], size: 8)
        #expect(throws: APEError(.malformed)) { try APETag.read(from: MemoryByteSource(tiny), endingAt: UInt64(tiny.count)) }
    }

    @Test func invalidKeysAreRecognised() {
        #expect(APEItem.isValidKey("Title"))
        #expect(!APEItem.isValidKey("T"))
        #expect(!APEItem.isValidKey("ID3"))
        #expect(!APEItem.isValidKey("oggs"))
        #expect(!APEItem.isValidKey(String(repeating: "a", count: 256)))
    }
}

/// mutagen (Debian's python3-mutagen, installed by `.ci/run`) writes APE tags that read here,
/// and reads the tags written here.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/mutagen") || ProcessInfo.processInfo.environment["CI"] != nil,
                "python3-mutagen is not installed (.ci/run installs it)"))
struct APEMutagenCrossCheckTests {
    @Test func whatMutagenWritesReadsHere() async throws {
        let path = try TemporaryFile.write([UInt8](repeating: 0x55, count: 64), name: "m.bin")
        let script = "from mutagen.apev2 import APEv2; import sys; t = APEv2(); t['Title'] = 'x'; t['Artist'] = ['a', 'b']; t.save(sys.argv[1])"
        let result = try await ToolRunner.runProgram("/usr/bin/python3", ["-c", script, path])
        #expect(result.status == 0, "\(result.standardError)")
        let source = try FileByteSource(path: path)
        let found = try #require(try APETag.read(from: source, endingAt: source.size))
        #expect(found.range.lowerBound == 64)
        #expect(found.tag.values("title") == ["x"])
        #expect(found.tag.values("artist") == ["a", "b"])
        #expect(found.tag.diagnostics.isEmpty)
        // Unchanged, the tag serializes to the bytes mutagen wrote.
        #expect(found.tag.serialized() == Array(try TemporaryFile.read(path).dropFirst(64)))
    }

    @Test func whatIsWrittenHereReadsInMutagen() async throws {
        let tag = APETag(items: [.text("Title", ["Über"]), .text("Artist", ["a", "b"]), .binary("Blob", [0, 1, 2])])
        let path = try TemporaryFile.write([UInt8](repeating: 0x55, count: 64) + tag.serialized(), name: "w.bin")
        let script = "from mutagen.apev2 import APEv2; import sys, json; t = APEv2(sys.argv[1]); print(json.dumps({k: (list(v) if v.kind == 0 else len(v.value)) for k, v in t.items()}))"
        let result = try await ToolRunner.runProgram("/usr/bin/python3", ["-c", script, path])
        #expect(result.status == 0, "\(result.standardError)")
        let read = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(read["Title"] as? [String] == ["Über"])
        #expect(read["Artist"] as? [String] == ["a", "b"])
        #expect(read["Blob"] as? Int == 3)
    }
}
