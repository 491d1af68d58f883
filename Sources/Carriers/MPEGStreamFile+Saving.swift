import ID3
import MediaBytes

/// How `MPEGStreamFile.save` writes a tag.
public struct CarrierSaveOptions: Sendable {
    /// 3 or 4; nil keeps the file's tag version (v2.4 for a v2.2 tag or a file without one).
    public var version: UInt8?
    /// Padding after the frames when the file has to be written anew.
    public var padding: Int
    /// Write an ID3v1 tag from the same values: nil updates one only when the file has one.
    public var writeID3v1: Bool?
    /// Make the ID3v1 tag hold exactly the ID3v2 tag's values (by default, fields the v2 tag
    /// has no value for keep their v1 value).
    public var mirrorID3v1: Bool = false
    /// Remove an existing ID3v1 tag (the file becomes 128 bytes shorter).
    public var removeID3v1: Bool = false
    /// Decide how the tag would be written and return that, writing nothing.
    public var dryRun: Bool
    /// Write a tag that fits the old one's space in place (false: always write the file anew
    /// and rename it over the original, which no crash or power loss can leave half done).
    public var allowInPlace = true
    /// AIFF/WAV: the `LIST`/`INFO` entries to write instead of the file's (an empty list
    /// removes the chunk); nil keeps the file's as they are.
    public var info: RIFFInfoList?

    public init(version: UInt8? = nil, padding: Int = 1024, writeID3v1: Bool? = nil, dryRun: Bool = false) {
        self.version = version
        self.padding = padding
        self.writeID3v1 = writeID3v1
        self.dryRun = dryRun
    }
}

/// What a save did.
public struct CarrierSaveOutcome: Sendable {
    public enum Method: String, Sendable {
        /// The new tag fitted the old tag's space (with its padding): only the tag region, and
        /// the ID3v1 tag, were written.
        case inPlace = "in-place"
        /// The file was written anew beside the original, verified, and renamed over it.
        case rewritten = "rewrite"
    }

    public var method: Method
    /// What could not be carried into the written tag version, and other remarks.
    public var notes: [String]
    /// The byte ranges of the file written (or, for a dry run, to be written) and what each
    /// holds: the tags' regions in place (`ID3v2 tag`, `ID3v1 tag`, `INFO list`), or the
    /// `whole file`.
    public var ranges: [(range: Range<UInt64>, what: String)]

    public init(method: Method, notes: [String], ranges: [(range: Range<UInt64>, what: String)] = []) {
        self.method = method
        self.notes = notes
        self.ranges = ranges
    }
}

extension MPEGStreamFile {
    /// Writes `tag` as the file's leading ID3v2 tag (replacing the first one, if any) in the MP3
    /// or ADTS file at `path`.
    ///
    /// The audio bytes, any further leading tags, APEv2 and Lyrics3 blocks and an appended tag
    /// are kept exactly. When the new tag fits the old one's space it is written in place;
    /// otherwise the file is written anew with `options.padding` through
    /// `FileReplacement.replace`, and read back and compared (tag frames, and every audio byte)
    /// before it replaces the original.
    ///
    /// - Throws: `ID3Error` `.notWritable` when the file is not understood well enough (no
    ///   audio frame, a damaged tag), `.verificationFailed` when the written file does not read
    ///   back as intended, `.io`; in every case the original is left as it was.
    @discardableResult
    public static func save(_ tag: ID3v2Tag, to path: String, options: CarrierSaveOptions = CarrierSaveOptions()) throws -> CarrierSaveOutcome {
        let source = try CarrierSaving.open(path, options: options)
        let layout = try MPEGStreamFile(source: source)
        guard layout.kind != nil else {
            throw CarrierError(.notWritable, offset: layout.audio.lowerBound,
                           message: "\(path): no MPEG audio or ADTS frame found after the tags; not writing to a file that is not understood")
        }
        let old = layout.leadingTags.first
        if let problem = layout.diagnostics.first(where: { $0.severity != .note && $0.code != .padding }) {
            throw CarrierError(.notWritable, offset: problem.offset, place: problem.place,
                           message: "\(path): \(problem.message); not writing to a file that is not fully understood")
        }
        if let old, old.offset != 0 {
            throw CarrierError(.notWritable, offset: old.offset, message: "\(path): the first ID3v2 tag does not start the file; not writing over it")
        }
        let version = options.version ?? old.map { $0.majorVersion == 2 ? 4 : $0.majorVersion } ?? 4
        let oldSize = old?.totalSize ?? 0
        let writeV1 = !options.removeID3v1 && (options.writeID3v1 ?? (layout.id3v1 != nil))
        let v1 = writeV1 ? ID3v1Tag(from: tag, keeping: options.mirrorID3v1 ? nil : layout.id3v1).encoded : nil
        let dropV1 = options.removeID3v1 && layout.id3v1 != nil
        let v1Offset = layout.id3v1 != nil ? layout.fileSize - 128 : layout.fileSize

        var serialization = try tag.serialized(version: version, padding: 0)
        let expected = try ID3v2Tag(parsing: serialization.bytes).frames
        var notes = serialization.notes
        if layout.appendedTag != nil { notes.append("the ID3v2 tag appended at the end of the file is kept as it was") }

        if options.allowInPlace, old != nil, UInt64(serialization.bytes.count) <= oldSize {
            serialization = try tag.serialized(version: version, padding: Int(oldSize) - serialization.bytes.count)
            var ranges: [(offset: UInt64, bytes: [UInt8])] = [(0, serialization.bytes)]
            if let v1 { ranges.append((v1Offset, v1)) }
            let written = zip(ranges, ["ID3v2 tag", "ID3v1 tag"]).map { ($0.offset..<$0.offset + UInt64($0.bytes.count), $1) }
            if options.dryRun { return CarrierSaveOutcome(method: .inPlace, notes: notes, ranges: written) }
            try CarrierSaving.patch(path, ranges: ranges, newSize: dropV1 ? v1Offset : nil, original: source) { written in
                let reread = try MPEGStreamFile(source: written)
                guard reread.leadingTags.first?.frames == expected, !reread.diagnostics.contains(where: { $0.severity != .note }) else {
                    throw CarrierError(.verificationFailed, message: "\(path): the tag written in place does not read back as intended; the old bytes were put back")
                }
            }
            return CarrierSaveOutcome(method: .inPlace, notes: notes, ranges: written)
        }

        serialization = try tag.serialized(version: version, padding: options.padding)
        let newTag = serialization.bytes
        let rest = oldSize..<v1Offset
        let newSize = UInt64(newTag.count) + UInt64(rest.count) + (v1 != nil || (layout.id3v1 != nil && !dropV1) ? 128 : 0)
        if options.dryRun { return CarrierSaveOutcome(method: .rewritten, notes: notes, ranges: [(0..<newSize, "whole file")]) }
        do {
            try FileReplacement.replace(path, write: { sink in
                try sink.write(newTag)
                try source.copy(from: rest.lowerBound, count: UInt64(rest.count), to: &sink)
                if let v1 { try sink.write(v1) } else if layout.id3v1 != nil && !dropV1 { try source.copy(from: v1Offset, count: 128, to: &sink) }
            }, verify: { temporary in
                let written = try FileByteSource(path: temporary)
                let reread = try MPEGStreamFile(source: written)
                guard reread.leadingTags.first?.frames == expected, !reread.diagnostics.contains(where: { $0.severity != .note }) else {
                    throw CarrierError(.verificationFailed, message: "\(path): the written tag does not read back as intended; the original is unchanged")
                }
                try CarrierSaving.compare(source, rest, written, at: UInt64(newTag.count), path: path)
                try source.checkUnchanged()
            })
        } catch let error as CarrierError {
            throw error
        } catch {
            throw CarrierError(.io, message: "\(error)")
        }
        return CarrierSaveOutcome(method: .rewritten, notes: notes, ranges: [(0..<newSize, "whole file")])
    }
}
