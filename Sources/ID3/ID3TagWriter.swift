import MediaBytes

/// The result of serializing a tag: its bytes and what could not be carried into the target
/// version.
public struct ID3TagSerialization: Sendable {
    /// The tag: in memory, but for the bodies of large frames left in the file they were read
    /// from (an unchanged picture of 200 MB stays a range of its file).
    public var contents: SplicedBytes
    /// One sentence per frame that was converted, joined or dropped (`TDRL dropped: v2.4 only`).
    public var notes: [String]

    /// The number of bytes of the tag.
    public var count: Int { contents.count }

    /// The tag's bytes, read into memory (a large frame's body from its file).
    public var bytes: [UInt8] {
        get throws(ID3Error) {
            do { return try contents.materialized() } catch {
                throw ID3Error(.io, message: "cannot read a frame to write it back: \(error.description)")
            }
        }
    }
}

extension ID3v2Tag {
    /// Serializes the tag as ID3v2.`version` (3 or 4; the tag's own version by default, and
    /// v2.4 for a v2.2 tag) followed by `padding` zero bytes. Never writes unsynchronisation or
    /// an extended header. Frames whose content is unchanged and whose version is the target
    /// one are written back byte for byte (a v2.4 frame stored unsynchronised is re-encoded).
    /// A large picture or object left in the file when the tag was read stays there: the
    /// serialization refers to it (`SplicedBytes`), so serializing never reads it.
    ///
    /// - Throws: `.notWritable` for a version other than 3 or 4, or frames that together pass
    ///   the 256 MiB an ID3v2 tag can hold.
    public func serialized(version requested: UInt8? = nil, padding: Int = 1024) throws(ID3Error) -> ID3TagSerialization {
        let version = requested ?? (majorVersion == 2 ? 4 : majorVersion)
        guard version == 3 || version == 4 else {
            throw ID3Error(.notWritable, message: "ID3v2 tags are written as v2.3 or v2.4, not v2.\(version)")
        }
        var notes: [String] = []
        let frames = ID3VersionConversion.convert(frames, from: majorVersion, to: version, notes: &notes)
        var body = SplicedBytes()
        for frame in frames where try !ID3FrameEncoder.encode(frame, version: version, into: &body) {
            notes.append("\(frame.id) dropped: it cannot be written as ID3v2.\(version)")
        }
        let bodySize = body.count
        guard bodySize < 1 << 28 else {
            throw ID3Error(.notWritable, message: "the frames take \(bodySize) bytes, more than an ID3v2 tag can hold (256 MiB)")
        }
        let size = UInt32(min(bodySize + max(0, padding), (1 << 28) - 1))
        var contents = SplicedBytes(Array("ID3".utf8) + [version, 0, 0] + SyncsafeInteger.encode(size)!)
        contents.append(body)
        contents.append([UInt8](repeating: 0, count: Int(size) - bodySize))
        return ID3TagSerialization(contents: contents, notes: notes)
    }
}

extension ID3v2Tag {
    /// The bytes (header and body) `serialized(version:)` writes for `frame` in a tag of
    /// `version` (3 or 4) when no conversion is needed (the tag is of that version); nil when
    /// it cannot be written in it. A frame left in its file stays a range of it.
    public static func frameBytes(_ frame: ID3Frame, version: UInt8) throws(ID3Error) -> SplicedBytes? {
        guard version == 3 || version == 4 else {
            throw ID3Error(.notWritable, message: "ID3v2 frames are written as v2.3 or v2.4, not v2.\(version)")
        }
        var bytes = SplicedBytes()
        return try ID3FrameEncoder.encode(frame, version: version, into: &bytes) ? bytes : nil
    }
}

/// Encodes frames for a tag of one version.
enum ID3FrameEncoder {
    /// A run of frames, or nil when one of them cannot be written.
    static func encode(_ frames: [ID3Frame], version: UInt8) throws(ID3Error) -> [UInt8]? {
        var bytes = SplicedBytes()
        for frame in frames {
            guard try encode(frame, version: version, into: &bytes) else { return nil }
        }
        return try materialized(bytes)
    }

    /// One frame: header and body; nil when it cannot be written in `version`.
    static func encode(_ frame: ID3Frame, version: UInt8) throws(ID3Error) -> [UInt8]? {
        var bytes = SplicedBytes()
        return try encode(frame, version: version, into: &bytes) ? try materialized(bytes) : nil
    }

    private static func materialized(_ bytes: SplicedBytes) throws(ID3Error) -> [UInt8] {
        do { return try bytes.materialized() } catch {
            throw ID3Error(.io, message: "cannot read a frame to write it: \(error.description)")
        }
    }

    /// Appends one frame, header and body, to `bytes`; false (nothing appended) when it cannot
    /// be written in `version`. A body, or a picture's or object's data, that is still in its
    /// file is appended as a range of it.
    static func encode(_ frame: ID3Frame, version: UInt8, into bytes: inout SplicedBytes) throws(ID3Error) -> Bool {
        guard frame.id.utf8.count == 4, frame.id.utf8.allSatisfy({ ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) }) else {
            return false
        }
        if frame.isUnchanged, let stored = frame.stored, stored.version == version, frame.storedID == frame.id, !stored.unsynchronised {
            if let whole = storedFrame(stored) {
                // Header and body as read, one slice of the tag: no header made, nothing copied.
                bytes.append(whole)
                return true
            }
            let size = stored.inFile?.count ?? stored.body.count
            guard let header = header(frame.id, size: size, flags: [stored.statusFlags, stored.formatFlags], version: version) else { return false }
            bytes.append(header)
            if let inFile = stored.inFile {
                try checkUnchanged(inFile.source, at: inFile.offset)
                bytes.append(from: inFile.source, at: inFile.offset, count: inFile.count)
            } else {
                bytes.append(stored.body)
            }
            return true
        }
        return try encodeFresh(frame, version: version, into: &bytes)
    }

    /// The frame's bytes as read, header and body, when they are what the lines below would
    /// write for an unchanged frame of its version: its body all in memory, directly after a
    /// header whose size is in the version's own form (syncsafe in v2.4, plain in v2.3; a v2.4
    /// frame whose writer put a plain size there is written with a syncsafe one). The
    /// identifier and flags are the stored ones by construction. Nil otherwise.
    static func storedFrame(_ stored: ID3Frame.Stored) -> ArraySlice<UInt8>? {
        let whole = stored.whole, size = stored.body.count
        guard stored.inFile == nil, whole.count == 10 + size, whole.endIndex == stored.body.endIndex else { return nil }
        let field = whole.dropFirst(4).prefix(4)
        let shift = stored.version == 4 ? 7 : 8, mask = stored.version == 4 ? 0x7F : 0xFF
        for (index, byte) in field.enumerated() where Int(byte) != size >> (shift * (3 - index)) & mask { return nil }
        return size < 1 << 28 ? whole : nil
    }

    /// Appends a frame whose bytes are made from its content (not its stored form); false when
    /// it cannot be written.
    private static func encodeFresh(_ frame: ID3Frame, version: UInt8, into bytes: inout SplicedBytes) throws(ID3Error) -> Bool {
        if frame.isOpaque { return false }  // encrypted or not decompressible: only its stored form can be written
        // A picture's or object's data still in the file is spliced in after the fields.
        var content = frame.content
        var payload: ID3Payload?
        switch content.storage {
        case .picture(let e, let mime, let type, let description, let data) where !data.isLoaded:
            payload = data
            content = .picture(encoding: e, mimeType: mime, pictureType: type, description: description, data: [])
        case .object(let e, let mime, let filename, let description, let data) where !data.isLoaded:
            payload = data
            content = .object(encoding: e, mimeType: mime, filename: filename, description: description, data: [])
        default:
            break
        }
        guard var body = try content.encodedBody(version: version, separatedValues: ["IPLS", "TIPL", "TMCL"].contains(frame.id)) else {
            return false
        }
        var format: UInt8 = 0
        if let group = frame.flags.groupID {
            body.insert(group, at: 0)
            format |= version == 3 ? 0x20 : 0x40
        }
        var status: UInt8 = 0
        if frame.flags.discardOnTagAlter { status |= version == 3 ? 0x80 : 0x40 }
        if frame.flags.discardOnFileAlter { status |= version == 3 ? 0x40 : 0x20 }
        if frame.flags.readOnly { status |= version == 3 ? 0x20 : 0x10 }
        guard let header = header(frame.id, size: body.count + (payload?.count ?? 0), flags: [status, format], version: version) else { return false }
        bytes.append(header + body)
        if let payload {
            if case .range(let source, let offset, _)? = payload.contents.pieces.first { try checkUnchanged(source, at: offset) }
            bytes.append(payload.contents)
        }
        return true
    }

    /// A frame left in its file is referred to, not read: the file must still be as it was
    /// read (a tag kept after its file was saved points at bytes that moved).
    private static func checkUnchanged(_ source: any ByteSource, at offset: UInt64) throws(ID3Error) {
        do { try source.checkUnchanged() } catch {
            throw ID3Error(.io, offset: offset, message: "cannot read a frame to write it back: \(error.description)")
        }
    }

    static func header(_ id: String, size: Int, flags: [UInt8], version: UInt8) -> [UInt8]? {
        guard size < 1 << 28 else { return nil }  // the largest size an ID3v2 frame can state
        // One array of its ten bytes (every frame of an export or a save has one).
        var header: [UInt8] = []
        header.reserveCapacity(10)
        header.append(contentsOf: id.utf8)
        let shift = version == 4 ? 7 : 8, mask = version == 4 ? 0x7F : 0xFF  // syncsafe in v2.4
        for index in (0..<4).reversed() { header.append(UInt8(size >> (shift * index) & mask)) }
        header.append(contentsOf: flags)
        return header
    }
}

/// Frame conversions between ID3v2.3 and v2.4 (id3v2.4.0-changes): the date frames, the
/// involved-people lists, and the frames one version has and the other does not.
public enum ID3VersionConversion {
    /// v2.4 frames with no v2.3 form.
    static let v24Only: Set<String> = ["ASPI", "EQU2", "RVA2", "SEEK", "SIGN", "TDEN", "TDRL", "TDTG", "TMOO", "TPRO", "TSST"]
    /// v2.4-only text frames a v2.3 tag keeps as `TXXX` frames of these descriptions (the forms
    /// the key table writes in v2.3, and reads back as the same keys), instead of dropping them.
    public static let v24TextAsUserText: [String: String] = [
        "TDRL": "RELEASEDATE", "TDTG": "TAGGINGDATE", "TDEN": "ENCODINGTIME", "TMOO": "MOOD", "TPRO": "PRODUCEDNOTICE", "TSST": "DISCSUBTITLE",
    ]
    /// v2.3 frames with no v2.4 form.
    static let v23Only: Set<String> = ["EQUA", "RVAD", "TRDA", "TSIZ"]

    static func convert(_ frames: [ID3Frame], from source: UInt8, to target: UInt8, notes: inout [String]) -> [ID3Frame] {
        if source == target { return frames }
        if target == 3 { return toV23(frames, notes: &notes) }
        return toV24(frames, notes: &notes)
    }

    static func text(_ id: String, _ values: [String], like frame: ID3Frame? = nil) -> ID3Frame {
        let encoding: ID3TextEncoding = if case .text(let e, _)? = frame?.content.storage { e } else { .latin1 }
        return ID3Frame(id: id, content: .text(encoding: encoding, values: values))
    }

    static func toV23(_ frames: [ID3Frame], notes: inout [String]) -> [ID3Frame] {
        var result: [ID3Frame] = []
        for frame in frames {
            switch frame.id {
            case "TDRC":
                // yyyy[-MM[-dd[THH[:mm[:ss]]]]] into TYER, TDAT (DDMM) and TIME (HHMM).
                let value = frame.textValues?.first ?? ""
                let digits = value.split(whereSeparator: { "-T:".contains($0) }).map(String.init)
                if let year = digits.first, year.count == 4 { result.append(text("TYER", [year], like: frame)) }
                if digits.count >= 3 { result.append(text("TDAT", [digits[2] + digits[1]], like: frame)) }
                if digits.count >= 5 { result.append(text("TIME", [digits[3] + digits[4]], like: frame)) }
                if (frame.textValues?.count ?? 0) > 1 { notes.append("TDRC: only the first of several dates is kept in v2.3") }
                if digits.first?.count != 4 { notes.append("TDRC dropped: \"\(value)\" has no four-digit year for TYER") }
                if digits.count > 5 { notes.append("TDRC: seconds are dropped in v2.3 (TIME holds hours and minutes)") }
                if digits.count == 2 { notes.append("TDRC: the month is dropped in v2.3 (TDAT needs a day too)") }
                if digits.count == 4 { notes.append("TDRC: the hour is dropped in v2.3 (TIME needs minutes too)") }
            case "TDOR":
                let value = frame.textValues?.first ?? ""
                let year = String(value.prefix(4))
                result.append(text("TORY", [year], like: frame))
                if value.count > 4 { notes.append("TDOR \"\(value)\" becomes TORY \"\(year)\": v2.3 keeps the original release year only") }
            case _ where v24TextAsUserText[frame.id] != nil:
                guard case .text(let encoding, let values) = frame.content.storage, let name = v24TextAsUserText[frame.id] else {
                    notes.append("\(frame.id) dropped: ID3v2.4 only")
                    continue
                }
                if frames.contains(where: { $0.id == "TXXX" && $0.content.userText?.description.uppercased() == name }) {
                    notes.append("\(frame.id) dropped: ID3v2.4 only, and the tag has a TXXX:\(name) already")
                    continue
                }
                result.append(ID3Frame(id: "TXXX", content: .userText(encoding: encoding, description: name, values: values)))
                notes.append("\(frame.id) becomes TXXX:\(name) (v2.3 has no \(frame.id))")
            case "TIPL", "TMCL":
                if (frame.textValues?.count ?? 0) > 1 && frame.id == "TMCL" {
                    notes.append("TMCL: musician credits become v2.3 involved people (IPLS)")
                }
                if let index = result.firstIndex(where: { $0.id == "IPLS" }), case .text(let encoding, let existing) = result[index].content.storage {
                    // v2.3 has one involved-people list: the credits and musicians share it.
                    result[index].content = .text(encoding: encoding, values: existing + (frame.textValues ?? []))
                } else {
                    var converted = frame
                    converted.id = "IPLS"
                    result.append(converted)
                }
            case _ where v24Only.contains(frame.id):
                notes.append("\(frame.id) dropped: ID3v2.4 only")
            default:
                // (IPLS is v2.3's list of pairs: its strings stay apart.)
                if frame.id != "IPLS", case .text(_, let values) = frame.content.storage, values.count > 1 {
                    notes.append("\(frame.id): \(values.count) values joined with \"/\" (v2.3 has one string per frame)")
                }
                result.append(frame)
            }
        }
        return result
    }

    static func toV24(_ frames: [ID3Frame], notes: inout [String]) -> [ID3Frame] {
        var result: [ID3Frame] = []
        let year = frames.first { $0.id == "TYER" }?.textValues?.first
        let dayMonth = frames.first { $0.id == "TDAT" }?.textValues?.first
        let time = frames.first { $0.id == "TIME" }?.textValues?.first
        for frame in frames {
            switch frame.id {
            case "TYER":
                var date = year ?? ""
                if let dayMonth, dayMonth.count == 4 {
                    date += "-" + dayMonth.suffix(2) + "-" + dayMonth.prefix(2)
                    if let time, time.count == 4 { date += "T" + time.prefix(2) + ":" + time.suffix(2) }
                }
                result.append(text("TDRC", [date], like: frame))
            case "TDAT", "TIME":
                if year == nil { notes.append("\(frame.id) dropped: no TYER to join it to in TDRC") }
            case "TORY":
                var converted = frame
                converted.id = "TDOR"
                result.append(converted)
            case "IPLS":
                var converted = frame
                converted.id = "TIPL"
                result.append(converted)
            case _ where v23Only.contains(frame.id):
                notes.append("\(frame.id) dropped: ID3v2.3 only")
            default:
                result.append(frame)
            }
        }
        return result
    }
}
