import MediaBytes

/// An ID3v2.2, v2.3 or v2.4 tag (id3v2.4.0-structure; id3v2.3.0; id3v2-00 for v2.2), read
/// leniently: anomalies become diagnostics, frames that cannot be typed keep their bytes.
public struct ID3v2Tag: Sendable, Hashable {
    /// 2, 3 or 4.
    public var majorVersion: UInt8
    public var revision: UInt8
    /// The header flags byte: unsynchronisation 0x80, extended header 0x40, experimental 0x20,
    /// footer 0x10 (v2.4); in v2.2, 0x40 means compression.
    public var headerFlags: UInt8
    public var extendedHeader: ID3ExtendedHeader?
    public var frames: [ID3Frame]
    /// Bytes of padding after the last frame.
    public var paddingSize: Int
    /// File offset of the tag header.
    public var offset: UInt64
    /// Bytes the tag takes in the file: header, body, and footer.
    public var totalSize: UInt64
    public var diagnostics: [Diagnostic]

    public var isUnsynchronised: Bool { headerFlags & 0x80 != 0 }
    public var hasFooter: Bool { majorVersion == 4 && headerFlags & 0x10 != 0 }

    /// The largest decompressed size accepted for one compressed frame.
    public static let maxDecompressedFrameSize = 16 << 20
    /// The most bytes all the compressed frames of one tag may decompress to together; the
    /// file readers share one such budget among all the tags of a file
    /// (``init(parsing:at:decompressionBudget:)``).
    public static let maxDecompressedTagSize = 16 << 20

    /// A new, empty tag of `majorVersion` (3 or 4) holding `frames`.
    public init(majorVersion: UInt8 = 4, frames: [ID3Frame] = []) {
        self.majorVersion = majorVersion
        revision = 0
        headerFlags = 0
        extendedHeader = nil
        self.frames = frames
        paddingSize = 0
        offset = 0
        totalSize = 0
        diagnostics = []
    }

    /// Reads a tag from `bytes`, which start with the tag header; `offset` is where that header
    /// sits in the file (for messages and frame offsets).
    ///
    /// - Throws: `.notATag` when the header is not an ID3v2 header, `.unsupportedVersion` for
    ///   a major version other than 2-4. A tag cut short by the end of `bytes` is read as far
    ///   as it goes, with a `.truncated` diagnostic.
    public init(parsing bytes: [UInt8], at offset: UInt64 = 0) throws(ID3Error) {
        try self.init(parsing: bytes[...], at: offset)
    }

    /// Reads a tag from a slice that starts with the tag header (no copy of the tag is made;
    /// frame payloads stay slices of the same storage).
    public init(parsing bytes: ArraySlice<UInt8>, at offset: UInt64 = 0) throws(ID3Error) {
        var budget = ID3v2Tag.maxDecompressedTagSize
        try self.init(parsing: bytes, at: offset, decompressionBudget: &budget)
    }

    /// Reads a tag whose compressed frames may inflate to at most `decompressionBudget` bytes
    /// together, and takes what they inflated (failed attempts included) from it: a reader of
    /// a file that holds many tags (a transport stream's timed events, appended tags) passes
    /// one budget to all of them, so the file costs one budget of work, not one per tag.
    public init(parsing bytes: ArraySlice<UInt8>, at offset: UInt64 = 0, decompressionBudget: inout Int) throws(ID3Error) {
        guard let header = ID3TagHeader(bytes) else {
            throw ID3Error(.notATag, offset: offset, message: "no ID3v2 header (\"ID3\", version, flags, syncsafe size)")
        }
        guard (2...4).contains(header.majorVersion) else {
            throw ID3Error(.unsupportedVersion, offset: offset, message: "ID3v2.\(header.majorVersion) is not a version this reader knows (2, 3 or 4)")
        }
        majorVersion = header.majorVersion
        revision = header.revision
        headerFlags = header.flags
        self.offset = offset
        totalSize = header.totalSize
        frames = []
        paddingSize = 0
        diagnostics = []
        extendedHeader = nil

        var bodyEnd = 10 + Int(header.tagSize)
        if bytes.count < bodyEnd {
            // Read the frames that are there, as the peers do; the rest of the tag is missing.
            diagnostics.append(Diagnostic(.warning, .truncated, offset: offset,
                                             message: "tag declares \(header.tagSize) bytes after its header but only \(bytes.count - 10) follow"))
            bodyEnd = bytes.count
        }
        let start = bytes.startIndex
        if majorVersion == 2 && headerFlags & 0x40 != 0 {
            diagnostics.append(Diagnostic(.warning, .compression, offset: offset,
                                             message: "ID3v2.2 tag-level compression has no defined method; frames not read"))
            return
        }
        // v2.2 and v2.3 unsynchronise the whole tag body; v2.4 does it per frame.
        var body = bytes[start + 10..<start + bodyEnd]
        let tagUnsynchronised = isUnsynchronised && majorVersion < 4
        if tagUnsynchronised { body = ID3Unsynchronisation.decode(body)[...] }

        var position = body.startIndex
        if headerFlags & 0x40 != 0 {
            do throws(ID3Error) {
                let extended = try ID3ExtendedHeader(Array(body), version: majorVersion, offset: offset + 10)
                guard extended.storedSize <= body.count else {
                    throw ID3Error(.invalidExtendedHeader, offset: offset + 10,
                                   message: "extended header of \(extended.storedSize) bytes does not fit the \(body.count)-byte tag")
                }
                extendedHeader = extended
                position = body.startIndex + extended.storedSize
                if let padding = extended.paddingSize, majorVersion == 3, UInt64(padding) <= UInt64(body.endIndex - position) {
                    // v2.3 states the padding size; frames end before it.
                    body.removeLast(Int(padding))
                }
            } catch {
                // Some writers set the flag without writing the header: when the body starts
                // with a frame identifier, the frames are read from there (as TagLib and mutagen do).
                guard FrameReader.isValidID(body.prefix(majorVersion == 2 ? 3 : 4)), body.count >= 4 else {
                    diagnostics.append(Diagnostic(.warning, .invalidExtendedHeader, offset: offset + 10, message: error.message))
                    return
                }
                diagnostics.append(Diagnostic(.warning, .invalidExtendedHeader, offset: offset + 10,
                                                 message: "the tag header flags an extended header, but a frame starts there; the flag is ignored and the frames are read"))
            }
        }
        var reader = FrameReader(version: majorVersion, tagUnsynchronised: isUnsynchronised, baseOffset: offset + 10, baseIndex: body.startIndex)
        reader.decompressionBudget = max(0, decompressionBudget)
        frames = reader.frames(in: body[position...], diagnostics: &diagnostics, padding: &paddingSize)
        decompressionBudget = reader.decompressionBudget
        if majorVersion == 3, let padding = extendedHeader?.paddingSize { paddingSize += Int(padding) }
    }

    /// The frames with identifier `id` (v2.3/v2.4 form), in order.
    public func frames(_ id: String) -> [ID3Frame] { frames.filter { $0.id == id } }
}

/// Reads a run of frames from a tag body or from the embedded frames of `CHAP`/`CTOC`.
struct FrameReader {
    let version: UInt8
    let tagUnsynchronised: Bool
    /// The file offset of the byte at `baseIndex` of the bytes being read. In a v2.2/v2.3 tag
    /// that was unsynchronised as a whole, offsets count the bytes after that was undone.
    let baseOffset: UInt64
    let baseIndex: Int
    /// 0 for a tag's frames, 1 for frames embedded in `CHAP`/`CTOC`, and so on.
    var depth = 0
    /// Bytes decompressed frames may still produce, shared by the whole tag (and by the
    /// other tags of the file when the caller passes one budget to each).
    var decompressionBudget = ID3v2Tag.maxDecompressedTagSize

    /// Embedded frames are read this deep and no deeper (a `CHAP` in a `CTOC` is depth 2).
    static let maxDepth = 3
    /// Most frames read from one tag (or one embedded list); the rest is kept as padding.
    static let maxFrames = 10_000

    func fileOffset(_ index: Int) -> UInt64 { baseOffset + UInt64(index - baseIndex) }

    var headerSize: Int { version == 2 ? 6 : 10 }
    var idLength: Int { version == 2 ? 3 : 4 }

    /// True when every byte is zero (padding), checked eight bytes at a time.
    static func isAllZero(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBytes { raw in
            var index = 0
            var accumulated: UInt64 = 0
            while index + 8 <= raw.count {
                accumulated |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                index += 8
            }
            while index < raw.count {
                accumulated |= UInt64(raw[index])
                index += 1
            }
            return accumulated == 0
        }
    }

    static func isValidID<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        bytes.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) }
    }

    /// True when a frame header, padding (zeros to the end), or the end of the body starts at
    /// `index`.
    func isFrameBoundary(_ body: ArraySlice<UInt8>, _ index: Int) -> Bool {
        if index == body.endIndex { return true }
        guard index < body.endIndex else { return false }
        if body[index] == 0 { return Self.isAllZero(body[index...]) }
        guard index + idLength <= body.endIndex else { return false }
        return Self.isValidID(body[index..<index + idLength])
    }

    mutating func frames(in body: ArraySlice<UInt8>, diagnostics: inout [Diagnostic], padding: inout Int) -> [ID3Frame] {
        var frames: [ID3Frame] = []
        frames.reserveCapacity(min(64, body.count / 32))
        var index = body.startIndex
        while index + headerSize <= body.endIndex {
            let fileOffset = self.fileOffset(index)
            guard frames.count < Self.maxFrames else {
                padding = body.endIndex - index
                diagnostics.append(Diagnostic(.warning, .invalidFrame, offset: fileOffset,
                                                 message: "more than \(Self.maxFrames) frames; the remaining \(padding) bytes are kept unread"))
                return frames
            }
            if body[index] == 0 {
                padding = body.endIndex - index
                if !Self.isAllZero(body[index...]) {
                    diagnostics.append(Diagnostic(.warning, .padding, offset: fileOffset,
                                                     message: "\(padding) bytes of padding are not all zero; kept as padding"))
                }
                return frames
            }
            let idBytes = body[index..<index + idLength]
            // iTunes 12.1 wrote v2.2 three-letter identifiers padded with a NUL (`TP1\0`) in
            // v2.3 frame headers: read them as the v2.3 frames they stand for.
            var mappedID: String?
            if version >= 3, body[index + 3] == 0, Self.isValidID(idBytes.prefix(3)),
                let upgraded = ID3v22FrameIDs.table[String(decoding: idBytes.prefix(3), as: UTF8.self)]
            {
                mappedID = upgraded
                diagnostics.append(Diagnostic(.warning, .invalidFrame, offset: fileOffset, frame: upgraded,
                                                 message: "frame identifier \(String(decoding: idBytes.prefix(3), as: UTF8.self)) is a v2.2 one padded with a NUL (an iTunes 12.1 bug); read as \(upgraded)"))
            }
            guard mappedID != nil || Self.isValidID(idBytes) else {
                padding = body.endIndex - index
                diagnostics.append(Diagnostic(.warning, .invalidFrame, offset: fileOffset,
                                                 message: "bytes \(Array(idBytes).hexDescription) are not a frame identifier; the remaining \(padding) bytes are kept as padding"))
                return frames
            }
            let storedID = mappedID ?? String(decoding: idBytes, as: UTF8.self)  // validated as A-Z, 0-9
            let size: Int
            var flagBytes: (UInt8, UInt8) = (0, 0)
            if version == 2 {
                size = Int(body[index + 3]) << 16 | Int(body[index + 4]) << 8 | Int(body[index + 5])
            } else {
                let raw = body[index + 4..<index + 8]
                let plain = raw.reduce(0) { $0 << 8 | Int($1) }
                if version == 4, let syncsafe = SyncsafeInteger.decode(raw) {
                    // Some writers (old iTunes) put plain 32-bit sizes in v2.4 tags: take the
                    // reading after which the next frame header or padding starts.
                    let syncsafeEnd = index + headerSize + Int(syncsafe)
                    let plainEnd = index + headerSize + plain
                    if plain != Int(syncsafe), !isFrameBoundary(body, syncsafeEnd), isFrameBoundary(body, plainEnd) {
                        size = plain
                        diagnostics.append(Diagnostic(.note, .invalidFrameSize, offset: fileOffset, frame: storedID,
                                                         message: "v2.4 frame size written as a plain 32-bit number, read as \(plain)"))
                    } else {
                        size = Int(syncsafe)
                    }
                } else {
                    size = plain
                }
                flagBytes = (body[index + 8], body[index + 9])
            }
            let bodyStart = index + headerSize
            guard size <= body.endIndex - bodyStart else {
                diagnostics.append(Diagnostic(.warning, .invalidFrameSize, offset: fileOffset, frame: storedID,
                                                 message: "frame \(storedID) declares \(size) bytes but only \(body.endIndex - bodyStart) remain in the tag; the rest is kept as padding"))
                padding = body.endIndex - index
                return frames
            }
            // A frame read under a mapped identifier is written anew under its real one.
            frames.append(makeFrame(storedID: storedID, flagBytes: flagBytes, stored: body[bodyStart..<bodyStart + size],
                                    whole: body[index..<bodyStart + size], offset: fileOffset, storedSize: headerSize + size,
                                    keepsStoredBytes: mappedID == nil, diagnostics: &diagnostics))
            index = bodyStart + size
        }
        if index < body.endIndex {
            padding = body.endIndex - index
            if !Self.isAllZero(body[index...]) {
                diagnostics.append(Diagnostic(.warning, .padding, offset: fileOffset(index),
                                                 message: "\(padding) bytes after the last frame are neither a frame nor zero padding"))
            }
        }
        return frames
    }

    /// The frame decoded, with the bytes it was stored as unless `keepsStoredBytes` is false
    /// (then it is encoded anew when the tag is written).
    private mutating func makeFrame(storedID: String, flagBytes: (UInt8, UInt8), stored: ArraySlice<UInt8>, whole: ArraySlice<UInt8>,
                                    offset: UInt64, storedSize: Int, keepsStoredBytes: Bool, diagnostics: inout [Diagnostic]) -> ID3Frame {
        var unsynchronisationUndone = false
        var frame = decodeFrame(storedID: storedID, flagBytes: flagBytes, stored: stored, offset: offset, storedSize: storedSize,
                                diagnostics: &diagnostics, unsynchronisationUndone: &unsynchronisationUndone)
        if keepsStoredBytes {
            frame.stored = ID3Frame.Stored(version: version, statusFlags: flagBytes.0, formatFlags: flagBytes.1, body: stored,
                                           unsynchronised: unsynchronisationUndone, inFile: nil, whole: whole)
        }
        return frame
    }

    private mutating func decodeFrame(storedID: String, flagBytes: (UInt8, UInt8), stored: ArraySlice<UInt8>, offset: UInt64, storedSize: Int,
                             diagnostics: inout [Diagnostic], unsynchronisationUndone: inout Bool) -> ID3Frame {
        var flags = ID3FrameFlags()
        var data = stored
        var decompressedSize: Int?
        let (status, format) = flagBytes
        switch version {
        case 3:
            flags.discardOnTagAlter = status & 0x80 != 0
            flags.discardOnFileAlter = status & 0x40 != 0
            flags.readOnly = status & 0x20 != 0
            flags.compressed = format & 0x80 != 0
            if flags.compressed, data.count >= 4 {
                decompressedSize = data.prefix(4).reduce(0) { $0 << 8 | Int($1) }
                data = data.dropFirst(4)
            }
            if format & 0x40 != 0, let method = data.first { flags.encryptionMethod = method; data = data.dropFirst() }
            if format & 0x20 != 0, let group = data.first { flags.groupID = group; data = data.dropFirst() }
        case 4:
            flags.discardOnTagAlter = status & 0x40 != 0
            flags.discardOnFileAlter = status & 0x20 != 0
            flags.readOnly = status & 0x10 != 0
            if format & 0x40 != 0, let group = data.first { flags.groupID = group; data = data.dropFirst() }
            flags.compressed = format & 0x08 != 0
            if format & 0x04 != 0, let method = data.first { flags.encryptionMethod = method; data = data.dropFirst() }
            flags.unsynchronised = format & 0x02 != 0
            if format & 0x01 != 0, data.count >= 4 {
                flags.dataLength = SyncsafeInteger.decode(data.prefix(4)) ?? UInt32(data.prefix(4).reduce(0) { $0 << 8 | UInt32($1) })
                decompressedSize = flags.dataLength.map(Int.init)
                data = data.dropFirst(4)
            }
        default:
            break
        }
        var body = data
        // While `body` is a slice of the buffer being read, its indexes map to file offsets
        // as the tag's do; once unsynchronisation or decompression makes new bytes, embedded
        // frames are placed relative to the frame body's start.
        var bodyOffset = baseOffset
        var bodyIndex = baseIndex
        // v2.4: undo unsynchronisation per frame, when the frame says so or the tag header does
        // (writers disagree on which to set); never twice.
        if version == 4 && (flags.unsynchronised || tagUnsynchronised) {
            body = ID3Unsynchronisation.decode(body)[...]
            (bodyOffset, bodyIndex) = (offset + UInt64(headerSize), 0)
            unsynchronisationUndone = true
        }

        let id = version == 2 ? (ID3v22FrameIDs.table[storedID] ?? storedID) : storedID
        if flags.encryptionMethod != nil {
            diagnostics.append(Diagnostic(.note, .encrypted, offset: offset, frame: storedID,
                                             message: "frame \(storedID) is encrypted (method \(flags.encryptionMethod!)); kept as stored"))
            var frame = ID3Frame(id: id, storedID: storedID, flags: flags, content: .binary(body), offset: offset, storedSize: storedSize, body: body)
            frame.isOpaque = true
            return frame
        }
        if flags.compressed {
            // Every byte inflated counts against the tag's budget, a failed attempt's too, and
            // a frame that says it needs more than is left is not inflated at all: a tag of
            // frames that each inflate to just over the limit costs one limit, not one each.
            let allowed = min(ID3v2Tag.maxDecompressedFrameSize, decompressionBudget)
            let failure: String?
            if let declared = decompressedSize, declared > allowed {
                failure = "it declares \(declared) bytes decompressed, more than the \(allowed) the tag's decompression budget has left"
            } else if allowed == 0 {
                failure = "the tag's decompression budget (\(ID3v2Tag.maxDecompressedTagSize) bytes) is spent"
            } else {
                do {
                    body = try Inflate.zlib(Array(body), maxOutputSize: decompressedSize.map { max($0, 0) } ?? allowed)[...]
                    decompressionBudget -= body.count
                    (bodyOffset, bodyIndex) = (offset + UInt64(headerSize), 0)
                    failure = nil
                } catch {
                    decompressionBudget -= min(error.producedBytes, decompressionBudget)
                    failure = error.reason
                }
            }
            if let failure {
                diagnostics.append(Diagnostic(.warning, .compression, offset: offset, frame: storedID,
                                                 message: "frame \(storedID) does not decompress: \(failure); kept as stored"))
                var frame = ID3Frame(id: id, storedID: storedID, flags: flags, content: .binary(body), offset: offset, storedSize: storedSize, body: body)
                frame.isOpaque = true
                return frame
            }
        }
        var content: ID3FrameContent
        if version == 2 && storedID == "PIC" {
            content = Self.decodeV22Picture(body)
        } else if (id == "CHAP" || id == "CTOC") && depth >= Self.maxDepth {
            diagnostics.append(Diagnostic(.warning, .invalidFrame, offset: offset, frame: storedID,
                                             message: "frame \(storedID) is nested \(depth) levels deep; kept as bytes"))
            content = .binary(body)
        } else {
            var subframeReader = FrameReader(version: version, tagUnsynchronised: tagUnsynchronised, baseOffset: bodyOffset, baseIndex: bodyIndex)
            subframeReader.depth = depth + 1
            subframeReader.decompressionBudget = decompressionBudget
            var nested: [Diagnostic] = []
            content = ID3FrameContent.decode(id: id, body: body, version: version) { bytes in
                var ignored = 0
                return subframeReader.frames(in: bytes, diagnostics: &nested, padding: &ignored)
            }
            decompressionBudget = subframeReader.decompressionBudget
            if !nested.isEmpty { diagnostics += nested }
        }
        if case .binary = content.storage, ID3FrameKind.of(frameID: id).isTyped {
            diagnostics.append(Diagnostic(.warning, .invalidFrame, offset: offset, frame: storedID,
                                             message: "frame \(storedID) does not follow its layout; kept as bytes"))
        }
        if case .text(let encoding, _) = content.storage, encoding.rawValue > 1, version < 4 {
            diagnostics.append(Diagnostic(.note, .invalidText, offset: offset, frame: storedID,
                                             message: "frame \(storedID) uses a v2.4 text encoding (\(encoding)) in a v2.\(version) tag"))
        }
        return ID3Frame(id: id, storedID: storedID, flags: flags, content: consume content, offset: offset, storedSize: storedSize, body: body)
    }


    /// v2.2 `PIC`: encoding, a 3-character image format, picture type, description, data.
    static func decodeV22Picture(_ body: ArraySlice<UInt8>) -> ID3FrameContent {
        let i = body.startIndex
        guard body.count >= 5, let encoding = ID3TextEncoding(rawValue: body[i]) else { return .binary(body) }
        let format = TextDecoding.latin1(body[i + 1..<i + 4])
        let (description, data) = encoding.readString(body[(i + 5)...])
        return .picture(encoding: encoding, mimeType: ID3v22FrameIDs.mimeType(forImageFormat: format), pictureType: body[i + 4],
                        description: description, data: ID3Payload(data))
    }
}

extension Array where Element == UInt8 {
    /// Upper-case hex bytes separated by spaces, for messages.
    var hexDescription: String {
        map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: " ")
    }
}
