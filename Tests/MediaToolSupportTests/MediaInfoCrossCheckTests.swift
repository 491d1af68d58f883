import Foundation
import ISOBMFF
import MediaToolSupport
import TestSupport
import Testing

/// The inspector against MediaInfo's trace (`mediainfo --Details=1`, which prints every box it
/// reads with the offset and value of each field): on every ISO-BMFF fixture, each box MediaInfo
/// walks is in the tree at the same offset, and for the boxes both decode, the values agree and
/// each field with a byte range starts where MediaInfo read it.
@Suite(.enabled(if: OtherReaders.isRequired || FileManager.default.isExecutableFile(atPath: "/usr/bin/mediainfo")))
struct MediaInfoCrossCheckTests {
    struct TraceField {
        var offset: UInt64
        var name: String
        var value: String
    }

    struct TraceBox {
        var type: String
        var offset: UInt64
        /// The box MediaInfo read it inside (nil at the top level).
        var parent: String?
        var fields: [TraceField] = []
    }

    /// The boxes of MediaInfo's trace, each with the fields at its own level.
    static func trace(_ path: String) async throws -> [TraceBox] {
        let result = try await ToolRunner.runProgram("/usr/bin/mediainfo", ["--Details=1", path])
        #expect(result.status == 0)
        var boxes: [TraceBox] = []
        // The box whose fields sit at each indentation (a box's fields are one level above its
        // "Name:" line, beside its "Header").
        var owner: [Int: Int] = [:]
        for line in result.standardOutput.split(separator: "\n") {
            guard let space = line.firstIndex(of: " "), let offset = UInt64(line[..<space], radix: 16) else { continue }
            let rest = line[line.index(after: space)...]
            let indent = rest.prefix { $0 == " " }.count
            let text = rest.dropFirst(indent)
            guard let colon = text.firstIndex(of: ":") else { continue }
            let name = String(text[..<colon])
            // The value keeps a trailing space of a box type (`url `): only the padding before it goes.
            let raw = text[text.index(after: colon)...]
            let value = String(raw.drop { $0 == " " })
            if name == "Name", indent >= 1 {
                let type = value.count < 4 ? value + String(repeating: " ", count: 4 - value.count) : value
                // The box's section line is one level above its fields, among its parent's fields.
                let parent = owner[indent - 2].map { boxes[$0].type }
                boxes.append(TraceBox(type: type, offset: offset - 4, parent: parent))
                owner = owner.filter { $0.key < indent - 1 }
                owner[indent - 1] = boxes.count - 1
            } else if let index = owner[indent] {
                boxes[index].fields.append(TraceField(offset: offset, name: name, value: value))
            }
        }
        return boxes
    }

    /// MediaInfo's field names and ours, for the boxes both decode.
    static let fieldNames: [String: [(String, String)]] = [
        "ftyp": [("MajorBrand", "majorBrand"), ("MajorBrandVersion", "minorVersion")],
        "mvhd": [("Version", "version"), ("Flags", "flags"), ("Time scale", "timescale"), ("Duration", "duration"), ("Next track ID", "nextTrackID")],
        "tkhd": [("Version", "version"), ("Flags", "flags"), ("Track ID", "trackID"), ("Duration", "duration"), ("Layer", "layer"),
                 ("Alternate group", "alternateGroup"), ("Track width", "width"), ("Track height", "height")],
        "mdhd": [("Version", "version"), ("Time scale", "timescale"), ("Duration", "duration"), ("Language", "language")],
        "hdlr": [("Component subtype", "handlerType")],
        "avc1": [("Data reference index", "dataReferenceIndex"), ("Width", "width"), ("Height", "height"), ("Frame count", "frameCount"),
                 ("Compressor name", "compressorName"), ("Depth", "depth")],
        "mp4a": [("Data reference index", "dataReferenceIndex"), ("channelcount (2)", "channelCount"), ("samplesize (16)", "sampleSize"),
                 ("samplerate", "sampleRate")],
        "avcC": [("AVCProfileIndication", "profile"), ("profile_compatibility", "profileCompatibility"), ("AVCLevelIndication", "level")],
        "stts": [("Number of entries", "entryCount")],
        "stsc": [("Number of entries", "entryCount")],
        "stco": [("Number of entries", "entryCount")],
        "stsz": [("Sample Size", "sampleSize"), ("Number of entries", "sampleCount")],
        "stss": [("entry-count", "entryCount")],
        "ctts": [("entry_count", "entryCount")],
        "stsd": [("Count", "entryCount")],
        "smhd": [("Audio balance", "balance")],
        "vmhd": [("Graphic mode", "graphicsMode")],
    ]

    /// MediaInfo's value as a number or text: `1000 (0x000003E8) - 1000 ms` is 1000,
    /// `21956 (0x55C4) - und` is `und` for a language, `64.000` is 64.
    static func agrees(_ theirs: String, _ ours: JSONValue, field: String) -> Bool {
        // The packed code both read: an ISO 639-2 code MediaInfo names as we do; a Macintosh
        // code (below 0x400) or 0x7FFF it names differently (`en`, nothing), so the number is
        // decoded here as the inspector decodes it.
        if field == "language", let code = UInt16(theirs.split(separator: " ").first ?? "") { return ours == .string(LanguageCode.decode(code)) }
        let head = theirs.split(separator: " ").first.map(String.init) ?? theirs
        switch ours {
        case .uint(let value): return UInt64(head) == value
        case .int(let value):
            // A 16-bit field MediaInfo reads unsigned (a QuickTime color table ID of -1).
            return Int64(head) == value || (value < 0 && Int64(head) == value + 65536)
        case .double(let value): return Double(head).map { abs($0 - value) < 0.001 } ?? false
        case .string(let value): return value == theirs || value.trimmingCharacters(in: .whitespaces) == theirs.trimmingCharacters(in: .whitespaces)
        default: return false
        }
    }

    static let fixtures = ["video-h264-aac.mp4", "aac-itunes-tags-cover.m4a", "alac.m4a", "audiobook-chapters.m4b", "co64-chunk-offsets.m4a",
                           "fragmented.mp4", "fragmented-sidx.mp4", "mdat-64bit-header.m4a", "mobile.3gp", "moov-after-mdat.m4a",
                           "moov-before-mdat.m4a", "quicktime-mdta-keys.mov", "quicktime-sound-v1-in24.mov", "quicktime-sound-v2-lpcm.mov",
                           "quicktime-udta-text.mov"]

    @Test(arguments: fixtures)
    func boxesAndFieldsAgreeWithMediaInfo(_ fixture: String) async throws {
        let path = TestFixtures.path(fixture)
        let boxes = try await Self.trace(path)
        #expect(boxes.count >= 10, "MediaInfo traced \(boxes.count) boxes")
        var ours: [String: InspectionNode] = [:]
        func visit(_ nodes: [InspectionNode]) {
            InspectionNode.forEachListed(nodes) { node in
                ours["\(node.type)@\(node.offset)"] = node
                visit(node.children)
            }
        }
        visit(try FileInspection.open(path).nodes)
        var compared = 0, rangesCompared = 0
        let mediaData = ours.values.filter { $0.type == "mdat" }.map(\.payloadRange)
        for box in boxes {
            // Not boxes: the names of `keys` entries (their namespace, `mdta`), blank names of
            // other records, and what MediaInfo reads inside the media data (a JPEG's `JFIF`).
            if box.parent == "keys" || box.type.allSatisfy({ $0 == " " }) || mediaData.contains(where: { $0.contains(box.offset) }) { continue }
            guard let node = ours["\(box.type)@\(box.offset)"] else {
                Issue.record("\(fixture): MediaInfo reads '\(box.type)' at \(box.offset); the tree has no such atom there")
                continue
            }
            guard let names = Self.fieldNames[box.type] else { continue }
            let fields = node.details.fields
            for (theirName, ourName) in names {
                guard let theirs = box.fields.first(where: { $0.name == theirName }) else { continue }
                guard let field = fields.first(where: { $0.name == ourName }) else {
                    Issue.record("\(fixture) \(node.path): no field \(ourName) (MediaInfo's \(theirName) = \(theirs.value))")
                    continue
                }
                compared += 1
                #expect(Self.agrees(theirs.value, field.value, field: ourName),
                        "\(fixture) \(node.path).\(ourName): \(field.value) here, MediaInfo's \(theirName) \(theirs.value)")
                if let range = field.range {
                    rangesCompared += 1
                    // Our compressor name is the whole Pascal string; MediaInfo's starts after its length byte.
                    let start = ourName == "compressorName" ? range.lowerBound + 1 : range.lowerBound
                    #expect(start == theirs.offset, "\(fixture) \(node.path).\(ourName) starts at \(range.lowerBound), MediaInfo reads it at \(theirs.offset)")
                }
            }
        }
        #expect(compared >= 10, "\(fixture): \(compared) values compared")
        #expect(rangesCompared >= 5, "\(fixture): \(rangesCompared) byte ranges compared")
        print("\(fixture): \(boxes.count) boxes in MediaInfo's trace, \(compared) values and \(rangesCompared) byte ranges compared")
    }
}
