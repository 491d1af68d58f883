import MediaBytes

/// An item of QuickTime metadata (`meta` with handler `mdta`): a reverse-DNS key such as
/// `com.apple.quicktime.title` and its typed values (QuickTime File Format, "Metadata atoms").
public struct QuickTimeMetadataItem: Sendable, Equatable {
    public var key: String
    /// The key namespace, `mdta` for reverse-DNS keys.
    public var namespace: FourCC
    /// The item as stored; its `type` is the key's index, assigned when written.
    public var item: MetadataItem

    public init(key: String, values: [ItemValue], namespace: FourCC = "mdta") {
        self.key = key
        self.namespace = namespace
        item = MetadataItem(type: FourCC(rawValue: 0), values: values)
    }

    init(key: String, namespace: FourCC, item: MetadataItem) {
        self.key = key
        self.namespace = namespace
        self.item = item
    }

    public var values: [ItemValue] {
        get { item.values }
        set { item.values = newValue }
    }

    public static func == (lhs: QuickTimeMetadataItem, rhs: QuickTimeMetadataItem) -> Bool {
        // The key index is an artefact of writing: compare the items renumbered alike.
        lhs.key == rhs.key && lhs.namespace == rhs.namespace && lhs.item.renumbered(FourCC(rawValue: 0)) == rhs.item.renumbered(FourCC(rawValue: 0))
    }
}

/// An ID3v2 tag carried in an MP4 file (`ID32` in a `meta` with handler `ID32`, ISO/IEC
/// 14496-12 and the id3.org "ID3 tag in ISO base media files" note): its language and the tag
/// bytes, which the ID3 layer reads.
public struct ID3TagAtom: Sendable, Hashable {
    public var languageCode: UInt16
    public var tag: [UInt8]

    public init(tag: [UInt8], languageCode: UInt16 = LanguageCode.pack("und")!) {
        self.tag = tag
        self.languageCode = languageCode
    }

    var payload: [UInt8] {
        [0, 0, 0, 0, UInt8(languageCode >> 8 & 0x7F), UInt8(languageCode & 0xFF)] + tag
    }
}

/// The metadata of one level of a movie, the movie itself (`moov`) or one track (`trak`):
/// iTunes items, QuickTime `mdta` metadata, user-data items (QuickTime text, 3GPP assets and
/// everything else in `udta`) and ID3 tags.
public struct MetadataScope: Sendable {
    /// The most items one item list (`ilst`, iTunes or QuickTime) may hold to be read: real
    /// lists hold tens; a list of more (half a million items in 12 MB) is refused with an
    /// error naming its offset instead of costing a kilobyte of memory per item.
    public static let maxItems = 10_000

    /// iTunes items (`udta/meta` with handler `mdir`, its `ilst`), nil when there is no such
    /// list. Setting an empty list keeps an empty `ilst`; nil removes the `meta`.
    public var itemList: [MetadataItem]?
    /// QuickTime metadata (`meta` with handler `mdta`, here or in `udta`), nil when there is none.
    public var quickTimeMetadata: [QuickTimeMetadataItem]?
    /// The children of `udta` other than `meta` boxes and padding, in file order.
    public var userData: [UserDataItem]
    /// ID3v2 tags (`meta` with handler `ID32`).
    public var id3Tags: [ID3TagAtom]

    /// Where each area was found, for writing it back in place.
    var layout = Layout()

    struct Layout: Sendable {
        var userData: Atom?
        var itemListMeta: Atom?
        var quickTimeMeta: Atom?
        var id3Meta: Atom?
        /// True when the QuickTime metadata `meta` is a child of `udta`.
        var quickTimeMetaInUserData = false
    }

    public init(itemList: [MetadataItem]? = nil, quickTimeMetadata: [QuickTimeMetadataItem]? = nil, userData: [UserDataItem] = [], id3Tags: [ID3TagAtom] = []) {
        self.itemList = itemList
        self.quickTimeMetadata = quickTimeMetadata
        self.userData = userData
        self.id3Tags = id3Tags
    }

    /// True when the scope holds no metadata at all.
    public var isEmpty: Bool {
        (itemList ?? []).isEmpty && (quickTimeMetadata ?? []).isEmpty && userData.isEmpty && id3Tags.isEmpty
    }

    /// The first item list item of `type` (for freeform items, with `mean` and `name`).
    public func item(_ type: FourCC, mean: String? = nil, name: String? = nil) -> MetadataItem? {
        itemList?.first { $0.type == type && (mean == nil || $0.mean == mean) && (name == nil || $0.name == name) }
    }

    /// Puts `item` in the item list in place of the items of its type (and, for freeform
    /// items, its `mean` and `name`), or at the end; creates the list when there is none.
    public mutating func setItem(_ item: MetadataItem) {
        var items = itemList ?? []
        let matches = { (other: MetadataItem) in other.type == item.type && other.mean == item.mean && other.name == item.name }
        if let first = items.firstIndex(where: matches) {
            items[first] = item
            var index = first + 1
            while index < items.count { if matches(items[index]) { items.remove(at: index) } else { index += 1 } }
        } else {
            items.append(item)
        }
        itemList = items
    }

    /// Removes the item list items of `type` (freeform ones only with that `mean` and `name`).
    public mutating func removeItems(_ type: FourCC, mean: String? = nil, name: String? = nil) {
        itemList?.removeAll { $0.type == type && (mean == nil || $0.mean == mean) && (name == nil || $0.name == name) }
    }

    /// The user-data items of `type`.
    public func userData(_ type: FourCC) -> [UserDataItem] { userData.filter { $0.type == type } }

    // MARK: - Reading

    /// Reads the metadata of `scope` (a `moov` or `trak` atom).
    init(of scope: Atom, in tree: AtomTree) throws(AtomError) {
        userData = []
        id3Tags = []
        if let udta = scope.child("udta"), udta.isContainer {
            layout.userData = udta
            // By index: a `for child in` loop copied every child.
            for index in udta.children.indices {
                let type = udta.children[index].type
                if type == "meta", try readMeta(udta.children[index], in: tree, inUserData: true) { continue }
                if type == "free" || type == "skip" { continue }
                userData.append(try UserDataItem(udta.children[index], in: tree))
            }
        }
        for index in scope.children.indices where scope.children[index].type == "meta" {
            _ = try readMeta(scope.children[index], in: tree, inUserData: false)
        }
    }

    /// Takes `meta` as one of the scope's managed areas; false when its handler is not one
    /// this reader manages (or that area was already found).
    private mutating func readMeta(_ meta: Atom, in tree: AtomTree, inUserData: Bool) throws(AtomError) -> Bool {
        // A `udta/meta` holding an `ilst` but no `hdlr`, or one whose handler is neither of the
        // other areas a `udta/meta` holds (QuickTime's `mdta`, `ID32`), is iTunes metadata all
        // the same: TagLib, mutagen, ffmpeg and exiftool read it so (a damaged `mdir` dropped
        // every tag, and a set then added a second item list beside it).
        let stated = Self.handlerType(of: meta, in: tree)
        let handler = inUserData && meta.child("ilst") != nil && stated != "mdta" && stated != "ID32" ? "mdir" : stated
        guard meta.isContainer, let handler else { return false }
        switch handler {
        case "mdir" where inUserData && layout.itemListMeta == nil:
            layout.itemListMeta = meta
            if let ilst = meta.child("ilst") {
                try Self.checkItemCount(ilst, in: tree)
                var items: [MetadataItem] = []
                items.reserveCapacity(ilst.children.count)
                for index in ilst.children.indices { items.append(try MetadataItem(ilst.children[index], in: tree)) }
                itemList = items
            } else {
                itemList = []
            }
            return true
        case "mdta" where layout.quickTimeMeta == nil:
            let keys: [(namespace: FourCC, key: String)]
            if let keysAtom = meta.child("keys") {
                var reader = ByteReader(try tree.fieldBytes(of: keysAtom), baseOffset: keysAtom.payloadOffset)
                guard let box = try? MetadataKeysBox(from: &reader, context: AtomDecodingContext(atom: keysAtom)) else { return false }
                keys = box.keys.map { ($0.namespace, $0.value) }
            } else {
                keys = []
            }
            var items: [QuickTimeMetadataItem] = []
            if let ilst = meta.child("ilst") { try Self.checkItemCount(ilst, in: tree) }
            for child in meta.child("ilst")?.children ?? [] {
                let index = Int(child.type.rawValue)
                // An item whose index names no key cannot be placed under a key: the area is
                // not understood well enough to be rewritten, so it is left as it is.
                guard index >= 1, index <= keys.count else { return false }
                items.append(QuickTimeMetadataItem(key: keys[index - 1].key, namespace: keys[index - 1].namespace, item: try MetadataItem(child, in: tree)))
            }
            layout.quickTimeMeta = meta
            layout.quickTimeMetaInUserData = inUserData
            quickTimeMetadata = items
            return true
        case "ID32" where layout.id3Meta == nil:
            layout.id3Meta = meta
            id3Tags = try Self.id3Tags(in: meta, tree: tree)
            return true
        default:
            return false
        }
    }

    /// Throws when `ilst` holds more than `maxItems` items.
    static func checkItemCount(_ ilst: Atom, in tree: AtomTree) throws(AtomError) {
        guard ilst.children.count > maxItems else { return }
        throw AtomError(.payloadLimit, offset: ilst.offset, path: tree.path(ofAtomAt: ilst.offset) ?? .root,
                        message: "'ilst' holds \(ilst.children.count) items, more than the \(maxItems) an item list is read with; its metadata is not read")
    }

    /// The tags of the `ID32` boxes of a `meta` with handler `ID32`.
    static func id3Tags(in meta: Atom, tree: AtomTree) throws(AtomError) -> [ID3TagAtom] {
        var tags: [ID3TagAtom] = []
        for child in meta.children where child.type == "ID32" {
            let payload = try tree.fieldBytes(of: child)
            guard payload.count >= 6 else { continue }
            let start = payload.startIndex
            tags.append(ID3TagAtom(tag: Array(payload[(start + 6)...]), languageCode: UInt16(payload[start + 4] & 0x7F) << 8 | UInt16(payload[start + 5])))
        }
        return tags
    }

    /// The handler type of a `meta` (its `hdlr` child's `handler_type`).
    static func handlerType(of meta: Atom, in tree: AtomTree) -> FourCC? {
        guard let hdlr = meta.child("hdlr"), let fields = try? tree.fieldBytes(of: hdlr), fields.count >= 12 else { return nil }
        let s = fields.startIndex
        return FourCC(fields[s + 8], fields[s + 9], fields[s + 10], fields[s + 11])
    }
}

extension MetadataScope: Equatable {
    public static func == (lhs: MetadataScope, rhs: MetadataScope) -> Bool {
        lhs.itemList == rhs.itemList && lhs.quickTimeMetadata == rhs.quickTimeMetadata && lhs.userData == rhs.userData && lhs.id3Tags == rhs.id3Tags
    }
}
