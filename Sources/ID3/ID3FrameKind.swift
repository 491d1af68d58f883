/// The family of an ID3v2 frame's content (text, comment, picture...), an open set of named
/// constants, and the table that maps frame identifiers to families: the one place that decides
/// how a frame is decoded, encoded and described.
public struct ID3FrameKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let text = ID3FrameKind(rawValue: "text")
    public static let userText = ID3FrameKind(rawValue: "userText")
    public static let url = ID3FrameKind(rawValue: "url")
    public static let userURL = ID3FrameKind(rawValue: "userURL")
    public static let comment = ID3FrameKind(rawValue: "comment")
    public static let syncedLyrics = ID3FrameKind(rawValue: "syncedLyrics")
    public static let picture = ID3FrameKind(rawValue: "picture")
    public static let object = ID3FrameKind(rawValue: "object")
    public static let privateData = ID3FrameKind(rawValue: "privateData")
    public static let uniqueFileID = ID3FrameKind(rawValue: "uniqueFileID")
    public static let popularimeter = ID3FrameKind(rawValue: "popularimeter")
    public static let playCounter = ID3FrameKind(rawValue: "playCounter")
    public static let chapter = ID3FrameKind(rawValue: "chapter")
    public static let tableOfContents = ID3FrameKind(rawValue: "tableOfContents")
    public static let musicCDIdentifier = ID3FrameKind(rawValue: "musicCDIdentifier")
    public static let relativeVolume = ID3FrameKind(rawValue: "relativeVolume")
    public static let binary = ID3FrameKind(rawValue: "binary")

    /// The family of frame `id` (a v2.3/v2.4 identifier): the table every decoder follows.
    ///
    /// | identifiers | kind |
    /// |---|---|
    /// | `TXXX` | userText |
    /// | `WXXX` | userURL |
    /// | `T***`, iTunes' `WFED`, `GRP1`, `MVNM`, `MVIN`, v2.3 `IPLS` | text |
    /// | `W***` | url |
    /// | `COMM`, `USLT` | comment |
    /// | `SYLT` | syncedLyrics |
    /// | `APIC` (v2.2 `PIC`) | picture |
    /// | `GEOB` | object |
    /// | `PRIV` | privateData |
    /// | `UFID` | uniqueFileID |
    /// | `POPM` | popularimeter |
    /// | `PCNT` | playCounter |
    /// | `CHAP` | chapter |
    /// | `CTOC` | tableOfContents |
    /// | `MCDI` | musicCDIdentifier |
    /// | `RVA2` | relativeVolume |
    /// | anything else | binary |
    public static func of(frameID id: String) -> ID3FrameKind {
        // Text frames are most of a tag: decided without hashing the ID. Keep in step with
        // `byID`: its only `T` frame is TXXX and its `W` frames are WXXX and WFED; an entry
        // for another `T` or `W` frame must be named here too (the test of the documented
        // table lists every row).
        switch id.utf8.first {
        case UInt8(ascii: "T"): if id != "TXXX" { return .text }
        case UInt8(ascii: "W"): if id != "WXXX" && id != "WFED" { return .url }
        default: break
        }
        if let kind = byID[id] { return kind }
        if id.hasPrefix("T") { return .text }
        if id.hasPrefix("W") { return .url }
        return .binary
    }

    private static let byID: [String: ID3FrameKind] = [
        "TXXX": .userText, "WXXX": .userURL, "WFED": .text, "IPLS": .text, "GRP1": .text, "MVNM": .text, "MVIN": .text,
        "COMM": .comment, "USLT": .comment, "SYLT": .syncedLyrics, "APIC": .picture, "GEOB": .object, "PRIV": .privateData,
        "UFID": .uniqueFileID, "POPM": .popularimeter, "PCNT": .playCounter, "CHAP": .chapter, "CTOC": .tableOfContents,
        "MCDI": .musicCDIdentifier, "RVA2": .relativeVolume,
    ]

    /// True for the frames whose content has a decoder (every kind but `binary`).
    public var isTyped: Bool { self != .binary }
}
