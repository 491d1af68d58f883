import MediaBytes

/// The decoded body of an ID3v2 frame (id3v2.4.0-frames section 4; id3v2.3.0 section 4).
/// Frames this library has no type for are kept as `.binary` bytes and written back unchanged.
/// Byte payloads are slices of the tag as read (no copies); a large picture or object read
/// from an MP3 is an `ID3Payload` that stays in the file until asked for.
public enum ID3FrameContent: Sendable, Hashable {
    /// Text information frames `T***` (not `TXXX`); several values in v2.4.
    case text(encoding: ID3TextEncoding, values: [String])
    /// `TXXX`: user-defined text with a description.
    case userText(encoding: ID3TextEncoding, description: String, values: [String])
    /// URL link frames `W***` (not `WXXX`).
    case url(String)
    /// `WXXX`: user-defined URL with a description.
    case userURL(encoding: ID3TextEncoding, description: String, url: String)
    /// `COMM` (comment) and `USLT` (unsynchronised lyrics).
    case comment(encoding: ID3TextEncoding, language: String, description: String, text: String)
    /// `SYLT`: synchronised lyrics; times in milliseconds (format 2) or MPEG frames (format 1).
    case syncedLyrics(encoding: ID3TextEncoding, language: String, timestampFormat: UInt8, contentType: UInt8, description: String, lines: [SyncedLine])
    /// `APIC` (and v2.2 `PIC`, whose 3-character image format is turned into a MIME type).
    case picture(encoding: ID3TextEncoding, mimeType: String, pictureType: UInt8, description: String, data: ID3Payload)
    /// `GEOB`: general encapsulated object.
    case object(encoding: ID3TextEncoding, mimeType: String, filename: String, description: String, data: ID3Payload)
    /// `PRIV`: private data with an owner identifier.
    case privateData(owner: String, data: ArraySlice<UInt8>)
    /// `UFID`: unique file identifier with an owner.
    case uniqueFileID(owner: String, identifier: [UInt8])
    /// `POPM`: popularimeter (e-mail, rating 0-255, optional play counter).
    case popularimeter(email: String, rating: UInt8, counter: UInt64?)
    /// `PCNT`: play counter.
    case playCounter(UInt64)
    /// `CHAP`: a chapter, its times in milliseconds, byte offsets (0xFFFFFFFF when unused) and
    /// embedded frames (usually a `TIT2`).
    case chapter(elementID: String, startTime: UInt32, endTime: UInt32, startOffset: UInt32, endOffset: UInt32, subframes: [ID3Frame])
    /// `CTOC`: a table of contents listing chapter element IDs, with embedded frames.
    case tableOfContents(elementID: String, isTopLevel: Bool, isOrdered: Bool, children: [String], subframes: [ID3Frame])
    /// `MCDI`: the CD table of contents.
    case musicCDIdentifier([UInt8])
    /// `RVA2`: relative volume adjustment per channel.
    case relativeVolume(identification: String, channels: [VolumeAdjustment])
    /// Any other frame, or a typed frame whose body could not be read: the bytes as they are.
    case binary(ArraySlice<UInt8>)

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
        switch id {
        case "TXXX":
            let encoding = try encoding(body.first)
            let (description, rest) = encoding.readString(body.dropFirst())
            // A user text frame always carries a value after its description, if only an empty one.
            let values = encoding.readStrings(rest)
            return .userText(encoding: encoding, description: description, values: values.isEmpty ? [""] : values)
        case "WXXX":
            let encoding = try encoding(body.first)
            let (description, rest) = encoding.readString(body.dropFirst())
            return .userURL(encoding: encoding, description: description, url: latin1.readString(rest).0)
        case _ where id.hasPrefix("T"), "WFED", "IPLS", "GRP1", "MVNM", "MVIN":
            // iTunes writes its podcast feed URL `WFED` as a text frame, with an encoding byte,
            // and its grouping and movement frames `GRP1`, `MVNM`, `MVIN` as text frames;
            // v2.3's involved-people list `IPLS` is a text frame of name/role pairs.
            let encoding = try encoding(body.first)
            return .text(encoding: encoding, values: encoding.readStrings(body.dropFirst()))
        case _ where id.hasPrefix("W"):
            return .url(latin1.readString(body).0)
        case "COMM", "USLT":
            let encoding = try encoding(body.first)
            let lang = try language(body.dropFirst())
            let (description, rest) = encoding.readString(body.dropFirst(4))
            return .comment(encoding: encoding, language: lang, description: description, text: encoding.readString(rest).0)
        case "SYLT":
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
        case "APIC":
            let encoding = try encoding(body.first)
            let (mime, afterMime) = latin1.readString(body.dropFirst())
            guard let type = afterMime.first else { throw Malformed() }
            let (description, data) = encoding.readString(afterMime.dropFirst())
            return .picture(encoding: encoding, mimeType: mime, pictureType: type, description: description, data: ID3Payload(data))
        case "GEOB":
            let encoding = try encoding(body.first)
            let (mime, a) = latin1.readString(body.dropFirst())
            let (filename, b) = encoding.readString(a)
            let (description, data) = encoding.readString(b)
            return .object(encoding: encoding, mimeType: mime, filename: filename, description: description, data: ID3Payload(data))
        case "PRIV":
            let (owner, data) = latin1.readString(body)
            return .privateData(owner: owner, data: data)
        case "UFID":
            let (owner, data) = latin1.readString(body)
            return .uniqueFileID(owner: owner, identifier: Array(data))
        case "POPM":
            let (email, rest) = latin1.readString(body)
            guard let rating = rest.first else { throw Malformed() }
            let counterBytes = rest.dropFirst()
            return .popularimeter(email: email, rating: rating, counter: counterBytes.isEmpty || counterBytes.count > 8 ? nil : bigEndian(counterBytes))
        case "PCNT":
            guard !body.isEmpty, body.count <= 8 else { throw Malformed() }
            return .playCounter(bigEndian(body))
        case "CHAP":
            let (element, rest) = latin1.readString(body)
            guard rest.count >= 16 else { throw Malformed() }
            let times = (0..<4).map { UInt32(bigEndian(rest.dropFirst($0 * 4).prefix(4))) }
            return .chapter(elementID: element, startTime: times[0], endTime: times[1], startOffset: times[2], endOffset: times[3],
                            subframes: subframeParser(rest.dropFirst(16)))
        case "CTOC":
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
        case "MCDI":
            return .musicCDIdentifier(Array(body))
        case "RVA2":
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
