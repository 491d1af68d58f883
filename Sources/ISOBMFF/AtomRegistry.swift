import MediaBytes

/// What the reader knows about atom types: which are containers, how many bytes of fixed fields
/// come before their children, and what a sample entry's type says about its layout.
///
/// Whether an atom is a container depends on its parent as well as on its type: `©nam` is a
/// container under `ilst` but a text leaf under a QuickTime `udta`; `mp4a` is a sample entry
/// under `stsd` but a 12-byte leaf inside `wave`; `tmcd` is a sample entry, a `gmhd` container
/// or a `tref` leaf.
enum AtomRegistry {
    /// The layout decision for one atom.
    enum Layout: Equatable {
        case leaf
        /// Children start after `prefix` bytes of fixed fields.
        case container(prefix: Int)
        /// `meta`: an ISO full box (4 bytes of version and flags) or QuickTime's plain container;
        /// told apart by content.
        case meta
        /// `iinf`: 6 or 8 bytes of fields depending on its version.
        case itemInfo
        case sampleEntry(SampleEntryKind)
    }

    /// Containers whose children start right after the header, wherever they appear.
    static let plainContainers: FourCCSet = [
        "moov", "trak", "mdia", "minf", "stbl", "dinf", "edts", "udta", "mvex", "moof", "traf", "mfra",
        "tref", "sinf", "schi", "wave", "ilst", "gmhd", "clip", "matt", "tapt", "iprp", "ipco", "rinf",
        "strk", "strd", "trgr", "meco", "mere", "paen", "grpl",
    ]

    static let audioEntries: FourCCSet = [
        "mp4a", "enca", "alac", "ac-3", "ec-3", "ac-4", "Opus", "fLaC", ".mp3", "samr", "sawb", "sawp",
        "sevc", "sqcp", "ssmv", "lpcm", "twos", "sowt", "in24", "in32", "fl32", "fl64", "ulaw", "alaw",
        "ima4", "ipcm", "fpcm", "mha1", "mha2", "mhm1", "mhm2", "dtsc", "dtsh", "dtsl", "dtse", "dtsx",
        "MAC3", "MAC6", "QDM2", "QDMC", "agsm", "mlpa", "spex", "vrbs", "NONE",
    ]

    static let videoEntries: FourCCSet = [
        "avc1", "avc2", "avc3", "avc4", "hvc1", "hev1", "hvc2", "hev2", "dvh1", "dvhe", "dva1", "dvav",
        "vvc1", "vvi1", "mp4v", "encv", "s263", "h263", "jpeg", "mjpa", "mjpb", "mjp2", "png ", "vp08",
        "vp09", "av01", "apch", "apcn", "apcs", "apco", "ap4h", "ap4x", "rle ", "SVQ1", "SVQ3", "cvid",
        "dvc ", "dvcp", "dv5n", "dv5p", "2vuy", "yuv2", "v210", "v410", "AVdn", "AVdh", "raw ", "MJPG",
        "hvt1", "lhv1", "lhe1", "FFV1", "y420",
    ]

    static let genericEntries: FourCCSet = ["mp4s", "wvtt", "c608", "c708", "encs", "mebx", "stpp", "encm"]

    /// Decides the layout of an atom of `type` whose parent is `parent` (nil at the top level),
    /// in a track whose media handler is `handler` (when known).
    static func layout(for type: FourCC, parent: FourCC?, handler: FourCC?) -> Layout {
        if let parent {
            switch parent {
            case "ilst":
                // Every item of an item list is a container of `data`/`mean`/`name` atoms,
                // whatever its type (iTunes four-character codes, `----`, or mdta key indexes).
                return .container(prefix: 0)
            case "stsd":
                return .sampleEntry(sampleEntryKind(for: type, handler: handler))
            case "wave", "tref":
                // Inside `wave`, `mp4a` is a small leaf, not a sample entry; in `tref`, every
                // child is a list of track IDs.
                return type == "wave" ? .container(prefix: 0) : .leaf
            case "gmhd":
                return type == "tmcd" ? .container(prefix: 0) : .leaf
            case "mebx":
                // A timed metadata sample entry's key table: one box per local key ID, each
                // holding `keyd` (and `dtyp`, `loca`) declarations.
                return type == "keys" ? .container(prefix: 0) : .leaf
            case "keys":
                // Only reached inside `mebx/keys` (the `keys` of a `meta` is a leaf).
                return .container(prefix: 0)
            case "udta":
                return type == "meta" ? .meta : .leaf
            default:
                break
            }
        }
        if plainContainers.contains(type) { return .container(prefix: 0) }
        // Full-box containers with fixed fields before the children: version and flags
        // (4 bytes), plus an entry count where the box has one.
        switch type {
        case "stsd", "dref": return .container(prefix: 8)
        case "iref": return .container(prefix: 4)
        case "ipro", "fiin": return .container(prefix: 6)
        case "meta": return .meta
        case "iinf": return .itemInfo
        default: return .leaf
        }
    }

    static func sampleEntryKind(for type: FourCC, handler: FourCC?) -> SampleEntryKind {
        // The track's handler decides where it says: QuickTime's `raw ` is uncompressed video
        // under `vide` and 8-bit audio under `soun`.
        switch handler {
        case "soun": return .audio
        case "vide", "pict", "auxv": return videoEntries.contains(type) || !audioEntries.contains(type) ? .video : .audio
        default: break
        }
        if audioEntries.contains(type) { return .audio }
        if videoEntries.contains(type) { return .video }
        switch type {
        case "tx3g": return .timedText
        case "text": return .quickTimeText
        case "tmcd": return .timecode
        default: break
        }
        if genericEntries.contains(type) { return .generic }
        switch handler {
        case "soun": return .audio
        case "vide", "pict", "auxv": return .video
        default: return .generic
        }
    }

    /// Top-level types that can open an ISO-BMFF or QuickTime file (`AtomTree.openingTypes`).
    static let openingTypes: FourCCSet = [
        "ftyp", "moov", "mdat", "free", "skip", "wide", "pnot", "uuid", "styp", "sidx", "moof", "meta",
        "junk", "PICT", "jP  ", "mfra", "prfl", "pdin", "emsg", "prft", "ssix",
    ]
}
