import MediaBytes

/// `mean` and `name` of a freeform `----` item: the reverse-DNS owner (usually
/// `com.apple.iTunes`) and the item's name, each a full box followed by UTF-8 text.
public struct ItemFreeformNameAtom: AtomPayload, Hashable {
    public var header: FullBoxHeader
    public var text: String

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        text = reader.readRemainingUTF8()
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] { header.fields + [DescribedField("value", text)] }
    public var summary: String { "\"\(text)\"" }
}
