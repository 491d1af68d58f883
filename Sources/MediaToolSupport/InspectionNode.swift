import ISOBMFF
import MediaBytes

/// One thing `atominspect` shows: an atom, a RIFF/AIFF chunk, an ID3 tag or frame, an APE item,
/// an audio stream header. The text tree, JSON, hex dumps, extraction, the browser and the HTML
/// view all render from this one model.
///
/// A node knows its place (type, byte range, path) at once; its `children` and `details`
/// (fields, summary, diagnostics, table) are produced when asked for, so a file opens without
/// decoding anything below the top level, and a million-entry table is read a page at a time.
public struct InspectionNode: Sendable {
    /// What kind of structure a node is.
    public struct Kind: RawRepresentable, Sendable, Hashable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let atom = Kind(rawValue: "atom")
        public static let chunk = Kind(rawValue: "chunk")
        public static let tag = Kind(rawValue: "tag")
        public static let frame = Kind(rawValue: "frame")
        public static let item = Kind(rawValue: "item")
        public static let stream = Kind(rawValue: "stream")
        public static let block = Kind(rawValue: "block")
        public static let page = Kind(rawValue: "page")
        /// The rest of a long list of siblings: its children are the next page of them (and,
        /// when more follow, another such node). Views that list everything (the text tree,
        /// JSON) show its children in its place; the browser and the HTML page show it as a
        /// node to open. A listing cut at its limit of nodes ends a list in one such node for
        /// the siblings left out (fields `listedFrom`, `more`, `notListed`), shown as it is.
        public static let more = Kind(rawValue: "more")
    }

    public var kind: Kind
    /// The type as shown in JSON: four ISO-8859-1 characters for atoms and chunks, the frame
    /// identifier for ID3 frames, a name (`ID3v2`, `TAG`, `mpeg`, `adts`) otherwise.
    public var type: String
    /// The name its path calls it by when that is not its type (a Vorbis comment field stored
    /// as `title` is `TITLE` in paths); nil otherwise.
    public var pathName: String?
    public var offset: UInt64
    public var size: UInt64
    public var headerSize: Int
    /// `moov/trak[1]/mdia`, `ID3v2/TXXX[2]`: components are types with their 0-based index among
    /// siblings of the same type, omitted when the type occurs once.
    public var path: String {
        get { pathText ?? producer.path ?? "" }
        set { pathText = newValue }
    }
    /// The path as given, or nil when the producer makes it when first asked for (the text
    /// tree of a million atoms never asks).
    private var pathText: String?
    /// Short remarks on the header for the text view, such as `64-bit size`.
    public var notes: [String]
    /// Extra JSON members placed before `fields` (`uuid`, `sizeForm`).
    public var extra: [(String, JSONValue)]
    /// Whether the node has children, known without producing them.
    public var hasChildren: Bool

    /// Types whose payload is media (coded audio and video, image data, bytes before the first
    /// audio frame): the HTML page shows their header only, `diff --structure-only` compares
    /// their size, not their bytes.
    public static let mediaTypes: Set<String> = ["mdat", "idat", "mpeg", "adts", "junk"]

    /// True when the node's payload is media (`mediaTypes`).
    public var holdsMedia: Bool { Self.mediaTypes.contains(type) }
    let producer: any InspectionProducer

    /// A node whose children, details and path `producer` makes when first asked for (each
    /// time: callers that show a node repeatedly keep what they got).
    init(kind: Kind, type: String, offset: UInt64, size: UInt64, headerSize: Int, notes: [String] = [],
         extra: [(String, JSONValue)] = [], hasChildren: Bool, producer: some InspectionProducer) {
        self.kind = kind
        self.type = type
        self.offset = offset
        self.size = size
        self.headerSize = headerSize
        self.notes = notes
        self.extra = extra
        self.hasChildren = hasChildren
        self.producer = producer
    }

    /// A node whose children and details are produced when first asked for. `brief`, when
    /// given, makes the summary and diagnostics without the fields, references and table (the
    /// text tree needs no more).
    init(kind: Kind, type: String, offset: UInt64, size: UInt64, headerSize: Int, path: String, notes: [String] = [],
         extra: [(String, JSONValue)] = [], hasChildren: Bool,
         children: @escaping @Sendable () -> [InspectionNode], details: @escaping @Sendable () -> InspectionDetails,
         brief: (@Sendable () -> InspectionBrief)? = nil) {
        self.init(kind: kind, type: type, offset: offset, size: size, headerSize: headerSize, notes: notes, extra: extra,
                  hasChildren: hasChildren, producer: ClosureProducer(children: children, details: details, makeBrief: brief))
        pathText = path
    }

    /// A node whose children and details are already known.
    public init(
        kind: Kind, type: String, offset: UInt64, size: UInt64, headerSize: Int, path: String, notes: [String] = [],
        extra: [(String, JSONValue)] = [], fields: [InspectionField] = [], summary: String = "", diagnostics: [Diagnostic] = [],
        references: [InspectionReference] = [], table: InspectionTable? = nil, children: [InspectionNode] = []
    ) {
        let details = InspectionDetails(fields: fields, summary: summary, references: references, diagnostics: diagnostics, table: table)
        self.init(kind: kind, type: type, offset: offset, size: size, headerSize: headerSize, path: path, notes: notes, extra: extra,
                  hasChildren: !children.isEmpty, children: { children }, details: { details })
    }

    /// The nodes inside this one, in file order.
    public var children: [InspectionNode] { hasChildren ? producer.children() : [] }

    /// The decoded fields, summary, references, diagnostics and table.
    public var details: InspectionDetails { producer.details() }

    /// The summary and the diagnostics of decoding the node, as `details` has them, made
    /// without the rest where the node knows a cheaper way.
    public var brief: InspectionBrief { producer.brief() }

    /// The node's bytes, header included.
    public var range: Range<UInt64> { offset..<offset &+ size }

    /// The bytes after the header.
    public var payloadRange: Range<UInt64> { min(offset &+ UInt64(headerSize), range.upperBound)..<range.upperBound }

    /// The type as every view names it, the way its path does: printable ISO-8859-1 as is,
    /// control bytes and the path's own `%`, `/`, `[`, `]` as `%XX` (`PathEscaping`). The tree,
    /// the browser, `--path` and the HTML page show one name for one type.
    public var displayType: String { PathEscaping.escape(type) }

    /// The same node at another path (its children keep theirs).
    func moved(to path: String) -> InspectionNode {
        var node = self
        node.path = path
        return node
    }
}

/// What makes a node's children, details and path when they are asked for. A producer of a
/// few words (a reference to what it reads and an index) is kept inline in the node, so a list
/// of a million nodes makes no box per node.
protocol InspectionProducer: Sendable {
    func children() -> [InspectionNode]
    func details() -> InspectionDetails
    /// The summary and diagnostics alone, where they cost less than the details.
    func brief() -> InspectionBrief
    /// The node's path, for a producer that makes it (nil: the node was given its path).
    var path: String? { get }
}

extension InspectionProducer {
    func brief() -> InspectionBrief { InspectionBrief(of: details()) }

    var path: String? { nil }
}

/// A producer made of closures (a box of them per node): the nodes of the formats other than
/// ISO-BMFF, made a page at a time.
struct ClosureProducer: InspectionProducer {
    let makeChildren: @Sendable () -> [InspectionNode]
    let makeDetails: @Sendable () -> InspectionDetails
    let makeBrief: (@Sendable () -> InspectionBrief)?

    init(children: @escaping @Sendable () -> [InspectionNode], details: @escaping @Sendable () -> InspectionDetails,
         makeBrief: (@Sendable () -> InspectionBrief)?) {
        makeChildren = children
        makeDetails = details
        self.makeBrief = makeBrief
    }

    func children() -> [InspectionNode] { makeChildren() }
    func details() -> InspectionDetails { makeDetails() }
    func brief() -> InspectionBrief { makeBrief?() ?? InspectionBrief(of: makeDetails()) }
}

extension InspectionNode {
    /// The most sibling nodes one list holds: a parent with more children (a million `free`
    /// atoms, half a million `ilst` items) lists this many and then one `.more` node holding
    /// the next page, so producing a list costs a page of nodes whatever the file claims.
    public static let pageSize = 4096

    /// The nodes `start..<count` of a list of `count` siblings, a page at a time: the first
    /// `pageSize` made by `node`, then a `.more` node whose children continue the list.
    /// `range(i)` is the byte range of sibling `i` (known without making its node).
    static func paged(count: Int, from start: Int = 0, parentPath: String,
                      range: @escaping @Sendable (Int) -> Range<UInt64>, node: @escaping @Sendable (Int) -> InspectionNode) -> [InspectionNode] {
        let end = min(count, start + pageSize)
        var nodes = (start..<end).map(node)
        guard end < count else { return nodes }
        let first = range(end).lowerBound
        let last = range(count - 1).upperBound
        let rest = count - end
        nodes.append(InspectionNode(
            kind: .more, type: "…", offset: first, size: last >= first ? last - first : 0, headerSize: 0,
            path: (parentPath.isEmpty ? "" : parentPath + "/") + "…\(end)", notes: ["\(rest) more, from #\(end)"], hasChildren: true,
            children: { paged(count: count, from: end, parentPath: parentPath, range: range, node: node) },
            details: {
                InspectionDetails(fields: [InspectionField("listedFrom", .int(Int64(end))), InspectionField("more", .int(Int64(rest)))],
                                  summary: "\(rest) more siblings, listed \(pageSize) at a time")
            }))
        return nodes
    }

    /// Calls `body` with each of these nodes, as `forEachListed(_:_:)` does, while `budget`
    /// lasts: once it is spent, `body` gets one `.more` node standing for the rest of the list
    /// (not listed), and the walk stops. The views that list everything stop after a number of
    /// nodes this way, so a hostile file's listing ends in bounded time, and says where.
    static func forEachListed(_ nodes: [InspectionNode], budget: ListingBudget, _ body: (InspectionNode) -> Void) {
        var page = nodes
        var listed = 0
        while true {
            var more: InspectionNode?
            for (i, node) in page.enumerated() {
                if node.kind == .more {
                    more = node
                    continue
                }
                guard budget.take() else {
                    let rest = unlisted(page[i...], from: listed)
                    if budget.firstUnlisted == nil { budget.firstUnlisted = rest }
                    body(rest)
                    return
                }
                body(node)
                listed += 1
            }
            guard let more else { return }
            page = []
            page = more.children
        }
    }

    /// A `.more` node for siblings left unlisted: `rest` (the rest of a page, maybe ending in
    /// the `.more` node of the next pages), the first of them sibling number `from`.
    static func unlisted(_ rest: ArraySlice<InspectionNode>, from start: Int) -> InspectionNode {
        var count = 0
        for node in rest {
            if node.kind == .more, case .int(let more)? = node.details.fields.first(where: { $0.name == "more" })?.value {
                count += Int(more)
            } else {
                count += 1
            }
        }
        let first = rest.first!
        let end = rest.map(\.range.upperBound).max() ?? first.offset
        let path = first.path
        let parentPath = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(path[..<$0]) + "/" } ?? ""
        let siblings = Array(rest)
        let left = count
        return InspectionNode(
            kind: .more, type: "…", offset: first.offset, size: end >= first.offset ? end - first.offset : 0, headerSize: 0,
            path: parentPath + "…\(start)", notes: ["\(left) more, from #\(start), not listed"], hasChildren: true,
            children: { siblings },
            details: {
                InspectionDetails(fields: [InspectionField("listedFrom", .int(Int64(start))), InspectionField("more", .int(Int64(left))),
                                           InspectionField("notListed", .bool(true))],
                                  summary: "\(left) more siblings, not listed: the listing stopped at its limit of nodes")
            })
    }

    /// Calls `body` with each of these nodes, a `.more` node replaced by the siblings it
    /// holds: the pages are produced one after another, each dropped before the next.
    public static func forEachListed(_ nodes: [InspectionNode], _ body: (InspectionNode) -> Void) {
        forEachListed(nodes, budget: ListingBudget(limit: nil), body)
    }
}

/// How many more nodes a listing may show (`nil`: every node), and whether it was cut: one
/// object that the walk of every level of a listing spends from.
public final class ListingBudget {
    /// The number of nodes the views that list everything show by default: a file of real
    /// media (an hour of fragments, a long chapter list) has far fewer; a hostile one is cut
    /// here and says so.
    public static let defaultLimit = 200_000

    public let limit: Int?
    private var left: Int
    /// True once a node was left unlisted.
    public private(set) var wasCut = false
    /// The first node standing for siblings left out.
    fileprivate(set) var firstUnlisted: InspectionNode?

    public init(limit: Int?) {
        self.limit = limit
        left = limit ?? .max
    }

    /// Spends one node; false (and cut) when none is left.
    func take() -> Bool {
        guard left > 0 else {
            wasCut = true
            return false
        }
        left -= 1
        return true
    }

    /// The note a cut listing ends with: how many nodes it showed, at which node it stopped.
    var cutDiagnostic: Diagnostic? {
        guard wasCut, let limit else { return nil }
        let node = firstUnlisted
        return Diagnostic(.note, code: "listingCut", offset: node?.offset ?? 0, path: node?.path ?? "",
                          message: "the listing stops after \(limit) nodes (--max-nodes); nodes left out are shown as '…' with their count")
    }
}

/// A node's summary and the diagnostics of decoding it: what the text tree shows of it.
public struct InspectionBrief: Sendable {
    public var summary: String
    public var diagnostics: [Diagnostic]

    public init(summary: String, diagnostics: [Diagnostic]) {
        self.summary = summary
        self.diagnostics = diagnostics
    }

    /// The summary and diagnostics `details` has.
    init(of details: InspectionDetails) {
        self.init(summary: details.summary, diagnostics: details.diagnostics)
    }
}

/// What a node says about itself beyond its place: decoded fields, a one-line summary,
/// references to other bytes of the file, the problems met decoding it, and a table of entries
/// read page by page.
public struct InspectionDetails: Sendable {
    public var fields: [InspectionField]
    public var summary: String
    /// Where the node points as a whole (its fields and table rows may point too).
    public var references: [InspectionReference]
    public var diagnostics: [Diagnostic]
    public var table: InspectionTable?

    public init(fields: [InspectionField] = [], summary: String = "", references: [InspectionReference] = [],
                diagnostics: [Diagnostic] = [], table: InspectionTable? = nil) {
        self.fields = fields
        self.summary = summary
        self.references = references
        self.diagnostics = diagnostics
        self.table = table
    }

    /// Every reference of the node: its own, then its fields'.
    public var allReferences: [InspectionReference] {
        references + fields.compactMap(\.reference)
    }
}

/// A decoded value of a node, with the bytes it was read from where it has its own, and where
/// it points.
public struct InspectionField: Sendable {
    public var name: String
    public var value: JSONValue
    public var range: Range<UInt64>?
    public var reference: InspectionReference?

    public init(_ name: String, _ value: JSONValue, range: Range<UInt64>? = nil, reference: InspectionReference? = nil) {
        self.name = name
        self.value = value
        self.range = range
        self.reference = reference
    }
}

/// A pointer from one place of a file to other bytes of it: a chunk offset to the chunk, a
/// sample size to the sample, a track reference to the track, an item to its value.
public struct InspectionReference: Sendable, Hashable {
    public enum Target: Sendable, Hashable {
        /// Bytes of the file (a chunk or sample in `mdat`, an item's extent).
        case bytes(Range<UInt64>)
        /// Another node, by path.
        case node(String)
    }

    /// What it points at, for people: `chunk 3`, `track 2`, `sample 17`.
    public var label: String
    public var target: Target

    public init(_ label: String, _ target: Target) {
        self.label = label
        self.target = target
    }
}

/// The entries of a table (sample sizes, chunk offsets, a track's samples), read a page at a
/// time and never all at once.
public struct InspectionTable: Sendable {
    public var title: String
    public var columns: [String]
    public var rowCount: Int
    let fetch: @Sendable (Range<Int>) -> [InspectionRow]

    public init(title: String, columns: [String], rowCount: Int, rows: @escaping @Sendable (Range<Int>) -> [InspectionRow]) {
        self.title = title
        self.columns = columns
        self.rowCount = rowCount
        self.fetch = rows
    }

    /// The rows in `range` (0-based, clamped to the table).
    public func rows(_ range: Range<Int>) -> [InspectionRow] {
        let range = range.clamped(to: 0..<max(rowCount, 0))
        return range.isEmpty ? [] : fetch(range)
    }
}

/// One row of an `InspectionTable`: its values (one per column), the bytes of the entry, and
/// where the entry points.
public struct InspectionRow: Sendable {
    public var index: Int
    public var values: [JSONValue]
    public var range: Range<UInt64>?
    public var reference: InspectionReference?

    public init(index: Int, values: [JSONValue], range: Range<UInt64>? = nil, reference: InspectionReference? = nil) {
        self.index = index
        self.values = values
        self.range = range
        self.reference = reference
    }
}

extension Diagnostic {
    /// A diagnostic in both tools' JSON: `{"severity", "code", "offset", "path", "message"}`.
    public var json: JSONValue {
        .object([("severity", .string(severity.rawValue)), ("code", .string(code)), ("offset", .uint(offset)),
                 ("path", .string(path)), ("message", .string(message))])
    }
}

extension [Diagnostic] {
    /// Appends those of `more` not already here: a node repeats the file's diagnostics that
    /// fall in its bytes, so that a view of it shows them, and a whole walk lists each once.
    mutating func appendNew(_ more: [Diagnostic]) {
        for diagnostic in more where !contains(diagnostic) { append(diagnostic) }
    }
}

/// Paths of inspection nodes: `type[index]` components separated by `/`; `%XX` stands for a
/// byte (so `%A9nam` is `©nam`), and a missing index means the first.
public enum InspectionPath {
    public struct Component: Hashable, Sendable {
        public var type: String
        public var index: Int
    }

    /// Parses a path; nil when a component is malformed.
    public static func parse(_ text: String) -> [Component]? {
        var components: [Component] = []
        for part in text.split(separator: "/", omittingEmptySubsequences: true) {
            var name = Substring(part)
            var index = 0
            if name.hasSuffix("]"), let open = name.lastIndex(of: "[") {
                guard let value = Int(name[name.index(after: open)..<name.index(before: name.endIndex)]), value >= 0 else { return nil }
                index = value
                name = name[..<open]
            }
            // `0x00000001`, how the tree named a type of control bytes before 2026-11-29, is
            // taken too (no type of four characters is written that way).
            if name.count == 10, name.hasPrefix("0x"), let value = UInt32(name.dropFirst(2), radix: 16) {
                let bytes = [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
                components.append(Component(type: String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) })), index: index))
                continue
            }
            guard !name.isEmpty, let type = PathEscaping.unescape(name) else { return nil }
            components.append(Component(type: type, index: index))
        }
        return components.isEmpty ? nil : components
    }

    /// The node at `path` among `nodes`, or nil; only the nodes on the way are produced.
    public static func find(_ path: [Component], in nodes: [InspectionNode]) -> InspectionNode? {
        guard let first = path.first else { return nil }
        var seen = 0
        var found: InspectionNode?
        // Through the pages of a long list (`.more` nodes), counting on.
        var page = nodes
        while found == nil {
            var more: InspectionNode?
            for node in page {
                if node.kind == .more { more = node; continue }
                guard (node.pathName ?? node.type) == first.type else { continue }
                defer { seen += 1 }
                if seen == first.index { found = node; break }
            }
            guard found == nil, let more else { break }
            page = more.children
        }
        guard let found else { return nil }
        return path.count == 1 ? found : find(Array(path.dropFirst()), in: found.children)
    }

    /// Each node's index among its siblings of the same type, or nil when its type is unique.
    public static func siblingIndexes(_ types: [String]) -> [Int?] {
        var totals: [String: Int] = [:]
        for type in types { totals[type, default: 0] += 1 }
        var seen: [String: Int] = [:]
        return types.map { type in
            guard totals[type]! > 1 else { return nil }
            defer { seen[type, default: 0] += 1 }
            return seen[type, default: 0]
        }
    }

    /// `type` escaped for a path (see `PathEscaping`).
    public static func escape(_ type: String) -> String { PathEscaping.escape(type) }

    /// `parent/type[index]`, the index left out when nil.
    static func child(of parent: String, _ type: String, _ index: Int?) -> String {
        (parent.isEmpty ? "" : parent + "/") + escape(type) + (index.map { "[\($0)]" } ?? "")
    }
}
