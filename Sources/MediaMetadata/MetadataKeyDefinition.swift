import ISOBMFF
import MediaBytes

/// One row of the key-space table: a uniform key, what its values are, and its native form in
/// each format. `MetadataKeyTable.rows` is the single source of truth; the reference matrix in
/// `Documentation/KeySpace.md` is generated from it.
public struct MetadataKeyDefinition: Sendable, Hashable {
    /// The uniform key, TagLib's property name (`TITLE`, `TRACKNUMBER`).
    public var key: String
    public var kind: MetadataValueKind
    /// Other names accepted for the key (AV Foundation common keys such as `common/title`).
    public var aliases: [String]
    /// iTunes item list forms; the first is written, all are read.
    public var iTunes: [ITunesForm]
    /// True when `iTunes` is not a form of the key's own (TagLib's), but the freeform item
    /// `----:com.apple.iTunes:KEY` a key without one is written as (as TagLib writes a
    /// property it has no atom for, and as `CUSTOM:KEY` would).
    public var iTunesIsFreeformByName: Bool
    /// QuickTime user-data item (`udta/©nam`).
    public var userData: FourCC?
    /// QuickTime metadata key (`com.apple.quicktime.title`).
    public var quickTimeKey: String?
    /// 3GPP asset (`titl`).
    public var threeGPP: FourCC?
    /// ID3v2.4 form.
    public var id3: ID3Form?
    /// ID3v2.3 form when it differs from the v2.4 one.
    public var id3v23: ID3Form?
    /// RIFF `INFO` entry (read from WAV files).
    public var riffInfo: FourCC?
    /// The APE item key the key is written as in an APE tag (read without regard to case);
    /// nil where it is the uniform key itself, as TagLib writes it.
    public var ape: String?
    /// Vorbis comment field names; the first is written, all are read (compared in upper case).
    /// Empty for a key with no field (pictures are `PICTURE` blocks).
    public var vorbisNames: [String]
    /// Why a mapping is as it is, where it is disputed or differs from TagLib.
    public var note: String?

    /// The ID3v2 form for a tag of `version` (2 and 3 use the v2.3 form).
    public func id3Form(version: UInt8) -> ID3Form? { version >= 4 ? id3 : (id3v23 ?? id3) }

    /// An iTunes item form.
    public enum ITunesForm: Sendable, Hashable, CustomStringConvertible {
        /// An item atom (`©nam`, `trkn`).
        case item(FourCC)
        /// A freeform item `----` with `mean` and `name`.
        case freeform(mean: String, name: String)

        /// The freeform item `----:com.apple.iTunes:NAME`.
        static func iTunes(_ name: String) -> ITunesForm { .freeform(mean: "com.apple.iTunes", name: name) }

        public var identifier: MetadataIdentifier {
            switch self {
            case .item(let type): MetadataIdentifier(.iTunes, type)
            case .freeform(let mean, let name): .freeform(mean: mean, name: name)
            }
        }

        public var description: String {
            switch self {
            case .item(let type): type.description
            case .freeform(let mean, let name): "----:\(mean):\(name)"
            }
        }
    }

    /// An ID3v2 form.
    public enum ID3Form: Sendable, Hashable, CustomStringConvertible {
        /// A text (`T***`) or URL (`W***`) frame, or one of iTunes' own frames.
        case frame(String)
        /// `TXXX` with this description (matched case-insensitively when reading).
        case userText(String)
        /// `COMM` with this description.
        case comment(String)
        /// `USLT` with this description.
        case lyrics(String)
        /// `UFID` with this owner.
        case uniqueFileID(String)
        /// `WXXX` with this description (the `URL` and `URL:DESCRIPTION` custom keys).
        case userURL(String)
        /// One role of an involved-people list (`TIPL` in v2.4, `IPLS` in v2.3).
        case involvedPerson(frame: String, role: String)

        /// The frame identifier.
        public var frameID: String {
            switch self {
            case .frame(let id): id
            case .userText: "TXXX"
            case .comment: "COMM"
            case .lyrics: "USLT"
            case .uniqueFileID: "UFID"
            case .userURL: "WXXX"
            case .involvedPerson(let frame, _): frame
            }
        }

        public var description: String {
            switch self {
            case .frame(let id): id
            case .userText(let description): "TXXX:\(description)"
            case .comment(let description): description.isEmpty ? "COMM" : "COMM:\(description)"
            case .lyrics(let description): description.isEmpty ? "USLT" : "USLT:\(description)"
            case .uniqueFileID(let owner): "UFID:\(owner)"
            case .userURL(let description): description.isEmpty ? "WXXX" : "WXXX:\(description)"
            case .involvedPerson(let frame, let role): "\(frame):\(role)"
            }
        }
    }

    init(
        _ key: String, _ kind: MetadataValueKind = .text, aliases: [String] = [], iTunes: [ITunesForm] = [], userData: FourCC? = nil,
        quickTime: String? = nil, threeGPP: FourCC? = nil, id3: ID3Form? = nil, id3v23: ID3Form? = nil, info: FourCC? = nil, ape: String? = nil,
        vorbis: [String]? = nil, note: String? = nil
    ) {
        self.key = key
        self.kind = kind
        self.aliases = aliases
        // A key with no atom of its own is a freeform item of `com.apple.iTunes` named as the
        // key, as TagLib writes a property it has no atom for (and as CUSTOM:KEY would write it).
        iTunesIsFreeformByName = iTunes.isEmpty && kind != .picture
        self.iTunes = iTunesIsFreeformByName ? [.iTunes(key)] : iTunes
        self.userData = userData
        quickTimeKey = quickTime
        self.threeGPP = threeGPP
        self.id3 = id3
        self.id3v23 = id3v23
        riffInfo = info
        self.ape = ape
        // TagLib's property names are Vorbis comment names: a key is its own field unless told.
        vorbisNames = vorbis ?? (kind == .picture ? [] : [key])
        self.note = note
    }
}
