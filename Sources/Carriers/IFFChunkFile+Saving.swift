import ID3
import MediaBytes

extension IFFChunkFile {
    /// Writes `tags` into the file at `path`: their ID3v2 tag into the `ID3 ` (AIFF) or `id3 `
    /// (WAV) chunk (nil rewrites the file's own), replacing the existing ID3 chunk or adding
    /// one at the end, and their INFO list (AIFF: text chunks) when given. Every other chunk is kept
    /// byte for byte and the form size is updated.
    ///
    /// When the new tag fits the old chunk it is written in place (padded to the chunk's size);
    /// otherwise the file is written anew beside the original, read back and compared (the tag,
    /// and every other chunk's bytes), then renamed over it with its permissions.
    ///
    /// - Throws: `ID3Error` `.notWritable` when the chunk structure is damaged (a truncated
    ///   chunk, bytes that are not chunks), `.verificationFailed`, `.io`; the original is then
    ///   left as it was.
    @discardableResult
    public static func save(_ tags: CarriedTags, to path: String, options: CarrierSaveOptions = CarrierSaveOptions()) throws -> CarrierSaveOutcome {
        let source = try CarrierSaving.open(path, options: options)
        let file = try IFFChunkFile(source: source)
        let tag = tags.id3v2 ?? file.id3Tag ?? ID3v2Tag()
        if let problem = file.diagnostics.first(where: { $0.severity != .note }) {
            throw CarrierError(.notWritable, offset: problem.offset, place: problem.path, message: "\(path): \(problem.message); not writing to a file that is not understood")
        }
        if file.root.id == "RF64" || file.root.id == "BW64" {
            // Its sizes are in `ds64`, which a save would have to keep in step: not done yet.
            throw CarrierError(.unsupported, offset: 0, place: file.root.id.description,
                               message: "\(path): \(file.root.id) files (WAV over 4 GiB) are read; writing their tags is not supported yet")
        }
        let littleEndian = file.kind == .wav
        // The tag takes the first ID3 chunk's place; further ones go (their frames are in it).
        let tagChunks = file.tagChunks
        let old = tagChunks.first
        // AIFF's chunk is `ID3 ` (an `id3 ` one is renamed: ffmpeg reads only `ID3 ` there).
        let id: FourCC = littleEndian ? old?.id ?? "id3 " : "ID3 "
        var notes: [String] = []
        if let old, old.id != id { notes.append("the '\(old.id)' chunk is written as '\(id)', the name ffmpeg reads in AIFF") }
        if tagChunks.count > 1 {
            notes.append("\(tagChunks.count - 1) further ID3 chunk\(tagChunks.count > 2 ? "s are" : " is") merged into the first and removed (ffmpeg reads them together)")
            if !file.hiddenFrames.isEmpty {
                notes.append("left out, hidden from every reader by the first chunk's frames of the same kind: \(file.hiddenFrames.map(\.id).joined(separator: ", "))")
            }
        }
        let version = options.version ?? file.id3Tag.map { $0.majorVersion == 2 ? 4 : $0.majorVersion } ?? 4
        var serialization = try tag.serialized(version: version, padding: 0)
        var expected = try ID3v2Tag.read(from: serialization.contents).frames

        // The INFO list (AIFF: the text chunks) is rewritten only when it changes; a list of the
        // same size is patched.
        let isInfoChunk: (IFFChunk) -> Bool = littleEndian ? { $0.id == "LIST" && $0.formType == "INFO" } : { RIFFInfoList.aiffTextIDs[$0.id] != nil }
        let infoChunks = file.root.children.filter(isInfoChunk)
        let oldInfo = infoChunks.first
        if littleEndian && infoChunks.count > 1 {
            notes.append("\(infoChunks.count - 1) further LIST/INFO chunk\(infoChunks.count > 2 ? "s are" : " is") merged into the first and removed")
            if !file.hiddenInfoEntries.isEmpty {
                notes.append("left out, hidden by the first INFO list's entries of the same ID: \(file.hiddenInfoEntries.map(\.description).joined(separator: ", "))")
            }
        }
        let form: RIFFInfoList.Form = littleEndian ? .riffInfo : .aiffText
        var newInfo = tags.info.flatMap { $0.entries == (file.info?.entries ?? []) ? nil : RIFFInfoList($0.entries, form: form) }
        // Several INFO lists are written as the one they read as, even when it did not change.
        if littleEndian && infoChunks.count > 1 && newInfo == nil { newInfo = RIFFInfoList(file.info?.entries ?? [], form: form) }
        var infoBytes = newInfo.map { $0.entries.isEmpty ? [] : $0.bytes }
        if form == .aiffText, let newInfo, let oldEntries = file.info?.entries, oldEntries.count == infoChunks.count {
            // A text chunk whose entry did not change is copied as it is (one longer than what
            // is read of it, one not in UTF-8, one with bytes after a NUL).
            var used = Set<Int>()
            var bytes: [UInt8] = []
            for entry in newInfo.entries {
                guard let index = oldEntries.indices.first(where: { !used.contains($0) && oldEntries[$0] == entry }) else {
                    bytes += RIFFInfoList([entry], form: form).bytes
                    continue
                }
                used.insert(index)
                let chunk = infoChunks[index]
                guard chunk.totalSize <= 16 << 20 else {
                    throw CarrierError(.notWritable, offset: chunk.offset, message: "\(path): the '\(chunk.id)' chunk of \(chunk.dataSize) bytes is too large to carry over")
                }
                let stored = try CarrierBytes.read(source, at: chunk.offset, count: Int(chunk.totalSize))
                bytes += stored + (stored.count % 2 == 1 ? [0] : [])
            }
            infoBytes = bytes
        }
        let expectedInfo = newInfo.map { $0.entries.isEmpty ? nil : $0 } ?? file.info
        // In place, a smaller list is followed by a `JUNK` chunk filling the old list's space.
        var infoInPlace = infoBytes
        if let bytes = infoBytes, let oldInfo, source.size - oldInfo.offset >= oldInfo.totalSize {
            let room = Int(oldInfo.totalSize)
            if bytes.count + 8 <= room {
                infoInPlace = bytes + Array("JUNK".utf8) + RIFFInfoList.littleEndian(UInt32(room - bytes.count - 8)) + [UInt8](repeating: 0, count: room - bytes.count - 8)
            }
        }
        let infoFits = infoInPlace.map { bytes in oldInfo.map { UInt64(bytes.count) == $0.totalSize && littleEndian && infoChunks.count == 1 } ?? false } ?? true

        if options.allowInPlace, let old, tagChunks.count == 1, old.id == id, UInt64(serialization.count) <= old.dataSize, infoFits,
            let tagPatches = try CarrierSaving.inPlacePatches(tag.serialized(version: version, padding: Int(old.dataSize) - serialization.count),
                                                             at: old.dataOffset, of: source, expected: &expected)
        {
            var ranges = tagPatches.map { (offset: $0.offset, bytes: $0.bytes, what: "ID3v2 tag") }
            if let infoInPlace, let oldInfo { ranges.append((oldInfo.offset, infoInPlace, "INFO list")) }
            let written = ranges.map { ($0.offset..<$0.offset + UInt64($0.bytes.count), $0.what) }
            if options.dryRun { return CarrierSaveOutcome(method: .inPlace, notes: notes + serialization.notes, ranges: written) }
            try CarrierSaving.patch(path, ranges: ranges.map { ($0.offset, $0.bytes) }, newSize: nil, original: source) { written in
                if let difference = Self.disagreement(try IFFChunkFile(source: written), frames: expected, info: expectedInfo) {
                    throw CarrierError(.verificationFailed, message: "\(path): the tags written in place do not read back as intended (\(difference)); the old bytes were put back")
                }
            }
            return CarrierSaveOutcome(method: .inPlace, notes: notes + serialization.notes, ranges: written)
        }

        func tagChunk(padding: Int) throws -> SplicedBytes {
            serialization = try tag.serialized(version: version, padding: padding)
            var chunk = SplicedBytes(id.bytes + size(UInt32(serialization.count), littleEndian: littleEndian))
            chunk.append(serialization.contents)
            if serialization.count % 2 == 1 { chunk.append([0]) }
            return chunk
        }
        let chunk = try tagChunk(padding: options.padding)
        // Each chunk of the file is copied, replaced (the ID3 chunk; the INFO list when it
        // changes) or left out (an INFO list emptied); a new ID3 or INFO chunk goes at the end.
        enum Piece { case copy(IFFChunk), bytes(SplicedBytes) }
        var pieces: [Piece] = []
        var tagIndex = 0
        var wroteTag = false, wroteInfo = infoBytes == nil
        for child in file.root.children {
            if child.offset == old?.offset {
                tagIndex = pieces.count
                pieces.append(.bytes(chunk))
                wroteTag = true
            } else if IFFChunkFile.isTagChunk(child) {
                continue
            } else if isInfoChunk(child), let infoBytes {
                // The new list takes the first old one's place; the others go.
                if child.offset == oldInfo?.offset, !infoBytes.isEmpty { pieces.append(.bytes(SplicedBytes(infoBytes))) }
                wroteInfo = true
            } else {
                pieces.append(.copy(child))
            }
        }
        if !wroteInfo, let infoBytes, !infoBytes.isEmpty { pieces.append(.bytes(SplicedBytes(infoBytes))) }
        // A file without an ID3 chunk gets none for a tag without frames (clearing a WAV that
        // has only an INFO list adds nothing).
        let addsTag = !wroteTag && !tag.frames.isEmpty
        if addsTag {
            tagIndex = pieces.count
            pieces.append(.bytes(chunk))
        }
        // The padding grows so that the largest chunk after the tag keeps its alignment (chunks
        // start at even offsets, so the shift and what it takes are even, and the tag chunk
        // grows by exactly that).
        var position = UInt64(file.root.formType == nil ? 8 : 12)
        var largest: (shift: Int64, count: UInt64)?
        for (index, piece) in pieces.enumerated() {
            switch piece {
            case .copy(let child):
                if index > tagIndex && child.totalSize > largest?.count ?? 0 { largest = (Int64(position) - Int64(child.offset), child.totalSize) }
                position += child.totalSize
            case .bytes(let bytes):
                position += UInt64(bytes.count)
            }
        }
        if let largest, wroteTag || addsTag {
            let asked = UInt64(max(options.padding, 0))
            let padding = CopyAlignment.padding(asked, shift: largest.shift, moving: largest.count)
            if padding != asked { pieces[tagIndex] = .bytes(try tagChunk(padding: Int(padding))) }
        }
        let kept = pieces.compactMap { piece -> IFFChunk? in if case .copy(let chunk) = piece { chunk } else { nil } }
        // A last chunk of odd size may lack its pad byte at the end of the file.
        func extent(_ chunk: IFFChunk) -> UInt64 { min(chunk.totalSize, source.size - chunk.offset) }
        let formSize = pieces.reduce(UInt64(4)) { total, piece in
            switch piece {
            case .copy(let chunk): total + chunk.totalSize
            case .bytes(let bytes): total + UInt64(bytes.count)
            }
        }
        guard formSize <= UInt64(UInt32.max) else {
            throw CarrierError(.notWritable, message: "\(path): the file would pass the 4 GiB a \(file.root.id) chunk can hold")
        }
        // (After the last chunk's pad byte too, when the declared size left it out: the copy of
        // the chunk takes it.)
        let rootEnd = max(8 + file.root.dataSize, file.root.children.map { $0.offset + extent($0) }.max() ?? 0)
        let trailing = rootEnd..<source.size
        let header = file.root.id.bytes + size(UInt32(formSize), littleEndian: littleEndian) + (file.root.formType?.bytes ?? [])
        let newSize = 8 + formSize + UInt64(trailing.count)
        if options.dryRun { return CarrierSaveOutcome(method: .rewritten, notes: notes + serialization.notes, ranges: [(0..<newSize, "whole file")]) }
        let replacedIDs: Set<FourCC> = [id]
        var notKept: [String] = []  // what of the file's owner and attributes the rewrite could not keep
        do {
            var checked = CheckedCopies()
            notKept = try CarrierSaving.replace(path, write: { sink in
                try sink.write(header)
                for piece in pieces {
                    switch piece {
                    case .bytes(let bytes):
                        try bytes.write(to: &sink)
                    case .copy(let child):
                        try source.copy(from: child.offset, count: extent(child), to: &sink)
                        if extent(child) < child.totalSize { try sink.write([0]) }  // the missing pad byte
                    }
                }
                if !trailing.isEmpty { try source.copy(from: trailing.lowerBound, count: UInt64(trailing.count), to: &sink) }
                checked = sink.checkedCopies
            }, verify: { temporary in
                let written = try FileByteSource(path: temporary)
                let reread = try IFFChunkFile(source: written)
                let difference = Self.disagreement(reread, frames: expected, info: expectedInfo)
                    // (A note, bytes after the declared end the rewrite carried over, is no fault.)
                    ?? reread.diagnostics.first(where: { $0.severity != .note })?.description
                    ?? (reread.tagChunks.count > 1 ? "\(reread.tagChunks.count) ID3 chunks read" : nil)
                if let difference {
                    throw CarrierError(.verificationFailed, message: "\(path): the written file does not read back as intended (\(difference)); the original is unchanged")
                }
                // Every chunk carried over is there, in order, byte for byte.
                let rereadKept = reread.root.children.filter { chunk in
                    !replacedIDs.contains(chunk.id) && !(infoBytes != nil && isInfoChunk(chunk))
                }
                guard rereadKept.map(\.id) == kept.map(\.id) else {
                    throw CarrierError(.verificationFailed, message: "\(path): the written chunks differ from the original's; the original is unchanged")
                }
                for (original, copy) in zip(kept, rereadKept) {
                    try CarrierSaving.compare(source, original.offset..<original.offset + extent(original), written, at: copy.offset, checked: checked, path: path)
                }
                try source.checkUnchanged()
            })
        }
        return CarrierSaveOutcome(method: .rewritten, notes: notes + serialization.notes + notKept, ranges: [(0..<newSize, "whole file")])
    }

    private static func size(_ value: UInt32, littleEndian: Bool) -> [UInt8] {
        littleEndian
            ? [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
            : [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// What of a written file's tags disagrees with the ID3 frames and INFO list meant; nil
    /// when nothing does.
    static func disagreement(_ reread: IFFChunkFile, frames: [ID3Frame], info: RIFFInfoList?) -> String? {
        disagreement(readFrames: reread.id3Tag?.frames ?? [], readInfo: reread.info, frames: frames, info: info)
    }

    static func disagreement(readFrames: [ID3Frame], readInfo: RIFFInfoList?, frames: [ID3Frame], info: RIFFInfoList?) -> String? {
        if let difference = CarrierSaving.disagreement("ID3v2 frame", expected: frames, read: readFrames, describe: CarrierSaving.describe) {
            return difference
        }
        guard readInfo != info else { return nil }
        return CarrierSaving.disagreement("INFO entry", expected: info?.entries ?? [], read: readInfo?.entries ?? [], describe: { "\($0.id) \"\($0.value)\"" })
            ?? "the INFO list is read as \(readInfo?.form == .aiffText ? "AIFF text chunks" : "a LIST/INFO chunk") where \(info == nil ? "none" : "another form") was written"
    }
}
