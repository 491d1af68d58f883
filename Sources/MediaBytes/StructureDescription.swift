/// One part of a file as its format describes it to the structure inspector: what it is, where
/// its bytes are, its decoded fields (each with the bytes it was read from), a one-line
/// summary, the problems met decoding it, and the parts inside it.
///
/// Each format's module describes its own parts (ID3 its tags and frames, APEv2 its items,
/// Carriers the chunks, blocks, pages and stream headers of the files that carry them); the
/// inspector (`MediaToolSupport`) renders what they describe as its tree, JSON, browser and
/// HTML page, and knows no frame, item or chunk layout. Paths are made there: a part is named
/// by its `name` (its type unless it says otherwise) with its index among siblings of that
/// name.
public struct StructureDescription: Sendable {
    /// What kind of part it is.
    public enum Kind: String, Sendable, Hashable {
        case chunk, tag, frame, item, stream, block, page
    }

    public var kind: Kind
    /// The type as shown: a chunk ID, a frame ID, an item key, a name (`ID3v2`, `mpeg`).
    public var type: String
    /// The name a path calls the part by, indexed among its siblings of the same name (a
    /// Vorbis comment field stored as `title` is `TITLE`); the type when nil.
    public var name: String?
    public var offset: UInt64
    public var size: UInt64
    /// The bytes of the part's own header (its payload follows).
    public var headerSize: Int
    /// Short remarks on the header for the text view (`declares 100: truncated`).
    public var notes: [String]
    public var fields: [DescribedField]
    public var summary: String
    public var diagnostics: [Diagnostic]
    public var children: [StructureDescription]
    /// Details too costly to work out before they are asked for (an Ogg file's audio pages,
    /// each read and checked): when set, what it returns is shown instead of `fields`,
    /// `summary` and `diagnostics`, with its table.
    public var deferred: (@Sendable () -> Deferred)?

    /// The details a `deferred` part works out when asked.
    public struct Deferred: Sendable {
        public var fields: [DescribedField]
        public var summary: String
        public var diagnostics: [Diagnostic]
        public var table: DescribedTable?

        public init(fields: [DescribedField] = [], summary: String, diagnostics: [Diagnostic] = [], table: DescribedTable? = nil) {
            self.fields = fields
            self.summary = summary
            self.diagnostics = diagnostics
            self.table = table
        }
    }

    public init(_ kind: Kind, type: String, name: String? = nil, offset: UInt64, size: UInt64, headerSize: Int, notes: [String] = [],
                fields: [DescribedField] = [], summary: String = "", diagnostics: [Diagnostic] = [], children: [StructureDescription] = [],
                deferred: (@Sendable () -> Deferred)? = nil) {
        self.kind = kind
        self.type = type
        self.name = name
        self.offset = offset
        self.size = size
        self.headerSize = headerSize
        self.notes = notes
        self.fields = fields
        self.summary = summary
        self.diagnostics = diagnostics
        self.children = children
        self.deferred = deferred
    }

    /// The name a path calls the part by.
    public var pathName: String { name ?? type }

    /// The part as far as the file has it: one whose size runs past `end` (a tag cut short)
    /// spans what is there, with the size it declares in `declaredSize` and a note, as an
    /// atom does; `extract` and `hex` then give the bytes that exist.
    public func cut(at end: UInt64) -> StructureDescription {
        guard offset + size > end else { return self }
        var part = self
        part.fields.append(DescribedField("declaredSize", size))
        part.notes.append("declares \(size): truncated")
        part.size = end > offset ? end - offset : 0
        return part
    }
}

/// A table of a described part (every page of an Ogg stream), its rows made a page at a time.
public struct DescribedTable: Sendable {
    /// One row: a value per column, and the bytes of the entry.
    public struct Row: Sendable {
        public var index: Int
        public var values: [FieldValue]
        public var range: Range<UInt64>?

        public init(index: Int, values: [FieldValue], range: Range<UInt64>? = nil) {
            self.index = index
            self.values = values
            self.range = range
        }
    }

    public var title: String
    public var columns: [String]
    public var rowCount: Int
    /// The rows in a range of indexes within `0..<rowCount`.
    public let rows: @Sendable (Range<Int>) -> [Row]

    public init(title: String, columns: [String], rowCount: Int, rows: @escaping @Sendable (Range<Int>) -> [Row]) {
        self.title = title
        self.columns = columns
        self.rowCount = rowCount
        self.rows = rows
    }
}

/// A file layout that describes its parts to the inspector (each carrier: MPEG stream, IFF
/// chunks, FLAC blocks, Ogg pages, transport stream).
public protocol StructureDescribing: Sendable {
    /// The file's top-level parts, in file order.
    var structure: DescribedParts { get }
    /// The problems met reading the layout.
    var diagnostics: [Diagnostic] { get }
}

/// The top-level parts of a file, described one at a time when asked for (a transport stream
/// of 200,000 timed events is not described at once): how many there are, the name and bytes
/// of each (for paths and offset look-ups), and each part's description.
public struct DescribedParts: Sendable {
    public let count: Int
    public let name: @Sendable (Int) -> String
    public let range: @Sendable (Int) -> Range<UInt64>
    public let describe: @Sendable (Int) -> StructureDescription

    public init(count: Int, name: @escaping @Sendable (Int) -> String, range: @escaping @Sendable (Int) -> Range<UInt64>,
                describe: @escaping @Sendable (Int) -> StructureDescription) {
        self.count = count
        self.name = name
        self.range = range
        self.describe = describe
    }

    /// Parts already described, in file order.
    public init(_ parts: [StructureDescription]) {
        self.init(count: parts.count, name: { parts[$0].pathName }, range: { parts[$0].offset..<parts[$0].offset &+ parts[$0].size },
                  describe: { parts[$0] })
    }
}
