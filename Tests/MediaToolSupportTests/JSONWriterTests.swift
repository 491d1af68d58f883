import Foundation
import MediaBytes
@testable import MediaToolSupport
import MediaMetadata
import TestSupport
import Testing

@Suite struct JSONWriterTests {
    /// The layout, written call by call: members and elements one a line, two spaces a level,
    /// empty containers as `[]` and `{}`, a space after colons; compact without any of it.
    @Test func writesThePrettyAndTheCompactLayout() {
        func write(_ writer: inout JSONWriter) {
            writer.beginObject()
            writer.key("a")
            writer.beginArray()
            writer.int(1)
            writer.beginObject()
            writer.endObject()
            writer.beginArray()
            writer.endArray()
            writer.endArray()
            writer.key(string: "b\n")
            writer.beginObject()
            writer.key("c")
            writer.string(nil as String?)
            writer.key("d")
            writer.int(nil as Int?)
            writer.endObject()
            writer.endObject()
        }
        var pretty = JSONWriter(indentLevel: 0)
        write(&pretty)
        #expect(String(decoding: pretty.bytes, as: UTF8.self) == """
            {
              "a": [
                1,
                {},
                []
              ],
              "b\\n": {
                "c": null,
                "d": null
              }
            }
            """)
        var compact = JSONWriter(indentLevel: nil)
        write(&compact)
        #expect(String(decoding: compact.bytes, as: UTF8.self) == #"{"a":[1,{},[]],"b\n":{"c":null,"d":null}}"#)
        // Indented as if two levels deep (an element of a streamed array at level 1 is written so).
        var nested = JSONWriter(indentLevel: 2)
        nested.beginArray()
        nested.string("x")
        nested.endArray()
        #expect(String(decoding: nested.bytes, as: UTF8.self) == "[\n      \"x\"\n    ]")
    }

    /// Every kind of value written call by call comes out as the same `JSONValue` serializes
    /// (pretty at two levels, and compact).
    @Test func callByCallEqualsTheValue() {
        let bytes = (0..<100).map { UInt8($0) }
        let value = JSONValue.object([
            ("s", .string("q\"\\\u{1}é")), ("i", .int(-42)), ("u", .uint(.max)), ("d", .double(0.125)), ("whole", .double(3)),
            ("inf", .double(.infinity)), ("t", .bool(true)), ("f", .bool(false)), ("n", .null), ("b", .base64(bytes)),
            ("list", .array([.string("a"), .string("b")])), ("empty", .object([])),
        ])
        for indent in [0, 1, nil] as [Int?] {
            var writer = JSONWriter(indentLevel: indent, capacity: 1)
            writer.beginObject()
            writer.key("s"); writer.string("q\"\\\u{1}é")
            writer.key("i"); writer.int(-42)
            writer.key("u"); writer.uint(.max)
            writer.key("d"); writer.double(0.125)
            writer.key("whole"); writer.double(3)
            writer.key("inf"); writer.double(.infinity)
            writer.key("t"); writer.bool(true)
            writer.key("f"); writer.bool(false)
            writer.key("n"); writer.null()
            writer.key("b"); writer.base64(bytes)
            writer.key("list"); writer.strings(["a", "b"])
            writer.key("empty"); writer.beginObject(); writer.endObject()
            writer.endObject()
            #expect(writer.bytes == Array(value.serialized(indentLevel: indent).utf8), "indent \(String(describing: indent))")
        }
    }

    /// Past the 64 levels whose state is kept in bits, each container still knows whether it
    /// has members when its child closes (the comma before the next element).
    @Test func keepsTheStateOfContainersNestedBeyondSixtyFourLevels() {
        var writer = JSONWriter(indentLevel: nil)
        for _ in 0..<100 { writer.beginArray() }
        writer.int(0)
        for level in (0..<100).reversed() {
            writer.endArray()
            if level > 0 { writer.int(level) }
        }
        var expected = String(repeating: "[", count: 100) + "0"
        for level in (0..<100).reversed() { expected += level > 0 ? "],\(level)" : "]" }
        #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
        // Pretty, 70 objects deep around an empty array: each level indented by its depth.
        var deep = JSONWriter(indentLevel: 0)
        for _ in 0..<70 { deep.beginObject(); deep.key("k") }
        deep.beginArray()
        deep.endArray()
        for _ in 0..<70 { deep.endObject() }
        var pretty = ""
        for level in 0..<70 { pretty += "{\n" + String(repeating: "  ", count: level + 1) + "\"k\": " }
        pretty += "[]"
        for level in (0..<70).reversed() { pretty += "\n" + String(repeating: "  ", count: level) + "}" }
        #expect(deep.withBytes { String(decoding: $0, as: UTF8.self) } == pretty)
    }

    /// Strings and keys are written as JSON escapes them, byte for byte: every ASCII byte at
    /// every position of strings of 1 to 17 bytes (whole eight-byte words and the bytes after
    /// them), and text beyond ASCII, against a reference that escapes one character at a time.
    @Test func escapesEveryByteWhereverItStands() {
        func reference(_ text: String) -> String {
            var out: [UInt8] = [0x22]
            for byte in text.utf8 {
                switch byte {
                case 0x22: out += Array("\\\"".utf8)
                case 0x5C: out += Array("\\\\".utf8)
                case 0x0A: out += Array("\\n".utf8)
                case 0x0D: out += Array("\\r".utf8)
                case 0x09: out += Array("\\t".utf8)
                case 0..<0x20, 0x7F: out += Array(("\\u00" + String(byte, radix: 16).leftPadded(to: 2)).utf8)
                default: out.append(byte)
                }
            }
            return String(decoding: out + [0x22], as: UTF8.self)
        }
        var texts = ["", "é", "日本語のタイトル", "Beyoncé – Déjà Vu", "©nam", "emoji 🎵 here \u{1}"]
        for length in 1...17 {
            for position in 0..<length {
                for byte in UInt8(0)...UInt8(0x7F) {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes[position] = byte
                    texts.append(String(decoding: bytes, as: UTF8.self))
                }
            }
        }
        for text in texts {
            var writer = JSONWriter(indentLevel: nil)
            writer.string(text)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == reference(text), "\(Array(text.utf8))")
        }
        // Literal keys as they are, in both layouts, after the members before them.
        var pretty = JSONWriter(indentLevel: 1)
        pretty.beginObject()
        pretty.key("first"); pretty.int(1)
        pretty.key("x"); pretty.beginObject(); pretty.key("inner"); pretty.null(); pretty.endObject()
        pretty.endObject()
        #expect(String(decoding: pretty.bytes, as: UTF8.self) == "{\n    \"first\": 1,\n    \"x\": {\n      \"inner\": null\n    }\n  }")
        var compact = JSONWriter(indentLevel: nil)
        compact.beginObject()
        compact.key("first"); compact.int(1)
        compact.key("x"); compact.string("y")
        compact.endObject()
        #expect(String(decoding: compact.bytes, as: UTF8.self) == "{\"first\":1,\"x\":\"y\"}")
    }

    /// Literal keys (written after one check of the room left) make the document that
    /// `JSONValue`'s members make (written piece by piece), from a writer with the least room,
    /// so that every key lands at a different place against the end of the buffer: keys of 1
    /// to 12 bytes, at several depths, pretty and compact.
    @Test func literalKeysMatchTheValueLayoutAtEveryBufferEdge() {
        let names: [StaticString] = ["a", "bb", "ccc", "dddd", "eeeee", "ffffff", "ggggggg", "hhhhhhhh", "iiiiiiiii", "jjjjjjjjjj", "kkkkkkkkkkk", "llllllllllll"]
        func text(_ name: StaticString) -> String { name.withUTF8Buffer { String(decoding: $0, as: UTF8.self) } }
        for indentLevel in [nil, 0, 3] as [Int?] {
            for start in 0..<names.count {
                var writer = JSONWriter(indentLevel: indentLevel, capacity: 16)
                var members: [(String, JSONValue)] = []
                writer.beginObject()
                for offset in 0..<40 {
                    let name = names[(start + offset) % names.count]
                    writer.key(name)
                    if offset % 5 == 4 {
                        writer.beginObject()
                        writer.key(name)
                        writer.int(offset)
                        writer.endObject()
                        members.append((text(name), .object([(text(name), .int(Int64(offset)))])))
                    } else {
                        writer.string("v")
                        members.append((text(name), .string("v")))
                    }
                }
                writer.endObject()
                let expected = JSONValue.object(members).serialized(indentLevel: indentLevel)
                #expect(String(decoding: writer.bytes, as: UTF8.self) == expected, "indent \(String(describing: indentLevel)), start \(start)")
            }
        }
    }

    /// A document many times its starting room (large Base64, many strings) is whole.
    @Test func growsPastItsStartingCapacity() {
        let picture = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var writer = JSONWriter(indentLevel: 1, capacity: 16)
        writer.beginArray()
        for index in 0..<2000 { writer.string("value \(index)") }
        writer.base64(picture)
        writer.base64(picture[1...])  // a slice
        writer.endArray()
        let expected = JSONValue.array((0..<2000).map { .string("value \($0)") } + [.base64(picture), .base64(Array(picture[1...]))])
        #expect(writer.bytes == Array(expected.serialized(indentLevel: 1).utf8))
    }

    /// `show --json` and `export` as the tools write them (straight from the file, through the
    /// writer) are, byte for byte, the documents of their documented layout built as values
    /// here from the file's public API: every fixture.
    @Test func showAndExportDocumentsKeepTheirLayout() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: TestFixtures.directory).filter { !$0.hasSuffix(".md") && !$0.hasSuffix(".txt") }.sorted()
        var compared = 0
        for name in names {
            guard let file = try? MediaFile(path: TestFixtures.path(name)) else { continue }
            var shown = JSONWriter(indentLevel: 1)
            try TagReport.writeJSON(file, to: &shown)
            #expect(shown.bytes == Array(JSONValue.object(try Self.members(file, pictures: .summary)).serialized(indentLevel: 1).utf8), "\(name)")
            var digested = JSONWriter(indentLevel: 1)
            try TagReport.writeJSON(file, digests: true, to: &digested)
            #expect(digested.bytes == Array(JSONValue.object(try Self.members(file, pictures: .digest)).serialized(indentLevel: 1).utf8), "\(name)")
            for digests in [false, true] {
                var exported = JSONWriter(indentLevel: 0)
                try TagReport.writeExportDocument(file, digests: digests, to: &exported)
                // Through `encoded()`, as export writes it (a picture still in the file is encoded
                // as the document goes out).
                var exportedBytes: [UInt8] = []
                try exported.encoded().write { exportedBytes += $0 }
                // `chapterForms` for a file with chapters: the forms they are in.
                let lists = file.chapterLists.filter { !$0.chapters.isEmpty }
                let forms: [(String, JSONValue)] = lists.isEmpty ? [] : [("chapterForms", .array(lists.map { .string($0.form.rawValue) }))]
                let expected: [(String, JSONValue)] = [("version", .int(2))] + (try Self.members(file, pictures: digests ? .dataAndDigest : .data))
                    + forms + [("native", try Self.native(file))]
                #expect(exportedBytes == Array(JSONValue.object(expected).serialized().utf8), "\(name)")
            }
            compared += 1
        }
        #expect(compared > 25)
    }

    // The documented layout of `show --json` and `export` (README, "JSON output").

    /// What a document says of each picture: `show --json`, `show --json --digests`, `export`,
    /// `export --digests`.
    enum PictureDetail { case summary, digest, data, dataAndDigest }

    static func members(_ file: MediaFile, pictures detail: PictureDetail) throws -> [(String, JSONValue)] {
        func number(_ value: Double?) -> JSONValue { value.flatMap { $0.isFinite ? .double(($0 * 1000).rounded() / 1000) : nil } ?? .null }
        func integer(_ value: Int?) -> JSONValue { value.map { .int(Int64($0)) } ?? .null }
        let audio: JSONValue = file.properties.audio.map { audio in
            .object([("codec", .string(audio.codec)), ("duration", number(audio.duration)), ("sampleRate", integer(audio.sampleRate)),
                     ("channels", integer(audio.channels))]
                    + (audio.bitsPerSample.map { [("bitsPerSample", JSONValue.int(Int64($0)))] } ?? []) + [("bitrate", integer(audio.bitrate))])
        } ?? .null
        let video = file.properties.video.map { video in
            JSONValue.object([("codec", .string(video.codec)), ("width", integer(video.width)), ("height", integer(video.height)),
                              ("frameRate", number(video.frameRate)), ("duration", number(video.duration))])
        }
        let tags = file.tags.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.array($0.value.map(JSONValue.string))) }
        let items = file.items.map { item in
            JSONValue.object([
                ("identifier", .string(item.identifier.description)), ("keySpace", .string(item.keySpace.rawValue)),
                ("nativeKey", .string(item.nativeKey)), ("key", item.key.map(JSONValue.string) ?? .null), ("dataType", .string(item.dataType)),
                ("value", .array(TagReport.displayValues(item).map(JSONValue.string))),
            ])
        }
        let pictures = detail == .summary
            ? try file.pictureSummaries.map { picture in
                JSONValue.object([
                    ("type", .string(picture.type.name)), ("mimeType", .string(picture.mimeType)), ("description", .string(picture.description)),
                    ("size", .int(Int64(picture.size))),
                ])
            }
            : try file.pictures.map { picture in
                JSONValue.object([
                    ("type", .string(picture.typeName)), ("mimeType", .string(picture.mimeType)), ("description", .string(picture.description)),
                    ("size", .int(Int64(picture.data.count))),
                ] + (detail == .data ? [] : [("sha256", .string(PictureDigest.sha256Hex(picture.data)))])
                  + (detail == .data || detail == .dataAndDigest ? [("data", .base64(picture.data))] : []))
            }
        return [
            ("path", .string(file.path)), ("format", .string(file.format.rawValue)), ("audio", audio), ("video", .array(video)),
            ("tags", .object(tags)), ("items", .array(items)), ("pictures", .array(pictures)),
            ("chapters", .array(file.chapters.map(ChapterReport.json))), ("diagnostics", .array(file.diagnostics.map(\.json))),
        ]
    }

    /// `native`: each item's bytes in Base64, or, when they end with a picture's bytes (the
    /// first in `pictures` that they end with), the bytes before it and the picture's index.
    static func native(_ file: MediaFile) throws -> JSONValue {
        let pictures = try file.pictures.map(\.data)
        func bytes(_ data: [UInt8]) -> JSONValue {
            guard let index = pictures.firstIndex(where: { !$0.isEmpty && data.count >= $0.count && Array(data.suffix($0.count)) == $0 }) else { return .base64(data) }
            return .object([("prefix", .base64(Array(data.dropLast(pictures[index].count)))), ("picture", .int(Int64(index)))])
        }
        return .array(try file.nativeItems().map { item in
            var object: [(String, JSONValue)] = [("identifier", .string(item.identifier.description))]
            switch item.data {
            case .itemValues(let values, let children):
                object.append(("values", .array(values.map { value in
                    .object([("typeSet", .int(Int64(value.typeSet))), ("dataType", .int(Int64(value.typeIndicator))),
                             ("country", .int(Int64(value.country))), ("language", .int(Int64(value.language))), ("data", bytes(value.data))])
                })))
                if !children.isEmpty { object.append(("otherChildren", .array(children.map { .base64($0) }))) }
            case .userData(let payload): object.append(("payload", bytes(payload)))
            case .id3Frame(let version, let frame): object += [("id3Version", .int(Int64(version))), ("frame", bytes(try frame.materialized()))]
            case .text(let text): object.append(("text", .string(text)))
            }
            return .object(object)
        })
    }
}

/// Base64 of bytes still in a file: noted where it goes, read and encoded a chunk at a time as
/// the document goes out (`JSONWriter.base64(SplicedBytes)`, `EncodedJSON`).
@Suite struct FileBase64Tests {
    @Test func fileBytesAreEncodedAsTheDocumentGoesOutExactlyAsBytesInMemoryWouldBe() throws {
        // 2 MB and a remainder: several chunks of `EncodedJSON.chunk`, and a last one that
        // needs padding; the range starts at an odd offset of the file.
        let content = (0..<(2 << 20) + 7).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        let file = try FileByteSource(path: try TemporaryFile.write(content))
        var spliced = SplicedBytes([1, 2])
        spliced.append(from: file, at: 3, count: content.count - 3)
        let expected = [1, 2] + Array(content[3...])
        for pretty in [0, nil] as [Int?] {
            var writer = JSONWriter(indentLevel: pretty)
            writer.beginObject()
            writer.key("data")
            writer.base64(spliced)
            writer.key("after")
            writer.int(1)
            writer.endObject()
            let document = writer.encoded()
            var written: [UInt8] = []
            var pieces = 0
            try document.write { written += $0; pieces += 1 }
            var reference = JSONWriter(indentLevel: pretty)
            reference.beginObject()
            reference.key("data")
            reference.base64(expected)
            reference.key("after")
            reference.int(1)
            reference.endObject()
            #expect(written == reference.bytes)
            #expect(document.count == written.count)
            #expect(document.ownCount < 100, "the Base64 is not in the document's own bytes")
            #expect(pieces > 3, "written in chunks")
        }
    }

    @Test func aFileChangedBeforeTheDocumentGoesOutCutsItShortWithAnError() throws {
        let path = try TemporaryFile.write([UInt8](repeating: 7, count: 100_000))
        var writer = JSONWriter(indentLevel: nil)
        writer.base64(SplicedBytes(from: try FileByteSource(path: path), at: 0, count: 100_000))
        let document = writer.encoded()
        try Data([1]).write(to: URL(fileURLWithPath: path))  // now 1 byte long
        #expect(throws: (any Error).self) { try document.write { _ in } }
    }
}

@Suite struct HeapTrimmingTests {
    /// The allocator settings reach glibc (`mallopt` answers 1 for a setting it takes, 0 for
    /// an unknown parameter or a value out of range).
    @Test func glibcTakesTheSettings() {
        #if os(Linux) && canImport(Glibc)
        #expect(HeapTrimming.keepFreedMemory())
        #else
        #expect(!HeapTrimming.keepFreedMemory())
        #endif
    }
}

private extension String {
    /// The text with zeros before it up to `width` characters.
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
