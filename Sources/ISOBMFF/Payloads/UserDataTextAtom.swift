import MediaBytes

/// A QuickTime user-data text item such as `©nam` in `moov/udta` (QuickTime File Format,
/// "User data text strings and language codes"): one or more strings, each a 16-bit length,
/// a 16-bit language code and the text.
public struct UserDataTextAtom: AtomPayload, Hashable {
    public struct Entry: Sendable, Hashable {
        public var language: String
        public var text: String
    }

    public var entries: [Entry]

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        entries = []
        while reader.remaining >= 4 {
            let length = try reader.readUInt16()
            let language = try reader.readUInt16()
            let text = try reader.readBytes(Int(length))
            // Text under a Macintosh language code is Mac OS Roman (`UserDataItem.LocalizedText`).
            entries.append(Entry(language: LanguageCode.decode(language), text: UserDataItem.LocalizedText(decoding: text, languageCode: language).text))
        }
        guard reader.remaining == 0 || reader.readRemainingBytes().allSatisfy({ $0 == 0 }) else {
            throw AtomError(.invalidPayload, offset: context.atom.offset, message: "user-data text item ends with bytes that form no string")
        }
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        options.tableFields(entries) { .record([DescribedField("language", $0.language), DescribedField("text", $0.text)]) }
    }

    public var summary: String {
        entries.map { "\($0.language) \(FieldValue.text($0.text).summaryText)" }.joined(separator: "; ")
    }
}
