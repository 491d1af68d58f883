import MediaBytes

/// One child of a user-data atom (`udta`) other than the metadata boxes: a QuickTime text item
/// (`©nam`, `©day`, `©xyz`...), a 3GPP asset (`titl`, `auth`, `loci`...), or anything else
/// (`name`, `chpl`, `XMP_`, vendor atoms), kept as its payload bytes.
///
/// An item that is not changed is written back exactly as it was read.
public struct UserDataItem: Sendable {
    public var type: FourCC
    /// The bytes after the header.
    public var payload: [UInt8]
    private var original: (bytes: [UInt8], payload: [UInt8])?

    public init(type: FourCC, payload: [UInt8]) {
        self.type = type
        self.payload = payload
        original = nil
    }

    init(_ atom: Atom, in tree: AtomTree) throws(AtomError) {
        let bytes = Array(try tree.bytes(at: atom.offset, count: Int(atom.size)))
        type = atom.type
        payload = Array(bytes[atom.headerSize...])
        original = (bytes, payload)
    }

    /// True when the item is as it was read.
    public var isUnchanged: Bool { original.map { $0.payload == payload } ?? false }

    /// The atom's bytes: the original ones when unchanged, otherwise newly encoded.
    public var encoded: [UInt8] {
        if let original, original.payload == payload { return original.bytes }
        var writer = ByteWriter(capacity: payload.count + 8)
        let start = writer.beginAtom(type)
        writer.writeBytes(payload)
        writer.endAtom(start)
        return writer.bytes
    }

    // MARK: - QuickTime text items

    /// A string of a QuickTime user-data text item in one language.
    public struct LocalizedText: Sendable, Hashable {
        /// The 16-bit language code: a Macintosh language code (0 = English) or packed ISO 639-2/T.
        public var languageCode: UInt16
        public var text: String

        public init(_ text: String, languageCode: UInt16 = LocalizedText.undetermined) {
            self.text = text
            self.languageCode = languageCode
        }

        /// The language as a three-letter code.
        public var language: String { LanguageCode.decode(languageCode) }

        /// True when `code` is a Macintosh language code (below 0x400, or QuickTime's
        /// "unspecified" 0x7FFF): the text is then in the Macintosh encoding of that language
        /// (Mac OS Roman for the Western ones), as QuickTime and ffmpeg read it; otherwise it
        /// is UTF-8 (or UTF-16 with a byte-order mark).
        public static func isMacintosh(_ code: UInt16) -> Bool { code < 0x400 || code == 0x7FFF }

        /// The text of stored `bytes` under language `code`.
        public init(decoding bytes: some Collection<UInt8>, languageCode code: UInt16) {
            let text: String
            if Self.isMacintosh(code) {
                text = TextDecoding.macRoman(bytes)
            } else if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
                text = TextDecoding.utf16(bytes)
            } else {
                text = String(decoding: bytes, as: UTF8.self)
            }
            self.init(text, languageCode: code)
        }

        /// The bytes and language code that store the text: Mac OS Roman under a Macintosh code
        /// when the text has no other characters, else UTF-8 (under `und` when the code was a
        /// Macintosh one), at most 65,535 bytes.
        public var stored: (bytes: [UInt8], languageCode: UInt16) {
            if Self.isMacintosh(languageCode) {
                if let bytes = TextDecoding.macRomanBytes(text), bytes.count <= Int(UInt16.max) { return (bytes, languageCode) }
                return (TextDecoding.utf8Bytes(of: text, maxBytes: Int(UInt16.max)), Self.undetermined)
            }
            return (TextDecoding.utf8Bytes(of: text, maxBytes: Int(UInt16.max)), languageCode)
        }

        /// Packed ISO 639-2/T `und`, what ffmpeg and Apple write when no language is set.
        public static let undetermined: UInt16 = 0x55C4
    }

    /// True for the types QuickTime stores as international text (a first byte of `©`).
    public var isTextType: Bool { type.rawValue >> 24 == 0xA9 }

    /// The strings of a QuickTime text item (16-bit length, 16-bit language, text; repeated),
    /// or nil when this is not a text item or its payload does not have that layout.
    public var texts: [LocalizedText]? {
        guard isTextType else { return nil }
        var reader = ByteReader(payload)
        var texts: [LocalizedText] = []
        while reader.remaining >= 4 {
            guard let length = try? reader.readUInt16(), let language = try? reader.readUInt16(),
                let text = try? reader.readBytes(Int(length))
            else { return nil }
            texts.append(LocalizedText(decoding: text, languageCode: language))
        }
        guard reader.readRemainingBytes().allSatisfy({ $0 == 0 }), !texts.isEmpty else { return nil }
        return texts
    }

    /// A QuickTime text item holding `texts` (one per language).
    public static func text(_ type: FourCC, _ texts: [LocalizedText]) -> UserDataItem {
        var writer = ByteWriter(capacity: 64)
        for text in texts {
            let (bytes, language) = text.stored
            writer.writeUInt16(UInt16(bytes.count))
            writer.writeUInt16(language)
            writer.writeBytes(bytes)
        }
        return UserDataItem(type: type, payload: writer.bytes)
    }

    // MARK: - 3GPP assets

    /// The 3GPP asset this item holds, when its type is one and it decodes.
    public var asset: ThreeGPPAsset? {
        guard ThreeGPPAsset.types.contains(type) else { return nil }
        return try? ThreeGPPAsset(type: type, payload: payload[...])
    }

    /// A user-data item holding `asset`.
    public init(asset: ThreeGPPAsset) {
        self.init(type: asset.type, payload: asset.encoded)
    }
}

extension UserDataItem: Equatable {
    public static func == (lhs: UserDataItem, rhs: UserDataItem) -> Bool {
        lhs.type == rhs.type && lhs.payload == rhs.payload
    }
}
