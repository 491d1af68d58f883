import MediaBytes

/// One frame of an ID3v2 tag: its identifier, flags, decoded content, and the bytes it was
/// stored as, so an untouched frame can be written back exactly.
public struct ID3Frame: Sendable, Hashable {
    /// The v2.3/v2.4 identifier (`TIT2`); for a v2.2 frame, its mapped equivalent when there is
    /// one, otherwise the 3-character identifier as stored.
    public var id: String
    /// The identifier as stored in the file (3 characters in v2.2).
    public var storedID: String
    public var flags: ID3FrameFlags
    /// The decoded body. Assigning it marks the frame as changed, so it is encoded anew when
    /// the tag is written.
    public var content: ID3FrameContent {
        didSet { contentChanged = true }
    }
    /// File offset of the frame header, embedded `CHAP`/`CTOC` frames included (in a v2.2/v2.3
    /// tag unsynchronised as a whole, counted after unsynchronisation was undone; and inside a
    /// compressed or unsynchronised frame, relative to where its body starts).
    public var offset: UInt64
    /// Bytes the frame took in the tag, header included (after tag-level unsynchronisation was
    /// undone).
    public var storedSize: Int
    /// The frame body after unsynchronisation, decompression and the extra flag bytes were
    /// dealt with: what `content` was decoded from (a slice of the tag as read).
    public var body: ArraySlice<UInt8>
    /// How the frame was stored, so an untouched frame is written back exactly: the tag
    /// version, the two flag bytes, and the body bytes with their flag-dependent extras.
    var stored: Stored?
    /// Set when `content` is assigned after the frame was read.
    var contentChanged = false

    struct Stored: Sendable {
        var version: UInt8
        var statusFlags: UInt8
        var formatFlags: UInt8
        /// (Changing it forgets `whole`, which is these bytes with their header as read.)
        var body: ArraySlice<UInt8> { didSet { whole = [] } }
        /// The stored body was unsynchronised (v2.4: by the frame's or the tag's flag).
        var unsynchronised: Bool
        /// Set when part of the body was left in the file (a large picture): where the whole
        /// body is, to read it when the frame is written back.
        var inFile: (source: any ByteSource, offset: UInt64, count: Int)?
        /// The frame as it was read, header and body: written as it is when its header is the
        /// one a writer of `version` makes for this body (`ID3FrameEncoder.storedFrame`).
        var whole: ArraySlice<UInt8> = []

        /// The whole stored body.
        func bytes() throws(ID3Error) -> ArraySlice<UInt8> {
            guard let inFile else { return body }
            do {
                // Checked after the read: a change made during it shows too.
                let bytes = try inFile.source.read(at: inFile.offset, count: inFile.count)
                try inFile.source.checkUnchanged()
                return bytes[...]
            } catch {
                throw ID3Error(.io, offset: inFile.offset, message: "cannot read a frame to write it back: \(error.description)")
            }
        }
    }

    /// The body could not be read (encrypted, or it did not decompress): the frame can only be
    /// written back exactly as it was stored.
    var isOpaque = false

    /// True when the frame was read from a file and its content has not been changed since.
    public var isUnchanged: Bool { stored != nil && !contentChanged }

    /// Frames are equal when their identifier, flags and content are: where they were read
    /// from does not matter.
    public static func == (lhs: ID3Frame, rhs: ID3Frame) -> Bool {
        lhs.id == rhs.id && lhs.flags == rhs.flags && lhs.content == rhs.content
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(content)
    }

    public init(id: String, content: ID3FrameContent, flags: ID3FrameFlags = ID3FrameFlags()) {
        self.id = id
        storedID = id
        self.flags = flags
        self.content = content
        offset = 0
        storedSize = 0
        body = []
        stored = nil
    }

    init(id: String, storedID: String, flags: ID3FrameFlags, content: ID3FrameContent, offset: UInt64, storedSize: Int, body: ArraySlice<UInt8>) {
        self.id = id
        self.storedID = storedID
        self.flags = flags
        self.content = content
        self.offset = offset
        self.storedSize = storedSize
        self.body = body
        stored = nil
    }

    /// The text values of a text frame (`T***`, `TXXX`), or nil.
    public var textValues: [String]? {
        switch content.storage {
        case .text(_, let values), .userText(_, _, let values): values
        default: nil
        }
    }
}

/// The flags of a frame, in one form for v2.3 and v2.4 (id3v2.3.0 section 3.3.1;
/// id3v2.4.0-structure section 4.1).
public struct ID3FrameFlags: Sendable, Hashable {
    /// Discard the frame when the tag is altered and the frame unknown.
    public var discardOnTagAlter = false
    /// Discard the frame when the audio is altered and the frame unknown.
    public var discardOnFileAlter = false
    public var readOnly = false
    /// The group the frame belongs to.
    public var groupID: UInt8?
    /// The body was zlib-compressed.
    public var compressed = false
    /// The encryption method; the body is kept as stored.
    public var encryptionMethod: UInt8?
    /// v2.4: the body was unsynchronised.
    public var unsynchronised = false
    /// v2.4: a data length indicator was present, with this value.
    public var dataLength: UInt32?

    public init() {}
}

extension ID3Frame {
    /// The v2.3/v2.4 identifier of a v2.2 frame identifier (`TT2` → `TIT2`), or nil when v2.2
    /// has no such frame.
    public static func identifier(upgradingV22 id: String) -> String? { ID3v22FrameIDs.table[id] }
}

/// ID3v2.2 three-character frame identifiers and their v2.3/v2.4 equivalents.
enum ID3v22FrameIDs {
    static let table: [String: String] = [
        "BUF": "RBUF", "CNT": "PCNT", "COM": "COMM", "CRA": "AENC", "ETC": "ETCO", "EQU": "EQUA", "GEO": "GEOB",
        "IPL": "IPLS", "LNK": "LINK", "MCI": "MCDI", "MLL": "MLLT", "PIC": "APIC", "POP": "POPM", "REV": "RVRB",
        "RVA": "RVAD", "SLT": "SYLT", "STC": "SYTC", "TAL": "TALB", "TBP": "TBPM", "TCM": "TCOM", "TCO": "TCON",
        "TCR": "TCOP", "TDA": "TDAT", "TDY": "TDLY", "TEN": "TENC", "TFT": "TFLT", "TIM": "TIME", "TKE": "TKEY",
        "TLA": "TLAN", "TLE": "TLEN", "TMT": "TMED", "TOA": "TOPE", "TOF": "TOFN", "TOL": "TOLY", "TOR": "TORY",
        "TOT": "TOAL", "TP1": "TPE1", "TP2": "TPE2", "TP3": "TPE3", "TP4": "TPE4", "TPA": "TPOS", "TPB": "TPUB",
        "TRC": "TSRC", "TRD": "TRDA", "TRK": "TRCK", "TSI": "TSIZ", "TSS": "TSSE", "TT1": "TIT1", "TT2": "TIT2",
        "TT3": "TIT3", "TXT": "TEXT", "TXX": "TXXX", "TYE": "TYER", "UFI": "UFID", "ULT": "USLT", "WAF": "WOAF",
        "WAR": "WOAR", "WAS": "WOAS", "WCM": "WCOM", "WCP": "WCOP", "WPB": "WPUB", "WXX": "WXXX",
        // iTunes extensions written in v2.2 tags.
        "TCP": "TCMP", "TST": "TSOT", "TSP": "TSOP", "TSA": "TSOA", "TS2": "TSO2", "TSC": "TSOC", "PCS": "PCST",
        "TID": "TGID", "TDS": "TDES", "WFD": "WFED", "GP1": "GRP1", "MVN": "MVNM", "MVI": "MVIN",
    ]

    /// MIME types for v2.2 `PIC` image formats.
    static func mimeType(forImageFormat format: String) -> String {
        switch format.uppercased() {
        case "JPG": "image/jpeg"
        case "PNG": "image/png"
        case "GIF": "image/gif"
        case "BMP": "image/bmp"
        case "-->": "-->"
        default: "image/" + format.lowercased()
        }
    }
}
