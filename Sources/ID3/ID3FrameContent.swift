import MediaBytes

/// The decoded body of an ID3v2 frame (id3v2.4.0-frames section 4; id3v2.3.0 section 4).
/// Frames this library has no type for are kept as `.binary` bytes and written back unchanged.
/// Byte payloads are slices of the tag as read (no copies); a large picture or object read
/// from an MP3 is an `ID3Payload` that stays in the file until asked for.
///
/// An open set, as the error codes are: a content is made with the static functions
/// (`.text(encoding:values:)`), its family is `kind` (an `ID3FrameKind`, whose table maps frame
/// identifiers to families), and its value is read through the view of its kind (`text`,
/// `comment`, `picture`...; nil for other kinds). A new frame family is a new kind, a storage
/// case, a decoder and an encoder in this module; clients that switch on `kind` with a
/// `default` and read the views keep compiling.
public struct ID3FrameContent: Sendable, Hashable {
    /// The value, one case per frame family.
    enum Storage: Sendable, Hashable {
        case text(encoding: ID3TextEncoding, values: [String])
        case userText(encoding: ID3TextEncoding, description: String, values: [String])
        case url(String)
        case userURL(encoding: ID3TextEncoding, description: String, url: String)
        case comment(encoding: ID3TextEncoding, language: String, description: String, text: String)
        case syncedLyrics(encoding: ID3TextEncoding, language: String, timestampFormat: UInt8, contentType: UInt8, description: String, lines: [SyncedLine])
        case picture(encoding: ID3TextEncoding, mimeType: String, pictureType: UInt8, description: String, data: ID3Payload)
        case object(encoding: ID3TextEncoding, mimeType: String, filename: String, description: String, data: ID3Payload)
        case privateData(owner: String, data: ArraySlice<UInt8>)
        case uniqueFileID(owner: String, identifier: [UInt8])
        case popularimeter(email: String, rating: UInt8, counter: UInt64?)
        case playCounter(UInt64)
        case chapter(elementID: String, startTime: UInt32, endTime: UInt32, startOffset: UInt32, endOffset: UInt32, subframes: [ID3Frame])
        case tableOfContents(elementID: String, isTopLevel: Bool, isOrdered: Bool, children: [String], subframes: [ID3Frame])
        case musicCDIdentifier([UInt8])
        case relativeVolume(identification: String, channels: [VolumeAdjustment])
        case binary(ArraySlice<UInt8>)
    }

    let storage: Storage
    /// The family of the content (kept when the content is made: reading it from `storage`
    /// copied the whole value, payload and all, on every look).
    public let kind: ID3FrameKind

    init(_ storage: Storage) {
        self.storage = storage
        kind = Self.kind(of: storage)
    }

    private static func kind(of storage: Storage) -> ID3FrameKind {
        switch storage {
        case .text: .text
        case .userText: .userText
        case .url: .url
        case .userURL: .userURL
        case .comment: .comment
        case .syncedLyrics: .syncedLyrics
        case .picture: .picture
        case .object: .object
        case .privateData: .privateData
        case .uniqueFileID: .uniqueFileID
        case .popularimeter: .popularimeter
        case .playCounter: .playCounter
        case .chapter: .chapter
        case .tableOfContents: .tableOfContents
        case .musicCDIdentifier: .musicCDIdentifier
        case .relativeVolume: .relativeVolume
        case .binary: .binary
        }
    }

    /// Text information frames `T***` (not `TXXX`); several values in v2.4.
    public static func text(encoding: ID3TextEncoding, values: [String]) -> ID3FrameContent { ID3FrameContent(.text(encoding: encoding, values: values)) }
    /// `TXXX`: user-defined text with a description.
    public static func userText(encoding: ID3TextEncoding, description: String, values: [String]) -> ID3FrameContent { ID3FrameContent(.userText(encoding: encoding, description: description, values: values)) }
    /// URL link frames `W***` (not `WXXX`).
    public static func url(_ value: String) -> ID3FrameContent { ID3FrameContent(.url(value)) }
    /// `WXXX`: user-defined URL with a description.
    public static func userURL(encoding: ID3TextEncoding, description: String, url: String) -> ID3FrameContent { ID3FrameContent(.userURL(encoding: encoding, description: description, url: url)) }
    /// `COMM` (comment) and `USLT` (unsynchronised lyrics).
    public static func comment(encoding: ID3TextEncoding, language: String, description: String, text: String) -> ID3FrameContent { ID3FrameContent(.comment(encoding: encoding, language: language, description: description, text: text)) }
    /// `SYLT`: synchronised lyrics; times in milliseconds (format 2) or MPEG frames (format 1).
    public static func syncedLyrics(encoding: ID3TextEncoding, language: String, timestampFormat: UInt8, contentType: UInt8, description: String, lines: [SyncedLine]) -> ID3FrameContent { ID3FrameContent(.syncedLyrics(encoding: encoding, language: language, timestampFormat: timestampFormat, contentType: contentType, description: description, lines: lines)) }
    /// `APIC` (and v2.2 `PIC`, whose 3-character image format is turned into a MIME type).
    public static func picture(encoding: ID3TextEncoding, mimeType: String, pictureType: UInt8, description: String, data: ID3Payload) -> ID3FrameContent { ID3FrameContent(.picture(encoding: encoding, mimeType: mimeType, pictureType: pictureType, description: description, data: data)) }
    /// `GEOB`: general encapsulated object.
    public static func object(encoding: ID3TextEncoding, mimeType: String, filename: String, description: String, data: ID3Payload) -> ID3FrameContent { ID3FrameContent(.object(encoding: encoding, mimeType: mimeType, filename: filename, description: description, data: data)) }
    /// `PRIV`: private data with an owner identifier.
    public static func privateData(owner: String, data: ArraySlice<UInt8>) -> ID3FrameContent { ID3FrameContent(.privateData(owner: owner, data: data)) }
    /// `UFID`: unique file identifier with an owner.
    public static func uniqueFileID(owner: String, identifier: [UInt8]) -> ID3FrameContent { ID3FrameContent(.uniqueFileID(owner: owner, identifier: identifier)) }
    /// `POPM`: popularimeter (e-mail, rating 0-255, optional play counter).
    public static func popularimeter(email: String, rating: UInt8, counter: UInt64?) -> ID3FrameContent { ID3FrameContent(.popularimeter(email: email, rating: rating, counter: counter)) }
    /// `PCNT`: play counter.
    public static func playCounter(_ value: UInt64) -> ID3FrameContent { ID3FrameContent(.playCounter(value)) }
    /// `CHAP`: a chapter, its times in milliseconds, byte offsets (0xFFFFFFFF when unused) and
    /// embedded frames (usually a `TIT2`).
    public static func chapter(elementID: String, startTime: UInt32, endTime: UInt32, startOffset: UInt32, endOffset: UInt32, subframes: [ID3Frame]) -> ID3FrameContent { ID3FrameContent(.chapter(elementID: elementID, startTime: startTime, endTime: endTime, startOffset: startOffset, endOffset: endOffset, subframes: subframes)) }
    /// `CTOC`: a table of contents listing chapter element IDs, with embedded frames.
    public static func tableOfContents(elementID: String, isTopLevel: Bool, isOrdered: Bool, children: [String], subframes: [ID3Frame]) -> ID3FrameContent { ID3FrameContent(.tableOfContents(elementID: elementID, isTopLevel: isTopLevel, isOrdered: isOrdered, children: children, subframes: subframes)) }
    /// `MCDI`: the CD table of contents.
    public static func musicCDIdentifier(_ value: [UInt8]) -> ID3FrameContent { ID3FrameContent(.musicCDIdentifier(value)) }
    /// `RVA2`: relative volume adjustment per channel.
    public static func relativeVolume(identification: String, channels: [VolumeAdjustment]) -> ID3FrameContent { ID3FrameContent(.relativeVolume(identification: identification, channels: channels)) }
    /// Any other frame, or a typed frame whose body could not be read: the bytes as they are.
    public static func binary(_ value: ArraySlice<UInt8>) -> ID3FrameContent { ID3FrameContent(.binary(value)) }

    /// The value of text content; nil for other kinds.
    public var text: (encoding: ID3TextEncoding, values: [String])? {
        if case .text(let encoding, let values) = storage { (encoding, values) } else { nil }
    }
    /// The value of userText content; nil for other kinds.
    public var userText: (encoding: ID3TextEncoding, description: String, values: [String])? {
        if case .userText(let encoding, let description, let values) = storage { (encoding, description, values) } else { nil }
    }
    /// The value of url content; nil for other kinds.
    public var url: String? {
        if case .url(let value) = storage { value } else { nil }
    }
    /// The value of userURL content; nil for other kinds.
    public var userURL: (encoding: ID3TextEncoding, description: String, url: String)? {
        if case .userURL(let encoding, let description, let url) = storage { (encoding, description, url) } else { nil }
    }
    /// The value of comment content; nil for other kinds.
    public var comment: (encoding: ID3TextEncoding, language: String, description: String, text: String)? {
        if case .comment(let encoding, let language, let description, let text) = storage { (encoding, language, description, text) } else { nil }
    }
    /// The value of syncedLyrics content; nil for other kinds.
    public var syncedLyrics: (encoding: ID3TextEncoding, language: String, timestampFormat: UInt8, contentType: UInt8, description: String, lines: [SyncedLine])? {
        if case .syncedLyrics(let encoding, let language, let timestampFormat, let contentType, let description, let lines) = storage { (encoding, language, timestampFormat, contentType, description, lines) } else { nil }
    }
    /// The value of picture content; nil for other kinds.
    public var picture: (encoding: ID3TextEncoding, mimeType: String, pictureType: UInt8, description: String, data: ID3Payload)? {
        if case .picture(let encoding, let mimeType, let pictureType, let description, let data) = storage { (encoding, mimeType, pictureType, description, data) } else { nil }
    }
    /// The value of object content; nil for other kinds.
    public var object: (encoding: ID3TextEncoding, mimeType: String, filename: String, description: String, data: ID3Payload)? {
        if case .object(let encoding, let mimeType, let filename, let description, let data) = storage { (encoding, mimeType, filename, description, data) } else { nil }
    }
    /// The value of privateData content; nil for other kinds.
    public var privateData: (owner: String, data: ArraySlice<UInt8>)? {
        if case .privateData(let owner, let data) = storage { (owner, data) } else { nil }
    }
    /// The value of uniqueFileID content; nil for other kinds.
    public var uniqueFileID: (owner: String, identifier: [UInt8])? {
        if case .uniqueFileID(let owner, let identifier) = storage { (owner, identifier) } else { nil }
    }
    /// The value of popularimeter content; nil for other kinds.
    public var popularimeter: (email: String, rating: UInt8, counter: UInt64?)? {
        if case .popularimeter(let email, let rating, let counter) = storage { (email, rating, counter) } else { nil }
    }
    /// The value of playCounter content; nil for other kinds.
    public var playCounter: UInt64? {
        if case .playCounter(let value) = storage { value } else { nil }
    }
    /// The value of chapter content; nil for other kinds.
    public var chapter: (elementID: String, startTime: UInt32, endTime: UInt32, startOffset: UInt32, endOffset: UInt32, subframes: [ID3Frame])? {
        if case .chapter(let elementID, let startTime, let endTime, let startOffset, let endOffset, let subframes) = storage { (elementID, startTime, endTime, startOffset, endOffset, subframes) } else { nil }
    }
    /// The value of tableOfContents content; nil for other kinds.
    public var tableOfContents: (elementID: String, isTopLevel: Bool, isOrdered: Bool, children: [String], subframes: [ID3Frame])? {
        if case .tableOfContents(let elementID, let isTopLevel, let isOrdered, let children, let subframes) = storage { (elementID, isTopLevel, isOrdered, children, subframes) } else { nil }
    }
    /// The value of musicCDIdentifier content; nil for other kinds.
    public var musicCDIdentifier: [UInt8]? {
        if case .musicCDIdentifier(let value) = storage { value } else { nil }
    }
    /// The value of relativeVolume content; nil for other kinds.
    public var relativeVolume: (identification: String, channels: [VolumeAdjustment])? {
        if case .relativeVolume(let identification, let channels) = storage { (identification, channels) } else { nil }
    }
    /// The value of binary content; nil for other kinds.
    public var binary: ArraySlice<UInt8>? {
        if case .binary(let value) = storage { value } else { nil }
    }

    public struct SyncedLine: Sendable, Hashable {
        public var text: String
        public var time: UInt32
        public init(text: String, time: UInt32) {
            self.text = text
            self.time = time
        }
    }

    public struct VolumeAdjustment: Sendable, Hashable {
        /// 0 other, 1 master, 2 front right, 3 front left, 4 back right, 5 back left, 6 front
        /// centre, 7 back centre, 8 subwoofer.
        public var channel: UInt8
        /// In decibels (the frame stores 1/512 dB steps).
        public var adjustment: Double
        public var peakBits: UInt8
        public var peak: [UInt8]
    }
}

extension ID3FrameContent {
    /// Decodes the body of frame `id` (a v2.3/v2.4 identifier) read from a tag of `version`.
    /// Bodies that do not follow their frame's layout come back as `.binary`.
    static func decode(id: String, body: ArraySlice<UInt8>, version: UInt8, subframeParser: (ArraySlice<UInt8>) -> [ID3Frame]) -> ID3FrameContent {
        (try? decodeThrowing(id: id, body: body, version: version, subframeParser: subframeParser)) ?? .binary(body)
    }

    private struct Malformed: Error {}

    private static func encoding(_ byte: UInt8?) throws -> ID3TextEncoding {
        guard let byte, let encoding = ID3TextEncoding(rawValue: byte) else { throw Malformed() }
        return encoding
    }

    private static func language(_ bytes: ArraySlice<UInt8>) throws -> String {
        guard bytes.count >= 3 else { throw Malformed() }
        return TextDecoding.latin1(bytes.prefix(3).filter { $0 != 0 })
    }

    private static func bigEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    private static func decodeThrowing(id: String, body: ArraySlice<UInt8>, version: UInt8, subframeParser: (ArraySlice<UInt8>) -> [ID3Frame]) throws -> ID3FrameContent {
        let latin1 = ID3TextEncoding.latin1
        switch ID3FrameKind.of(frameID: id) {
        case .userText:
            let encoding = try encoding(body.first)
            let (description, rest) = encoding.readString(body.dropFirst())
            // A user text frame always carries a value after its description, if only an empty one.
            let values = encoding.readStrings(rest)
            return .userText(encoding: encoding, description: description, values: values.isEmpty ? [""] : values)
        case .userURL:
            let encoding = try encoding(body.first)
            let (description, rest) = encoding.readString(body.dropFirst())
            return .userURL(encoding: encoding, description: description, url: latin1.readString(rest).0)
        case .text:
            // iTunes writes its podcast feed URL `WFED` as a text frame, with an encoding byte,
            // and its grouping and movement frames `GRP1`, `MVNM`, `MVIN` as text frames;
            // v2.3's involved-people list `IPLS` is a text frame of name/role pairs.
            let encoding = try encoding(body.first)
            return .text(encoding: encoding, values: encoding.readStrings(body.dropFirst()))
        case .url:
            return .url(latin1.readString(body).0)
        case .comment:
            let encoding = try encoding(body.first)
            let lang = try language(body.dropFirst())
            let (description, rest) = encoding.readString(body.dropFirst(4))
            return .comment(encoding: encoding, language: lang, description: description, text: encoding.readString(rest).0)
        case .syncedLyrics:
            let encoding = try encoding(body.first)
            let lang = try language(body.dropFirst())
            guard body.count >= 6 else { throw Malformed() }
            let format = body[body.startIndex + 4]
            let type = body[body.startIndex + 5]
            let (description, afterDescription) = encoding.readString(body.dropFirst(6))
            var rest = afterDescription
            var lines: [SyncedLine] = []
            while !rest.isEmpty {
                let (text, after) = encoding.readString(rest)
                guard after.count >= 4 else { break }
                lines.append(SyncedLine(text: text, time: UInt32(bigEndian(after.prefix(4)))))
                rest = after.dropFirst(4)
            }
            return .syncedLyrics(encoding: encoding, language: lang, timestampFormat: format, contentType: type, description: description, lines: lines)
        case .picture:
            let encoding = try encoding(body.first)
            let (mime, afterMime) = latin1.readString(body.dropFirst())
            guard let type = afterMime.first else { throw Malformed() }
            let (description, data) = encoding.readString(afterMime.dropFirst())
            return .picture(encoding: encoding, mimeType: mime, pictureType: type, description: description, data: ID3Payload(data))
        case .object:
            let encoding = try encoding(body.first)
            let (mime, a) = latin1.readString(body.dropFirst())
            let (filename, b) = encoding.readString(a)
            let (description, data) = encoding.readString(b)
            return .object(encoding: encoding, mimeType: mime, filename: filename, description: description, data: ID3Payload(data))
        case .privateData:
            let (owner, data) = latin1.readString(body)
            return .privateData(owner: owner, data: data)
        case .uniqueFileID:
            let (owner, data) = latin1.readString(body)
            return .uniqueFileID(owner: owner, identifier: Array(data))
        case .popularimeter:
            let (email, rest) = latin1.readString(body)
            guard let rating = rest.first else { throw Malformed() }
            let counterBytes = rest.dropFirst()
            return .popularimeter(email: email, rating: rating, counter: counterBytes.isEmpty || counterBytes.count > 8 ? nil : bigEndian(counterBytes))
        case .playCounter:
            guard !body.isEmpty, body.count <= 8 else { throw Malformed() }
            return .playCounter(bigEndian(body))
        case .chapter:
            let (element, rest) = latin1.readString(body)
            guard rest.count >= 16 else { throw Malformed() }
            let times = (0..<4).map { UInt32(bigEndian(rest.dropFirst($0 * 4).prefix(4))) }
            return .chapter(elementID: element, startTime: times[0], endTime: times[1], startOffset: times[2], endOffset: times[3],
                            subframes: subframeParser(rest.dropFirst(16)))
        case .tableOfContents:
            let (element, rest) = latin1.readString(body)
            guard rest.count >= 2 else { throw Malformed() }
            let flags = rest[rest.startIndex]
            let count = Int(rest[rest.startIndex + 1])
            var remaining = rest.dropFirst(2)
            var children: [String] = []
            for _ in 0..<count {
                guard !remaining.isEmpty else { throw Malformed() }
                let (child, after) = latin1.readString(remaining)
                children.append(child)
                remaining = after
            }
            return .tableOfContents(elementID: element, isTopLevel: flags & 0x02 != 0, isOrdered: flags & 0x01 != 0,
                                    children: children, subframes: subframeParser(remaining))
        case .musicCDIdentifier:
            return .musicCDIdentifier(Array(body))
        case .relativeVolume:
            let (identification, rest) = latin1.readString(body)
            var remaining = rest
            var channels: [VolumeAdjustment] = []
            while remaining.count >= 4 {
                let channel = remaining[remaining.startIndex]
                let raw = Int16(bitPattern: UInt16(remaining[remaining.startIndex + 1]) << 8 | UInt16(remaining[remaining.startIndex + 2]))
                let bits = remaining[remaining.startIndex + 3]
                let peakLength = (Int(bits) + 7) / 8
                guard remaining.count >= 4 + peakLength else { throw Malformed() }
                channels.append(VolumeAdjustment(channel: channel, adjustment: Double(raw) / 512, peakBits: bits,
                                                 peak: Array(remaining.dropFirst(4).prefix(peakLength))))
                remaining = remaining.dropFirst(4 + peakLength)
            }
            return .relativeVolume(identification: identification, channels: channels)
        default:
            return .binary(body)
        }
    }
}

extension ID3Frame {
    /// What the frame is about, as readers key frames: two frames of one slot say the same
    /// thing, and a reader shows one of them (ffmpeg the first it meets). The identifier, and
    /// for the frames a tag may hold several of, what tells them apart (ID3v2.4.0 section 4:
    /// the description of `TXXX`/`WXXX`, the language and description of `COMM`/`USLT`/`SYLT`,
    /// the picture type of `APIC`, the owner of `PRIV`/`UFID`, the element of `CHAP`/`CTOC`...).
    public var slot: String {
        switch content.storage {
        case .userText(_, let description, _), .userURL(_, let description, _), .object(_, _, _, let description, _):
            "\(id)\0\(description)"
        case .comment(_, let language, let description, _), .syncedLyrics(_, let language, _, _, let description, _):
            "\(id)\0\(language)\0\(description)"
        case .picture(_, _, let pictureType, let description, _):
            "\(id)\0\(pictureType)\0\(description)"
        case .privateData(let owner, _), .uniqueFileID(let owner, _), .popularimeter(let owner, _, _):
            "\(id)\0\(owner)"
        case .chapter(let elementID, _, _, _, _, _), .tableOfContents(let elementID, _, _, _, _):
            "\(id)\0\(elementID)"
        case .relativeVolume(let identification, _):
            "\(id)\0\(identification)"
        case .url(let url) where id == "WCOM" || id == "WOAR":
            "\(id)\0\(url)"
        // The v2.3 date frames are one v2.4 date each: a tag's recording date hides another's
        // year or day.
        case .text where ["TYER", "TDAT", "TIME", "TRDA"].contains(id):
            "TDRC"
        case .text where id == "TORY":
            "TDOR"
        case .binary(let bytes):
            // A frame this package does not type: only the same bytes are the same thing (within
            // one process, as slots are compared).
            "\(id)\0\(bytes.count)\0\(bytes.hashValue)"
        default:
            id
        }
    }
}

extension ID3v2Tag {
    /// This tag with the frames of `others` (tags read after it) whose slot no earlier tag
    /// fills, as ffmpeg reads several tags together (the first frame of a slot wins); and the
    /// frames of `others` left out because an earlier frame of their slot hides them.
    public func merging(_ others: [ID3v2Tag]) -> (tag: ID3v2Tag, hidden: [ID3Frame]) {
        // One tag (nearly every file): nothing to merge, and no slot worth computing.
        guard !others.isEmpty else { return (self, []) }
        var merged = self
        var hidden: [ID3Frame] = []
        var taken = Set(frames.map(\.slot))
        for tag in others {
            for frame in tag.frames {
                if taken.insert(frame.slot).inserted { merged.frames.append(frame) } else { hidden.append(frame) }
            }
        }
        return (merged, hidden)
    }
}
