import Foundation
import Carriers
import ID3
import MediaBytes
import TagLibOracle
import TestSupport
import Testing

/// Reads the ID3v2 tag a file carries (MP3/AAC: the first leading tag, else the appended one;
/// AIFF/WAV: the `ID3 ` chunk), or nil.
func primaryID3Tag(_ path: String) throws -> ID3v2Tag? {
    let source = try FileByteSource(path: path)
    let head = try source.readAvailable(at: 0, upTo: 4)
    if head.starts(with: Array("FORM".utf8)) || head.starts(with: Array("RIFF".utf8)) {
        return try IFFChunkFile(source: source).id3Tag
    }
    return try MPEGStreamFile(source: source).primaryTag
}

/// The differences between TagLib's reading of a file's ID3v2 frames and ours, as sentences.
///
/// Compared: text frames (values), TXXX (description and values), COMM/USLT (language,
/// description, text), APIC (MIME type, picture type, description, size), UFID/PRIV (owner and
/// size), URL frames. Frames are matched by ID and order of occurrence.
///
/// Deliberate differences, not reported (each is a place where this library keeps more):
/// - TagLib rewrites v2.2/v2.3 frames into v2.4 ones when it reads them (TYER+TDAT+TIME into
///   TDRC, TORY into TDOR, IPLS into TIPL; TDAT and TIME are left empty): we keep the frames as
///   stored, so TDAT/TIME/TYER of older tags are not compared here, and frames TagLib has under
///   IDs we do not are skipped.
/// - TCON: TagLib turns `(13)` references into numbers and drops names in parentheses such as
///   `(Pop)`; we keep the value as written and resolve it with `ID3Genres.parse`, which keeps
///   them. TagLib's genres must appear, in order, among ours.
/// - UTF-16 text without a byte-order mark: TagLib reads an empty string; we read it as
///   little-endian (what the writers of such files meant).
/// - `WFED` (iTunes podcast URL): written as a text frame with an encoding byte; TagLib reads it
///   as a URL frame and gets nothing; we read the text.
/// - `APIC` picture types outside TagLib's enumeration: TagLib reports -1, we keep the byte.
/// - `PRIV` whose owner has no terminator: TagLib counts the owner's bytes as data too; we read
///   an owner and no data.
///
/// With `requireTagLib`, TagLib reading no ID3v2 frames at all is a difference (for files this
/// library wrote); otherwise such files are skipped (the corpus has files TagLib cannot read).
func crossCheck(_ path: String, requireTagLib: Bool = false) throws -> [String] {
    guard let reading = TagLibReading.read(path), !reading.id3v2Frames.isEmpty else {
        return requireTagLib ? ["TagLib reads no ID3v2 frames from \(path)"] : []
    }
    guard let tag = try primaryID3Tag(path) else { return ["TagLib reads \(reading.id3v2Frames.count) ID3v2 frames, we read no tag"] }
    var differences: [String] = []
    var seen: [String: Int] = [:]
    for theirs in reading.id3v2Frames {
        guard let id = theirs["id"] as? String else { continue }
        let occurrence = seen[id, default: 0]
        seen[id] = occurrence + 1
        let ours = tag.frames(id)
        guard occurrence < ours.count else {
            if tag.majorVersion == 4 { differences.append("\(id)[\(occurrence)]: TagLib has it, we do not") }
            continue
        }
        let frame = ours[occurrence]
        let place = "\(id)[\(occurrence)]"
        if tag.majorVersion < 4 && ["TDAT", "TIME", "TYER"].contains(id) { continue }
        if id == "WFED" { continue }
        let head = Array(frame.body.prefix(3))
        if head.count == 3, head[0] == 1, !(head[1] == 0xFF && head[2] == 0xFE), !(head[1] == 0xFE && head[2] == 0xFF),
            theirs["values"] as? [String] == [""]
        {
            continue  // BOM-less UTF-16
        }
        let content = frame.content
        switch content.kind {
        case .text:
            let (_, values) = content.text!
            let expected = theirs["values"] as? [String] ?? []
            if id == "TCON" {
                let ourGenres = values.flatMap(ID3Genres.parse)
                let theirGenres = expected.map { Int($0).flatMap(ID3Genres.name) ?? $0 }
                var remaining = ourGenres[...]
                let contained = theirGenres.allSatisfy { genre in
                    guard let found = remaining.firstIndex(of: genre) else { return false }
                    remaining = remaining[(found + 1)...]
                    return true
                }
                if !contained { differences.append("\(place): genres \(ourGenres) vs TagLib \(theirGenres)") }
            } else if values != expected {
                differences.append("\(place): \(values) vs TagLib \(expected)")
            }
        case .userText:
            let (_, description, values) = content.userText!
            if description != theirs["description"] as? String || values != theirs["values"] as? [String] {
                differences.append("\(place): \(description)=\(values) vs TagLib \(theirs["description"] ?? "")=\(theirs["values"] ?? "")")
            }
        case .comment:
            let (_, language, description, text) = content.comment!
            if language != theirs["language"] as? String || description != theirs["description"] as? String || text != theirs["text"] as? String {
                differences.append("\(place): [\(language)] \(description): \(text) vs TagLib [\(theirs["language"] ?? "")] \(theirs["description"] ?? ""): \(theirs["text"] ?? "")")
            }
        case .picture:
            let (_, mime, type, description, data) = content.picture!
            let theirType = theirs["pictureType"] as? Int
            if mime != theirs["mimeType"] as? String || (theirType != -1 && Int(type) != theirType)
                || description != theirs["description"] as? String || data.count != theirs["size"] as? Int
            {
                differences.append("\(place): picture \(mime) \(type) \(description) \(data.count) vs TagLib \(theirs)")
            }
        case .uniqueFileID:
            let (owner, identifier) = content.uniqueFileID!
            if owner != theirs["owner"] as? String || identifier.count != theirs["size"] as? Int {
                differences.append("\(place): UFID \(owner) vs TagLib \(theirs)")
            }
        case .privateData:
            let (owner, data) = content.privateData!
            let unterminated = data.isEmpty && theirs["size"] as? Int == owner.utf8.count
            if owner != theirs["owner"] as? String || (data.count != theirs["size"] as? Int && !unterminated) {
                differences.append("\(place): PRIV \(owner) vs TagLib \(theirs)")
            }
        case .url:
            let url = content.url!
            if url != theirs["url"] as? String { differences.append("\(place): \(url) vs TagLib \(theirs["url"] ?? "")") }
        default:
            break
        }
    }
    return differences
}

@Suite struct TagLibCrossCheckTests {
    @Test(.enabled(if: FileManager.default.fileExists(atPath: TestFixtures.corpusDirectory), "the shared corpus (../shared/corpus) is not here"))
    func corpusFilesAgreeWithTagLib() throws {
        var compared = 0
        var report: [String] = []
        let files = try FileManager.default.subpathsOfDirectory(atPath: TestFixtures.corpusDirectory).sorted()
        for file in files where ["mp3", "aiff", "aif", "wav", "aac"].contains((file as NSString).pathExtension.lowercased()) {
            let path = TestFixtures.corpusDirectory + "/" + file
            let differences: [String]
            // crossCheck throws only when TagLib reads frames and this library fails to read
            // the tag: a difference like any other.
            do { differences = try crossCheck(path) } catch { differences = ["TagLib reads its ID3v2 frames, this library fails: \(error)"] }
            compared += 1
            report += differences.map { "\(file): \($0)" }
        }
        #expect(compared > 100)
        #expect(report.isEmpty, "\(report.count) differences:\n\(report.joined(separator: "\n"))")
    }
}
