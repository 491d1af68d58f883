import MediaBytes
import ID3
import VorbisComment

extension FLACFile {
    /// A picture for `save`: a `PICTURE` block the file has (kept byte for byte), or a new one.
    public enum PictureEdit: Sendable, Hashable {
        case kept(PictureBlock)
        case new(FLACPicture)
    }

    /// A block of the file written by a save: one of the file's (by index, copied) or new bytes.
    private enum PlannedBlock {
        case kept(Int)
        case new(BlockType, [UInt8])
    }

    /// Writes `comment` and `pictures` as the file's `VORBIS_COMMENT` and `PICTURE` blocks.
    ///
    /// Every other block (`STREAMINFO` first, `APPLICATION`, `SEEKTABLE`, `CUESHEET`, reserved
    /// types) is kept in its order, byte for byte; the comment takes the old comment block's
    /// place (a new one follows `STREAMINFO`), the pictures the first old picture's place (new
    /// ones go after the other blocks), and padding comes last. The audio frames are never
    /// rewritten by an in-place save and are copied byte for byte by a rewrite.
    ///
    /// When the blocks fit the old metadata's space (with its padding) they are written in place
    /// through `FileReplacement.patch` (journalled); otherwise the file is written anew with
    /// `options.padding` bytes of padding, read back and compared (the blocks, and every audio
    /// byte) before it replaces the original. With `removeLeadingTags`, ID3v2 tags before
    /// `fLaC` go (a rewrite).
    ///
    /// - Throws: `CarrierError` `.notWritable` when the file's metadata is damaged,
    ///   `.verificationFailed`, `.io`; in every case the original is left as it was.
    @discardableResult
    public static func save(comment: VorbisComment?, pictures: [PictureEdit], removeLeadingTags: Bool = false,
                            to path: String, options: CarrierSaveOptions = CarrierSaveOptions()) throws -> CarrierSaveOutcome {
        let source = try CarrierSaving.open(path, options: CarrierSaveOptions())
        let file = try FLACFile(source: source)
        if let problem = file.diagnostics.first(where: { $0.isProblem }) {
            throw CarrierError(.notWritable, offset: problem.offset, place: problem.path,
                               message: "\(path): \(problem.message); not writing to a file that is not fully understood")
        }
        var notes: [String] = []

        // The blocks in their new order, without padding.
        var planned: [PlannedBlock] = []
        let commentBytes = comment.map { $0.serialized() }
        let newPictures: [PlannedBlock] = pictures.map { edit in
            switch edit {
            case .kept(let picture): .kept(picture.blockIndex)
            case .new(let picture): .new(.picture, picture.serialized())
            }
        }
        var placedComment = commentBytes == nil, placedPictures = newPictures.isEmpty
        for (index, block) in file.blocks.enumerated() {
            switch block.type {
            case .padding: continue
            case .vorbisComment where index == file.commentBlockIndex:
                if let commentBytes, !placedComment { planned.append(.new(.vorbisComment, commentBytes)) }
                placedComment = true
            case .picture where file.pictures.contains { $0.blockIndex == index }:
                if !placedPictures { planned += newPictures }
                placedPictures = true
            default:
                planned.append(.kept(index))
                if block.type == .streamInfo, !placedComment, let commentBytes {
                    planned.append(.new(.vorbisComment, commentBytes))
                    placedComment = true
                }
            }
        }
        if !placedComment, let commentBytes { planned.append(.new(.vorbisComment, commentBytes)) }
        if !placedPictures { planned += newPictures }
        for bytes in [commentBytes] + newPictures.map({ if case .new(_, let b) = $0 { b } else { nil } }) {
            if let bytes, bytes.count >= 1 << 24 {
                throw CarrierError(.notWritable, message: "\(path): a metadata block of \(bytes.count) bytes does not fit FLAC's 24-bit block length (16 MiB)")
            }
        }

        func length(_ block: PlannedBlock) -> UInt64 {
            switch block {
            case .kept(let index): 4 + UInt64(file.blocks[index].length)
            case .new(_, let body): 4 + UInt64(body.count)
            }
        }
        let blocksSize = planned.reduce(UInt64(0)) { $0 + length($1) }
        let region = file.markerOffset + 4..<file.audioOffset
        let oldSize = UInt64(region.count)
        let keptTags = removeLeadingTags ? [] : file.leadingTags
        if removeLeadingTags && !file.leadingTags.isEmpty { notes.append("the ID3v2 tag before fLaC is removed") }
        if !removeLeadingTags, comment != file.comment, let first = file.leadingTags.first,
           let tag = try? ID3v2Tag.read(from: source, at: first.lowerBound), !tag.frames.isEmpty {
            // TagLib, metaflac and mutagen leave it as it is too; exiftool reads it.
            let ids = tag.frames.map(\.id)
            notes.append("the ID3v2 tag before fLaC (not part of FLAC) is kept as it was, with its \(ids.prefix(6).joined(separator: ", "))\(ids.count > 6 ? ", ..." : ""): readers of ID3 in FLAC (exiftool) still show its values; clear removes it")
        }

        // The verification of a written file: the same blocks, in order, and the same audio.
        // `against` is the original for a rewrite; nil in place, where the original's bytes are
        // gone and the moved blocks are checked against the bytes planned for them instead.
        func verify(_ written: FileByteSource, at markerOffset: UInt64, against original: FileByteSource?, checked: CheckedCopies) throws {
            let reread = try FLACFile(source: written)
            let blocks = reread.blocks.filter { $0.type != .padding }
            let difference = reread.diagnostics.first(where: \.isProblem)?.description
                ?? (blocks.count != planned.count ? "\(planned.count) metadata blocks written, \(blocks.count) read" : nil)
                ?? (reread.markerOffset != markerOffset ? "the fLaC marker read at \(reread.markerOffset), not \(markerOffset)" : nil)
                ?? CarrierSaving.disagreement(comment, read: reread.comment)
            if let difference {
                throw CarrierError(.verificationFailed, message: "\(path): the written metadata blocks do not read back as intended (\(difference)); the original is unchanged")
            }
            for (block, plan) in zip(blocks, planned) {
                switch plan {
                case .kept(let index):
                    let old = file.blocks[index]
                    guard block.type == old.type, block.length == old.length else {
                        throw CarrierError(.verificationFailed, offset: block.offset, message: "\(path): the \(old.type) block did not survive the write; the original is unchanged")
                    }
                    if let original {
                        try CarrierSaving.compare(original, old.bodyRange, written, at: block.bodyRange.lowerBound, checked: checked, path: path)
                    }
                case .new(let type, let body):
                    guard block.type == type, try written.read(at: block.bodyRange.lowerBound, count: Int(block.length)) == body else {
                        throw CarrierError(.verificationFailed, offset: block.offset, message: "\(path): the written \(type) block does not read back as intended; the original is unchanged")
                    }
                }
            }
        }

        // In place: the blocks and a padding block fill the old space exactly.
        let fits = blocksSize == oldSize || blocksSize + 4 <= oldSize
        if options.allowInPlace, fits, keptTags == file.leadingTags {
            let padding = blocksSize == oldSize ? nil : oldSize - blocksSize - 4
            var ranges: [(offset: UInt64, bytes: [UInt8])] = []
            var at = region.lowerBound
            for (position, plan) in planned.enumerated() {
                let isLast = padding == nil && position == planned.count - 1
                switch plan {
                case .kept(let index):
                    let old = file.blocks[index]
                    let header = Self.header(old.type, length: UInt64(old.length), isLast: isLast)
                    if old.offset != at {
                        ranges.append((at, header + (try file.bytes(of: old)).dropFirst(4)))
                    } else if old.isLast != isLast {
                        ranges.append((at, header))
                    }
                case .new(let type, let body):
                    ranges.append((at, Self.header(type, length: UInt64(body.count), isLast: isLast) + body))
                }
                at += length(plan)
            }
            if let padding {
                // A padding block that stays where it was, as long, needs no new bytes at all.
                let old = file.blocks.last { $0.type == .padding }
                if !(old?.offset == at && UInt64(old!.length) == padding && old!.isLast) {
                    ranges.append((at, Self.header(.padding, length: padding, isLast: true) + [UInt8](repeating: 0, count: Int(padding))))
                }
            }
            // Only the bytes that change are written (padding that stays zero is not written
            // again), so the write, and its journal, are as small as the change.
            ranges = try ranges.compactMap { range in
                let old = try CarrierBytes.read(source, at: range.offset, count: range.bytes.count)
                guard old.count == range.bytes.count else { return range }
                guard let first = range.bytes.indices.first(where: { old[$0] != range.bytes[$0] }),
                      let last = range.bytes.indices.last(where: { old[$0] != range.bytes[$0] }) else { return nil }
                return (range.offset + UInt64(first), Array(range.bytes[first...last]))
            }
            let written = ranges.map { ($0.offset..<$0.offset + UInt64($0.bytes.count), "metadata blocks") }
            if options.dryRun { return CarrierSaveOutcome(method: .inPlace, notes: notes, ranges: written) }
            if !ranges.isEmpty {
                try CarrierSaving.patch(path, ranges: ranges, newSize: nil, original: source) { written in
                    try verify(written, at: file.markerOffset, against: nil, checked: CheckedCopies())
                    for range in ranges where try written.read(at: range.offset, count: range.bytes.count) != range.bytes {
                        throw CarrierError(.verificationFailed, offset: range.offset, message: "\(path): the metadata blocks written in place do not read back as written; the old bytes were put back")
                    }
                }
            }
            return CarrierSaveOutcome(method: .inPlace, notes: notes, ranges: written)
        }

        // A rewrite: [kept ID3v2 tags] fLaC, the blocks, padding, the audio.
        let tagsSize = keptTags.reduce(UInt64(0)) { $0 + UInt64($1.count) }
        let asked = UInt64(max(options.padding, 0))
        let newStart = tagsSize + 4 + blocksSize + 4
        let shift = Int64(newStart + asked) - Int64(file.audioOffset)
        let padding = min(CopyAlignment.padding(asked, shift: shift, moving: file.audioSize), (1 << 24) - 1)
        let newSize = newStart + padding + file.audioSize
        if options.dryRun { return CarrierSaveOutcome(method: .rewritten, notes: notes, ranges: [(0..<newSize, "whole file")]) }
        do {
            var checked = CheckedCopies()
            notes += try CarrierSaving.replace(path, write: { sink in
                for tag in keptTags { try source.copy(from: tag.lowerBound, count: UInt64(tag.count), to: &sink) }
                try sink.write(Array("fLaC".utf8))
                for plan in planned {
                    switch plan {
                    case .kept(let index):
                        let old = file.blocks[index]
                        try sink.write(Self.header(old.type, length: UInt64(old.length), isLast: false))
                        try source.copy(from: old.bodyRange.lowerBound, count: UInt64(old.length), to: &sink)
                    case .new(let type, let body):
                        try sink.write(Self.header(type, length: UInt64(body.count), isLast: false))
                        try sink.write(body)
                    }
                }
                try sink.write(Self.header(.padding, length: padding, isLast: true))
                try sink.write([UInt8](repeating: 0, count: Int(padding)))
                try source.copy(from: file.audioOffset, count: file.audioSize, to: &sink)
                checked = sink.checkedCopies
            }, verify: { temporary in
                let written = try FileByteSource(path: temporary)
                try verify(written, at: tagsSize, against: source, checked: checked)
                var at: UInt64 = 0
                for tag in keptTags {
                    try CarrierSaving.compare(source, tag, written, at: at, checked: checked, path: path)
                    at += UInt64(tag.count)
                }
                try CarrierSaving.compare(source, file.audioOffset..<file.fileSize, written, at: newStart + padding, checked: checked, path: path)
                try source.checkUnchanged()
            })
        }
        return CarrierSaveOutcome(method: .rewritten, notes: notes, ranges: [(0..<newSize, "whole file")])
    }

    /// A metadata block header.
    static func header(_ type: BlockType, length: UInt64, isLast: Bool) -> [UInt8] {
        [type.rawValue | (isLast ? 0x80 : 0), UInt8(truncatingIfNeeded: length >> 16), UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
    }
}
