import MediaBytes

/// An atom as it is to be written: an original atom copied from the source byte for byte, new
/// payload bytes, or a container whose children are themselves nodes.
///
/// Edits build a small tree of nodes over the parsed `AtomTree`: only the containers on the way
/// to a change are expanded, everything else stays `.original` and is copied unchanged, so
/// `mdat` is never read into memory and untouched atoms keep their exact bytes.
public struct AtomNode: Sendable {
    public enum Content: Sendable {
        /// The atom as it is in the source, descendants included.
        case original(Atom)
        /// New bytes after the header (a leaf, or a container written out whole).
        case payload([UInt8])
        /// A whole atom, header included, as bytes (an encoded metadata item).
        case encoded([UInt8])
        /// Fixed fields, then child nodes, then trailing bytes kept from the original.
        case container(fields: [UInt8], children: [AtomNode], trailing: [UInt8])
    }

    public var type: FourCC
    public var content: Content
    /// The header to imitate: its size form (a 64-bit header stays 64-bit) and `uuid` type.
    var templateHeader: AtomHeader

    /// An original atom, copied as it is.
    public static func original(_ atom: Atom) -> AtomNode {
        AtomNode(type: atom.type, content: .original(atom), templateHeader: atom.header)
    }

    /// A new atom with `payload` after a compact header.
    public static func leaf(_ type: FourCC, payload: [UInt8], extendedType: [UInt8]? = nil) -> AtomNode {
        AtomNode(type: type, content: .payload(payload), templateHeader: newHeader(type, extendedType: extendedType))
    }

    /// A whole atom given as its bytes, header included.
    public static func encoded(_ bytes: [UInt8]) -> AtomNode {
        precondition(bytes.count >= 8, "an atom has an 8-byte header")
        let type = FourCC(bytes[4], bytes[5], bytes[6], bytes[7])
        return AtomNode(type: type, content: .encoded(bytes), templateHeader: newHeader(type, extendedType: nil))
    }

    /// A new container.
    public static func container(_ type: FourCC, fields: [UInt8] = [], children: [AtomNode]) -> AtomNode {
        AtomNode(type: type, content: .container(fields: fields, children: children, trailing: []), templateHeader: newHeader(type, extendedType: nil))
    }

    /// A `free` atom of exactly `size` bytes (at least 8), zero-filled.
    public static func padding(size: UInt64) -> AtomNode {
        precondition(size >= 8, "a free atom needs 8 bytes for its header")
        return .leaf("free", payload: [UInt8](repeating: 0, count: Int(size - 8)))
    }

    /// The original container `atom` opened one level: its fields and trailing bytes read from
    /// `tree`, its children as `.original` nodes, ready to have some of them replaced.
    public static func expanding(_ atom: Atom, in tree: AtomTree) throws(AtomError) -> AtomNode {
        guard atom.isContainer else { return .original(atom) }
        let fields = Array(try tree.fieldBytes(of: atom))
        let trailing = atom.trailingSize > 0 ? Array(try tree.bytes(at: atom.endOffset - atom.trailingSize, count: Int(atom.trailingSize))) : []
        var header = atom.header
        if header.sizeForm == .toEnd { header.sizeForm = .compact }
        return AtomNode(type: atom.type, content: .container(fields: fields, children: atom.children.map(AtomNode.original), trailing: trailing), templateHeader: header)
    }

    private static func newHeader(_ type: FourCC, extendedType: [UInt8]?) -> AtomHeader {
        AtomHeader(type: type, extendedType: extendedType, offset: 0, declaredSize: 0, sizeForm: .compact, headerSize: extendedType == nil ? 8 : 24)
    }

    /// The original atom, when this node is one.
    public var originalAtom: Atom? {
        if case .original(let atom) = content { return atom }
        return nil
    }

    /// True when this node is a `free` or `skip` atom (padding).
    public var isPadding: Bool { type == "free" || type == "skip" }

    // MARK: - Sizes

    private var contentSize: UInt64 {
        switch content {
        case .original(let atom): atom.size - UInt64(atom.headerSize)
        case .payload(let bytes): UInt64(bytes.count)
        case .encoded(let bytes): UInt64(bytes.count - 8)
        case .container(let fields, let children, let trailing):
            children.reduce(UInt64(fields.count + trailing.count)) { $0 + $1.size }
        }
    }

    /// The bytes this node writes, header included.
    public var size: UInt64 {
        if case .original(let atom) = content { return AtomSerializer.serializedSize(of: atom) }
        if case .encoded(let bytes) = content { return UInt64(bytes.count) }
        let content = contentSize
        let extended = UInt64(templateHeader.extendedType?.count ?? 0)
        let compact = 8 + extended + content
        return templateHeader.effectiveForm(forTotalSize: compact) == .extended || templateHeader.sizeForm == .extended
            ? compact + 8 : compact
    }

    // MARK: - Writing

    /// Writes the node; `.original` parts are copied from `tree`.
    public func write<Sink: ByteSink>(to sink: inout Sink, from tree: AtomTree) throws {
        switch content {
        case .original(let atom):
            try AtomSerializer.write(atom, of: tree, to: &sink)
        case .payload(let bytes):
            try sink.write(templateHeader.encoded(totalSize: size))
            try sink.write(bytes)
        case .encoded(let bytes):
            try sink.write(bytes)
        case .container(let fields, let children, let trailing):
            try sink.write(templateHeader.encoded(totalSize: size))
            try sink.write(fields)
            for child in children { try child.write(to: &sink, from: tree) }
            try sink.write(trailing)
        }
    }

    /// What writing the nodes from `position` on changes, as (offset, bytes) segments in file
    /// order: an original atom that would be written where it already is is left out (its bytes
    /// are there), so editing a tag in a movie of a million samples renders the item list and
    /// the headers above it, never the sample tables.
    public static func segments(of nodes: [AtomNode], at position: UInt64, from tree: AtomTree) throws -> [(offset: UInt64, bytes: [UInt8])] {
        var segments: [(offset: UInt64, bytes: [UInt8])] = []
        var pending = ByteWriter()
        var start = position
        var position = position
        func flush() {
            if !pending.bytes.isEmpty { segments.append((start, pending.bytes)) }
            pending = ByteWriter()
            start = position
        }
        func add(_ node: AtomNode) throws {
            switch node.content {
            case .original(let atom) where atom.offset == position && AtomSerializer.serializedSize(of: atom) == atom.size:
                flush()
                position += atom.size
                start = position
            case .container(let fields, let children, let trailing):
                let header = node.templateHeader.encoded(totalSize: node.size)
                pending.write(header)
                pending.write(fields)
                position += UInt64(header.count + fields.count)
                for child in children { try add(child) }
                pending.write(trailing)
                position += UInt64(trailing.count)
            default:
                try node.write(to: &pending, from: tree)
                position += node.size
            }
        }
        for node in nodes { try add(node) }
        flush()
        return segments
    }

    /// The node's bytes in memory.
    public func bytes(from tree: AtomTree) throws -> [UInt8] {
        var writer = ByteWriter(capacity: Int(min(size, 1 << 24)))
        try write(to: &writer, from: tree)
        return writer.bytes
    }

    // MARK: - Editing

    /// The children of a container node (expanded or new); nil for other nodes.
    public var children: [AtomNode]? {
        get {
            if case .container(_, let children, _) = content { return children }
            return nil
        }
        set {
            guard let newValue, case .container(let fields, _, let trailing) = content else { return }
            content = .container(fields: fields, children: newValue, trailing: trailing)
        }
    }
}
