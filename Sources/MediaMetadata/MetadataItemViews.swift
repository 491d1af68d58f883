import ISOBMFF
import MediaBytes

/// One native metadata item as the uniform layer sees it: its identifier, the uniform key it
/// stands for (if any), and its values as text.
public struct NativeMetadataItem: Sendable, Hashable {
    public var identifier: MetadataIdentifier
    /// The uniform (or custom) key this item contributes to `tags`, or nil when it has none.
    public var key: String?
    /// What the native value is: `utf8`, `integer`, `pair`, `flag`, `jpeg`, `text frame`, ...
    public var dataType: String
    /// The values as text (pairs as `n/m`, genres as names, binary data as Base64).
    public var values: [String]
    /// What this item adds to `tags` (a `TIPL` frame adds one key per role).
    public internal(set) var contributions: [TagContribution] {
        get { contribution.map { [$0] } ?? otherContributions }
        set {
            contribution = newValue.count == 1 ? newValue[0] : nil
            otherContributions = newValue.count == 1 ? [] : newValue
        }
    }
    /// The one member of `contributions` when it has one (nearly every item: its key and
    /// values), kept without an array of its own; nil otherwise, when the list is
    /// `otherContributions`. One form for each list, so equality is the lists'.
    private var contribution: TagContribution?
    private var otherContributions: [TagContribution]
    /// False for items that can be read but not written (ID3v1 fields, which mirror the ID3v2 tag).
    public var isWritable: Bool
    /// The pictures a picture item holds (an `APIC` frame, a `covr` item), described without
    /// their bytes; `values` has none of them. Empty for other items.
    public var pictures: [PictureSummary]
    /// How an item without a key of its own reaches a file of another format: with the tags
    /// (a Vorbis `TRACKTOTAL` in `TRACKNUMBER`'s pair, the ID3v2.3 date parts in `DATE`), as
    /// chapters (`CHAP`, `chpl`, `CHAPTERnnn`) or as pictures; nil for an item that travels only
    /// as itself (byte for byte, between files of one family).
    public internal(set) var travelsWith: Travel?

    /// What an item travels with; see `travelsWith`.
    public enum Travel: String, Sendable, Hashable {
        case tags, chapters, pictures
    }

    init(_ identifier: MetadataIdentifier, key: String?, dataType: String, values: [String], contributions: [TagContribution]? = nil,
         isWritable: Bool = true, pictures: [PictureSummary] = [], travelsWith: Travel? = nil) {
        self.identifier = identifier
        self.key = key
        self.dataType = dataType
        self.values = values
        // By default, its key with its values (no list made for them).
        contribution = key.map { TagContribution(key: $0, values: values) }
        otherContributions = []
        self.isWritable = isWritable
        self.pictures = pictures
        self.travelsWith = travelsWith ?? (pictures.isEmpty ? nil : .pictures)
        if let contributions { self.contributions = contributions }
    }

    /// True when the item adds anything to `tags`.
    var hasContributions: Bool { contribution != nil || !otherContributions.isEmpty }

    /// True when the item adds `key` to `tags`.
    func contributes(to key: String) -> Bool {
        contribution?.key == key || otherContributions.contains { $0.key == key }
    }

    /// The key the item adds to `tags` when it adds exactly one; nil otherwise.
    var soleContributionKey: String? { contribution?.key }

    /// Calls `body` with each key and its values that the item adds to `tags`, in order,
    /// without making the list.
    func forEachContribution(_ body: (_ key: String, _ values: [String]) -> Void) {
        if let contribution { body(contribution.key, contribution.values) }
        for index in otherContributions.indices { body(otherContributions[index].key, otherContributions[index].values) }
    }

    public var keySpace: MetadataIdentifier.KeySpace { identifier.keySpace }
    /// The native key as the format spells it (`©nam`, `TXXX:CATALOGNUMBER`).
    public var nativeKey: String { identifier.key }
}

/// One key and its values that a native item adds to `tags`.
public struct TagContribution: Sendable, Hashable {
    public var key: String
    public var values: [String]
}

/// A picture described, with its bytes as they are: a large one still in the file it was
/// read from is a range of it (`SplicedBytes`), read a chunk at a time when it is written out.
public struct PictureContent: Sendable {
    public var summary: PictureSummary
    public var contents: SplicedBytes

    public init(_ summary: PictureSummary, contents: SplicedBytes) {
        self.summary = summary
        self.contents = contents
    }

    /// The picture with its bytes read.
    public var picture: MediaPicture {
        get throws(MetadataError) {
            do {
                return MediaPicture(type: summary.type, mimeType: summary.mimeType, description: summary.description, data: try contents.materialized())
            } catch {
                // Where the picture's bytes are in the file, when they were left there.
                var offset: UInt64?
                if case .range(_, let start, _)? = contents.pieces.first { offset = start }
                throw MetadataError(.io, offset: offset, message: "cannot read the \(summary.type.name) picture (\(summary.size) bytes): \(error.description)")
            }
        }
    }
}

/// What a picture item holds, without the image bytes.
public struct PictureSummary: Sendable, Hashable {
    /// What the picture shows (`.frontCover` for MP4 cover art).
    public var type: PictureType
    public var mimeType: String
    public var description: String
    /// The image's size in bytes.
    public var size: Int

    public init(type: PictureType, mimeType: String, description: String, size: Int) {
        self.type = type
        self.mimeType = mimeType
        self.description = description
        self.size = size
    }

    /// The type's name as used on the command line (`front-cover`).
    public var typeName: String { type.name }

    /// The file name extension for the MIME type.
    public var fileExtension: String {
        switch mimeType.lowercased() {
        case "image/jpeg", "image/jpg": "jpg"
        case "image/png": "png"
        case "image/gif": "gif"
        case "image/bmp": "bmp"
        case "image/webp": "webp"
        default: "bin"
        }
    }
}

/// An embedded picture.
public struct MediaPicture: Sendable, Hashable {
    /// What the picture shows; iTunes cover art counts as `.frontCover`.
    public var type: PictureType
    public var mimeType: String
    public var description: String
    public var data: [UInt8]

    public init(type: PictureType = .frontCover, mimeType: String, description: String = "", data: [UInt8]) {
        self.type = type
        self.mimeType = mimeType
        self.description = description
        self.data = data
    }

    /// The type's name as used on the command line (`front-cover`).
    public var typeName: String { type.name }

    /// A picture that is a link to an image, not its bytes: ID3v2's `APIC` with the MIME type
    /// `-->` and the image's URL as its data (what a Podcasting 2.0 chapter's `img` is).
    public static func link(to url: String, type: PictureType = .other, description: String = "") -> MediaPicture {
        MediaPicture(type: type, mimeType: linkMIMEType, description: description, data: Array(url.utf8))
    }

    /// The MIME type ID3v2 gives a picture that is a link (`-->`).
    public static let linkMIMEType = "-->"

    /// The URL of a picture that is a link (``link(to:type:description:)``); nil for image bytes.
    public var linkedURL: String? {
        mimeType == Self.linkMIMEType ? String(decoding: data, as: UTF8.self) : nil
    }

    /// The picture described without its bytes (what `MediaFile.pictureSummaries` lists).
    public var summary: PictureSummary {
        PictureSummary(type: type, mimeType: mimeType, description: description, size: data.count)
    }

    /// The MIME type of image bytes by their signature (JPEG, PNG, GIF, BMP, WebP), or nil.
    public static func mimeType(sniffing bytes: some Collection<UInt8>) -> String? {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if bytes.starts(with: "GIF8".utf8) { return "image/gif" }
        if bytes.starts(with: "BM".utf8) { return "image/bmp" }
        if bytes.starts(with: "RIFF".utf8), bytes.dropFirst(8).starts(with: "WEBP".utf8) { return "image/webp" }
        return nil
    }

    /// The file name extension for the MIME type.
    public var fileExtension: String { summary.fileExtension }
}

/// A native item's content in a form that restores it exactly (for `tagedit export`/`import`).
/// One value of an iTunes or QuickTime metadata item as stored in its `data` atom: the type
/// indicator and locale with the bytes, so that any value, known type or not, goes back
/// exactly.
public struct NativeItemValue: Sendable, Hashable {
    /// The type set (0 for the well-known types) and the type indicator (1 UTF-8, 13 JPEG,
    /// 21 signed integer...).
    public var typeSet: UInt8
    public var typeIndicator: UInt32
    public var country: UInt16
    public var language: UInt16
    /// The value's bytes: for a value read from a file, a slice of the metadata read (a cover
    /// is not copied to be listed or exported).
    public var bytes: ArraySlice<UInt8>

    /// The value's bytes as an array (a copy of `bytes`).
    public var data: [UInt8] {
        get { Array(bytes) }
        set { bytes = newValue[...] }
    }

    public init(typeIndicator: UInt32, data: [UInt8], typeSet: UInt8 = 0, country: UInt16 = 0, language: UInt16 = 0) {
        self.init(typeIndicator: typeIndicator, bytes: data[...], typeSet: typeSet, country: country, language: language)
    }

    public init(typeIndicator: UInt32, bytes: ArraySlice<UInt8>, typeSet: UInt8 = 0, country: UInt16 = 0, language: UInt16 = 0) {
        self.typeSet = typeSet
        self.typeIndicator = typeIndicator
        self.country = country
        self.language = language
        self.bytes = bytes
    }

    /// The well-known name of the type (`UTF-8`, `JPEG`, `signed integer`...).
    public var typeName: String { ItemValue.DataType(rawValue: typeIndicator).description }

    init(_ value: ItemValue) {
        self.init(typeIndicator: value.dataType.rawValue, bytes: value.bytes, typeSet: value.typeSet, country: value.country, language: value.language)
    }

    var itemValue: ItemValue {
        var value = ItemValue(dataType: .init(rawValue: typeIndicator), data: [], typeSet: typeSet, country: country, language: language)
        value.bytes = bytes
        return value
    }
}

public enum NativeItemData: Sendable, Hashable {
    /// An iTunes item or QuickTime metadata item: its `data` values and any other children.
    case itemValues([NativeItemValue], otherChildren: [[UInt8]])
    /// A QuickTime user-data item or 3GPP asset: its payload.
    case userData([UInt8])
    /// An ID3v2 frame as stored in a tag of `version` (header and body); a large picture's
    /// bytes may still be in the file it was read from.
    case id3Frame(version: UInt8, bytes: SplicedBytes)
    /// An item whose native form is one text: a RIFF `INFO` entry.
    case text(String)
}
