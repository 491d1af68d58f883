import MediaBytes

/// A RIFF `LIST` chunk of form type `INFO` (Microsoft/IBM Multimedia Programming Interface and
/// Data Specifications 1.0, "INFO List Chunk"): text entries such as `INAM` (title), `IART`
/// (artist), `ICMT` (comment), each a chunk of NUL-terminated text padded to an even length.
public struct RIFFInfoList: Sendable, Hashable {
    public struct Entry: Sendable, Hashable {
        public var id: FourCC
        public var value: String
        public init(_ id: FourCC, _ value: String) {
            self.id = id
            self.value = value
        }
    }

    /// Where the entries live: a WAV file's `LIST`/`INFO` chunk, or an AIFF file's own text
    /// chunks (`NAME`, `AUTH`, `(c) `, `ANNO`; AIFF 1.3 and AIFF-C, "Text Chunks"), each a
    /// top-level chunk of plain text, which the same key mapping serves.
    public enum Form: Sendable, Hashable { case riffInfo, aiffText }

    public var entries: [Entry]
    public var form: Form

    public init(_ entries: [Entry] = [], form: Form = .riffInfo) {
        self.entries = entries
        self.form = form
    }

    /// The same list with other entries.
    public func with(_ entries: [Entry]) -> RIFFInfoList { RIFFInfoList(entries, form: form) }

    /// The AIFF text chunks and the `INFO` entries that say the same.
    public static let aiffTextIDs: [FourCC: FourCC] = ["NAME": "INAM", "AUTH": "IART", "(c) ": "ICOP", "ANNO": "ICMT"]

    /// `INFO` IDs other programs write for what an ID of the table says: `ITRK`, the track
    /// number as ffmpeg, ExifTool and many players read and write it, beside `IPRT` (TagLib's).
    /// Read as the native items they are (TagLib gives them no key); an edit of the table's ID
    /// rewrites or removes them too, so that no reader is left with an old value.
    public static let sameMeaningIDs: [FourCC: [FourCC]] = ["IPRT": ["ITRK"]]

    /// The `INFO` ID an entry of this list stands for (itself in an `INFO` list); nil for an
    /// ID an AIFF file does not have.
    public func infoID(of id: FourCC) -> FourCC? { form == .riffInfo ? id : Self.aiffTextIDs[id] }

    /// The ID this list writes for the `INFO` ID `id`; nil when an AIFF file has no such chunk.
    public func nativeID(forInfo id: FourCC) -> FourCC? {
        form == .riffInfo ? id : Self.aiffTextIDs.first { $0.value == id }?.key
    }

    /// The bytes of the chunks that hold the entries: the `LIST` chunk, or one AIFF text chunk
    /// per entry (big-endian size, the text without a terminator, a pad byte to an even length).
    public var bytes: [UInt8] {
        guard form == .aiffText else { return chunkBytes }
        var bytes: [UInt8] = []
        for entry in entries {
            let text = Array(entry.value.utf8)
            let size = UInt32(text.count)
            bytes += entry.id.bytes + [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + text
            if text.count % 2 == 1 { bytes.append(0) }
        }
        return bytes
    }

    /// The whole `LIST` chunk (header, `INFO`, entries), little-endian sizes. Text is written
    /// as UTF-8 (what the reader tries first) with its terminating NUL.
    public var chunkBytes: [UInt8] {
        var body: [UInt8] = Array("INFO".utf8)
        for entry in entries {
            let text = Array(entry.value.utf8) + [0]
            body += entry.id.bytes + Self.littleEndian(UInt32(text.count)) + text
            if text.count % 2 == 1 { body.append(0) }
        }
        return Array("LIST".utf8) + Self.littleEndian(UInt32(body.count)) + body
    }

    static func littleEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }
}
