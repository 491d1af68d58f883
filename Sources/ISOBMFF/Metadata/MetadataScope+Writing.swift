import MediaBytes

extension MetadataScope {
    /// The `moov` or `trak` atom `scope` carrying this metadata instead of `original` (what was
    /// read from it), or nil when nothing changed. Only the containers that hold a change are
    /// opened; every other atom, and every unchanged item inside an opened one, keeps its bytes.
    ///
    /// - Parameter quickTime: the file is a QuickTime movie, whose new `meta` boxes outside
    ///   `udta` have no version and flags (an ISO file's are full boxes).
    func rendered(_ scope: Atom, original: MetadataScope, in tree: AtomTree, quickTime: Bool) throws -> AtomNode? {
        guard self != original else { return nil }
        var node = try AtomNode.expanding(scope, in: tree)
        var children = node.children ?? []

        let quickTimeChanged = quickTimeMetadata != original.quickTimeMetadata
        let id3Changed = id3Tags != original.id3Tags
        // QuickTime metadata and ID3 outside `udta`.
        if quickTimeChanged && !layout.quickTimeMetaInUserData {
            try replace(&children, atom: layout.quickTimeMeta, with: try renderQuickTimeMeta(tree: tree, fullBox: !quickTime))
        }
        if id3Changed {
            try replace(&children, atom: layout.id3Meta, with: try renderID3Meta(tree: tree, fullBox: !quickTime))
        }
        // `udta`: user data, iTunes items, and QuickTime metadata found there.
        let userDataChanged = userData != original.userData || itemList != original.itemList
            || (quickTimeChanged && layout.quickTimeMetaInUserData)
        if userDataChanged {
            let udta = try renderUserData(tree: tree, quickTimeChanged: quickTimeChanged)
            if let existing = layout.userData {
                let index = children.firstIndex { $0.originalAtom?.offset == existing.offset }!
                children[index] = udta
            } else if !(udta.children ?? []).isEmpty {
                children.append(udta)
            }
        }
        node.children = children
        return node
    }

    /// Replaces the child that was `atom` by `node` (removing it when `node` is nil), or appends
    /// `node` when there was no such child.
    private func replace(_ children: inout [AtomNode], atom: Atom?, with node: AtomNode?) throws {
        if let atom, let index = children.firstIndex(where: { $0.originalAtom?.offset == atom.offset }) {
            if let node { children[index] = node } else { children.remove(at: index) }
        } else if let node {
            children.append(node)
        }
    }

    private func renderUserData(tree: AtomTree, quickTimeChanged: Bool) throws -> AtomNode {
        var out: [AtomNode] = []
        var placedItems = false
        let items = userData.map { AtomNode.encoded($0.encoded) }
        var placedItemList = false
        var placedQuickTime = false
        for child in layout.userData?.children ?? [] {
            if let meta = layout.itemListMeta, child.offset == meta.offset {
                placedItemList = true
                if let node = try renderItemListMeta(tree: tree) { out.append(node) }
            } else if layout.quickTimeMetaInUserData, let meta = layout.quickTimeMeta, child.offset == meta.offset {
                placedQuickTime = true
                if !quickTimeChanged {
                    out.append(.original(child))
                } else if let node = try renderQuickTimeMeta(tree: tree, fullBox: true) {
                    out.append(node)
                }
            } else if child.type == "free" || child.type == "skip" {
                out.append(.original(child))
            } else if !placedItems {
                out += items
                placedItems = true
            }
        }
        if !placedItems { out.insert(contentsOf: items, at: 0) }
        if !placedItemList, let node = try renderItemListMeta(tree: tree) { out.append(node) }
        if !placedQuickTime, layout.quickTimeMetaInUserData, let node = try renderQuickTimeMeta(tree: tree, fullBox: true) { out.append(node) }
        if let udta = layout.userData {
            var node = try AtomNode.expanding(udta, in: tree)
            node.children = out
            return node
        }
        return .container("udta", children: out)
    }

    /// `udta/meta` (handler `mdir`) with the item list; nil when `itemList` is nil.
    private func renderItemListMeta(tree: AtomTree) throws -> AtomNode? {
        guard let itemList else { return nil }
        let ilst = AtomNode.leaf("ilst", payload: itemList.flatMap(\.encoded))
        if let meta = layout.itemListMeta {
            var node = try AtomNode.expanding(meta, in: tree)
            var children = node.children ?? []
            if let index = children.firstIndex(where: { $0.type == "ilst" }) {
                children[index] = ilst
            } else {
                children.append(ilst)
            }
            // A `meta` that held an item list without a handler gets the one iTunes writes
            // (players that check the handler ignore the items otherwise).
            if !children.contains(where: { $0.type == "hdlr" }) {
                children.insert(Self.handler("mdir", reserved: "appl"), at: 0)
            }
            node.children = children
            return node
        }
        // What iTunes writes: a full-box `meta`, `hdlr` `mdir` with `appl` in its first reserved word.
        return .container("meta", fields: [0, 0, 0, 0], children: [Self.handler("mdir", reserved: "appl"), ilst])
    }

    /// `meta` (handler `mdta`) with `keys` and `ilst`; nil when `quickTimeMetadata` is nil.
    private func renderQuickTimeMeta(tree: AtomTree, fullBox: Bool) throws -> AtomNode? {
        guard let quickTimeMetadata else { return nil }
        var keys: [(namespace: FourCC, key: String)] = []
        var indexes: [String: Int] = [:]
        var items: [UInt8] = []
        for entry in quickTimeMetadata {
            let id = entry.namespace.description + "\u{0}" + entry.key
            let index = indexes[id] ?? {
                keys.append((entry.namespace, entry.key))
                indexes[id] = keys.count
                return keys.count
            }()
            items += entry.item.renumbered(FourCC(rawValue: UInt32(index))).encoded
        }
        var keysPayload = ByteWriter(capacity: 64)
        keysPayload.writeUInt32(0)
        keysPayload.writeUInt32(UInt32(keys.count))
        for key in keys {
            let value = Array(key.key.utf8)
            keysPayload.writeUInt32(UInt32(8 + value.count))
            keysPayload.writeFourCC(key.namespace)
            keysPayload.writeBytes(value)
        }
        let keysNode = AtomNode.leaf("keys", payload: keysPayload.bytes)
        let ilstNode = AtomNode.leaf("ilst", payload: items)
        if let meta = layout.quickTimeMeta {
            var node = try AtomNode.expanding(meta, in: tree)
            var children = node.children ?? []
            for (type, replacement) in [("keys", keysNode), ("ilst", ilstNode)] as [(FourCC, AtomNode)] {
                if let index = children.firstIndex(where: { $0.type == type }) {
                    children[index] = replacement
                } else {
                    children.append(replacement)
                }
            }
            node.children = children
            return node
        }
        return .container("meta", fields: fullBox ? [0, 0, 0, 0] : [], children: [Self.handler("mdta"), keysNode, ilstNode])
    }

    /// `meta` (handler `ID32`) with one `ID32` box per tag; nil when there are none.
    private func renderID3Meta(tree: AtomTree, fullBox: Bool) throws -> AtomNode? {
        let tags = id3Tags.map { AtomNode.leaf("ID32", payload: $0.payload) }
        if let meta = layout.id3Meta {
            var node = try AtomNode.expanding(meta, in: tree)
            var children = node.children ?? []
            let first = children.firstIndex { $0.type == "ID32" } ?? children.count
            children.removeAll { $0.type == "ID32" }
            children.insert(contentsOf: tags, at: min(first, children.count))
            node.children = children
            return node
        }
        guard !tags.isEmpty else { return nil }
        return .container("meta", fields: fullBox ? [0, 0, 0, 0] : [], children: [Self.handler("ID32")] + tags)
    }

    /// A `hdlr` full box for a metadata handler, with an empty name.
    static func handler(_ type: FourCC, reserved: FourCC = FourCC(rawValue: 0)) -> AtomNode {
        var writer = ByteWriter(capacity: 25)
        writer.writeUInt32(0)  // version, flags
        writer.writeUInt32(0)  // pre_defined
        writer.writeFourCC(type)
        writer.writeFourCC(reserved)
        writer.writeUInt64(0)
        writer.writeUInt8(0)  // empty name
        return .leaf("hdlr", payload: writer.bytes)
    }
}
