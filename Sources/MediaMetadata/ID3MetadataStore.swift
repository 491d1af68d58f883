import APEv2
import Carriers
import ID3
import MediaBytes

/// The tags of an MP3, ADTS, AIFF or WAV file, edited through the key space: the ID3v2 tag,
/// and beside it the ID3v1 tag and RIFF `INFO` entries or AIFF text chunks (TagLib's rule
/// applies to reading: they give `tags` only when the ID3v2 tag gives none). Every edit keeps
/// the others in step: an existing ID3v1 tag is refreshed from the ID3v2 values by the save,
/// and the `INFO` entries (AIFF: `NAME`, `AUTH`, `(c) `, `ANNO`) of a key are set and removed
/// with it.
struct ID3MetadataStore: MetadataStore {
    var tag: ID3v2Tag
    let original: ID3v2Tag
    /// False until a file without an ID3v2 tag is first edited (see `seedIfNeeded`).
    private var seeded: Bool
    let id3v1: ID3v1Tag?
    /// The `LIST`/`INFO` entries of a WAV file or the text chunks of an AIFF file as edited
    /// (empty when it has none); nil for a file that cannot hold them.
    private(set) var info: RIFFInfoList?
    let originalInfo: RIFFInfoList?

    /// The APE tag of an MP3/ADTS file as edited; nil when the file has none.
    private(set) var ape: APETag?
    let originalAPE: APETag?
    /// True when the file can hold an APE tag (MP3, AAC): restoring APE items into one without
    /// makes the tag.
    let holdsAPE: Bool

    init(tag: ID3v2Tag?, id3v1: ID3v1Tag?, ape: APETag? = nil, info: RIFFInfoList?, holdsAPE: Bool = false) {
        self.holdsAPE = holdsAPE
        self.id3v1 = id3v1
        self.info = info
        originalInfo = info
        self.ape = ape
        originalAPE = ape
        // A file without a tag gets a new v2.4 one (written only if something is set), holding
        // what the ID3v1 tag or the INFO entries say, so that setting one key keeps the others.
        self.tag = tag ?? ID3v2Tag(majorVersion: 4)
        original = self.tag
        seeded = tag != nil
    }

    /// Before the first edit of a file without an ID3v2 tag, the new tag takes what the tag
    /// `tags` shows says (the APE tag, the INFO entries or the ID3v1 tag), so that setting one
    /// key keeps the others visible.
    private mutating func seedIfNeeded() {
        guard !seeded else { return }
        seeded = true
        let items = rankedItems
        let ranked = zip(items.ranks, items.items)
        guard let shown = ranked.filter({ $0.1.hasContributions }).map(\.0).min() else { return }
        for (rank, item) in ranked where rank == shown {
            for contribution in item.contributions {
                if let row = MetadataKeyTable.definition(contribution.key) {
                    guard let form = row.id3Form(version: version) else { continue }
                    _ = try? add(form, row: row, values: contribution.values)
                } else if item.identifier.keySpace == .ape {
                    // A key outside the table (an APE `Publisher`) goes where `set` puts it: a
                    // `TXXX` frame named as the APE item is.
                    _ = try? add(Self.customForm(key: contribution.key, nativeName: item.identifier.key, version: version), row: nil, values: contribution.values)
                }
            }
        }
    }

    var hasChanges: Bool { tag.frames != original.frames || tag.frames.map(\.id) != original.frames.map(\.id) || info != originalInfo || ape != originalAPE }
    var mergesAreasPerKey: Bool { false }

    /// The version the tag will be written as, when it is not the tag's own (`--id3v2-version`).
    var tagVersion: UInt8?

    /// The version whose frame forms edits use: the one the tag will be written as (a v2.2 tag
    /// is written as v2.4).
    private var version: UInt8 { tagVersion ?? (tag.majorVersion == 2 ? 4 : tag.majorVersion) }

    // MARK: - Reading

    /// The precedence of the areas for `tags`, as TagLib's: the ID3v2 tag, then the APE tag or
    /// the INFO entries, then the ID3v1 tag; the first that gives any tag gives all of them.
    enum Rank {
        static let id3v2 = 0, apeOrInfo = 1, id3v1 = 2
    }

    var rankedItems: RankedItems {
        var result = RankedItems(capacity: tag.frames.count)
        // By index: a `for frame in` loop copies every frame (each of its fields retained).
        for index in tag.frames.indices { result.append(Rank.id3v2, view(tag.frames[index])) }
        appendOtherAreas(to: &result)
        return result
    }

    /// The frames' contributions read without their views where a frame is of a common kind
    /// (`plainReading`); the other areas through their views.
    func forEachTagContribution(_ body: (_ rank: Int, _ key: String, _ values: [String]) -> Void) {
        for index in tag.frames.indices {
            if let plain = plainReading(tag.frames[index]) {
                if let key = plain.key { body(Rank.id3v2, key, plain.values) }
            } else {
                view(tag.frames[index]).forEachContribution { key, values in body(Rank.id3v2, key, values) }
            }
        }
        var others = RankedItems()
        appendOtherAreas(to: &others)
        others.forEachTagContribution(body)
    }

    /// The items of the areas after the ID3v2 tag: APE, ID3v1, INFO or AIFF text chunks.
    private func appendOtherAreas(to result: inout RankedItems) {
        for item in ape?.items ?? [] { result.append(Rank.apeOrInfo, Self.view(item)) }
        // After `removeAll` the save removes the ID3v1 tag too: its values are no longer
        // shown (a preview of `clear` shows what the file will hold).
        if let v1 = id3v1, id3v1Choice != false, !cleared {
            let fields: [(String, String, String?)] = [
                ("title", v1.title, "TITLE"), ("artist", v1.artist, "ARTIST"), ("album", v1.album, "ALBUM"), ("year", v1.year, "DATE"),
                ("comment", v1.comment, "COMMENT"), ("track", v1.track.map { String($0) } ?? "", "TRACKNUMBER"), ("genre", v1.genre ?? "", "GENRE"),
            ]
            // (A year of "0" is no year; a title, artist, album or comment "0" is that text.)
            for (name, value, key) in fields where !value.isEmpty && !(name == "year" && value == "0") {
                result.append(Rank.id3v1, NativeMetadataItem(MetadataIdentifier(.id3v1, name), key: key, dataType: "ID3v1 field", values: [value], isWritable: false))
            }
        }
        for entry in info?.entries ?? [] {
            let row = info?.infoID(of: entry.id).flatMap { MetadataKeyTable.definition(riffInfo: $0) }
            var value = entry.value
            if row?.key == "TRACKNUMBER" { value = MetadataValueConversion.pair(value).map { String($0.index) } ?? value }
            result.append(Rank.apeOrInfo, NativeMetadataItem(MetadataIdentifier(.riffInfo, entry.id), key: row?.key, dataType: info?.form == .aiffText ? "AIFF text chunk" : "INFO text", values: [value]))
        }
    }

    /// An APE item as the key space sees it: a text item is its key's values (the table's key,
    /// or a custom key named by the APE key, as TagLib maps them); a cover-art item a picture;
    /// other binary items Base64 without a key.
    static func view(_ item: APEItem) -> NativeMetadataItem {
        let identifier = MetadataIdentifier(.ape, item.key)
        if let texts = item.texts {
            let key = MetadataKeyTable.definition(apeKey: item.key)?.key ?? item.key.uppercased()
            return NativeMetadataItem(identifier, key: key, dataType: item.kind == .text ? "APE text" : "APE link", values: texts)
        }
        if let cover = item.coverArt {
            let summary = PictureSummary(type: apePictureType(item.key) ?? .other, mimeType: MediaPicture.mimeType(sniffing: cover.data) ?? "application/octet-stream",
                                         description: cover.description, size: cover.data.count)
            return NativeMetadataItem(identifier, key: nil, dataType: "APE cover art", values: [], pictures: [summary])
        }
        return NativeMetadataItem(identifier, key: nil, dataType: "APE \(item.kind)", values: [Base64.encode(item.value)])
    }

    /// The picture type of an APE cover-art key (`Cover Art (Front)` is 3), as the ID3 `APIC`
    /// types are named there.
    static func apePictureType(_ key: String) -> PictureType? {
        let names: [String: PictureType] = [
            "other": 0, "png icon": 1, "icon": 2, "front": 3, "back": 4, "leaflet": 5, "media": 6, "lead artist": 7, "artist": 8,
            "conductor": 9, "band": 10, "composer": 11, "lyricist": 12, "recording location": 13, "during recording": 14,
            "during performance": 15, "video capture": 16, "a bright coloured fish": 17, "illustration": 18, "band logotype": 19, "publisher logotype": 20,
        ]
        let lower = key.lowercased()
        guard lower.hasPrefix("cover art ("), lower.hasSuffix(")") else { return nil }
        return names[String(lower.dropFirst("cover art (".count).dropLast())]
    }

    /// The uniform key of a described frame: `BASE` without (or with its own name as)
    /// description, `BASE:DESCRIPTION` otherwise (TagLib's rule for COMM, USLT and WXXX).
    private static func describedKey(_ base: String, _ description: String) -> String {
        description.isEmpty || description.uppercased() == base ? base : base + ":" + description.uppercased()
    }

    /// A frame's identifier: its ID, and what tells it from others of that ID (`qualifier`).
    func identifier(_ frame: ID3Frame) -> MetadataIdentifier {
        MetadataIdentifier(.id3, Self.qualifier(frame).map { frame.id + ":" + $0 } ?? frame.id)
    }

    /// What follows a frame's ID in its identifier (`TXXX:MusicBrainz Album Id`, `APIC:Cover
    /// (front)`); nil for a frame its ID names alone. `view` and `nativeItems` take it from here
    /// (an export names every frame without making its whole view).
    static func qualifier(_ frame: ID3Frame) -> String? {
        func described(_ description: String) -> String? { description.isEmpty ? nil : description }
        switch frame.content.kind {
        case .userText: return described(frame.content.userText!.1)
        case .userURL: return described(frame.content.userURL!.1)
        case .comment: return described(frame.content.comment!.2)
        case .picture: return PictureType(rawValue: frame.content.picture!.2).name
        case .uniqueFileID: return frame.content.uniqueFileID!.0
        case .privateData: return frame.content.privateData!.0
        case .popularimeter: return frame.content.popularimeter!.0
        case .chapter: return frame.content.chapter!.0
        case .tableOfContents: return frame.content.tableOfContents!.0
        case .object: return frame.content.object!.3
        case .syncedLyrics: return frame.content.syncedLyrics!.4
        case .relativeVolume: return frame.content.relativeVolume!.0
        default: return nil
        }
    }

    /// The key (nil: none) and values a frame of the common kinds gives its view and `tags`:
    /// a text frame (but those read with others: `TIPL`, `TYER`...), user text, comment,
    /// lyrics and URL frames. Nil for a frame of another kind, which only its view reads.
    private func plainReading(_ frame: ID3Frame) -> (key: String?, values: [String])? {
        // `frame.content` read in place (a local copy of it retained every field).
        switch frame.content.kind {
        case .text:
            // The ID as a code, read once: compared as a number, not as strings.
            let code = FourCC(latin1: frame.id)
            if code == "TIPL" || code == "IPLS" || code == "TMCL" || code == "TYER" || code == "TDAT" || code == "TIME" || code == "TRDA" { return nil }
            let (_, values) = frame.content.text!
            let shown = code == "TCON" ? values.flatMap(ID3Genres.parse) : values
            return (code.flatMap(MetadataKeyTable.rowIndex(id3Frame:)).map { MetadataKeyTable.rows[$0].key }, shown)
        case .userText:
            let (_, description, values) = frame.content.userText!
            return (MetadataKeyTable.key(id3: .userText(description)) ?? (description.isEmpty ? nil : description.uppercased()), values)
        case .url:
            return (MetadataKeyTable.key(id3: .frame(frame.id)), [frame.content.url!])
        case .userURL:
            let (_, description, url) = frame.content.userURL!
            return (Self.describedKey("URL", description), [url])
        case .comment:
            let (_, _, description, text) = frame.content.comment!
            return (Self.describedKey(frame.id == "USLT" ? "LYRICS" : "COMMENT", description), [text])
        default:
            return nil
        }
    }

    func view(_ frame: ID3Frame) -> NativeMetadataItem {
        if let (key, values) = plainReading(frame) {
            let dataType = switch frame.content.kind {
            case .text: "text frame"
            case .userText: "user text"
            case .url: "URL"
            case .userURL: "user URL"
            default: "\(frame.id == "USLT" ? "lyrics" : "comment") (\(frame.content.comment!.1))"
            }
            return NativeMetadataItem(identifier(frame), key: key, dataType: dataType, values: values)
        }
        switch frame.content.kind {
        case .text:
            let (_, values) = frame.content.text!
            let code = FourCC(latin1: frame.id)
            if code == "TIPL" || code == "IPLS" || code == "TMCL" {
                var contributions: [TagContribution] = []
                var index = 0
                while index + 1 < values.count {
                    // (A name is split at its commas, as TagLib splits it: `A, B` is two.)
                    let role = values[index], names = values[index + 1].split(separator: ",").map { String($0).trimmingCharacters(" ") }
                    // v2.3 keeps musician credits in IPLS too: a role outside the table is an instrument.
                    let credit = MetadataKeyTable.key(id3: .involvedPerson(frame: "TIPL", role: role))
                    let key = frame.id == "TMCL" || (frame.id == "IPLS" && credit == nil) ? "PERFORMER:" + role.uppercased() : credit
                    if let key { contributions.append(TagContribution(key: key, values: names)) }
                    index += 2
                }
                return NativeMetadataItem(identifier(frame), key: nil, dataType: "involved people", values: values, contributions: contributions)
            }
            if code == "TYER" {
                // The year with the v2.3 day/month and time frames, as TagLib joins them.
                // (Only when they were joined: a year that is not four digits keeps its values.)
                let date = tag.frames.contains { $0.id == "TDAT" }
                    ? ID3v2Tag(majorVersion: 3, frames: tag.frames.filter { ["TYER", "TDAT", "TIME"].contains($0.id) }).recordingDate
                    : nil
                let joined = date.flatMap { $0 == values.first ? nil : [$0] }
                return NativeMetadataItem(identifier(frame), key: "DATE", dataType: "text frame", values: values,
                                          contributions: [TagContribution(key: "DATE", values: joined ?? values)])
            }
            // TDAT, TIME, TRDA (`plainReading` reads the others).
            return NativeMetadataItem(identifier(frame), key: nil, dataType: "text frame", values: values, travelsWith: .tags)
        case .picture:
            let (_, mime, type, description, data) = frame.content.picture!
            return NativeMetadataItem(identifier(frame), key: nil, dataType: mime, values: [],
                                      pictures: [PictureSummary(type: PictureType(rawValue: type), mimeType: mime, description: description, size: data.count)])
        case .uniqueFileID:
            let (owner, identifier) = frame.content.uniqueFileID!
            let key = MetadataKeyTable.key(id3: .uniqueFileID(owner))
            let text = String(validating: identifier, as: UTF8.self).flatMap { $0.unicodeScalars.allSatisfy { $0.value >= 0x20 } ? $0 : nil }
            return NativeMetadataItem(self.identifier(frame), key: key, dataType: "unique file identifier",
                                      values: [text ?? Base64.encode(identifier)])
        case .privateData:
            let (_, data) = frame.content.privateData!
            return NativeMetadataItem(identifier(frame), key: nil, dataType: "private data", values: [Base64.encode(data)])
        case .popularimeter:
            let (_, rating, counter) = frame.content.popularimeter!
            return NativeMetadataItem(identifier(frame), key: nil, dataType: "popularimeter",
                                      values: ["rating \(rating)" + (counter.map { ", played \($0) times" } ?? "")])
        case .playCounter:
            let count = frame.content.playCounter!
            return NativeMetadataItem(identifier(frame), key: nil, dataType: "play counter", values: [String(count)])
        case .chapter:
            let (_, start, end, _, _, subframes) = frame.content.chapter!
            let title = subframes.first { $0.id == "TIT2" }?.textValues?.first ?? ""
            return NativeMetadataItem(identifier(frame), key: nil, dataType: "chapter", values: ["\(start)-\(end) ms \(title)"], travelsWith: .chapters)
        case .tableOfContents:
            let (_, _, _, children, _) = frame.content.tableOfContents!
            return NativeMetadataItem(identifier(frame), key: nil, dataType: "table of contents", values: children, travelsWith: .chapters)
        case .object:
            let (_, mime, filename, _, data) = frame.content.object!
            return NativeMetadataItem(identifier(frame), key: nil, dataType: "object (\(mime))", values: ["\(filename), \(data.count) bytes"])
        case .syncedLyrics:
            let (_, language, _, _, _, lines) = frame.content.syncedLyrics!
            return NativeMetadataItem(identifier(frame), key: nil, dataType: "synchronised lyrics (\(language))", values: lines.map(\.text))
        case .musicCDIdentifier:
            let bytes = frame.content.musicCDIdentifier!
            return NativeMetadataItem(identifier(frame), key: nil, dataType: "binary", values: [Base64.encode(bytes)])
        case .relativeVolume:
            let (_, channels) = frame.content.relativeVolume!
            return NativeMetadataItem(identifier(frame), key: nil, dataType: "relative volume",
                                      values: channels.map { "channel \($0.channel): \($0.adjustment) dB" })
        default:
            // Binary frames, and any frame family this layer does not know yet, as their bytes.
            let bytes = frame.content.binary ?? []
            if frame.id == "PCST" { return NativeMetadataItem(identifier(frame), key: "PODCAST", dataType: "podcast flag", values: ["1"]) }
            return NativeMetadataItem(identifier(frame), key: nil, dataType: "binary", values: [Base64.encode(bytes)])
        }
    }

    /// Every picture of the store (the `APIC` frames, then the APE tag's cover art); a picture
    /// a large tag left in the file stays there.
    var pictureContents: [PictureContent] { pictureList { PictureContent($0, contents: $1()) } }

    /// The pictures as `pictureContents` lists them, their bytes not looked at.
    var pictureSummaries: [PictureSummary] { pictureList { summary, _ in summary } }

    /// `make` of each picture's summary and (when it asks) its bytes, in order.
    private func pictureList<T>(_ make: (PictureSummary, () -> SplicedBytes) -> T) -> [T] {
        var result: [T] = []
        // Only the picture frames' contents are read (reading a frame's `picture` copied the
        // content of every frame to look at it).
        for index in tag.frames.indices where tag.frames[index].content.kind == .picture {
            guard case (_, let mime, let type, let description, let data)? = tag.frames[index].content.picture else { continue }
            let summary = PictureSummary(type: PictureType(rawValue: type), mimeType: mime, description: description, size: data.count)
            result.append(make(summary, { data.contents }))
        }
        for item in ape?.items ?? [] {
            guard let cover = item.coverArt else { continue }
            let summary = PictureSummary(type: Self.apePictureType(item.key) ?? .other, mimeType: MediaPicture.mimeType(sniffing: cover.data) ?? "application/octet-stream",
                                         description: cover.description, size: cover.data.count)
            result.append(make(summary, { SplicedBytes(cover.data) }))
        }
        return result
    }

    /// The `CHAP` frames in the order of the top-level `CTOC` (its nested tables followed
    /// depth first, a cycle cut with a note); chapters no table lists come after, by start.
    /// Without a top-level table, by start time.
    var chapterLists: [ChapterList] {
        guard tag.frames.indices.contains(where: { tag.frames[$0].content.kind == .chapter }) else { return [] }
        var chapters: [String: Chapter] = [:]
        var frameOrder: [String] = []
        var tables: [String: (top: Bool, children: [String])] = [:]
        var topLevel: [String] = []
        for frame in tag.frames {
            if let (element, start, end, _, _, subframes) = frame.content.chapter {
                guard chapters[element] == nil else { continue }
                var chapter = Chapter(start: .milliseconds(UInt64(start)), end: end == .max || end < start ? nil : .milliseconds(UInt64(end)),
                                      title: "", elementID: element)
                for sub in subframes {
                    switch sub.id {
                    case "TIT2": chapter.title = sub.textValues?.first ?? ""
                    case "TIT3": chapter.subtitle = sub.textValues?.first
                    case "WXXX": chapter.url = sub.content.userURL?.url
                    case "APIC":
                        if let (_, mime, type, description, data) = sub.content.picture {
                            chapter.image = MediaPicture(type: PictureType(rawValue: type), mimeType: mime, description: description, data: Array((try? data.bytes()) ?? []))
                        }
                    default: break
                    }
                }
                chapters[element] = chapter
                frameOrder.append(element)
            } else if let (element, top, _, children, _) = frame.content.tableOfContents {
                guard tables[element] == nil else { continue }
                tables[element] = (top, children)
                if top { topLevel.append(element) }
            }
        }
        guard !chapters.isEmpty else { return [] }
        var notes: [String] = []
        var ordered: [String] = []
        if let root = topLevel.first {
            if topLevel.count > 1 { notes.append("\(topLevel.count) CTOC frames are flagged top-level; the first (\(root)) gives the order") }
            var visited: Set<String> = []
            func walk(_ table: String) {
                guard visited.insert(table).inserted else {
                    notes.append("CTOC \(table) lists itself through its children; the cycle is cut")
                    return
                }
                for child in tables[table]?.children ?? [] {
                    if chapters[child] != nil {
                        if !ordered.contains(child) { ordered.append(child) }
                    } else if tables[child] != nil {
                        walk(child)
                    } else {
                        notes.append("CTOC \(table) lists \(child), which is no CHAP or CTOC frame")
                    }
                }
            }
            walk(root)
            let unlisted = frameOrder.filter { !ordered.contains($0) }
            if !unlisted.isEmpty {
                notes.append("\(unlisted.count) CHAP frames are in no table of contents (\(unlisted.joined(separator: ", "))); listed after, by start")
                ordered += unlisted.sorted { chapters[$0]!.start < chapters[$1]!.start }
            }
        } else {
            notes.append("no top-level CTOC: chapters are listed by start time (Apple's players show none)")
            ordered = frameOrder.enumerated().sorted { a, b in
                let (x, y) = (chapters[a.element]!.start, chapters[b.element]!.start)
                return x == y ? a.offset < b.offset : x < y
            }.map(\.element)
        }
        var list = ordered.compactMap { chapters[$0] }
        // A chapter without an end ends where the next begins.
        for i in list.indices where list[i].end == nil && i + 1 < list.count { list[i].end = list[i + 1].start }
        return [ChapterList(form: .id3, chapters: list, notes: notes)]
    }

    // MARK: - Writing

    /// The text encoding for new frames: UTF-8 in v2.4; Latin-1 when it holds the text, else
    /// UTF-16, in v2.3.
    func encoding(for values: [String]) -> ID3TextEncoding {
        if version >= 4 { return .utf8 }
        return values.allSatisfy { $0.unicodeScalars.allSatisfy { $0.value <= 0xFF } } ? .latin1 : .utf16
    }

    mutating func set(_ target: KeyTarget, values: [String]) throws(MetadataError) -> [String] {
        if case .identifier(let identifier) = target, identifier.keySpace == .riffInfo, let id = identifier.fourCC {
            guard let list = info else { throw MetadataError(.notRepresentable, message: "\(identifier): only WAV files (an INFO list) and AIFF files (text chunks) hold these") }
            guard list.form == .riffInfo || RIFFInfoList.aiffTextIDs[id] != nil else {
                throw MetadataError(.notRepresentable, message: "\(identifier): an AIFF file's text chunks are \(RIFFInfoList.aiffTextIDs.keys.map(\.description).sorted().joined(separator: ", "))")
            }
            setInfo(id, values)
            return []
        }
        if case .identifier(let identifier) = target, identifier.keySpace == .ape {
            guard ape != nil else { throw MetadataError(.notRepresentable, message: "\(identifier): the file has no APE tag") }
            guard APEItem.isValidKey(identifier.key) else { throw MetadataError(.badValue, message: "\(identifier): an APE key is 2 to 255 printable ASCII characters") }
            setAPE(identifier.key, values)
            return []
        }
        let notes = try setInID3(target, values: values)
        // A file that uses an INFO list or an APE tag keeps it in step with the ID3v2 tag.
        if case .uniform(let row) = target, let id = row.riffInfo.flatMap({ info?.nativeID(forInfo: $0) }), info?.entries.isEmpty == false {
            setInfo(id, values)
            for other in RIFFInfoList.sameMeaningIDs[id] ?? [] where info?.entries.contains(where: { $0.id == other }) == true { setInfo(other, values) }
        }
        if ape?.items.isEmpty == false {
            switch target {
            case .uniform(let row): setAPE(apeKey(for: row), values, replacing: { MetadataKeyTable.definition(apeKey: $0)?.key == row.key })
            case .custom(let key, let name) where !key.hasKeyQualifier: setAPE(name, values, replacing: { $0.uppercased() == key })
            default: break
            }
        }
        return notes
    }

    /// The APE key a row is written as in this file: the spelling an item of the row already
    /// has, else the table's.
    private func apeKey(for row: MetadataKeyDefinition) -> String {
        ape?.items.first { MetadataKeyTable.definition(apeKey: $0.key)?.key == row.key }?.key ?? row.ape ?? row.key
    }

    /// Sets the APE text item `key` (and removes the other items `replacing` names), where the
    /// first of them stood or at the end.
    private mutating func setAPE(_ key: String, _ values: [String], replacing: ((String) -> Bool)? = nil) {
        var items = ape?.items ?? []
        let matches: (APEItem) -> Bool = { item in item.key.uppercased() == key.uppercased() || (replacing?(item.key) ?? false) }
        let place = items.firstIndex(where: matches) ?? items.count
        let flags = place < items.count ? items[place].flags & ~UInt32(6) : 0
        items.removeAll(where: matches)
        var item = APEItem.text(key, values)
        item.flags = flags
        items.insert(item, at: min(place, items.count))
        ape?.items = items
    }

    /// Removes the APE items whose key `matches`; true when there were any.
    private mutating func removeAPE(where matches: (String) -> Bool) -> Bool {
        guard let items = ape?.items, items.contains(where: { matches($0.key) }) else { return false }
        ape?.items = items.filter { !matches($0.key) }
        return true
    }

    /// Sets the `INFO` entry `id` (one value: several are joined with " / "), where the first
    /// entry of that ID stood or at the end.
    private mutating func setInfo(_ id: FourCC, _ values: [String]) {
        var entries = info?.entries ?? []
        let place = entries.firstIndex { $0.id == id } ?? entries.count
        entries.removeAll { $0.id == id }
        entries.insert(RIFFInfoList.Entry(id, values.joined(separator: " / ")), at: min(place, entries.count))
        info = (info ?? RIFFInfoList()).with(entries)
    }

    /// Removes the `INFO` entries `id`; true when there were any.
    private mutating func removeInfo(_ id: FourCC) -> Bool {
        guard let entries = info?.entries, entries.contains(where: { $0.id == id }) else { return false }
        info = info?.with(entries.filter { $0.id != id })
        return true
    }

    private mutating func setInID3(_ target: KeyTarget, values: [String]) throws(MetadataError) -> [String] {
        seedIfNeeded()
        switch target {
        case .uniform(let row):
            guard let form = row.id3Form(version: version) else {
                throw MetadataError(.notRepresentable, message: "\(row.key) has no ID3 form (the key table lists each key's forms)")
            }
            if row.kind == .pair, let total = values.first, total.hasPrefix("/") {
                // `TRCK` is "4/12": the specification has a total only after its number.
                let totalKey = row.key == MetadataKey.discNumber.rawValue ? "DISCTOTAL" : "TRACKTOTAL"
                throw MetadataError(.notRepresentable, message: "\(totalKey)=\(total.dropFirst()): ID3 keeps a total only after its number (\(row.id3?.frameID ?? "TRCK") n/m); set \(row.key) too")
            }
            let place = tag.frames.firstIndex { frame in [row.id3, row.id3v23].compactMap({ $0 }).contains { $0.frameID == frame.id } }
            for old in [row.id3, row.id3v23].compactMap({ $0 }) { remove(old, row: row) }
            let start = tag.frames.count
            let notes = try add(form, row: row, values: values)
            // The new frames take the place of the old ones.
            if let place, place < start, start < tag.frames.count {
                let added = Array(tag.frames[start...])
                tag.frames.removeSubrange(start...)
                tag.frames.insert(contentsOf: added, at: min(place, tag.frames.count))
            }
            return notes
        case .custom(let key, let name):
            let form = Self.customForm(key: key, nativeName: name, version: version)
            remove(form, row: nil)
            return try add(form, row: nil, values: values)
        case .identifier(let identifier):
            guard identifier.keySpace == .id3 else {
                throw MetadataError(.notRepresentable, message: "\(identifier) has no place in an ID3 tag")
            }
            let (frameID, qualifier) = identifier.id3Parts
            let form: MetadataKeyDefinition.ID3Form
            switch frameID {
            case "TXXX": form = .userText(qualifier ?? "")
            case "COMM": form = .comment(qualifier ?? "")
            case "USLT": form = .lyrics(qualifier ?? "")
            case "UFID": form = .uniqueFileID(qualifier ?? "")
            case "WXXX": form = .userURL(qualifier ?? "")
            case _ where frameID.count == 4 && (frameID.hasPrefix("T") || frameID.hasPrefix("W")) && qualifier == nil
                && frameID.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }):
                form = .frame(frameID)
            default:
                throw MetadataError(.notRepresentable, message: "\(identifier): only text, URL, TXXX, WXXX, COMM, USLT and UFID frames can be set as text")
            }
            let row = MetadataKeyTable.definition(id3: form)
            remove(form, row: row)
            return try add(form, row: row, values: values)
        }
    }

    /// The ID3 form of a key outside the table.
    static func customForm(key: String, nativeName: String, version: UInt8) -> MetadataKeyDefinition.ID3Form {
        func suffix(_ prefix: String) -> String? {
            key.hasKeyPrefix(prefix) ? String(String.UnicodeScalarView(nativeName.unicodeScalars.dropFirst(prefix.unicodeScalars.count))) : nil
        }
        if let description = suffix("COMMENT:") { return .comment(description) }
        if let description = suffix("LYRICS:") { return .lyrics(description) }
        if let instrument = suffix("PERFORMER:") { return .involvedPerson(frame: version >= 4 ? "TMCL" : "IPLS", role: instrument) }
        if let description = suffix("URL:") { return .userURL(description) }
        if key == "URL" { return .userURL("") }
        return .userText(nativeName)
    }

    private mutating func add(_ form: MetadataKeyDefinition.ID3Form, row: MetadataKeyDefinition?, values: [String]) throws(MetadataError) -> [String] {
        var notes: [String] = []
        let e = encoding(for: values)
        func single(_ what: String) -> String {
            if values.count > 1 { notes.append("\(what) holds one value: \(values.count) values joined with \" / \"") }
            return values.joined(separator: " / ")
        }
        switch form {
        case .frame(let id) where row?.kind == .date && (id == "TDRC" || id == "TYER"):
            let result = ID3v2Tag.recordingDateFrames(values.first ?? "", version: version, encoding: e)
            tag.frames += result.frames
            notes += result.notes
            if values.count > 1 { notes.append("\(id): only the first of \(values.count) dates is kept") }
        case .frame("TORY"):
            tag.frames.append(ID3Frame(id: "TORY", content: .text(encoding: e, values: [String((values.first ?? "").prefix(4))])))
            if (values.first ?? "").count > 4 { notes.append("TORY holds a year: \(values.first ?? "") is written as its year") }
        case .frame("PCST"):
            if values.first.flatMap(MetadataValueConversion.boolean) == true { tag.frames.append(ID3Frame(id: "PCST", content: .binary([0, 0, 0, 0]))) }
        case .frame(let id) where id.hasPrefix("W") && id != "WFED":
            // URL frames are ISO-8859-1 (iTunes' WFED is a text frame, handled below).
            let url = single(id)
            if !url.unicodeScalars.allSatisfy({ $0.value <= 0xFF }) { notes.append("\(id) holds ISO-8859-1 text: characters outside it become \"?\"") }
            tag.frames.append(ID3Frame(id: id, content: .url(url)))
        case .frame(let id):
            let list = version >= 4 ? values : [single(id)]
            tag.frames.append(ID3Frame(id: id, content: .text(encoding: e, values: list)))
        case .userText(let description):
            let list = version >= 4 ? values : [single("TXXX in v2.3")]
            tag.frames.append(ID3Frame(id: "TXXX", content: .userText(encoding: e, description: description, values: list)))
        case .comment(let description):
            tag.frames.append(ID3Frame(id: "COMM", content: .comment(encoding: e, language: "eng", description: description, text: single("COMM"))))
        case .lyrics(let description):
            tag.frames.append(ID3Frame(id: "USLT", content: .comment(encoding: e, language: "eng", description: description, text: single("USLT"))))
        case .uniqueFileID(let owner):
            tag.frames.append(ID3Frame(id: "UFID", content: .uniqueFileID(owner: owner, identifier: Array(single("UFID").utf8))))
        case .userURL(let description):
            tag.frames.append(ID3Frame(id: "WXXX", content: .userURL(encoding: e, description: description, url: single("WXXX"))))
        case .involvedPerson(let id, let role):
            let frameID = id == "TIPL" && version < 4 ? "IPLS" : id
            var pairs: [String] = []
            if let index = tag.frames.firstIndex(where: { $0.id == frameID }), let existing = tag.frames[index].textValues {
                pairs = existing
                tag.frames.remove(at: index)
            }
            for value in values { pairs += [role, value] }
            tag.frames.append(ID3Frame(id: frameID, content: .text(encoding: e, values: pairs)))
            // (Credited names are read split at commas, as TagLib reads and writes them.)
            if values.contains(where: { $0.contains(",") }) {
                notes.append("\(frameID) \(role): a name with a comma reads back as two names (credits are split at commas, as TagLib splits them)")
            }
        }
        return notes
    }

    /// Removes the frames of `form`; a `TIPL` role is taken out of its list.
    private mutating func remove(_ form: MetadataKeyDefinition.ID3Form, row: MetadataKeyDefinition?) {
        switch form {
        case .frame(let id) where row?.key == "DATE":
            let ids: Set<String> = ["TDRC", "TYER", "TDAT", "TIME", "TRDA"]
            tag.frames.removeAll { ids.contains($0.id) }
            _ = id
        case .frame(let id):
            tag.frames.removeAll { $0.id == id }
        case .userText(let description):
            tag.frames.removeAll { frame in
                if case (_, let d, _)? = frame.content.userText { return d.uppercased() == description.uppercased() }
                return false
            }
        case .comment(let description), .lyrics(let description):
            let id = form.frameID
            tag.frames.removeAll { frame in
                guard frame.id == id, case (_, _, let d, _)? = frame.content.comment else { return false }
                return d.uppercased() == description.uppercased() || (description.isEmpty && d.uppercased() == (id == "COMM" ? "COMMENT" : "LYRICS"))
            }
        case .uniqueFileID(let owner):
            tag.frames.removeAll { frame in
                if case (let o, _)? = frame.content.uniqueFileID { return o == owner }
                return false
            }
        case .userURL(let description):
            tag.frames.removeAll { frame in
                guard case (_, let d, _)? = frame.content.userURL else { return false }
                return d.uppercased() == description.uppercased() || (description.isEmpty && d.uppercased() == "URL")
            }
        case .involvedPerson(let list, let role):
            // Credits (TIPL) and musicians (TMCL) are separate lists in v2.4; v2.3 has one (IPLS).
            let lists: Set<String> = list == "TMCL" ? ["TMCL", "IPLS"] : ["TIPL", "IPLS"]
            for index in tag.frames.indices.reversed() where lists.contains(tag.frames[index].id) {
                guard let values = tag.frames[index].textValues else { continue }
                var kept: [String] = []
                var i = 0
                while i + 1 < values.count {
                    if values[i].uppercased() != role.uppercased() { kept += [values[i], values[i + 1]] }
                    i += 2
                }
                if kept == values { continue }
                if kept.isEmpty {
                    tag.frames.remove(at: index)
                } else if case (let e, _)? = tag.frames[index].content.text {
                    tag.frames[index].content = .text(encoding: e, values: kept)
                }
            }
        }
    }

    mutating func remove(_ target: KeyTarget) throws(MetadataError) -> Bool {
        switch target {
        case .uniform(let row) where row.id3 == nil && row.riffInfo == nil:
            throw MetadataError(.notRepresentable, message: "\(row.key) has no form in ID3 tags")
        case .identifier(let identifier) where identifier.keySpace == .riffInfo:
            return identifier.fourCC.map { removeInfo($0) } ?? false
        case .identifier(let identifier) where identifier.keySpace == .ape:
            return removeAPE { $0.uppercased() == identifier.key.uppercased() }
        case .identifier(let identifier) where identifier.keySpace == .id3v1 && identifier.key == "*":
            // The whole ID3v1 tag goes.
            let had = hasID3v1AfterSaving
            id3v1Choice = false
            return had
        case .identifier(let identifier) where identifier.keySpace != .id3:
            let readOnly = identifier.keySpace == .id3v1
            throw MetadataError(.notRepresentable, message: "\(identifier) cannot be removed from an ID3 tag"
                                + (readOnly ? " (the ID3v1 tag mirrors the ID3v2 tag; remove id3v1/* to strip the whole tag)" : ""))
        case .uniform(let row):
            let infoIDs = row.riffInfo.flatMap { info?.nativeID(forInfo: $0) }.map { [$0] + (RIFFInfoList.sameMeaningIDs[$0] ?? []) } ?? []
            let removedInfo = infoIDs.map { removeInfo($0) }.contains(true)
            let removedAPE = removeAPE { MetadataKeyTable.definition(apeKey: $0)?.key == row.key }
            return try removeFromID3(target) || removedInfo || removedAPE
        case .custom(let key, _) where !key.hasKeyQualifier:
            let removedAPE = removeAPE { $0.uppercased() == key }
            return try removeFromID3(target) || removedAPE
        default:
            break
        }
        return try removeFromID3(target)
    }

    private mutating func removeFromID3(_ target: KeyTarget) throws(MetadataError) -> Bool {
        let hadFallback = !seeded && rankedItems.ranks.contains { $0 > Rank.id3v2 }
        seedIfNeeded()
        let before = hadFallback ? -1 : tag.frames.count
        let beforeFrames = tag.frames
        switch target {
        case .uniform(let row):
            for form in [row.id3, row.id3v23].compactMap({ $0 }) { remove(form, row: row) }
        case .custom(let key, let name):
            remove(Self.customForm(key: key, nativeName: name, version: version), row: nil)
        case .identifier(let identifier):
            // An identifier names the frames listed under it; `id3/APIC`, `id3/PRIV`... without a
            // qualifier name every frame of that ID (theirs always have one).
            let everyOfID = identifier.id3Parts.qualifier == nil && Self.alwaysQualified.contains(identifier.id3Parts.frame)
            let names = tag.frames.map { self.identifier($0) }
            tag.frames = zip(tag.frames, names).filter { frame, name in
                everyOfID ? frame.id != identifier.id3Parts.frame : name != identifier
            }.map(\.0)
        }
        return tag.frames.count != before || tag.frames != beforeFrames
    }

    /// Frames whose identifiers always carry a qualifier.
    static let alwaysQualified: Set<String> = ["APIC", "PRIV", "POPM", "GEOB", "CHAP", "CTOC", "SYLT", "RVA2", "UFID"]

    mutating func removeAll() {
        seeded = true
        cleared = true
        tag.frames = []
        if info != nil { info = info?.with([]) }
        if ape != nil { ape?.items = [] }
    }

    /// Set by `removeAll`: the save also removes the ID3v1 tag.
    private(set) var cleared = false

    /// After `removeAll` for a restore: the ID3v1 tag and a Lyrics3 block stay (the save
    /// refreshes the ID3v1 tag from the restored ID3v2 tag, as after any edit).
    mutating func keepMirrors() { cleared = false }

    /// Whether the save adds (true) or strips (false) the ID3v1 tag; nil keeps it as the file
    /// has it (refreshed from the ID3v2 tag when there is one).
    var id3v1Choice: Bool?

    /// Whether the file will have an ID3v1 tag after the save.
    var hasID3v1AfterSaving: Bool { !cleared && (id3v1Choice ?? (id3v1 != nil)) }

    /// Moves the values of keys whose ID3v2.4 frame has no v2.3 form (TMOO, TSST...) into the
    /// v2.3 form the table gives (TXXX), before a v2.4 tag is written as v2.3.
    mutating func prepareForWriting(as target: UInt8) {
        guard target == 3, tag.majorVersion == 4 else { return }
        let previous = tagVersion
        tagVersion = 3
        defer { tagVersion = previous }
        for row in MetadataKeyTable.rows {
            guard case .frame(let id)? = row.id3, case .userText? = row.id3v23, tag.frames.contains(where: { $0.id == id }) else { continue }
            let values = tag.frames.filter { $0.id == id }.flatMap { $0.textValues ?? [] }
            _ = try? set(.uniform(row), values: values)
        }
    }

    /// Adds `picture` beside the tag's others (ID3v2.4 4.14, v2.3 4.15): a tag holds one
    /// picture of each description, and one of each file-icon type (1 and 2). A file icon
    /// replaces the one there; a description another picture has gets a number (`Cover 2`, or
    /// `2` for none), said in the notes, so that adding never drops a picture silently.
    mutating func addPicture(_ picture: MediaPicture) throws(MetadataError) -> [String] {
        seedIfNeeded()
        var notes: [String] = []
        if picture.type.rawValue == 1 || picture.type.rawValue == 2 {
            let count = tag.frames.count
            tag.frames.removeAll { frame in
                if case (_, _, let type, _, _)? = frame.content.picture { return type == picture.type.rawValue }
                return false
            }
            if tag.frames.count < count { notes.append("the new \(picture.type) replaces the one the tag had (ID3 holds one)") }
        }
        var description = picture.description
        let taken = Set(tag.frames.compactMap { $0.content.picture?.description })
        var number = 1
        while taken.contains(description) {
            number += 1
            description = picture.description.isEmpty ? "\(number)" : "\(picture.description) \(number)"
        }
        if description != picture.description {
            notes.append("ID3 needs distinct picture descriptions: this \(picture.type) is described \"\(description)\"")
        }
        tag.frames.append(ID3Frame(id: "APIC", content: .picture(encoding: encoding(for: [description]), mimeType: picture.mimeType,
                                                                  pictureType: picture.type.rawValue, description: description, data: ID3Payload(picture.data))))
        return notes
    }

    mutating func removePictures(type: PictureType?) -> Int {
        let apeCovers = ape?.items.filter { $0.coverArt != nil && (type == nil || Self.apePictureType($0.key) == type) }.count ?? 0
        if apeCovers > 0 { ape?.items.removeAll { $0.coverArt != nil && (type == nil || Self.apePictureType($0.key) == type) } }
        let before = tag.frames.count + apeCovers
        tag.frames.removeAll { frame in
            if case (_, _, let t, _, _)? = frame.content.picture { return type == nil || t == type?.rawValue }
            return false
        }
        return before - tag.frames.count
    }

    // MARK: - Export and import

    func nativeItems() throws(MetadataError) -> [(MetadataIdentifier, NativeItemData)] {
        let written = version >= 4 ? UInt8(4) : 3
        var result: [(MetadataIdentifier, NativeItemData)] = []
        result.reserveCapacity(tag.frames.count)
        // By index: a `for frame in` loop copies every frame (each of its fields retained).
        for index in tag.frames.indices {
            do {
                // The frame as a tag of `written` holds it (a large picture stays in the file:
                // the export streams it); a v2.2 frame converted, alone in a tag of its own.
                let bytes: SplicedBytes
                if tag.majorVersion == written {
                    bytes = try ID3v2Tag.frameBytes(tag.frames[index], version: written) ?? SplicedBytes()
                } else {
                    let contents = try ID3v2Tag(majorVersion: tag.majorVersion, frames: [tag.frames[index]]).serialized(version: written, padding: 0).contents
                    bytes = contents.subrange(10..<contents.count)
                }
                result.append((identifier(tag.frames[index]), .id3Frame(version: written, bytes: bytes)))
            } catch {
                throw MetadataError(.io, offset: tag.frames[index].offset, message: "frame \(tag.frames[index].id) cannot be exported: \(error.description)")
            }
        }
        for entry in info?.entries ?? [] { result.append((MetadataIdentifier(.riffInfo, entry.id), .text(entry.value))) }
        // APE items as stored (size, flags, key, value).
        for item in ape?.items ?? [] { result.append((MetadataIdentifier(.ape, item.key), .userData(item.encoded))) }
        return result
    }

    mutating func addNative(_ identifier: MetadataIdentifier, _ data: NativeItemData) throws(MetadataError) -> String? {
        if identifier.keySpace == .ape, case .userData(let bytes) = data {
            guard let item = APEItem(encoded: bytes) else { throw MetadataError(.badValue, message: "\(identifier): not an APE item") }
            // Restored into the file's APE tag, a new one when it has none (after `clear`);
            // a file that cannot hold one (AIFF, WAV) says so.
            guard holdsAPE || ape != nil else { return "\(identifier): this file cannot hold an APE tag" }
            if ape == nil { ape = APETag() }
            ape?.items.append(item)
            return nil
        }
        if identifier.keySpace == .riffInfo, case .text(let text) = data, let id = identifier.fourCC {
            // Restored into a WAV file's INFO list or an AIFF file's text chunks (an MP3 file
            // holds neither).
            guard let list = info, list.form == .riffInfo || RIFFInfoList.aiffTextIDs[id] != nil else {
                return "\(identifier): " + (info == nil ? "an MP3 or AAC file holds no INFO list" : "AIFF has no text chunk of this kind")
            }
            info = list.with(list.entries + [RIFFInfoList.Entry(id, text)])
            return nil
        }
        guard case .id3Frame(let frameVersion, let bytes) = data, frameVersion == 3 || frameVersion == 4 else {
            throw MetadataError(.notRepresentable, message: "\(identifier) cannot be restored into an ID3 tag")
        }
        guard let size = SyncsafeInteger.encode(UInt32(clamping: bytes.count)) else {
            throw MetadataError(.badValue, message: "\(identifier): frame too large")
        }
        // Read as a tag of one frame; a large picture in another file stays there until written.
        var frameTag = SplicedBytes(Array("ID3".utf8) + [frameVersion, 0, 0] + size)
        frameTag.append(bytes)
        do {
            let frames = try ID3v2Tag.read(from: frameTag).frames
            tag.frames += ID3v2Tag.convertFrames(frames, from: frameVersion, to: tag.majorVersion == 2 ? 3 : tag.majorVersion).frames
        } catch {
            throw MetadataError(.badValue, message: "\(identifier): the exported frame does not read: \(error.description)")
        }
        return nil
    }
}
