import MediaBytes

/// A typed reading of an atom's fields.
///
/// Each conforming type decodes one atom type (or a family with one layout) from the atom's
/// field bytes: the whole payload of a leaf, or the fixed fields before a container's children.
public protocol AtomPayload: Sendable {
    init(from reader: inout ByteReader, context: AtomDecodingContext) throws
    /// The decoded fields, for the inspector.
    func fields(_ options: AtomFieldOptions) -> [DescribedField]
    /// A short one-line summary for tree output.
    var summary: String { get }
}

extension AtomPayload {
    public var summary: String {
        fields(AtomFieldOptions(maxEntries: 0)).prefix(4).map { "\($0.name)=\($0.value.summaryText)" }.joined(separator: " ")
    }
}

/// Where an atom sits, which some layouts depend on.
public struct AtomDecodingContext: Sendable {
    public var atom: Atom
    /// The parent's type (nil at the top level).
    public var parent: FourCC?
    /// The grandparent's type.
    public var grandparent: FourCC?
    /// The media handler of the enclosing track (`soun`, `vide`, `text`...), when known.
    public var handler: FourCC?
    /// The keys of the enclosing QuickTime `mdta` metadata, for its item list.
    public var metadataKeys: [String]
    /// Where the atom is, for diagnostics and links (empty when decoded out of a tree walk).
    public var path: AtomPath
    /// The per-sample IV size of the enclosing encrypted track (its `tenc`; for a fragment, the
    /// track its `tfhd` names), which `senc` needs to be read; nil when not known.
    public var perSampleIVSize: Int?
    /// The version of the parent when it is a full box whose children read by it (an `iref`'s
    /// references hold 16-bit item IDs under version 0, 32-bit under 1); nil otherwise.
    public var parentVersion: UInt8?
    /// Whether decoders that note their fields' file bytes by name (the inspector's byte
    /// ranges, `FieldList.note`) do so; off for a caller that reads values only
    /// (`AtomTree.payload(of:)`: summaries, metadata). Fields added with their ranges keep them.
    public var recordsFieldBytes = true

    public init(atom: Atom, parent: FourCC? = nil, grandparent: FourCC? = nil, handler: FourCC? = nil, metadataKeys: [String] = [],
                path: AtomPath = .root, perSampleIVSize: Int? = nil, parentVersion: UInt8? = nil) {
        self.atom = atom
        self.parent = parent
        self.grandparent = grandparent
        self.handler = handler
        self.metadataKeys = metadataKeys
        self.path = path
        self.perSampleIVSize = perSampleIVSize
        self.parentVersion = parentVersion
    }
}

/// The version and flags that open a full box (ISO/IEC 14496-12 section 4.2).
public struct FullBoxHeader: Sendable, Hashable {
    public var version: UInt8
    public var flags: UInt32

    public init(from reader: inout ByteReader) throws(ByteReaderError) {
        version = try reader.readUInt8()
        flags = try reader.readUInt24()
    }

    public init(version: UInt8, flags: UInt32) {
        self.version = version
        self.flags = flags
    }

    public var fields: [DescribedField] { [DescribedField("version", version), DescribedField("flags", flags)] }

    /// Version, flags, and the names of the flags that are set, bit by bit (`flagNames`: each
    /// bit with its name in the specification).
    public func fields(naming flagNames: KeyValuePairs<UInt32, String>) -> [DescribedField] {
        fields + [DescribedField("flagsSet", .list(flagNames.filter { flags & $0.key != 0 }.map { .text($0.value) }))]
    }
}

/// The sample flags of movie fragments (ISO/IEC 14496-12 section 8.8.3.1), decoded by name:
/// `tfhd`'s and `trex`'s defaults, `trun`'s first-sample and per-sample flags.
public enum SampleFlags {
    public static func value(_ flags: UInt32) -> FieldValue {
        .record([
            DescribedField("isLeading", flags >> 26 & 3), DescribedField("dependsOn", flags >> 24 & 3),
            DescribedField("isDependedOn", flags >> 22 & 3), DescribedField("hasRedundancy", flags >> 20 & 3),
            DescribedField("paddingValue", flags >> 17 & 7), DescribedField("isNonSync", flags >> 16 & 1 != 0),
            DescribedField("degradationPriority", flags & 0xFFFF),
        ])
    }
}

/// Time stamps counted in seconds since 1904-01-01 (QuickTime and ISO-BMFF headers).
enum MovieTime {
    /// ISO 8601 text for a count of seconds since 1904-01-01 00:00:00 UTC.
    static func iso8601(secondsSince1904 value: UInt64) -> String {
        // Beyond the year 9999 a time stamp is garbage; show the number instead of a date.
        guard value < 255_000_000_000 else { return "\(value) s since 1904" }
        let unixSeconds = Int64(value) - 2_082_844_800
        var days = unixSeconds >= 0 ? unixSeconds / 86_400 : (unixSeconds - 86_399) / 86_400
        let secondsOfDay = unixSeconds - days * 86_400
        // Civil-from-days (Howard Hinnant's algorithm).
        days += 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(secondsOfDay / 3600)):\(two(secondsOfDay / 60 % 60)):\(two(secondsOfDay % 60))Z"
    }

    /// A duration in a timescale as seconds, or nil when the timescale is 0.
    static func seconds(_ duration: UInt64, timescale: UInt32) -> Double? {
        timescale == 0 ? nil : Double(duration) / Double(timescale)
    }
}

/// Language codes in media headers and QuickTime user data.
public enum LanguageCode {
    /// A 16-bit language field: packed ISO 639-2/T (three 5-bit letters, offset 0x60) when the
    /// value is at least 0x400, otherwise a Macintosh language code.
    public static func decode(_ packed: UInt16) -> String {
        if packed >= 0x400 && packed != 0x7FFF {
            let letters = (UInt8((packed >> 10) & 0x1F) + 0x60, UInt8((packed >> 5) & 0x1F) + 0x60, UInt8(packed & 0x1F) + 0x60)
            let isLetter = { (letter: UInt8) in letter >= 0x61 && letter <= 0x7A }
            if isLetter(letters.0), isLetter(letters.1), isLetter(letters.2) {
                // Three ASCII letters: a string stored in place, no allocation.
                return String(unsafeUninitializedCapacity: 3) { buffer in
                    (buffer[0], buffer[1], buffer[2]) = letters
                    return 3
                }
            }
            return "0x" + String(packed, radix: 16)
        }
        if packed == 0x7FFF { return "und" }
        return macLanguages[Int(packed)].map { $0 } ?? "mac:\(packed)"
    }

    /// Packs a three-letter ISO 639-2/T code (`eng`); nil for anything else. `und` packs as
    /// 0x55C4, the ISO form (QuickTime's own "unspecified" is 0x7FFF).
    public static func pack(_ code: String) -> UInt16? {
        let letters = Array(code.utf8)
        guard letters.count == 3, letters.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) else { return nil }
        return letters.reduce(UInt16(0)) { $0 << 5 | UInt16($1 - 0x60) }
    }

    private static let macLanguages: [Int: String] = [
        0: "eng", 1: "fra", 2: "deu", 3: "ita", 4: "nld", 5: "swe", 6: "spa", 7: "dan", 8: "por", 9: "nor",
        10: "heb", 11: "jpn", 12: "ara", 13: "fin", 14: "ell", 15: "isl", 16: "mlt", 17: "tur", 18: "hrv",
        19: "zho", 20: "urd", 21: "hin", 22: "tha", 23: "kor", 24: "lit", 25: "pol", 26: "hun", 27: "est",
        28: "lav", 32: "ces", 33: "zho", 49: "rus", 32767: "und",
    ]
}
