import MediaBytes
import VorbisComment

/// The metadata of a file whose tags are a Vorbis comment (FLAC, and the Ogg codecs): its
/// `NAME=value` fields and its pictures (FLAC `PICTURE` blocks, or Ogg
/// `METADATA_BLOCK_PICTURE` fields, as the container hands them over).
///
/// Field names are TagLib's property names, so a field is its own uniform key (`TITLE`,
/// `MUSICBRAINZ_TRACKID`) unless the key table's `vorbis` column says otherwise. Numbers and
/// totals are separate fields (`TRACKNUMBER=3`, `TRACKTOTAL=12`), read and written as the pair
/// `TRACKNUMBER=3/12` of the key space. Chapters are the `CHAPTERnnn` fields.
struct VorbisCommentStore: MetadataStore {
    /// A picture of the store: one the file has (read on demand by the container's loader), or
    /// a new one.
    enum Picture: Sendable, Hashable {
        case kept(index: Int, header: FLACPicture.Header)
        case new(FLACPicture)

        var summary: PictureSummary {
            switch self {
            case .kept(_, let h): PictureSummary(type: PictureType(rawValue: UInt8(clamping: h.type)), mimeType: h.mimeType, description: h.description, size: Int(h.dataLength))
            case .new(let p): PictureSummary(type: PictureType(rawValue: UInt8(clamping: p.type)), mimeType: p.mimeType, description: p.description, size: p.data.count)
            }
        }
    }

    /// Reads a kept picture's whole structure from the file.
    struct PictureLoader: Sendable {
        let load: @Sendable (Int) throws(MetadataError) -> FLACPicture
    }

    private(set) var comment: VorbisComment
    let originalComment: VorbisComment
    /// True when the file had a comment header (a new one is only written when it has fields).
    let hadComment: Bool
    private(set) var pictureList: [Picture]
    let originalPictures: [Picture]
    private let loader: PictureLoader
    /// The key space of the picture items (`flac`).
    private let pictureSpace: MetadataIdentifier.KeySpace
    /// Set by `removeAll`.
    private(set) var cleared = false

    init(comment: VorbisComment?, pictures: [Picture], pictureSpace: MetadataIdentifier.KeySpace, loader: PictureLoader) {
        hadComment = comment != nil
        self.comment = comment ?? VorbisComment(vendor: Self.vendor)
        originalComment = self.comment
        pictureList = pictures
        originalPictures = pictures
        self.pictureSpace = pictureSpace
        self.loader = loader
    }

    /// The vendor string of a comment header this package creates.
    static let vendor = "swift-media-metadata"

    var hasChanges: Bool { comment != originalComment || pictureList != originalPictures }
    var mergesAreasPerKey: Bool { true }
    var tagVersion: UInt8? {
        get { nil }
        set {}  // Vorbis comments have no versions
    }

    // MARK: - Reading

    /// The fields that stand for a number's total (`TRACKTOTAL`, `TOTALTRACKS`), by the pair key.
    static let totalFields: [String: [String]] = ["TRACKNUMBER": ["TRACKTOTAL", "TOTALTRACKS"], "DISCNUMBER": ["DISCTOTAL", "TOTALDISCS"]]
    /// The number field a total field belongs to (`TRACKTOTAL` → `TRACKNUMBER`).
    static func numberField(ofTotal name: String) -> String? {
        totalFields.first { $0.value.contains(name) }?.key
    }

    /// The field names (upper case) in order of their first field, each with the indexes of its
    /// fields: no value decoded yet. A comment has a dozen names or so, found by comparing
    /// (a hash per field costs more); a long one is indexed.
    private var groups: [(name: String, fields: [Int])] {
        var list: [(name: String, fields: [Int])] = []
        list.reserveCapacity(comment.fields.count)
        var place: [String: Int]? = nil
        for (index, field) in comment.fields.enumerated() {
            let key = field.key
            if list.count == 32, place == nil { place = Dictionary(uniqueKeysWithValues: list.indices.map { (list[$0].name, $0) }) }
            let at = place == nil ? list.firstIndex { $0.name == key } : place![key]
            if let at { list[at].fields.append(index) } else {
                place?[key] = list.count
                list.append((key, [index]))
            }
        }
        return list
    }

    var rankedItems: RankedItems {
        let groups = groups
        let fields = comment.fields
        func first(_ name: String) -> String? { groups.first { $0.name == name }.map { fields[$0.fields[0]].value } }
        var result = RankedItems(capacity: groups.count + pictureList.count)
        for (name, indexes) in groups {
            let identifier = MetadataIdentifier(.vorbis, name)
            if name == "METADATA_BLOCK_PICTURE" || name == "COVERART" {
                // Pictures kept in the comment (Ogg's way): listed and kept as they are, not
                // tags (their Base64 is counted, not decoded).
                result.append(0, NativeMetadataItem(identifier, key: nil, dataType: "Vorbis picture field",
                                                    values: indexes.map { "\(fields[$0].valueBytes.count) bytes of Base64" }, travelsWith: .pictures))
                continue
            }
            let values = indexes.map { fields[$0].value }
            if Self.isChapterField(name) {
                result.append(0, NativeMetadataItem(identifier, key: nil, dataType: "Vorbis chapter", values: values, travelsWith: .chapters))
                continue
            }
            if let pair = Self.numberField(ofTotal: name) {
                // Read through its number (TRACKNUMBER=3/12), unless there is none.
                let key: String? = groups.contains { $0.name == pair } ? nil : name
                result.append(0, NativeMetadataItem(identifier, key: key, dataType: "Vorbis text", values: values, travelsWith: key == nil ? .tags : nil))
                continue
            }
            // An empty field gives no value (as in TagLib, and as `set` treats an empty value).
            let nonEmpty = values.contains(where: \.isEmpty) ? values.filter { !$0.isEmpty } : values
            guard !nonEmpty.isEmpty else {
                result.append(0, NativeMetadataItem(identifier, key: nil, dataType: "Vorbis text (empty)", values: [""], travelsWith: .tags))
                continue
            }
            var shown = nonEmpty
            if name == "TRACKNUMBER" || name == "DISCNUMBER", let totals = Self.totalFields[name],
               let total = totals.lazy.compactMap(first).first,
               !shown[0].contains("/") {
                shown[0] += "/" + total
            }
            result.append(0, NativeMetadataItem(identifier, key: MetadataKeyTable.uniformKey(vorbisKey: name) ?? name, dataType: "Vorbis text", values: shown))
        }
        for (index, picture) in pictureList.enumerated() {
            result.append(0, NativeMetadataItem(MetadataIdentifier(pictureSpace, "PICTURE[\(index)]"), key: nil, dataType: "picture",
                                                values: [], pictures: [picture.summary]))
        }
        return result
    }

    var pictureContents: [PictureContent] {
        get throws(MetadataError) {
            var result: [PictureContent] = []
            for picture in pictureList {
                let whole = try load(picture)
                let summary = PictureSummary(type: PictureType(rawValue: UInt8(clamping: whole.type)), mimeType: whole.mimeType,
                                             description: whole.description, size: whole.data.count)
                result.append(PictureContent(summary, contents: SplicedBytes(whole.data)))
            }
            return result
        }
    }

    var pictureSummaries: [PictureSummary] { pictureList.map(\.summary) }

    private func load(_ picture: Picture) throws(MetadataError) -> FLACPicture {
        switch picture {
        case .kept(let index, _): try loader.load(index)
        case .new(let picture): picture
        }
    }

    // MARK: - Editing

    /// The field name a row is written as in this comment: the spelling of a field it already
    /// has, else the table's first.
    private func fieldName(for row: MetadataKeyDefinition) -> String? {
        let names = row.vorbisNames
        return comment.fields.first { names.contains($0.key) }?.name ?? names.first
    }

    mutating func set(_ target: KeyTarget, values: [String]) throws(MetadataError) -> [String] {
        switch target {
        case .uniform(let row):
            guard let name = fieldName(for: row), row.kind != .picture else {
                throw MetadataError(.notRepresentable, message: "\(row.key) has no Vorbis comment form")
            }
            for other in row.vorbisNames where other != name.uppercased() { comment.removeValues(other) }
            if let totals = Self.totalFields[row.key] {
                // `3/12`: the number in its field, the total in the first total field.
                let parts = values.first.map { $0.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init) } ?? []
                // `/12` (a total alone) writes no number field.
                comment.setValues(name, parts.first.flatMap { $0.isEmpty ? nil : [$0] } ?? [])
                let totalName = comment.fields.first { totals.contains($0.key) }?.name ?? totals[0]
                for other in totals where other != totalName.uppercased() { comment.removeValues(other) }
                if parts.count > 1 { comment.setValues(totalName, [parts[1]]) } else { comment.removeValues(totalName) }
                return []
            }
            comment.setValues(name, values)
        case .custom(_, let nativeName):
            try setField(nativeName, values)
        case .identifier(let identifier):
            guard identifier.keySpace == .vorbis else {
                throw MetadataError(.notRepresentable, message: "\(identifier): a Vorbis comment holds vorbis/NAME fields; pictures are edited as pictures")
            }
            try setField(identifier.key, values)
        }
        return []
    }

    private mutating func setField(_ name: String, _ values: [String]) throws(MetadataError) {
        guard VorbisComment.Field.isValidName(name) else {
            throw MetadataError(.badValue, message: "\"\(name)\" cannot name a Vorbis comment field: a name is ASCII 0x20-0x7D without \"=\"")
        }
        let spelling = comment.fields.first { $0.key == name.uppercased() }?.name ?? name.uppercased()
        comment.setValues(spelling, values)
    }

    mutating func remove(_ target: KeyTarget) throws(MetadataError) -> Bool {
        switch target {
        case .uniform(let row):
            guard row.kind != .picture else { return removePictures(type: nil) > 0 }
            var removed = false
            for name in row.vorbisNames + (Self.totalFields[row.key] ?? []) { removed = comment.removeValues(name) || removed }
            return removed
        case .custom(let key, let nativeName):
            return comment.removeValues(nativeName) || comment.removeValues(key)
        case .identifier(let identifier):
            if identifier.keySpace == .vorbis { return comment.removeValues(identifier.key) }
            if identifier.keySpace == pictureSpace, let index = Self.pictureIndex(identifier.key), pictureList.indices.contains(index) {
                pictureList.remove(at: index)
                return true
            }
            return false
        }
    }

    /// `PICTURE[3]` → 3.
    private static func pictureIndex(_ key: String) -> Int? {
        guard key.hasPrefix("PICTURE["), key.hasSuffix("]") else { return nil }
        return Int(key.dropFirst(8).dropLast())
    }

    mutating func removeAll() {
        comment.fields = []
        pictureList = []
        cleared = true
    }

    mutating func addPicture(_ picture: MediaPicture) throws(MetadataError) -> [String] {
        pictureList.append(.new(FLACPicture(type: UInt32(picture.type.rawValue), mimeType: picture.mimeType, description: picture.description, image: picture.data)))
        return []
    }

    mutating func removePictures(type: PictureType?) -> Int {
        let before = pictureList.count
        pictureList.removeAll { type == nil || $0.summary.type == type }
        return before - pictureList.count
    }

    func nativeItems() throws(MetadataError) -> [(MetadataIdentifier, NativeItemData)] {
        var result = comment.fields.map { (MetadataIdentifier(.vorbis, $0.key), NativeItemData.userData($0.bytes)) }
        for (index, picture) in pictureList.enumerated() {
            result.append((MetadataIdentifier(pictureSpace, "PICTURE[\(index)]"), .userData(try load(picture).serialized())))
        }
        return result
    }

    mutating func addNative(_ identifier: MetadataIdentifier, _ data: NativeItemData) throws(MetadataError) -> String? {
        guard case .userData(let bytes) = data else {
            throw MetadataError(.badValue, message: "\(identifier): not a Vorbis comment field or a FLAC picture")
        }
        if identifier.keySpace == .vorbis {
            comment.fields.append(VorbisComment.Field(bytes: bytes))
        } else if identifier.keySpace == pictureSpace {
            do { pictureList.append(.new(try FLACPicture(parsing: bytes[...]))) } catch {
                throw MetadataError(.badValue, message: "\(identifier): \(error.message)")
            }
        } else {
            throw MetadataError(.notRepresentable, message: "\(identifier): a Vorbis comment file holds vorbis/ fields and \(pictureSpace)/ pictures")
        }
        return nil
    }

    // MARK: - Chapters

    /// `CHAPTER001`, `CHAPTER001NAME`, `CHAPTER001URL`: the chapter convention of Vorbis comments.
    static func isChapterField(_ name: String) -> Bool { chapterParts(name) != nil }

    /// The number and suffix of a chapter field (`CHAPTER012NAME` → (12, "NAME")).
    private static func chapterParts(_ name: String) -> (number: Int, suffix: String)? {
        guard name.utf8.starts(with: "CHAPTER".utf8) else { return nil }
        let rest = name.utf8.dropFirst(7)
        let digits = rest.prefix { $0 >= 0x30 && $0 <= 0x39 }
        guard (1...4).contains(digits.count), let number = Int(String(decoding: digits, as: UTF8.self)) else { return nil }
        let suffix = String(decoding: rest.dropFirst(digits.count), as: UTF8.self)
        return ["", "NAME", "URL"].contains(suffix) ? (number, suffix) : nil
    }

    var chapterLists: [ChapterList] {
        var starts: [Int: ChapterTime] = [:], names: [Int: String] = [:], urls: [Int: String] = [:]
        var notes: [String] = []
        for field in comment.fields where field.hasNamePrefix("CHAPTER") {
            guard let (number, suffix) = Self.chapterParts(field.key) else { continue }
            switch suffix {
            case "": if let time = Self.parseTime(field.value) { starts[number] = time } else { notes.append("\(field.name)=\(field.value) is not a time (HH:MM:SS.mmm); left out") }
            case "NAME": names[number] = field.value
            default: urls[number] = field.value
            }
        }
        guard !starts.isEmpty else { return [] }
        let chapters = starts.keys.sorted().map { number in
            Chapter(start: starts[number]!, title: names[number] ?? "", url: urls[number])
        }
        return [ChapterList(form: .vorbis, chapters: chapters, notes: notes)]
    }

    /// `HH:MM:SS.mmm` (hours of any length, fraction optional and up to 9 digits).
    static func parseTime(_ text: String) -> ChapterTime? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let hours = UInt64(parts[0]), let minutes = UInt64(parts[1]), minutes < 60 else { return nil }
        let secondParts = parts[2].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let seconds = UInt64(secondParts[0]), seconds < 60, secondParts[0].count == 2 else { return nil }
        var millis: UInt64 = 0
        if secondParts.count == 2 {
            let fraction = secondParts[1]
            guard (1...9).contains(fraction.count), fraction.allSatisfy(\.isASCIIDigit) else { return nil }
            millis = UInt64(String((fraction + "00").prefix(3)))!
        }
        guard hours < 1_000_000 else { return nil }
        return .milliseconds(((hours * 60 + minutes) * 60 + seconds) * 1000 + millis)
    }

    mutating func setChapters(_ chapters: [Chapter]) -> [String] {
        _ = removeChapters()
        let width = max(3, String(chapters.count).count)
        for (index, chapter) in chapters.enumerated() {
            let number = String(repeating: "0", count: width - String(index + 1).count) + String(index + 1)
            comment.fields.append(VorbisComment.Field(name: "CHAPTER" + number, value: chapter.start.description))
            comment.fields.append(VorbisComment.Field(name: "CHAPTER" + number + "NAME", value: chapter.title))
            if let url = chapter.url { comment.fields.append(VorbisComment.Field(name: "CHAPTER" + number + "URL", value: url)) }
        }
        return []
    }

    @discardableResult
    mutating func removeChapters() -> Bool {
        let before = comment.fields.count
        comment.fields.removeAll { Self.isChapterField($0.key) }
        return comment.fields.count != before
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
