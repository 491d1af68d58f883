import MediaBytes

/// The name of one native metadata item, in the `keySpace/key` form AV Foundation uses for
/// its metadata identifiers: `itsk/%A9nam`, `mdta/com.apple.quicktime.title`, `id3/TIT2`.
///
/// Spelling rules (the key part):
/// - Bytes outside printable ASCII (0x20-0x7E), and `%` itself, are written `%XX` (two
///   uppercase hexadecimal digits). A four-character code is taken byte for byte, so the iTunes
///   title atom `0xA9 'n' 'a' 'm'` is `itsk/%A9nam`; a string key (QuickTime metadata key, ID3
///   description) is escaped as its UTF-8 bytes. Parsing also accepts the characters themselves
///   (`itsk/©nam`), read as ISO-8859-1 for four-character codes.
/// - `itlk/MEAN:NAME` is an iTunes freeform item `----` (`itlk/com.apple.iTunes:MusicBrainz
///   Track Id`); the first colon ends MEAN.
/// - `id3/ID` is an ID3v2 frame (v2.3/v2.4 identifier); frames told apart by a string add it
///   after a colon: `id3/TXXX:DESCRIPTION`, `id3/WXXX:DESCRIPTION`, `id3/COMM:DESCRIPTION`,
///   `id3/USLT:DESCRIPTION`, `id3/UFID:OWNER`, `id3/PRIV:OWNER`, `id3/GEOB:DESCRIPTION`,
///   `id3/POPM:EMAIL`, `id3/CHAP:ELEMENT`, `id3/CTOC:ELEMENT`, `id3/APIC:PICTURETYPE`
///   (`id3/COMM` alone is the comment without description).
/// - `udta/TYPE` is a QuickTime user-data item, `3gpp/TYPE` a 3GPP asset in user data,
///   `id3v1/FIELD` a field of an ID3v1 tag (read only: it mirrors the ID3v2 tag), `riff/ID` a
///   RIFF `INFO` entry (or an AIFF text chunk: `NAME`, `AUTH`, `(c) `, `ANNO`), `id32/ID` a frame of the ID3v2 tag in an MP4 `ID32` box (qualified as
///   in `id3/`), `xmp/uuid` an MP4 file's XMP packet (read only), `ape/KEY` an item of an APE
///   tag (`ape/Cover Art (Front)`), `vorbis/NAME` the fields of a Vorbis comment named NAME
///   (upper case), `flac/PICTURE[n]` the n-th FLAC picture (a FLAC `PICTURE` block, an Ogg
///   `METADATA_BLOCK_PICTURE` field).
public struct MetadataIdentifier: Hashable, Sendable, CustomStringConvertible {
    public var keySpace: KeySpace
    /// The key, unescaped (`©nam` as the ISO-8859-1 reading of its bytes).
    public var key: String

    public init(_ keySpace: KeySpace, _ key: String) {
        self.keySpace = keySpace
        self.key = key
    }

    /// The key spaces, named as AV Foundation names them where it has a name.
    public struct KeySpace: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// iTunes item list items (`ilst` children other than `----`).
        public static let iTunes = KeySpace(rawValue: "itsk")
        /// iTunes freeform items (`----` with `mean` and `name`).
        public static let iTunesLong = KeySpace(rawValue: "itlk")
        /// QuickTime user data (`udta` children).
        public static let quickTimeUserData = KeySpace(rawValue: "udta")
        /// QuickTime metadata (`meta` with handler `mdta`, string keys).
        public static let quickTimeMetadata = KeySpace(rawValue: "mdta")
        /// 3GPP asset items (TS 26.244) in user data.
        public static let threeGPP = KeySpace(rawValue: "3gpp")
        /// ID3v2 frames.
        public static let id3 = KeySpace(rawValue: "id3")
        /// ID3v1 fields (read only).
        public static let id3v1 = KeySpace(rawValue: "id3v1")
        /// RIFF `INFO` list entries of a WAV file, and an AIFF file's text chunks.
        public static let riffInfo = KeySpace(rawValue: "riff")
        /// ID3v2 frames of the tag in an MP4 file's `ID32` box (`meta` with handler `ID32`),
        /// named as in `id3/`.
        public static let id32 = KeySpace(rawValue: "id32")
        /// The XMP packet of an MP4 file (`xmp/uuid`: the top-level `uuid` atom); read only.
        public static let xmp = KeySpace(rawValue: "xmp")
        /// Items of an APE tag (`ape/Title`, `ape/Cover Art (Front)`), keys as stored.
        public static let ape = KeySpace(rawValue: "ape")

        /// Vorbis comment fields (`vorbis/TITLE`), by their upper-case name.
        public static let vorbis = KeySpace(rawValue: "vorbis")
        /// FLAC picture structures (`flac/PICTURE[0]`), in file order: a FLAC file's `PICTURE`
        /// blocks, an Ogg file's `METADATA_BLOCK_PICTURE` fields.
        public static let flac = KeySpace(rawValue: "flac")

        public static let all: [KeySpace] = [.iTunes, .iTunesLong, .quickTimeUserData, .quickTimeMetadata, .threeGPP, .id3, .id3v1, .riffInfo, .id32, .xmp, .ape, .vorbis, .flac]

        /// True for the spaces whose keys are four-character codes.
        var hasFourCharacterKeys: Bool { self == .iTunes || self == .quickTimeUserData || self == .threeGPP || self == .riffInfo }
    }

    /// The identifier of a four-character-code item.
    public init(_ keySpace: KeySpace, _ code: FourCC) {
        self.init(keySpace, code.description)
    }

    /// The identifier of an iTunes freeform item.
    public static func freeform(mean: String, name: String) -> MetadataIdentifier {
        MetadataIdentifier(.iTunesLong, mean + ":" + name)
    }

    /// The four-character code of the key, for the spaces that have them.
    public var fourCC: FourCC? { keySpace.hasFourCharacterKeys ? FourCC(latin1: key) : nil }

    /// The mean and name of an `itlk` identifier.
    public var freeformParts: (mean: String, name: String)? {
        guard keySpace == .iTunesLong, let (mean, name) = key.keyParts else { return nil }
        return (mean, name)
    }

    /// The frame identifier and qualifier of an `id3` or `id32` identifier (`TXXX`, `CATALOGNUMBER`).
    public var id3Parts: (frame: String, qualifier: String?) {
        guard let (frame, qualifier) = key.keyParts else { return (key, nil) }
        return (frame, qualifier)
    }

    public var description: String {
        var text = ""
        withDescriptionUTF8 { text = String(decoding: $0, as: UTF8.self) }
        return text
    }

    /// Calls `body` with the UTF-8 of `description` (valid during the call only), written into
    /// a buffer on the stack: a listing writes identifiers without making a string of each.
    public func withDescriptionUTF8(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var key = self.key
        key.withUTF8 { utf8 in
            // A four-character code's key is its four bytes read as ISO-8859-1 (`©nam` is
            // %A9nam); in ASCII those are its UTF-8.
            if keySpace.hasFourCharacterKeys, utf8.contains(where: { $0 >= 0x80 }), let code = FourCC(latin1: self.key) {
                withUnsafeBytes(of: code.rawValue.bigEndian) { Self.describe(keySpace, $0, body) }
            } else {
                Self.describe(keySpace, UnsafeRawBufferPointer(utf8), body)
            }
        }
    }

    /// `space/key`: the key's bytes that are printable ASCII other than `%` as they are, every
    /// other byte as `%XX`.
    private static func describe(_ space: KeySpace, _ key: UnsafeRawBufferPointer, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var name = space.rawValue
        name.withUTF8 { name in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: name.count + 1 + 3 * key.count) { out in
                let digits: StaticString = "0123456789ABCDEF"
                var count = 0
                for byte in name {
                    out[count] = byte
                    count += 1
                }
                out[count] = UInt8(ascii: "/")
                count += 1
                for byte in key {
                    if byte >= 0x20 && byte <= 0x7E && byte != UInt8(ascii: "%") {
                        out[count] = byte
                        count += 1
                    } else {
                        out[count] = UInt8(ascii: "%")
                        out[count + 1] = digits.utf8Start[Int(byte >> 4)]
                        out[count + 2] = digits.utf8Start[Int(byte & 0xF)]
                        count += 3
                    }
                }
                body(UnsafeBufferPointer(rebasing: out[..<count]))
            }
        }
    }

    /// Reads `text` as an identifier; nil when it has no known key space before a `/`, or its
    /// key is empty or badly escaped, or not four bytes in a four-character-code space.
    public init?(parsing text: String) {
        guard let slash = text.firstIndex(of: "/") else { return nil }
        let space = KeySpace(rawValue: String(text[..<slash]).lowercased())
        guard KeySpace.all.contains(space) else { return nil }
        let escaped = String(text[text.index(after: slash)...])
        guard !escaped.isEmpty, let bytes = Self.unescape(escaped) else { return nil }
        if space.hasFourCharacterKeys {
            // Characters typed as themselves (`©nam`) count as ISO-8859-1 bytes.
            let decoded = String(decoding: bytes, as: UTF8.self)
            if bytes.count == 4 {
                key = TextDecoding.latin1(bytes)
            } else if let code = FourCC(latin1: decoded) {
                key = code.description
            } else {
                return nil
            }
        } else {
            key = String(decoding: bytes, as: UTF8.self)
        }
        keySpace = space
    }

    static func unescape(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        let utf8 = Array(text.utf8)
        var i = 0
        while i < utf8.count {
            if utf8[i] == UInt8(ascii: "%") {
                guard i + 2 < utf8.count, let high = hex(utf8[i + 1]), let low = hex(utf8[i + 2]) else { return nil }
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(utf8[i])
                i += 1
            }
        }
        return out
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
