import MediaBytes

/// An atom with its place in the tree and its decoded fields: what the inspector shows.
public struct InspectedAtom: Sendable {
    public var atom: Atom
    public var path: AtomPath
    public var depth: Int
    public var payload: (any AtomPayload)?
    public var fields: [AtomField]
    public var summary: String
    public var children: [InspectedAtom]
}

/// Walks a tree, decoding each atom's fields in context (its parents, its track's handler, the
/// keys of its QuickTime metadata), for the text and JSON views and the structure check.
public struct AtomInspector: Sendable {
    public let tree: AtomTree
    public let options: AtomFieldOptions

    public init(tree: AtomTree, options: AtomFieldOptions = .default) {
        self.tree = tree
        self.options = options
    }

    /// The inspected atoms under `root` (the whole file when nil) down to `maxDepth` levels
    /// below it, and the diagnostics met while decoding (parse diagnostics are in the tree).
    public func inspect(root: AtomPath? = nil, maxDepth: Int? = nil) -> (atoms: [InspectedAtom], diagnostics: [AtomDiagnostic]) {
        var diagnostics: [AtomDiagnostic] = []
        var result: [InspectedAtom] = []
        visit(tree.atoms, parentPath: .root, depth: 0, context: Context(), root: root, maxDepth: maxDepth,
              into: &result, diagnostics: &diagnostics)
        return (result, diagnostics)
    }

    /// Decodes one atom's fields in `context`; nil when it has no typed payload.
    public func decode(_ context: AtomDecodingContext) throws -> (any AtomPayload)? {
        guard let type = AtomPayloadRegistry.payloadType(for: context) else { return nil }
        let bytes = try tree.fieldBytes(of: context.atom)
        var reader = ByteReader(bytes, baseOffset: context.atom.payloadOffset)
        return try type.init(from: &reader, context: context)
    }

    struct Context {
        var parent: FourCC?
        var grandparent: FourCC?
        var handler: FourCC?
        var keys: [String] = []
    }

    private func visit(
        _ siblings: [Atom], parentPath: AtomPath, depth: Int, context: Context, root: AtomPath?, maxDepth: Int?,
        into result: inout [InspectedAtom], diagnostics: inout [AtomDiagnostic]
    ) {
        let indexes = AtomTree.siblingIndexes(siblings)
        for (i, atom) in siblings.enumerated() {
            let path = parentPath.appending(atom.type, index: indexes[i])
            let inRoot: Bool
            let relativeDepth: Int
            if let root {
                guard Self.path(path, canLeadTo: root) else { continue }
                inRoot = path.components.count >= root.components.count
                relativeDepth = path.components.count - root.components.count
            } else {
                inRoot = true
                relativeDepth = depth
            }
            var childContext = Context(parent: atom.type, grandparent: context.parent, handler: context.handler, keys: context.keys)
            if atom.type == "trak" { childContext.handler = handlerType(of: atom) }
            if atom.type == "meta" { childContext.keys = metadataKeys(in: atom) }

            var children: [InspectedAtom] = []
            if maxDepth.map({ relativeDepth + 1 < $0 }) ?? true {
                visit(atom.children, parentPath: path, depth: depth + 1, context: childContext, root: root, maxDepth: maxDepth,
                      into: &children, diagnostics: &diagnostics)
            }
            guard inRoot else {
                result += children
                continue
            }
            let decoding = AtomDecodingContext(atom: atom, parent: context.parent, grandparent: context.grandparent,
                                               handler: context.handler, metadataKeys: context.keys)
            var payload: (any AtomPayload)?
            var fields: [AtomField] = []
            do {
                payload = try decode(decoding)
                fields = payload?.fields(options) ?? []
            } catch {
                let message = "cannot decode '\(atom.type)': \(Self.describe(error))"
                fields = [AtomField("error", message)]
                diagnostics.append(AtomDiagnostic(.warning, .invalidPayload, offset: atom.offset, path: path, message: message))
            }
            if let data = payload as? ItemDataAtom, data.typeName == nil {
                diagnostics.append(AtomDiagnostic(
                    .note, .unknownDataType, offset: atom.offset, path: path,
                    message: "data type \(data.typeSet):\(data.typeIndicator) is not a well-known type; value kept as bytes"))
            }
            var summary = payload?.summary ?? fields.first.map { "\($0.value.summaryText)" } ?? ""
            if context.parent == "ilst" {
                let itemFields = itemFields(for: atom, keys: context.keys)
                fields += itemFields
                summary = itemFields.map { "\($0.name)=\($0.value.summaryText)" }.joined(separator: " ")
            }
            if atom.isTruncated {
                fields.append(AtomField("declaredSize", atom.header.declaredSize))
            }
            result.append(InspectedAtom(atom: atom, path: path, depth: relativeDepth, payload: payload, fields: fields,
                                        summary: summary, children: children))
        }
    }

    /// True when `path` is `root`, inside it, or on the way to it.
    static func path(_ path: AtomPath, canLeadTo root: AtomPath) -> Bool {
        for (a, b) in zip(path.components, root.components) {
            guard a.type == b.type, (a.index ?? 0) == (b.index ?? 0) else { return false }
        }
        return true
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
    func itemFields(for item: Atom, keys: [String]) -> [AtomField] {
        if !keys.isEmpty {
            let index = Int(item.type.rawValue)
            return [AtomField("keyIndex", index)] + (index >= 1 && index <= keys.count ? [AtomField("key", keys[index - 1])] : [])
        }
        guard item.type == "----" else { return [] }
        var fields: [AtomField] = []
        for name in ["mean", "name"] as [FourCC] {
            if let atom = item.child(name),
                let box = try? decode(AtomDecodingContext(atom: atom, parent: "----", grandparent: "ilst")) as? ItemFreeformNameAtom
            {
                fields.append(AtomField(name.description, box.text))
            }
        }
        return fields
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? AtomError { return error.message }
        return String(describing: error)
    }
}
