import APEv2
import ID3
import MediaBytes

/// How `MPEGStreamFile.save` writes a tag.
public struct CarrierSaveOptions: Sendable {
    /// 3 or 4; nil keeps the file's tag version (v2.4 for a v2.2 tag or a file without one).
    public var version: UInt8?
    /// Padding after the frames when the file has to be written anew. When 64 MiB or more
    /// moves after the tag (MP3/ADTS: the audio; AIFF/WAV: the largest chunk after the ID3
    /// chunk), a padding that is not 0 grows by less than 64 KiB so that it moves by a
    /// multiple of 64 KiB (`CopyAlignment`).
    public var padding: Int
    /// Write an ID3v1 tag from the same values: nil updates one only when the file has one.
    public var writeID3v1: Bool?
    /// Make the ID3v1 tag hold exactly the ID3v2 tag's values (by default, fields the v2 tag
    /// has no value for keep their v1 value).
    public var mirrorID3v1: Bool = false
    /// Remove an existing ID3v1 tag (the file becomes 128 bytes shorter).
    public var removeID3v1: Bool = false
    /// Remove a Lyrics3v2 block (its fields are not edited here; left after the tags around it
    /// are gone, a demuxer such as ffmpeg's takes it for one more audio packet). A rewrite.
    public var removeLyrics3: Bool = false
    /// Decide how the tag would be written and return that, writing nothing.
    public var dryRun: Bool
    /// Write a tag that fits the old one's space in place (false: always write the file anew
    /// and rename it over the original, which no crash or power loss can leave half done).
    public var allowInPlace = true
    /// The file the save writes, as the caller opened it to read its tags: the save reads it
    /// through this instead of opening it again. Only for that file, and only when the caller
    /// has just checked it unchanged (`FileByteSource.checkUnchanged`); the save checks again
    /// before it writes.
    public var opened: FileByteSource?

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
    /// Writes `tags` into the MP3 or ADTS file at `path`: their ID3v2 tag as the file's one
    /// ID3v2 tag, at its start (nil writes `mergedTag`), and their APE tag when given. Every
    /// leading tag and an appended tag are replaced by it; the notes name them (they read as
    /// merged, which is what the tag written holds when it comes from `mergedTag` or
    /// `carriedTags`, as the metadata layer's does).
    ///
    /// The audio bytes, any further leading tags, the Lyrics3 block and an appended tag are kept
    /// exactly, and so is the APE tag unless `tags.ape` replaces it (a new one goes before a
    /// Lyrics3 block and the ID3v1 tag). When the new tags fit their old space they are written
    /// in place;
    /// otherwise the file is written anew with `options.padding` through
    /// `FileReplacement.replace`, and read back and compared (tag frames, and every audio byte)
    /// before it replaces the original.
    ///
    /// - Throws: `ID3Error` `.notWritable` when the file is not understood well enough (no
    ///   audio frame, a damaged tag), `.verificationFailed` when the written file does not read
    ///   back as intended, `.io`; in every case the original is left as it was.
    @discardableResult
    public static func save(_ tags: CarriedTags, to path: String, options: CarrierSaveOptions = CarrierSaveOptions()) throws -> CarrierSaveOutcome {
        let source = try CarrierSaving.open(path, options: options)
        let layout = try MPEGStreamFile(source: source)
        let tag = tags.id3v2 ?? layout.mergedTag ?? ID3v2Tag()
        guard layout.kind != nil else {
            // A tag whose size runs past the end of the file (a file cut short): the offset
            // named is the end, not where the tag says it ends.
            if layout.audio.lowerBound > layout.fileSize {
                throw CarrierError(.notWritable, offset: layout.fileSize,
                                   message: "\(path): the file ends at byte \(layout.fileSize), inside the tags (which say they run to byte \(layout.audio.lowerBound)): it is cut short, no audio follows; not writing to a file that is not understood")
            }
            throw CarrierError(.notWritable, offset: layout.audio.lowerBound,
                           message: "\(path): no MPEG audio or ADTS frame found after the tags; not writing to a file that is not understood")
        }
        let old = layout.leadingTags.first
        if let problem = layout.diagnostics.first(where: { $0.isProblem && !$0.has(CarrierError.Code.padding) }) {
            throw CarrierError(.notWritable, offset: problem.offset, place: problem.path,
                           message: "\(path): \(problem.message); not writing to a file that is not fully understood")
        }
        if let old, old.offset != 0 {
            throw CarrierError(.notWritable, offset: old.offset, message: "\(path): the first ID3v2 tag does not start the file; not writing over it")
        }
        let version = options.version ?? old.map { $0.majorVersion == 2 ? 4 : $0.majorVersion } ?? 4
        // The new tag takes the place of every leading tag (one truth: the others' frames are
        // in it, see `mergedTag`), and an appended tag goes.
        let oldSize = layout.leadingTagsEnd
        let writeV1 = !options.removeID3v1 && (options.writeID3v1 ?? (layout.id3v1 != nil))
        let v1 = writeV1 ? ID3v1Tag(from: tag, keeping: options.mirrorID3v1 ? nil : layout.id3v1).encoded : nil
        let dropV1 = options.removeID3v1 && layout.id3v1 != nil
        let v1Offset = layout.id3v1Block?.lowerBound ?? layout.fileSize
        // The Lyrics3v2 block's title, artist and album follow the tag (exiftool reads them);
        // a block left with no field goes, as one asked to be removed does.
        var lyrics3Bytes: [UInt8]?
        var expectedLyrics3 = layout.lyrics3
        var lyrics3Notes: [String] = []
        var lyrics3Emptied = false
        if !options.removeLyrics3, let old = layout.lyrics3 {
            let updated = old.keptInStep(with: tag, previous: layout.leadingTags.first)
            if updated != old {
                let changed = Lyrics3Block.mirrored.map(\.id).filter { id in
                    old.fields.first { $0.id == id }?.value != updated.fields.first { $0.id == id }?.value
                }
                if updated.fields.isEmpty {
                    lyrics3Emptied = true
                    lyrics3Notes.append("the Lyrics3v2 block held only \(changed.joined(separator: ", ")), which the tag no longer has: the block is removed")
                } else if let bytes = updated.serialized {
                    lyrics3Bytes = bytes
                    expectedLyrics3 = updated
                    lyrics3Notes.append("the Lyrics3v2 block's \(changed.joined(separator: ", ")) follow the tag")
                } else {
                    lyrics3Notes.append("the Lyrics3v2 block is kept as it was: a value is longer than its fields hold")
                }
            }
        }
        // What is kept of the file's tail ends before a Lyrics3 block that goes.
        let dropLyrics3 = options.removeLyrics3 || lyrics3Emptied ? layout.lyrics3Block : nil
        if dropLyrics3 != nil { expectedLyrics3 = nil }
        let keptEnd = dropLyrics3?.lowerBound ?? v1Offset

        var serialization = try tag.serialized(version: version, padding: 0)
        // The frames as a reader will see them (a large payload left in the file compared a
        // chunk at a time).
        var expected = try ID3v2Tag.read(from: serialization.contents).frames
        var notes = serialization.notes
        notes += Self.mergeNotes(layout)
        if let v1, options.mirrorID3v1, let oldV1 = layout.id3v1 {
            notes += Self.mirrorNotes(old: oldV1, new: ID3v1Tag(v1) ?? oldV1, oldTag: old)
        }
        if let dropLyrics3, !lyrics3Emptied { notes.append("the Lyrics3v2 block (\(dropLyrics3.count) bytes) is removed") }
        notes += lyrics3Notes

        // The APE tag: replaced where it is (or, new, put before Lyrics3 and ID3v1) when it changes.
        let newAPE = tags.ape.flatMap { ($0.items.isEmpty && layout.apeTag == nil) || Self.sameItems($0, layout.apeTag) ? nil : $0 }
        let apeBytes = newAPE.map { $0.items.isEmpty ? [] : $0.serialized() }
        let apeRange = layout.apeBlock ?? {
            let at = layout.lyrics3Block?.lowerBound ?? v1Offset
            return at..<at
        }()
        let expectedAPE = newAPE.map { $0.items.isEmpty ? nil : $0 } ?? layout.apeTag
        /// What of the file written disagrees with what was meant; nil when nothing does.
        func disagreement(_ reread: MPEGStreamFile) -> String? {
            if let frames = CarrierSaving.disagreement("ID3v2 frame", expected: expected, read: reread.leadingTags.first?.frames ?? [], describe: CarrierSaving.describe) {
                return frames
            }
            if !reread.otherTags.isEmpty { return "\(reread.otherTags.count) further ID3v2 tag(s) read after the one written" }
            if reread.lyrics3 != expectedLyrics3 { return "the Lyrics3v2 block differs from the one meant" }
            if let appended = reread.appendedBlock { return "an appended ID3v2 tag read at offset \(appended.lowerBound)" }
            if !Self.sameItems(reread.apeTag, expectedAPE) {
                func strip(_ tag: APETag?) -> [APEItem] { tag?.items.map { APEItem(key: $0.key, flags: $0.flags, value: $0.value) } ?? [] }
                return CarrierSaving.disagreement("APE item", expected: strip(expectedAPE), read: strip(reread.apeTag), describe: \.key) ?? "the APE tag differs"
            }
            // The junk before the audio is kept as it was, and so is what was said of it (a
            // stray tag in it).
            let keptJunk = Set(layout.diagnostics.filter { $0.has(CarrierError.Code.padding) }.map(\.message))
            return reread.diagnostics.first(where: { $0.severity != .note && !($0.has(CarrierError.Code.padding) && keptJunk.contains($0.message)) })?.description
        }

        let apeFits = apeBytes.map { UInt64($0.count) == UInt64(apeRange.count) } ?? true
        let lyrics3Fits = lyrics3Bytes.map { UInt64($0.count) == UInt64(layout.lyrics3Block?.count ?? 0) } ?? true
        let v1Last = layout.id3v1Block.map { $0.upperBound == layout.fileSize } ?? true
        if options.allowInPlace, old != nil, UInt64(serialization.count) <= oldSize, apeFits, lyrics3Fits, dropLyrics3 == nil,
            layout.appendedBlock == nil, v1Last,
            let tagPatches = try CarrierSaving.inPlacePatches(tag.serialized(version: version, padding: Int(oldSize) - serialization.count), at: 0, of: source, expected: &expected)
        {
            var ranges: [(offset: UInt64, bytes: [UInt8], what: String)] = tagPatches.map { ($0.offset, $0.bytes, "ID3v2 tag") }
            if let apeBytes { ranges.append((apeRange.lowerBound, apeBytes, "APE tag")) }
            if let lyrics3Bytes, let block = layout.lyrics3Block { ranges.append((block.lowerBound, lyrics3Bytes, "Lyrics3v2 block")) }
            if let v1 { ranges.append((v1Offset, v1, "ID3v1 tag")) }
            let written = ranges.map { ($0.offset..<$0.offset + UInt64($0.bytes.count), $0.what) }
            if options.dryRun { return CarrierSaveOutcome(method: .inPlace, notes: notes, ranges: written) }
            try CarrierSaving.patch(path, ranges: ranges.map { ($0.offset, $0.bytes) }, newSize: dropV1 ? v1Offset : nil, original: source) { written in
                if let difference = disagreement(try MPEGStreamFile(source: written)) {
                    throw CarrierError(.verificationFailed, message: "\(path): the tags written in place do not read back as intended (\(difference)); the old bytes were put back")
                }
            }
            return CarrierSaveOutcome(method: .inPlace, notes: notes, ranges: written)
        }

        // What follows the new tag: everything between the tags, with the APE tag replaced
        // where it is (or, new, put before Lyrics3 and ID3v1) and an appended ID3v2 tag left out.
        var cuts: [(range: Range<UInt64>, insert: [UInt8])] = []
        if let apeBytes { cuts.append((apeRange, apeBytes)) }
        if let lyrics3Bytes, let block = layout.lyrics3Block, dropLyrics3 == nil { cuts.append((block, lyrics3Bytes)) }
        if let appended = layout.appendedBlock, appended.upperBound <= keptEnd { cuts.append((appended, [])) }
        var pieces: [Piece] = []
        var cursor = oldSize
        for cut in cuts.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            if cut.range.lowerBound > cursor { pieces.append(.copy(cursor..<cut.range.lowerBound)) }
            if !cut.insert.isEmpty { pieces.append(.bytes(cut.insert)) }
            cursor = max(cursor, cut.range.upperBound)
        }
        if keptEnd > cursor { pieces.append(.copy(cursor..<keptEnd)) }
        // The padding grows so that the audio keeps its alignment (a large copy only); the
        // tag is its frames (`serialization`, without padding) and the padding.
        let asked = UInt64(max(options.padding, 0))
        var firstCopy: UInt64 = 0
        if case .copy(let range) = pieces.first { firstCopy = UInt64(range.count) }
        let padding = CopyAlignment.padding(asked, shift: Int64(serialization.count) + Int64(asked) - Int64(oldSize), moving: firstCopy)
        serialization = try tag.serialized(version: version, padding: Int(padding))
        let newTag = serialization.contents
        let piecesSize = pieces.reduce(UInt64(0)) { $0 + $1.count }
        let newSize = UInt64(newTag.count) + piecesSize + (v1 != nil || (layout.id3v1 != nil && !dropV1) ? 128 : 0)
        if options.dryRun { return CarrierSaveOutcome(method: .rewritten, notes: notes, ranges: [(0..<newSize, "whole file")]) }
        do {
            var checked = CheckedCopies()
            notes += try CarrierSaving.replace(path, write: { sink in
                try newTag.write(to: &sink)
                for piece in pieces {
                    switch piece {
                    case .copy(let range): try source.copy(from: range.lowerBound, count: UInt64(range.count), to: &sink)
                    case .bytes(let bytes): try sink.write(bytes)
                    }
                }
                if let v1 { try sink.write(v1) } else if layout.id3v1 != nil && !dropV1 { try source.copy(from: v1Offset, count: 128, to: &sink) }
                checked = sink.checkedCopies
            }, verify: { temporary in
                let written = try FileByteSource(path: temporary)
                if let difference = disagreement(try MPEGStreamFile(source: written)) {
                    throw CarrierError(.verificationFailed, message: "\(path): the written tags do not read back as intended (\(difference)); the original is unchanged")
                }
                var at = UInt64(newTag.count)
                for piece in pieces {
                    if case .copy(let range) = piece { try CarrierSaving.compare(source, range, written, at: at, checked: checked, path: path) }
                    at += piece.count
                }
                try source.checkUnchanged()
            })
        }
        return CarrierSaveOutcome(method: .rewritten, notes: notes, ranges: [(0..<newSize, "whole file")])
    }

    /// A part of a rewritten file after its new tag: bytes copied from the original, or new ones.
    private enum Piece {
        case copy(Range<UInt64>)
        case bytes([UInt8])

        var count: UInt64 {
            switch self {
            case .copy(let range): UInt64(range.count)
            case .bytes(let bytes): UInt64(bytes.count)
            }
        }
    }

    /// What a save says about the tags it merged: which were merged into the one it writes,
    /// and which of their frames, hidden by an earlier tag's, are left out.
    static func mergeNotes(_ layout: MPEGStreamFile) -> [String] {
        var merged: [String] = []
        if layout.leadingTags.count > 1 {
            merged.append(layout.leadingTags.count == 2 ? "the second leading ID3v2 tag" : "the \(layout.leadingTags.count - 1) further leading ID3v2 tags")
        }
        if let appended = layout.appendedBlock, !layout.leadingTags.isEmpty { merged.append("the ID3v2 tag appended at byte \(appended.lowerBound)") }
        else if let appended = layout.appendedBlock { return ["the ID3v2 tag appended at byte \(appended.lowerBound) is written at the start of the file instead"] }
        guard !merged.isEmpty else { return [] }
        let plural = merged.count > 1 || layout.leadingTags.count > 2
        var notes = [merged.joined(separator: " and ") + (plural ? " are" : " is") + " merged into the first and removed (ffmpeg reads them together)"]
        let hidden = layout.hiddenFrames.map(\.id)
        if !hidden.isEmpty {
            notes.append("left out, hidden from every reader by the first tag's frames of the same kind: \(hidden.joined(separator: ", "))")
        }
        return notes
    }

    /// True when both tags hold the same items (keys, flags and values; where they were read
    /// from does not count), or neither is there.
    static func sameItems(_ a: APETag?, _ b: APETag?) -> Bool {
        func strip(_ tag: APETag?) -> [APEItem]? { tag?.items.map { APEItem(key: $0.key, flags: $0.flags, value: $0.value) } }
        return strip(a) == strip(b)
    }

    /// A note naming the values only the ID3v1 tag held (fields the ID3v2 tag had nothing for)
    /// that the save drops: the ID3v1 tag follows the ID3v2 tag, as every save keeps it. (A
    /// field both tags held, spelled differently, follows without a note: ID3v1 writers fold
    /// or cut what ISO-8859-1 and 30 bytes do not hold.)
    static func mirrorNotes(old: ID3v1Tag, new: ID3v1Tag, oldTag: ID3v2Tag?) -> [String] {
        let inStep = ID3v1Tag(from: oldTag ?? ID3v2Tag(majorVersion: 4)).fields
        let before = old.fields, after = new.fields
        let dropped = before.indices.filter { !before[$0].value.isEmpty && after[$0].value.isEmpty && inStep[$0].value.isEmpty }
        guard !dropped.isEmpty else { return [] }
        let values = dropped.map { "\(before[$0].name) \"\(before[$0].value)\"" }
        return ["the ID3v1 tag follows the ID3v2 tag, which gives no ID3v1 \(dropped.map { before[$0].name }.joined(separator: ", ")): dropped \(values.joined(separator: ", ")) (set the keys to keep them)"]
    }
}
