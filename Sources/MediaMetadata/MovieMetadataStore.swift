import ID3
import ISOBMFF
import MediaBytes

/// The movie-level metadata of an ISO-BMFF / QuickTime file, edited through the key space:
/// iTunes items first, then QuickTime metadata keys, QuickTime user data and 3GPP assets (a
/// key missing from an earlier area is taken from a later one). Writes go to the iTunes item
/// list, and also replace the key in any other area that already has it, so that the areas
/// never disagree. Track-level metadata is kept as it is.
struct MovieMetadataStore: MetadataStore {
    var scope: MetadataScope
    let original: MetadataScope
    /// The movie's timescale and duration (`mvhd`), for the end of the last chapter.
    let movieTime: MediaTimes?

    /// The file's XMP packet (a top-level `uuid` atom), listed as a read-only item.
    let xmp: [UInt8]?

    init(scope: MetadataScope, movieTime: MediaTimes?, xmp: [UInt8]? = nil) {
        self.scope = scope
        original = scope
        self.movieTime = movieTime
        self.xmp = xmp
    }

    // MARK: - The ID3v2 tag of an `ID32` box

    /// The ID3 store of the `index`th `ID32` tag, or nil when its bytes are not a tag.
    private func id32Store(_ index: Int) -> ID3MetadataStore? {
        guard index < scope.id3Tags.count, let tag = try? ID3v2Tag(parsing: scope.id3Tags[index].tag) else { return nil }
        return ID3MetadataStore(tag: tag, id3v1: nil, info: nil)
    }

    /// Edits the `ID32` tags through the ID3 layer: `edit` runs on each tag that reads (all of
    /// them when `index` is nil) and the tag is written back in its version when it changed.
    private mutating func editID32(_ index: Int? = nil, _ edit: (inout ID3MetadataStore) throws(MetadataError) -> Void) throws(MetadataError) {
        for position in scope.id3Tags.indices where index == nil || index == position {
            guard var store = id32Store(position) else { continue }
            try edit(&store)
            guard store.hasChanges else { continue }
            let version = store.tag.majorVersion == 2 ? 4 : store.tag.majorVersion
            do {
                scope.id3Tags[position].tag = try store.tag.serialized(version: version, padding: 0).bytes
            } catch {
                throw MetadataError(.badValue, message: "the ID32 tag cannot be written: \(error.description)")
            }
        }
    }

    /// The same target in the ID3 store of an `ID32` tag (`id32/X` becomes `id3/X`).
    private static func id3Target(_ target: KeyTarget) -> KeyTarget {
        if case .identifier(let identifier) = target, identifier.keySpace == .id32 { return .identifier(MetadataIdentifier(.id3, identifier.key)) }
        return target
    }

    var hasChanges: Bool { scope != original }
    /// Movie metadata has no tag versions.
    var tagVersion: UInt8?
    var mergesAreasPerKey: Bool { true }

    // MARK: - Reading

    var rankedItems: RankedItems {
        var result = RankedItems(capacity: scope.itemList?.count ?? 0)
        var firsts = FirstItems()
        // Each item is read in place (an array's subscript, or a `for item in` loop, copies
        // every item, each of its fields retained), and each view is moved into the list and
        // changed there, not copied.
        scope.itemList?.withUnsafeBufferPointer { items in
            for index in items.indices {
                let form = Self.form(items[index])
                let first = firsts.isFirst(items[index].type, form)
                result.append(0, Self.view(items[index], form))
                if !first { result.items[result.items.count - 1].contributions = [] }
            }
        }
        appendOtherAreas(to: &result)
        return result
    }

    /// The item list's contributions read without the items' views (each item's key and
    /// values as `view` reads them); the other areas, rare, through their views.
    func forEachTagContribution(_ body: (_ rank: Int, _ key: String, _ values: [String]) -> Void) {
        var firsts = FirstItems()
        scope.itemList?.withUnsafeBufferPointer { items in
            for index in items.indices {
                let form = Self.form(items[index])
                guard firsts.isFirst(items[index].type, form) else { continue }
                let reading = Self.reading(items[index], form)
                if let key = reading.key { body(0, key, reading.values.texts) }
            }
        }
        var others = RankedItems()
        appendOtherAreas(to: &others)
        others.forEachTagContribution(body)
    }

    /// As in TagLib, the first item of a name gives the tag; later ones are listed only.
    private struct FirstItems {
        private var types = SeenKeys<UInt32>(), freeform = SeenKeys<MetadataIdentifier>()

        /// True the first time an item of this type is seen; a freeform item, the first time one
        /// of its identifier (`----:MEAN:NAME`, as TagLib keys its items: a mean `A:B` with the
        /// name `C` is the same item as the mean `A` with the name `B:C`).
        mutating func isFirst(_ type: FourCC, _ form: MetadataKeyDefinition.ITunesForm) -> Bool {
            type == "----" ? freeform.insert(form.identifier) : types.insert(type.rawValue)
        }
    }

    /// The items of the areas after the item list: QuickTime metadata, user data, 3GPP assets,
    /// `ID32` tags and XMP.
    private func appendOtherAreas(to result: inout RankedItems) {
        for item in scope.quickTimeMetadata ?? [] {
            let row = MetadataKeyTable.definition(quickTimeKey: item.key)
            let images = item.values.filter { $0.imageMIMEType != nil }
            let rendered = Self.render(item.values.filter { $0.imageMIMEType == nil }, type: nil, kind: row?.kind)
            result.append(1, NativeMetadataItem(MetadataIdentifier(.quickTimeMetadata, item.key), key: Self.textKey(row?.key, kind: row?.kind),
                                                dataType: images.isEmpty ? rendered.typeName : images[0].dataType.description, values: rendered.texts,
                                                pictures: images.map(Self.summary)))
        }
        for item in scope.userData {
            if let asset = item.asset {
                let row = MetadataKeyTable.definition(threeGPP: item.type)
                let value = asset.year.map(String.init) ?? asset.keywords?.joined(separator: ", ") ?? asset.location?.name ?? asset.text
                result.append(3, NativeMetadataItem(MetadataIdentifier(.threeGPP, item.type), key: row?.key, dataType: "3GPP asset", values: [value]))
            } else if let texts = item.texts {
                let row = MetadataKeyTable.definition(userData: item.type)
                result.append(2, NativeMetadataItem(MetadataIdentifier(.quickTimeUserData, item.type), key: row?.key, dataType: "text",
                                                    values: texts.map(\.text)))
            } else {
                result.append(2, NativeMetadataItem(MetadataIdentifier(.quickTimeUserData, item.type), key: nil, dataType: "binary",
                                                    values: [Base64.encode(item.payload)], travelsWith: item.type == "chpl" ? .chapters : nil))
            }
        }
        // The ID3v2 tag of an `ID32` box, read through the ID3 layer, after every other area.
        for index in scope.id3Tags.indices {
            if let store = id32Store(index) {
                for var item in store.rankedItems.items {
                    item.identifier = MetadataIdentifier(.id32, item.identifier.key)
                    result.append(4, item)
                }
            } else {
                result.append(4, NativeMetadataItem(MetadataIdentifier(.id32, "ID32"), key: nil, dataType: "unreadable ID3 tag",
                                                    values: [Base64.encode(scope.id3Tags[index].tag)], isWritable: false))
            }
        }
        if let xmp {
            result.append(5, NativeMetadataItem(MetadataIdentifier(.xmp, "uuid"), key: nil, dataType: "XMP packet",
                                                values: [String(decoding: xmp, as: UTF8.self)], isWritable: false))
        }
    }

    /// The key a row (its key and value kind) gives `tags`: pictures are not text tags.
    private static func textKey(_ key: String?, kind: MetadataValueKind?) -> String? {
        kind == .picture ? nil : key
    }

    /// The table form of an item: its type, or a freeform item's mean and name.
    private static func form(_ item: MetadataItem) -> MetadataKeyDefinition.ITunesForm {
        item.type == "----" ? .freeform(mean: item.mean ?? "", name: item.name ?? "") : .item(item.type)
    }

    private static func view(_ item: MetadataItem, _ form: MetadataKeyDefinition.ITunesForm) -> NativeMetadataItem {
        let (key, rendered, images) = reading(item, form)
        let dataType = item.isOpaque ? "unreadable" : images.isEmpty ? rendered.typeName : images[0].dataType.description
        return NativeMetadataItem(form.identifier, key: key, dataType: dataType, values: rendered.texts, pictures: images.map(Self.summary))
    }

    /// What an item reads as, for its view and for `tags`: the key it gives `tags` (nil: none),
    /// its values as text (its pictures aside), and its pictures.
    private static func reading(_ item: MetadataItem, _ form: MetadataKeyDefinition.ITunesForm)
        -> (key: String?, values: RenderedValues, images: [ItemValue])
    {
        // The row's kind and key, read in place.
        let row = MetadataKeyTable.rowIndex(iTunes: form)
        let kind = row.map { MetadataKeyTable.rows[$0].kind }
        let hasImages = item.values.contains { $0.imageMIMEType != nil }
        let images = hasImages ? item.values.filter { $0.imageMIMEType != nil } : []
        let rendered = render(hasImages ? item.values.filter { $0.imageMIMEType == nil } : item.values, type: item.type, kind: kind)
        // Values that are not text or numbers (shown as Base64) give no tag; a freeform item of
        // iTunes' domain outside the table is the custom key named by its name (as TXXX is).
        var key = textKey(row.map { MetadataKeyTable.rows[$0].key }, kind: kind)
        // (Only a `----` item is freeform: another type holding `mean` and `name` children is
        // that type's item, as every reader takes it.)
        if row == nil, item.type == "----", item.mean == MetadataKeyTable.apple, let name = item.name, !name.isEmpty { key = name.uppercased() }
        // An item whose data cannot be read (damaged), or that holds no value (a `trkn` too short
        // for its numbers), gives no tag either, as TagLib lists none for it.
        if rendered.isBinary || item.isOpaque || rendered.texts.isEmpty { key = nil }
        return (key, rendered, images)
    }

    /// A cover-art value described without its bytes (MP4 cover art is a front cover).
    static func summary(_ value: ItemValue) -> PictureSummary {
        PictureSummary(type: 3, mimeType: coverMIMEType(value), description: "", size: value.bytes.count)
    }

    /// Values as text, and how the last of them was read.
    struct RenderedValues {
        var texts: [String]
        /// How the last value was read when not as its data type says (`pair`, `genre code`,
        /// `binary (jpeg)`: bytes that are not text or a number, shown as Base64).
        var readAs: String?
        var lastDataType: ItemValue.DataType?

        /// The name of the values' data type: the last value's, or what it was read as (its
        /// table looked up only when a view names it).
        var typeName: String { readAs ?? lastDataType?.description ?? "" }
        /// True when the last value was shown as Base64.
        var isBinary: Bool { readAs?.hasPrefix("binary") == true }
    }

    /// The values of an item as text, and how they were read.
    static func render(_ values: [ItemValue], type: FourCC?, kind: MetadataValueKind?) -> RenderedValues {
        var texts: [String] = []
        texts.reserveCapacity(values.count)
        // The type named is the last value's: its data type, or what it was read as.
        var readAs: String?
        let stored = type.map(ItemListValueKind.of) ?? .text
        for value in values {
            readAs = nil
            if stored.isPair, let pair = value.pair {
                texts.append(MetadataValueConversion.render((Int(pair.index), Int(pair.total))))
                readAs = "pair"
            } else if stored.isGenreCode, value.bytes.count == 2 {
                // A 16-bit genre code, whatever data type the writer gave it.
                let code = Int64(value.bytes[value.bytes.startIndex]) << 8 | Int64(value.bytes[value.bytes.startIndex + 1])
                texts.append(MetadataValueConversion.genre(iTunesCode: code) ?? String(code))
                readAs = "genre code"
            } else if let text = value.text {
                texts.append(text)
            } else if value.dataType == .implicit, value.typeSet == 0, kind == .text || kind == .date,
                let text = String(validating: value.bytes, as: UTF8.self)
            {
                // Implicit data under an item whose key is text (`©day`, `purl`; a QuickTime
                // `mdta` item or timed sample of such a key too): the key says what it holds,
                // UTF-8 text, as mutagen and ffmpeg read it (four bytes of `2021` are not the
                // number they would make). Bytes that are not UTF-8 stay as below.
                texts.append(text)
            } else if let number = value.integer {
                texts.append(kind == .boolean ? (number != 0 ? "1" : "0") : String(number))
            } else if let number = value.number {
                texts.append(String(number))
            } else {
                texts.append(Base64.encode(value.bytes))
                readAs = "binary (\(value.dataType))"
            }
        }
        return RenderedValues(texts: texts, readAs: readAs, lastDataType: values.last?.dataType)
    }

    var pictureContents: [PictureContent] {
        coverValues.map { PictureContent(Self.summary($0), contents: SplicedBytes($0.bytes)) }
    }

    /// What `pictures` lists, without copying a cover's bytes.
    var pictureSummaries: [PictureSummary] { coverValues.map(Self.summary) }

    /// The values of the cover art items (`covr`, then QuickTime `artwork`), in file order.
    private var coverValues: [ItemValue] {
        (scope.item("covr")?.values ?? []) + (scope.quickTimeMetadata ?? []).filter { $0.key == "com.apple.quicktime.artwork" }.flatMap(\.values)
    }

    /// A cover's MIME type: from its data type, else from its bytes' signature.
    private static func coverMIMEType(_ value: ItemValue) -> String {
        value.imageMIMEType ?? MediaPicture.mimeType(sniffing: value.bytes) ?? "application/octet-stream"
    }

    /// Nero chapters (`udta/chpl`, in 100 ns units); each ends where the next begins and the
    /// last at the end of the movie. Some writers stored the starts in the movie's timescale:
    /// when 100 ns units would put every chapter in the first 1/1000 of a movie that the
    /// timescale reading fits, the timescale reading is taken, with a note.
    var chapterLists: [ChapterList] {
        guard let chpl = scope.userData("chpl").first else { return [] }
        var reader = ByteReader(chpl.payload)
        guard let box = try? NeroChapterListBox(from: &reader) else {
            return [ChapterList(form: .nero, chapters: [], notes: ["the chpl atom is damaged (its chapter count is larger than its payload); no chapters read"])]
        }
        var timescale: UInt32 = 10_000_000
        var notes: [String] = []
        if let movie = movieTime, movie.timescale > 0, movie.duration > 0, let last = box.chapters.map(\.start).max(), last > 0,
            Double(last) / 10_000_000 * 1000 < Double(movie.duration) / Double(movie.timescale), last <= movie.duration {
            timescale = movie.timescale
            notes.append("chpl starts read in the movie timescale (\(movie.timescale)), as their writer stored them, not in 100 ns units")
        }
        // (A fragmented movie's `mvhd` says 0: no end here; the container gives its own.)
        let end = movieTime.flatMap { $0.timescale > 0 && $0.duration > 0 ? ChapterTime($0.duration, timescale: $0.timescale) : nil }
        let chapters = box.chapters.enumerated().map { index, chapter in
            Chapter(start: ChapterTime(chapter.start, timescale: timescale),
                    end: index + 1 < box.chapters.count ? ChapterTime(box.chapters[index + 1].start, timescale: timescale) : end,
                    title: chapter.title)
        }
        return [ChapterList(form: .nero, chapters: chapters, notes: notes)]
    }

    // MARK: - Writing

    mutating func set(_ target: KeyTarget, values: [String]) throws(MetadataError) -> [String] {
        switch target {
        case .uniform(let row):
            let notes = try set(row, values: values)
            // An ID32 tag that has the key takes the new values too.
            try editID32 { (store: inout ID3MetadataStore) throws(MetadataError) in
                if store.rankedItems.items.contains(where: { $0.contributes(to: row.key) }) {
                    _ = try store.set(target, values: values)
                }
            }
            return notes
        case .identifier(let identifier) where identifier.keySpace == .id32:
            guard !scope.id3Tags.isEmpty else {
                throw MetadataError(.notRepresentable, message: "\(identifier): the file has no ID32 tag")
            }
            var notes: [String] = []
            try editID32(0) { (store: inout ID3MetadataStore) throws(MetadataError) in notes = try store.set(Self.id3Target(target), values: values) }
            return notes
        case .custom(let key, let name):
            guard !key.hasKeyQualifier, key != "URL" else {
                throw MetadataError(.notRepresentable, message: "\(key) has no place in MP4 metadata (it is an ID3 frame form)")
            }
            // An existing freeform item of that name keeps its spelling.
            let existing = scope.itemList?.first { $0.type == "----" && $0.mean == MetadataKeyTable.apple && $0.name?.uppercased() == key }
            scope.setItem(.freeform(mean: MetadataKeyTable.apple, name: existing?.name ?? name, values: values.map(ItemValue.text)))
            return []
        case .identifier(let identifier):
            return try set(identifier, values: values)
        }
    }

    /// The QuickTime metadata keys of the file that read as `row`, in file order (a bare
    /// `title` that ffmpeg wrote as well as `com.apple.quicktime.title`).
    private func quickTimeKeys(of row: MetadataKeyDefinition) -> [String] {
        var keys: [String] = []
        for item in scope.quickTimeMetadata ?? [] where MetadataKeyTable.definition(quickTimeKey: item.key)?.key == row.key && !keys.contains(item.key) {
            keys.append(item.key)
        }
        return keys
    }

    /// True for a file whose metadata is QuickTime `mdta` keys without an iTunes item list (as
    /// AV Foundation, iPhones and ffmpeg's `use_metadata_tags` write): new values go there too.
    private var usesQuickTimeKeysOnly: Bool { scope.quickTimeMetadata != nil && scope.itemList == nil }

    private mutating func set(_ row: MetadataKeyDefinition, values: [String]) throws(MetadataError) -> [String] {
        var notes: [String] = []
        let heldKeys = quickTimeKeys(of: row)
        let inQuickTimeKeys = usesQuickTimeKeysOnly && (row.quickTimeKey != nil || !heldKeys.isEmpty)
        if let form = row.iTunes.first, !inQuickTimeKeys {
            // setItem replaces the item where it is; other forms of the key (gnre for ©gen) go.
            for other in row.iTunes.dropFirst() { remove(other) }
            if case .freeform(let mean, let name) = form {
                // A freeform name spelled differently (`LABEL` for `label`) keeps its spelling.
                let spelled = scope.itemList?.first { $0.type == "----" && $0.mean == mean && $0.name?.uppercased() == name.uppercased() }?.name ?? name
                remove(form)
                scope.setItem(try Self.item(.freeform(mean: mean, name: spelled), row: row, values: values, notes: &notes))
            } else {
                scope.setItem(try Self.item(form, row: row, values: values, notes: &notes))
            }
        }
        // Every QuickTime key that reads as the row takes the values (the first keeps its
        // spelling, the others go); a file of QuickTime keys only gets the row's key.
        if let first = heldKeys.first {
            setQuickTimeKey(first, values: values)
            scope.quickTimeMetadata?.removeAll { heldKeys.dropFirst().contains($0.key) }
        } else if let key = row.quickTimeKey, row.iTunes.isEmpty || inQuickTimeKeys {
            setQuickTimeKey(key, values: values)
        }
        if let type = row.userData, row.iTunes.isEmpty && row.quickTimeKey == nil || !scope.userData(type).isEmpty {
            setUserData(type, values: values)
        }
        if let type = row.threeGPP, !scope.userData(type).isEmpty {
            notes += try setAsset(type, values: values)
        }
        if row.iTunes.isEmpty && row.quickTimeKey == nil && row.userData == nil {
            throw MetadataError(.notRepresentable, message: "\(row.key) has no MP4 form (the key table lists each key's forms)")
        }
        return notes
    }

    /// The iTunes item for `values` of `row` in `form`.
    static func item(_ form: MetadataKeyDefinition.ITunesForm, row: MetadataKeyDefinition?, values: [String], notes: inout [String]) throws(MetadataError) -> MetadataItem {
        let kind = row?.kind ?? .text
        let key = row?.key ?? form.description
        var itemValues: [ItemValue] = []
        func first() -> String {
            if values.count > 1 { notes.append("\(key): only the first of \(values.count) values is kept (\(form) holds one)") }
            return values.first ?? ""
        }
        // How the item stores its value: ItemListValueKind's table, for items of the key table
        // and items set by identifier alike.
        // Freeform items hold text whatever the key's kind.
        let stored: ItemListValueKind = if case .item(let type) = form { .of(type) } else { .text }
        let isItem: Bool = if case .item = form { true } else { false }
        if stored.isGenreCode {
            // The numeric genre: the ID3v1 index plus one.
            guard let index = ID3Genres.index(of: first()) else {
                throw MetadataError(.notRepresentable, message: "\(key): \(values.first ?? "") is not an ID3v1 genre name; set GENRE (©gen) for free text")
            }
            itemValues = [ItemValue(dataType: .implicit, data: [UInt8((index + 1) >> 8), UInt8((index + 1) & 0xFF)])]
        } else if stored.isPair {
            guard let pair = MetadataValueConversion.pair(first()) else { throw MetadataError(.badValue, message: "\(key): expected n or n/m") }
            itemValues = [.pair(index: UInt16(pair.index), total: UInt16(pair.total), trailingPad: stored.hasTrailingPad)]
        } else if stored.isFlag || (isItem && kind == .boolean) {
            itemValues = [.flag(MetadataValueConversion.boolean(first()) ?? false)]
        } else if let width = stored.integerWidth {
            guard let number = Int64(first()) else { throw MetadataError(.badValue, message: "\(key): expected a whole number") }
            let limit: Int64 = width >= 8 ? Int64.max : (1 << (8 * width - 1)) - 1
            guard (-limit - 1...limit).contains(number) else { throw MetadataError(.badValue, message: "\(key): \(number) does not fit \(form)") }
            itemValues = [.integer(number, width: width)]
        } else if isItem && kind == .integer {
            guard let number = Int64(first()) else { throw MetadataError(.badValue, message: "\(key): expected a whole number") }
            itemValues = [.integer(number)]
        } else {
            itemValues = values.map(ItemValue.text)
        }
        switch form {
        case .item(let type): return MetadataItem(type: type, values: itemValues)
        case .freeform(let mean, let name): return .freeform(mean: mean, name: name, values: itemValues)
        }
    }

    private mutating func setQuickTimeKey(_ key: String, values: [String]) {
        var items = scope.quickTimeMetadata ?? []
        let item = QuickTimeMetadataItem(key: key, values: values.map(ItemValue.text))
        if let index = items.firstIndex(where: { $0.key == key }) {
            items[index] = item
            items.removeAll { $0.key == key && $0 != item }
        } else {
            items.append(item)
        }
        scope.quickTimeMetadata = items
    }

    private mutating func setUserData(_ type: FourCC, values: [String]) {
        // Each value keeps the language of the text it replaces.
        let languages = scope.userData(type).first?.texts?.map(\.languageCode) ?? []
        let texts = values.enumerated().map { index, value in
            UserDataItem.LocalizedText(value, languageCode: index < languages.count ? languages[index] : UserDataItem.LocalizedText.undetermined)
        }
        replaceUserData(type, with: [.text(type, texts)])
    }

    private mutating func setAsset(_ type: FourCC, values: [String]) throws(MetadataError) -> [String] {
        var notes: [String] = []
        let value = values.first ?? ""
        if values.count > 1 { notes.append("3gpp/\(type): only the first of \(values.count) values is kept") }
        let asset: ThreeGPPAsset
        if type == "yrrc" {
            guard let year = MetadataValueConversion.year(value), let year16 = UInt16(exactly: year) else {
                throw MetadataError(.badValue, message: "3gpp/yrrc: \(value) has no year")
            }
            if value.count > 4 { notes.append("3gpp/yrrc holds a year: \(value) is written as \(year)") }
            asset = ThreeGPPAsset(year: year16)
        } else if var existing = scope.userData(type).first?.asset {
            // The language and, for `albm`, the track number stay as they were.
            existing.text = value
            asset = existing
        } else {
            asset = ThreeGPPAsset(type: type, text: value)
        }
        replaceUserData(type, with: [UserDataItem(asset: asset)])
        return notes
    }

    /// Puts `items` where the first user-data item of `type` was (or at the end).
    private mutating func replaceUserData(_ type: FourCC, with items: [UserDataItem]) {
        let index = scope.userData.firstIndex { $0.type == type } ?? scope.userData.count
        scope.userData.removeAll { $0.type == type }
        scope.userData.insert(contentsOf: items, at: min(index, scope.userData.count))
    }

    private mutating func set(_ identifier: MetadataIdentifier, values: [String]) throws(MetadataError) -> [String] {
        var notes: [String] = []
        switch identifier.keySpace {
        case .iTunes, .iTunesLong:
            let form: MetadataKeyDefinition.ITunesForm
            if let parts = identifier.freeformParts {
                form = .freeform(mean: parts.mean, name: parts.name)
            } else if let type = identifier.fourCC {
                form = .item(type)
            } else {
                throw MetadataError(.unknownKey, message: "\(identifier) is not an iTunes item identifier")
            }
            let row = MetadataKeyTable.definition(iTunes: form)
            if row?.kind == .picture { throw MetadataError(.badValue, message: "\(identifier) holds pictures, not text: add a picture instead") }
            remove(form)
            scope.setItem(try Self.item(form, row: row, values: values, notes: &notes))
        case .quickTimeMetadata:
            setQuickTimeKey(identifier.key, values: values)
        case .quickTimeUserData:
            guard let type = identifier.fourCC, type.rawValue >> 24 == 0xA9 else {
                throw MetadataError(.notRepresentable, message: "\(identifier): only QuickTime text items (©xxx) can be set as text")
            }
            setUserData(type, values: values)
        case .threeGPP:
            guard let type = identifier.fourCC, ["titl", "auth", "perf", "gnre", "dscp", "cprt", "albm", "yrrc"].contains(type) else {
                throw MetadataError(.notRepresentable, message: "\(identifier): only the 3GPP text assets and yrrc can be set as text")
            }
            notes += try setAsset(type, values: values)
        default:
            throw MetadataError(.notRepresentable, message: "\(identifier) has no place in an MP4 / QuickTime file")
        }
        return notes
    }

    private mutating func remove(_ form: MetadataKeyDefinition.ITunesForm) {
        switch form {
        case .item(let type): scope.removeItems(type)
        case .freeform(let mean, let name):
            scope.itemList?.removeAll { $0.type == "----" && $0.mean == mean && $0.name?.uppercased() == name.uppercased() }
        }
    }

    mutating func remove(_ target: KeyTarget) throws(MetadataError) -> Bool {
        switch target {
        case .uniform(let row) where row.iTunes.isEmpty && row.quickTimeKey == nil && row.userData == nil && row.threeGPP == nil:
            throw MetadataError(.notRepresentable, message: "\(row.key) has no form in MP4 / QuickTime files")
        case .identifier(let identifier) where identifier.keySpace == .xmp:
            throw MetadataError(.notRepresentable, message: "\(identifier) is read only")
        case .identifier(let identifier) where ![.iTunes, .iTunesLong, .quickTimeMetadata, .quickTimeUserData, .threeGPP, .id32].contains(identifier.keySpace):
            throw MetadataError(.notRepresentable, message: "\(identifier) has no place in an MP4 / QuickTime file")
        default:
            break
        }
        let before = scope
        // The ID32 tag, through the ID3 layer: an id32 identifier, and every uniform key.
        switch target {
        case .identifier(let identifier) where identifier.keySpace == .id32:
            try editID32 { (store: inout ID3MetadataStore) throws(MetadataError) in _ = try store.remove(Self.id3Target(target)) }
            return scope != before
        case .uniform:
            try editID32 { (store: inout ID3MetadataStore) throws(MetadataError) in _ = try? store.remove(target) }
        default:
            break
        }
        switch target {
        case .uniform(let row):
            for form in row.iTunes { remove(form) }
            let keys = quickTimeKeys(of: row) + (row.quickTimeKey.map { [$0] } ?? [])
            scope.quickTimeMetadata?.removeAll { keys.contains($0.key) }
            if let type = row.userData { scope.userData.removeAll { $0.type == type } }
            if let type = row.threeGPP { scope.userData.removeAll { $0.type == type } }
        case .custom(let key, _):
            scope.itemList?.removeAll { $0.type == "----" && $0.mean == MetadataKeyTable.apple && $0.name?.uppercased() == key }
        case .identifier(let identifier):
            switch identifier.keySpace {
            case .iTunesLong:
                if let parts = identifier.freeformParts { remove(.freeform(mean: parts.mean, name: parts.name)) }
            case .iTunes:
                if let type = identifier.fourCC { scope.removeItems(type) }
            case .quickTimeMetadata:
                scope.quickTimeMetadata?.removeAll { $0.key == identifier.key }
            case .quickTimeUserData, .threeGPP:
                if let type = identifier.fourCC { scope.userData.removeAll { $0.type == type } }
            default:
                break
            }
        }
        return scope != before
    }

    mutating func removeAll() {
        if scope.itemList != nil { scope.itemList = [] }
        scope.quickTimeMetadata = nil
        scope.userData = []
        scope.id3Tags = []
    }

    mutating func addPicture(_ picture: MediaPicture) throws(MetadataError) -> [String] {
        guard let value = ItemValue.image(picture.data, mimeType: picture.mimeType) else {
            throw MetadataError(.notRepresentable, message: "MP4 cover art is JPEG, PNG, GIF or BMP, not \(picture.mimeType)")
        }
        var notes: [String] = []
        if picture.type != 3 { notes.append("MP4 cover art has no picture type: the \(picture.typeName) picture is stored as cover art") }
        if !picture.description.isEmpty { notes.append("MP4 cover art has no description: \"\(picture.description)\" is not kept") }
        var item = scope.item("covr") ?? MetadataItem(type: "covr", values: [])
        item.values.append(value)
        scope.setItem(item)
        return notes
    }

    mutating func removePictures(type: PictureType?) -> Int {
        guard type == nil || type == 3 else { return 0 }
        let count = coverValues.count
        scope.removeItems("covr")
        scope.quickTimeMetadata?.removeAll { $0.key == "com.apple.quicktime.artwork" }
        return count
    }

    // MARK: - Export and import

    func nativeItems() throws(MetadataError) -> [(MetadataIdentifier, NativeItemData)] {
        var result: [(MetadataIdentifier, NativeItemData)] = []
        result.reserveCapacity(scope.itemList?.count ?? 0)
        // Each item read in place (a `for item in` loop copies every item, each field retained).
        scope.itemList?.withUnsafeBufferPointer { items in
            for index in items.indices where !items[index].isOpaque {
                let type = items[index].type
                let identifier = type == "----" ? MetadataIdentifier.freeform(mean: items[index].mean ?? "", name: items[index].name ?? "") : MetadataIdentifier(.iTunes, type)
                result.append((identifier, .itemValues(items[index].values.map(NativeItemValue.init), otherChildren: items[index].otherChildren)))
            }
        }
        for item in scope.quickTimeMetadata ?? [] {
            result.append((MetadataIdentifier(.quickTimeMetadata, item.key), .itemValues(item.values.map(NativeItemValue.init), otherChildren: item.item.otherChildren)))
        }
        for item in scope.userData {
            result.append((MetadataIdentifier(item.asset != nil ? .threeGPP : .quickTimeUserData, item.type), .userData(item.payload)))
        }
        // An ID32 tag travels whole: its language and the tag's bytes.
        for tag in scope.id3Tags {
            result.append((MetadataIdentifier(.id32, "ID32"), .userData([UInt8(tag.languageCode >> 8), UInt8(tag.languageCode & 0xFF)] + tag.tag)))
        }
        return result
    }

    mutating func addNative(_ identifier: MetadataIdentifier, _ data: NativeItemData) throws(MetadataError) -> String? {
        switch (identifier.keySpace, data) {
        case (.iTunes, .itemValues(let native, let children)), (.iTunesLong, .itemValues(let native, let children)):
            let values = native.map(\.itemValue)
            var item: MetadataItem
            if let parts = identifier.freeformParts {
                item = .freeform(mean: parts.mean, name: parts.name, values: values)
            } else if let type = identifier.fourCC {
                item = MetadataItem(type: type, values: values)
            } else {
                throw MetadataError(.badValue, message: "\(identifier) is not an iTunes item identifier")
            }
            item.otherChildren = children
            scope.itemList = (scope.itemList ?? []) + [item]
        case (.quickTimeMetadata, .itemValues(let values, _)):
            scope.quickTimeMetadata = (scope.quickTimeMetadata ?? []) + [QuickTimeMetadataItem(key: identifier.key, values: values.map(\.itemValue))]
        case (.id32, .userData(let payload)) where payload.count >= 2:
            scope.id3Tags.append(ID3TagAtom(tag: Array(payload.dropFirst(2)), languageCode: UInt16(payload[0]) << 8 | UInt16(payload[1])))
        case (.quickTimeUserData, .userData(let payload)), (.threeGPP, .userData(let payload)):
            guard let type = identifier.fourCC else { throw MetadataError(.badValue, message: "\(identifier) has no four-character type") }
            scope.userData.append(UserDataItem(type: type, payload: payload))
        default:
            throw MetadataError(.notRepresentable, message: "\(identifier) cannot be restored into an MP4 / QuickTime file")
        }
        return nil
    }
}

/// The keys met so far, to tell the first item of a name from later ones: a short list searched
/// in order (a file has a few dozen items at most, and hashing each key cost more than that),
/// a set once it holds more than 32.
struct SeenKeys<Key: Hashable> {
    private var list: [Key] = []
    private var set: Set<Key>?

    /// Adds `key`; true when it was not there yet.
    mutating func insert(_ key: Key) -> Bool {
        if set != nil { return set!.insert(key).inserted }
        if list.contains(key) { return false }
        if list.count < 32 {
            if list.isEmpty { list.reserveCapacity(32) }
            list.append(key)
        } else {
            set = Set(list)
            set!.insert(key)
            list = []
        }
        return true
    }
}
