/// What a `set` or `remove` is aimed at, resolved from the user's key by `MediaFile`.
enum KeyTarget: Sendable {
    /// A row of the key-space table.
    case uniform(MetadataKeyDefinition)
    /// A key outside the table: `FOO` (an ID3 `TXXX` / iTunes freeform item whose native name
    /// is `nativeName`), or `COMMENT:X`, `LYRICS:X`, `URL:X`, `PERFORMER:X`.
    case custom(key: String, nativeName: String)
    /// One native item by its identifier.
    case identifier(MetadataIdentifier)
}

/// The native metadata of one file as the uniform layer edits it. One implementation per
/// family: atoms (`MovieMetadataStore`) and ID3 carriers (`ID3MetadataStore`).
protocol MetadataStore: Sendable {
    /// Every native item, in file order, each with its precedence rank (lower wins).
    var rankedItems: RankedItems { get }
    /// Calls `body` with what each item adds to `tags` (its rank, a key, the key's values), in
    /// the order of `rankedItems`: the same contributions as those of its items, made without
    /// the items' views where a store can (a listing of tags needs no more). The default
    /// takes them from `rankedItems`.
    func forEachTagContribution(_ body: (_ rank: Int, _ key: String, _ values: [String]) -> Void)
    /// True when `tags` takes each key from the best-ranked area that has it; false when the
    /// best-ranked area with any tag is used alone (TagLib's rule for ID3v2 over ID3v1/INFO).
    var mergesAreasPerKey: Bool { get }
    /// The pictures, each described, with its bytes as they are: a large picture still in the
    /// file is a range of it, not read.
    var pictureContents: [PictureContent] { get throws(MetadataError) }
    /// `pictures` described without their bytes (a listing needs only their sizes).
    var pictureSummaries: [PictureSummary] { get throws(MetadataError) }
    /// The chapters the store's tags hold, one list per form.
    var chapterLists: [ChapterList] { get }
    /// True when the store differs from what was read.
    var hasChanges: Bool { get }
    /// The tag version edits are made for and the tag is written as, where the format has
    /// versions (ID3v2: 3 or 4; nil keeps the tag's own).
    var tagVersion: UInt8? { get set }

    /// Replaces the values of `target`; returns notes on conversions made.
    mutating func set(_ target: KeyTarget, values: [String]) throws(MetadataError) -> [String]
    /// Removes `target`; false when there was nothing to remove. Throws `.notRepresentable`
    /// when the format has no place for it at all.
    mutating func remove(_ target: KeyTarget) throws(MetadataError) -> Bool
    /// Removes every writable item.
    mutating func removeAll()
    mutating func addPicture(_ picture: MediaPicture) throws(MetadataError) -> [String]
    /// Removes the pictures of `type` (all when nil); returns how many.
    mutating func removePictures(type: PictureType?) -> Int

    /// Every writable item in a form that restores it exactly, in file order.
    func nativeItems() throws(MetadataError) -> [(MetadataIdentifier, NativeItemData)]
    /// Adds an item exported by `nativeItems` (after `removeAll`, this restores the metadata).
    /// Returns why it was left out when this file has no place for an item of its kind (an APE
    /// item in a WAV file); nil when it was added. Throws for an item that does not read.
    mutating func addNative(_ identifier: MetadataIdentifier, _ data: NativeItemData) throws(MetadataError) -> String?
}

extension MetadataStore {
    func forEachTagContribution(_ body: (_ rank: Int, _ key: String, _ values: [String]) -> Void) {
        rankedItems.forEachTagContribution(body)
    }

    /// The pictures with their bytes read (`pictureContents`).
    var pictures: [MediaPicture] {
        get throws(MetadataError) {
            try pictureContents.map { picture throws(MetadataError) in try picture.picture }
        }
    }
}

/// A store's native items in file order, each with the precedence rank of its area (lower
/// wins), kept as two lists of the same length: `MediaFile.items` is the item list as it is
/// (no copy of each item out of pairs).
struct RankedItems: Sendable {
    var ranks: [Int] = []
    var items: [NativeMetadataItem] = []

    init(capacity: Int = 0) {
        ranks.reserveCapacity(capacity)
        items.reserveCapacity(capacity)
    }

    /// Appends `item`, moved into the list (not copied and the original released).
    mutating func append(_ rank: Int, _ item: consuming NativeMetadataItem) {
        ranks.append(rank)
        items.append(item)
    }

    /// Calls `body` with each item's contributions to `tags` and its rank, in order.
    func forEachTagContribution(_ body: (_ rank: Int, _ key: String, _ values: [String]) -> Void) {
        // By index, in place: a `for item in` loop copies every item.
        items.withUnsafeBufferPointer { items in
            for index in items.indices {
                let rank = ranks[index]
                items[index].forEachContribution { key, values in body(rank, key, values) }
            }
        }
    }
}
