import MediaBytes
import Synchronization

/// An atom with its place in the tree and its decoded fields: what the inspector shows.
public struct InspectedAtom: Sendable {
    public var atom: Atom
    public var path: AtomPath
    public var depth: Int
    public var payload: (any AtomPayload)?
    public var fields: [DescribedField]
    public var summary: String
    /// Problems met decoding this atom's own fields (parse diagnostics are in the tree).
    public var diagnostics: [Diagnostic]
    public var children: [InspectedAtom]
}

/// Decodes atoms in context (their parents, their track's handler, the keys of their QuickTime
/// metadata), one atom at a time: `topLevel()` and `children(of:)` give the contexts of the
/// atoms below a place without decoding anything, `inspect(_:)` decodes one atom. Browsing a
/// file therefore decodes only what is looked at; `inspect(root:maxDepth:)` walks a subtree for
/// the text and JSON views.
public struct AtomInspector: Sendable {
    public let tree: AtomTree
    public let options: AtomFieldOptions
    /// Each track's per-sample IV size by track ID, worked out on the first fragment asked
    /// about and kept (shared by copies of this inspector).
    private let trackIVSizes = TrackIVSizes()

    public init(tree: AtomTree, options: AtomFieldOptions = .default) {
        self.tree = tree
        self.options = options
    }

    private final class TrackIVSizes: Sendable {
        let table = Mutex<[UInt32: Int?]?>(nil)
    }

    /// The contexts of the top-level atoms.
    public func topLevel() -> [AtomDecodingContext] {
        topLevelSiblings().contexts()
    }

    /// The contexts of `context`'s children, each with its path, parent types, track handler and
    /// metadata keys.
    public func children(of context: AtomDecodingContext) -> [AtomDecodingContext] {
        siblings(below: context).contexts()
    }

    /// The top-level atoms, their contexts made one at a time.
    public func topLevelSiblings() -> AtomSiblings {
        AtomSiblings(atoms: tree.atoms, parent: nil, handler: nil, metadataKeys: [], perSampleIVSize: nil, parentVersion: nil)
    }

    /// `context`'s children, their contexts made one at a time (a list of a million atoms
    /// costs its sibling indexes, not a million contexts).
    public func siblings(below context: AtomDecodingContext) -> AtomSiblings {
        var handler = context.handler
        var keys = context.metadataKeys
        var ivSize = context.perSampleIVSize
        if context.atom.type == "trak" {
            handler = handlerType(of: context.atom)
            ivSize = perSampleIVSize(of: context.atom)
        }
        if context.atom.type == "traf" { ivSize = fragmentIVSize(context.atom) }
        if context.atom.type == "meta" { keys = metadataKeys(in: context.atom) }
        // An `iref`'s references read their item IDs by its version.
        let version = context.atom.type == "iref" ? (try? tree.bytes(at: context.atom.payloadOffset, count: 1)).flatMap(\.first) : nil
        return AtomSiblings(atoms: context.atom.children, parent: context, handler: handler, metadataKeys: keys, perSampleIVSize: ivSize,
                            parentVersion: version)
    }

    /// The per-sample IV size in the track's first sample entry's `sinf/schi/tenc`
    /// (ISO/IEC 23001-7 section 8.2: version, flags, two bytes, isProtected, the IV size).
    func perSampleIVSize(of trak: Atom) -> Int? {
        guard let stsd = trak.descendant(AtomPath([.init(type: "mdia"), .init(type: "minf"), .init(type: "stbl"), .init(type: "stsd")])),
              let entry = stsd.children.first, let tenc = entry.child("sinf")?.child("schi")?.child("tenc"), tenc.payloadSize >= 8,
              let bytes = try? tree.bytes(at: tenc.payloadOffset + 7, count: 1)
        else { return nil }
        return Int(bytes[bytes.startIndex])
    }

    /// The per-sample IV size of the track a fragment's `tfhd` names (the first `trak` of the
    /// first `moov` with that track ID).
    func fragmentIVSize(_ traf: Atom) -> Int? {
        guard let tfhd = traf.child("tfhd"), tfhd.payloadSize >= 8, let id = try? tree.bytes(at: tfhd.payloadOffset + 4, count: 4) else { return nil }
        let trackID = id.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        // The table of every track, made once: a file of 25,800 fragments read each `tkhd`
        // again for every fragment.
        return trackIVSizes.table.withLock { table in
            if table == nil {
                var made: [UInt32: Int?] = [:]
                for trak in tree.atoms.first(where: { $0.type == "moov" })?.children ?? [] where trak.type == "trak" {
                    guard let id = QuickTimeChapterTrack.trackHeader(trak, tree: tree)?.trackID else { continue }
                    // The first track of an ID wins (a second of the same ID is damage).
                    if made.index(forKey: id) == nil { made[id] = .some(perSampleIVSize(of: trak)) }
                }
                table = made
            }
            return table?[trackID] ?? nil
        }
    }

    /// The context of the atom at `path`, or nil.
    public func context(at path: AtomPath) -> AtomDecodingContext? {
        // One context made per level: the atom is found by its type and sibling index.
        var level = topLevelSiblings()
        var found: AtomDecodingContext?
        for component in path.components {
            guard let index = level.atoms.indices.first(where: { level.atoms[$0].type == component.type && level.indexes[$0] == component.index })
            else { return nil }
            let match = level.context(at: index)
            found = match
            level = siblings(below: match)
        }
        return found
    }

    /// Every problem met decoding every atom, each atom decoded and dropped in turn: memory
    /// grows with the depth of the tree, not with its number of atoms, and no field is made
    /// (a table of millions of entries is read, not listed).
    public func diagnosticsOfEveryAtom() -> [Diagnostic] {
        var found: [Diagnostic] = []
        func visit(_ siblings: AtomSiblings) {
            for index in 0..<siblings.count {
                let context = siblings.context(at: index)
                if !context.atom.children.isEmpty { visit(self.siblings(below: context)) }
                found += inspect(context, fields: false).diagnostics
            }
        }
        visit(topLevelSiblings())
        return found
    }

    /// Decodes one atom's fields in `context`; nil when it has no typed payload.
    public func decode(_ context: AtomDecodingContext) throws -> (any AtomPayload)? {
        guard let type = AtomPayloadRegistry.payloadType(for: context) else { return nil }
        let bytes = try tree.fieldBytes(of: context.atom)
        var reader = ByteReader(bytes, baseOffset: context.atom.payloadOffset)
        return try type.init(from: &reader, context: context)
    }

    /// One atom decoded: its payload, fields, summary and the problems met (its children are not
    /// visited).
    public func inspect(_ context: AtomDecodingContext) -> InspectedAtom {
        inspect(context, fields: true)
    }

    /// One atom's summary and the problems met decoding it, as `inspect(_:)` gives them, made
    /// without its fields (the text tree needs no more).
    public func brief(_ context: AtomDecodingContext) -> (summary: String, diagnostics: [Diagnostic]) {
        let inspected = inspect(context, fields: false)
        return (inspected.summary, inspected.diagnostics)
    }

    /// One atom decoded; its payload's fields made only when `wanted` (a payload's summary
    /// needs none).
    private func inspect(_ context: AtomDecodingContext, fields wanted: Bool) -> InspectedAtom {
        let atom = context.atom
        var diagnostics: [Diagnostic] = []
        var payload: (any AtomPayload)?
        var fields: [DescribedField] = []
        do {
            payload = try decode(context)
            if wanted { fields = payload?.fields(options) ?? [] }
        } catch {
            let message = "cannot decode '\(atom.type)': \(Self.describe(error))"
            fields = [DescribedField("error", message)]
            diagnostics.append(Diagnostic(.warning, .invalidPayload, offset: atom.offset, path: context.path, message: message))
        }
        if let data = payload as? ItemDataAtom, data.typeName == nil {
            diagnostics.append(Diagnostic(
                .note, .unknownDataType, offset: atom.offset, path: context.path,
                message: "data type \(data.typeSet):\(data.typeIndicator) is not a well-known type; value kept as bytes"))
        }
        var summary = payload?.summary ?? fields.first.map { "\($0.value.summaryText)" } ?? ""
        if context.parent == "ilst" {
            let itemFields = itemFields(for: atom, keys: context.metadataKeys)
            fields += itemFields
            summary = itemFields.map { "\($0.name)=\($0.value.summaryText)" }.joined(separator: " ")
        }
        if atom.isTruncated {
            fields.append(DescribedField("declaredSize", atom.header.declaredSize))
        }
        return InspectedAtom(atom: atom, path: context.path, depth: context.path.components.count - 1, payload: payload, fields: fields,
                             summary: summary, diagnostics: diagnostics, children: [])
    }

    /// The inspected atoms under `root` (the whole file when nil) down to `maxDepth` levels
    /// below it, and the diagnostics met while decoding them, children's before their parent's.
    public func inspect(root: AtomPath? = nil, maxDepth: Int? = nil) -> (atoms: [InspectedAtom], diagnostics: [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        let start: [AtomDecodingContext]
        if let root {
            guard let context = context(at: root) else { return ([], []) }
            start = [context]
        } else {
            start = topLevel()
        }
        func visit(_ contexts: [AtomDecodingContext], depth: Int) -> [InspectedAtom] {
            contexts.map { context in
                let children = maxDepth.map { depth + 1 < $0 } ?? true ? visit(self.children(of: context), depth: depth + 1) : []
                var inspected = inspect(context)
                inspected.depth = depth
                inspected.children = children
                diagnostics += inspected.diagnostics
                return inspected
            }
        }
        return (visit(start, depth: 0), diagnostics)
    }

    /// The handler type in `trak/mdia/hdlr`.
    func handlerType(of trak: Atom) -> FourCC? {
        guard let hdlr = trak.descendant(AtomPath([.init(type: "mdia"), .init(type: "hdlr")])), hdlr.payloadSize >= 12,
            let bytes = try? tree.bytes(at: hdlr.payloadOffset + 8, count: 4)
        else { return nil }
        let i = bytes.startIndex
        return FourCC(bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3])
    }

    /// The keys of a QuickTime `mdta` metadata atom, in order (index 1 first).
    func metadataKeys(in meta: Atom) -> [String] {
        guard let keys = meta.child("keys"),
            let box = try? decode(AtomDecodingContext(atom: keys, parent: "meta")) as? MetadataKeysBox
        else { return [] }
        return box.keys.map(\.value)
    }

    /// What names an item of an item list: a key of QuickTime metadata, or mean and name of a
    /// freeform `----` item.
    func itemFields(for item: Atom, keys: [String]) -> [DescribedField] {
        if !keys.isEmpty {
            let index = Int(item.type.rawValue)
            return [DescribedField("keyIndex", index)] + (index >= 1 && index <= keys.count ? [DescribedField("key", keys[index - 1])] : [])
        }
        guard item.type == "----" else { return [] }
        var fields: [DescribedField] = []
        for name in ["mean", "name"] as [FourCC] {
            if let atom = item.child(name),
                let box = try? decode(AtomDecodingContext(atom: atom, parent: "----", grandparent: "ilst")) as? ItemFreeformNameAtom
            {
                fields.append(DescribedField(name.description, box.text))
            }
        }
        return fields
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? AtomError { return error.message }
        return String(describing: error)
    }
}

/// The atoms of one level (the top level, or one atom's children) with what their contexts
/// share: the parent, the track handler, the metadata keys and each atom's index among its
/// siblings of the same type. Contexts are made when asked for. A class: the views keep one
/// level and an index for each atom they list.
public final class AtomSiblings: Sendable {
    public let atoms: [Atom]
    let parent: AtomDecodingContext?
    let handler: FourCC?
    let metadataKeys: [String]
    let perSampleIVSize: Int?
    let parentVersion: UInt8?
    let indexes: [Int?]

    init(atoms: [Atom], parent: AtomDecodingContext?, handler: FourCC?, metadataKeys: [String], perSampleIVSize: Int?, parentVersion: UInt8?) {
        self.atoms = atoms
        self.parent = parent
        self.handler = handler
        self.metadataKeys = metadataKeys
        self.perSampleIVSize = perSampleIVSize
        self.parentVersion = parentVersion
        indexes = AtomTree.siblingIndexes(atoms)
    }

    public var count: Int { atoms.count }

    /// The context of the atom at `index` (0-based, in file order).
    public func context(at index: Int) -> AtomDecodingContext {
        let atom = atoms[index]
        return AtomDecodingContext(atom: atom, parent: parent?.atom.type, grandparent: parent?.parent, handler: handler,
                                   metadataKeys: metadataKeys, path: (parent?.path ?? .root).appending(atom.type, index: indexes[index]),
                                   perSampleIVSize: perSampleIVSize, parentVersion: parentVersion)
    }

    /// The contexts of all the atoms.
    public func contexts() -> [AtomDecodingContext] {
        atoms.indices.map(context(at:))
    }
}
