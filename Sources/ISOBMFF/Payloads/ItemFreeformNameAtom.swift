import MediaBytes

/// `mean` and `name` of a freeform `----` item: the reverse-DNS owner (usually
/// `com.apple.iTunes`) and the item's name, each a full box followed by UTF-8 text.
public struct ItemFreeformNameAtom: AtomPayload, Hashable {
    public var header: FullBoxHeader
    public var text: String

    /// The file bytes of the text.
    var textRange: Range<UInt64>?

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        let start = reader.offset
        text = reader.readRemainingUTF8()
        if reader.offset > start { textRange = start..<reader.offset }
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] { header.fields + [DescribedField("value", .text(text), range: textRange)] }
    public var summary: String { "\"\(text)\"" }
}
