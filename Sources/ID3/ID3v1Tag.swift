import MediaBytes

/// An ID3v1 or v1.1 tag: the last 128 bytes of a file, starting `TAG` (fixed-width
/// ISO-8859-1 fields; v1.1 keeps a track number in the last two bytes of the comment).
public struct ID3v1Tag: Sendable, Hashable {
    public static let size = 128

    public var title: String
    public var artist: String
    public var album: String
    public var year: String
    public var comment: String
    /// v1.1 track number (nil in v1.0 tags).
    public var track: UInt8?
    /// Index into `ID3Genres`; 255 means none.
    public var genreIndex: UInt8

    /// Reads the 128 bytes of a tag; nil when they do not start with `TAG`.
    public init?(_ bytes: [UInt8]) { self.init(bytes[...]) }

    /// Reads the 128 bytes of a tag from any collection of bytes (copied first); nil when they
    /// do not start with `TAG`.
    public init?<C: Collection>(_ bytes: C) where C.Element == UInt8 { self.init(Array(bytes)[...]) }

    /// Reads the 128 bytes of a tag, looked at in place; nil when they do not start with `TAG`.
    public init?(_ bytes: ArraySlice<UInt8>) {
        // Offsets below are from the tag's start.
        let base = bytes.startIndex
        guard bytes.count == Self.size, bytes[base] == 0x54, bytes[base + 1] == 0x41, bytes[base + 2] == 0x47 else { return nil }
        func field(_ range: Range<Int>) -> String {
            let raw = bytes[base + range.lowerBound..<base + range.upperBound]
            let end = raw.firstIndex(of: 0) ?? raw.endIndex
            var text = TextDecoding.latin1(raw[raw.startIndex..<end])
            while text.last == " " { text.removeLast() }
            return text
        }
        title = field(3..<33)
        artist = field(33..<63)
        album = field(63..<93)
        year = field(93..<97)
        if bytes[base + 125] == 0 && bytes[base + 126] != 0 {
            comment = field(97..<125)
            track = bytes[base + 126]
        } else {
            comment = field(97..<127)
            track = nil
        }
        genreIndex = bytes[base + 127]
    }

    /// The genre name, when the index is in the table.
    public var genre: String? { ID3Genres.name(Int(genreIndex)) }

    /// Each field by name with its value as text ("" when empty), as the tag reads back once
    /// written (`encoded`: cut to the field widths, in ISO-8859-1).
    public var fields: [(name: String, value: String)] {
        let written = ID3v1Tag(encoded) ?? self
        return [("title", written.title), ("artist", written.artist), ("album", written.album), ("year", written.year),
                ("comment", written.comment), ("track", written.track.map(String.init) ?? ""), ("genre", written.genre ?? "")]
    }

    public init(title: String = "", artist: String = "", album: String = "", year: String = "", comment: String = "", track: UInt8? = nil, genreIndex: UInt8 = 255) {
        self.title = title
        self.artist = artist
        self.album = album
        self.year = year
        self.comment = comment
        self.track = track
        self.genreIndex = genreIndex
    }

    /// The v1 fields an ID3v2 tag gives: `TIT2`, `TPE1`, `TALB`, the year of `TDRC`/`TYER`,
    /// the first `COMM` without a description, the number of `TRCK`, and the first `TCON`
    /// genre that is in the table. Fields the v2 tag has no value for keep those of `existing`.
    public init(from tag: ID3v2Tag, keeping existing: ID3v1Tag? = nil) {
        self = existing ?? ID3v1Tag()
        func first(_ ids: String...) -> String? {
            for id in ids { if let value = tag.frames(id).first?.textValues?.first { return value } }
            return nil
        }
        if let value = first("TIT2") { title = value }
        if let value = first("TPE1") { artist = value }
        if let value = first("TALB") { album = value }
        if let value = first("TDRC", "TYER") { year = String(value.prefix(4)) }
        for frame in tag.frames("COMM") {
            if case .comment(_, _, "", let text) = frame.content.storage { comment = text; break }
        }
        if let value = first("TRCK"), let number = UInt8(value.split(separator: "/").first ?? "") { track = number == 0 ? nil : number }
        let genres = tag.frames("TCON").first?.textValues?.flatMap(ID3Genres.parse) ?? []
        if let index = genres.lazy.compactMap({ ID3Genres.index(of: $0) }).first { genreIndex = UInt8(index) }
    }

    /// The 128 bytes of the tag: ISO-8859-1 text cut to the field widths (other characters
    /// become `?`), v1.1 when there is a track number.
    public var encoded: [UInt8] {
        func field(_ text: String, _ width: Int) -> [UInt8] {
            let bytes = text.unicodeScalars.prefix(width).map { $0.value <= 0xFF ? UInt8($0.value) : 0x3F }
            return bytes + [UInt8](repeating: 0, count: width - bytes.count)
        }
        var bytes = Array("TAG".utf8) + field(title, 30) + field(artist, 30) + field(album, 30) + field(year, 4)
        bytes += track.map { field(comment, 28) + [0, $0] } ?? field(comment, 30)
        return bytes + [genreIndex]
    }
}
