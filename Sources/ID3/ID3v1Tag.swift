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
    public init?<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        let b = Array(bytes)
        guard b.count == Self.size, b[0] == 0x54, b[1] == 0x41, b[2] == 0x47 else { return nil }
        func field(_ range: Range<Int>) -> String {
            let raw = b[range]
            let end = raw.firstIndex(of: 0) ?? raw.endIndex
            var text = TextDecoding.latin1(raw[raw.startIndex..<end])
            while text.last == " " { text.removeLast() }
            return text
        }
        title = field(3..<33)
        artist = field(33..<63)
        album = field(63..<93)
        year = field(93..<97)
        if b[125] == 0 && b[126] != 0 {
            comment = field(97..<125)
            track = b[126]
        } else {
            comment = field(97..<127)
            track = nil
        }
        genreIndex = b[127]
    }

    /// The genre name, when the index is in the table.
    public var genre: String? { ID3Genres.name(Int(genreIndex)) }
}
