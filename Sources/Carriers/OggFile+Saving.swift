import MediaBytes
import VorbisComment

extension OggFile {
    /// Writes `comment` as the stream's comment header.
    ///
    /// The comment header and the header packets after it (Vorbis's setup header, FLAC's other
    /// metadata blocks, Speex's extra headers) are laid out on pages anew, each packet starting
    /// a page where it did before; the identification page and every audio page keep their
    /// bytes. Opus binary data after the comment (its first byte odd) is kept; padding is not.
    ///
    /// - In place, through the journalled `FileReplacement.patch`, when zero padding after
    ///   the comment (Vorbis, Opus, Speex) makes the new header pages exactly as many and as
    ///   long as the old: only the bytes that change are written.
    /// - Otherwise a verified rewrite with up to `options.padding` bytes of padding (as many as
    ///   fit without another page), on as many pages as before when pages of fewer segments
    ///   make that possible. When the header takes more or fewer pages than before,
    ///   every later page of the stream is renumbered and its CRC computed again; its body is
    ///   copied as it is, and a page whose CRC does not match is refused rather than re-sealed.
    ///   The written file is read back: the header packets, and every other byte (or, for
    ///   renumbered pages, every field but the sequence number and CRC) compared with the
    ///   original before it replaces it.
    ///
    /// - Throws: `CarrierError` `.notWritable` when the stream's headers are damaged or laid
    ///   out in a way this does not rewrite (the comment header not starting a page, another
    ///   stream's pages among the header pages, an audio packet on the last header page),
    ///   `.verificationFailed`, `.io`; in every case the original is left as it was.
    @discardableResult
    public static func save(comment: VorbisComment, to path: String, options: CarrierSaveOptions = CarrierSaveOptions()) throws -> CarrierSaveOutcome {
        let source = try CarrierSaving.open(path, options: CarrierSaveOptions())
        let file = try OggFile(source: source)
        func refuse(_ offset: UInt64?, _ message: String) -> CarrierError {
            CarrierError(.notWritable, offset: offset, message: "\(path): \(message); not writing to a file that is not fully understood")
        }
        if let problem = file.diagnostics.first(where: { $0.isProblem }) { throw refuse(problem.offset, problem.message) }
        guard file.headerPackets.count > commentPacketIndex, file.comment != nil else { throw refuse(file.headerEnd, "the stream has no comment header") }
        let old = file.headerPackets[commentPacketIndex]
        let after = Array(file.headerPackets.dropFirst(commentPacketIndex + 1))
        guard old.startsPage else { throw refuse(old.offset, "the comment header does not start a page") }
        let regionPages = Array(file.pages[old.pageIndex...])
        guard regionPages.allSatisfy({ $0.serial == file.serial }) else {
            throw refuse(regionPages.first { $0.serial != file.serial }!.offset, "another stream's page lies among the header pages")
        }
        let bodyBytes = regionPages.reduce(0) { $0 + $1.bodySize }
        guard bodyBytes == old.bytes.count + after.reduce(0, { $0 + $1.bytes.count }) else {
            throw refuse(regionPages.last!.offset, "an audio packet shares a page with the header packets")
        }
        let regionStart = regionPages[0].offset, regionEnd = file.headerEnd
        let oldSize = regionEnd - regionStart

        // The new comment header without padding.
        var packet = file.codec.commentPrefix
        let commentBytes = comment.serialized(framingBit: file.codec == .vorbis)
        if file.codec == .flac {
            guard commentBytes.count < 1 << 24 else { throw CarrierError(.notWritable, message: "\(path): a comment of \(commentBytes.count) bytes does not fit FLAC's 24-bit block length") }
            packet = [old.bytes[0], UInt8(commentBytes.count >> 16), UInt8(truncatingIfNeeded: commentBytes.count >> 8), UInt8(truncatingIfNeeded: commentBytes.count)]
        }
        packet += commentBytes
        // Opus binary data after the comment (its first byte odd) is kept, and nothing may follow
        // it: no padding then (in place only when the old pages fit exactly without).
        let keepsBinaryData = file.codec == .opus && (file.commentTrailing.first.map { $0 & 1 == 1 } ?? false)
        if keepsBinaryData { packet += file.commentTrailing }
        let padded = file.codec.allowsPadding && !keepsBinaryData
        let starts = [true] + after.map(\.startsPage)
        func sizes(_ padding: Int) -> [Int] { [packet.count + padding] + after.map(\.bytes.count) }
        let target = (pages: regionPages.count, bytes: oldSize)
        // As many header pages as before when smaller pages can make them (a tagger that wrote
        // 4 KiB pages): then no later page is renumbered, and the audio is copied as it is.
        var cap = OggPage.maxSegments
        if OggPage.layout(sizes(0), startsPage: starts).pages < target.pages {
            var low = 1, high = OggPage.maxSegments  // the most segments a page may hold that still give as many pages
            while low < high {
                let middle = (low + high + 1) / 2
                if OggPage.layout(sizes(0), startsPage: starts, segmentsPerPage: middle).pages >= target.pages { low = middle } else { high = middle - 1 }
            }
            if OggPage.layout(sizes(0), startsPage: starts, segmentsPerPage: low).pages == target.pages { cap = low }
        }
        func layout(_ padding: Int) -> (pages: Int, bytes: UInt64) { OggPage.layout(sizes(padding), startsPage: starts, segmentsPerPage: cap) }
        let bare = layout(0)

        // In place: the padding that gives the old pages' count and size, if one does.
        var padding: Int?
        if options.allowInPlace, bare.pages <= target.pages, bare.bytes <= target.bytes {
            let most = Int(target.bytes - bare.bytes)
            for candidate in stride(from: padded ? most : 0, through: padded ? max(0, most - 600) : 0, by: -1) where layout(candidate) == target {
                padding = candidate
                break
            }
        }
        let inPlace = padding != nil
        if padding == nil {
            // As much of the asked padding as fits without another page.
            var low = 0, high = padded ? max(options.padding, 0) : 0
            while low < high {
                let middle = (low + high + 1) / 2
                if layout(middle).pages == bare.pages { low = middle } else { high = middle - 1 }
            }
            padding = low
        }
        let commentPacket = padded ? packet + [UInt8](repeating: 0, count: padding!) : packet
        let pages = OggPage.paginate([commentPacket[...]] + after.map { $0.bytes[...] }, startsPage: starts, serial: file.serial,
                                     sequence: regionPages[0].sequence, granule: 0, lastFlags: regionPages.last!.flags & OggPage.lastFlag,
                                     segmentsPerPage: cap)
        let newRegion = pages.flatMap { $0.page.serialized(body: $0.body[...]) }
        let delta = Int64(pages.count) - Int64(regionPages.count)
        let newSize = file.fileSize - oldSize + UInt64(newRegion.count)

        // The written file's header packets are those planned.
        func verifyHeaders(_ written: FileByteSource) throws {
            let reread = try OggFile(source: written)
            let difference = reread.diagnostics.first(where: \.isProblem)?.description
                ?? (reread.serial != file.serial || reread.codec != file.codec ? "the stream read is another (serial \(reread.serial), \(reread.codec))" : nil)
                ?? CarrierSaving.disagreement(comment, read: reread.comment)
                ?? (reread.headerPackets.count != file.headerPackets.count ? "\(file.headerPackets.count) header packets written, \(reread.headerPackets.count) read" : nil)
                ?? (keepsBinaryData && reread.commentTrailing != file.commentTrailing ? "the bytes after the comment fields differ" : nil)
                ?? (reread.headerPackets[0].bytes != file.headerPackets[0].bytes ? "the identification header differs" : nil)
                ?? (zip(reread.headerPackets.dropFirst(commentPacketIndex + 1), after).allSatisfy({ $0.bytes == $1.bytes }) ? nil : "a header packet after the comment differs")
            if let difference {
                throw CarrierError(.verificationFailed, message: "\(path): the written header packets do not read back as intended (\(difference)); the original is unchanged")
            }
        }
        if inPlace {
            var ranges: [(offset: UInt64, bytes: [UInt8])] = []
            let oldBytes = try CarrierBytes.read(source, at: regionStart, count: Int(oldSize))
            if let first = newRegion.indices.first(where: { oldBytes[$0] != newRegion[$0] }),
               let last = newRegion.indices.last(where: { oldBytes[$0] != newRegion[$0] }) {
                ranges.append((regionStart + UInt64(first), Array(newRegion[first...last])))
            }
            let written = ranges.map { ($0.offset..<$0.offset + UInt64($0.bytes.count), "header pages") }
            let notes = otherStreamNotes(file, source: source)
            if options.dryRun { return CarrierSaveOutcome(method: .inPlace, notes: notes, ranges: written) }
            if !ranges.isEmpty {
                try CarrierSaving.patch(path, ranges: ranges, newSize: nil, original: source) { written in
                    try verifyHeaders(written)
                    for range in ranges where try written.read(at: range.offset, count: range.bytes.count) != range.bytes {
                        throw CarrierError(.verificationFailed, offset: range.offset, message: "\(path): the header pages written in place do not read back as written; the old bytes were put back")
                    }
                }
            }
            return CarrierSaveOutcome(method: .inPlace, notes: notes, ranges: written)
        }

        var notes = otherStreamNotes(file, source: source)
        if delta != 0 { notes.append("the header takes \(abs(delta)) page\(abs(delta) == 1 ? "" : "s") \(delta > 0 ? "more" : "fewer"); the stream's later pages are renumbered") }
        if options.dryRun { return CarrierSaveOutcome(method: .rewritten, notes: notes, ranges: [(0..<newSize, "whole file")]) }
        var checked = CheckedCopies()
        notes += try CarrierSaving.replace(path, write: { sink in
            try source.copy(from: 0, count: regionStart, to: &sink)
            try sink.write(newRegion)
            if delta == 0 {
                try source.copy(from: regionEnd, count: file.fileSize - regionEnd, to: &sink)
            } else {
                try renumber(file, from: regionEnd, by: delta, ended: regionPages.last!.isLast, path: path) { bytes in try sink.write(bytes) } rest: { offset in
                    try source.copy(from: offset, count: file.fileSize - offset, to: &sink)
                }
            }
            checked = sink.checkedCopies
        }, verify: { temporary in
            let written = try FileByteSource(path: temporary)
            try verifyHeaders(written)
            try CarrierSaving.compare(source, 0..<regionStart, written, at: 0, checked: checked, path: path)
            guard try written.read(at: regionStart, count: newRegion.count) == newRegion else {
                throw CarrierError(.verificationFailed, offset: regionStart, message: "\(path): the written header pages do not read back as written; the original is unchanged")
            }
            let newEnd = regionStart + UInt64(newRegion.count)
            if delta == 0 {
                try CarrierSaving.compare(source, regionEnd..<file.fileSize, written, at: newEnd, checked: checked, path: path)
            } else {
                try compareRenumbered(file, written, from: regionEnd, at: newEnd, by: delta, ended: regionPages.last!.isLast, path: path)
            }
            try source.checkUnchanged()
        })
        return CarrierSaveOutcome(method: .rewritten, notes: notes, ranges: [(0..<newSize, "whole file")])
    }

    /// Copies the pages from `start` to the end of the file, adding `delta` to the sequence
    /// numbers of the stream's pages (to its last page) and sealing each with its new CRC;
    /// other streams' pages, and bytes after the stream's last page that form no page, as
    /// they are.
    private static func renumber(_ file: OggFile, from start: UInt64, by delta: Int64, ended: Bool, path: String,
                                 write: ([UInt8]) throws -> Void, rest: (UInt64) throws -> Void) throws {
        var walker = OggPageWalker(source: file.source, from: start)
        var ended = ended
        while true {
            let next: (page: OggPage, body: ArraySlice<UInt8>)?
            do throws(CarrierError) { next = try walker.next() } catch {
                guard ended && error.code != .io else { throw error }
                return try rest(walker.offset)  // not pages, after the stream: kept as they are
            }
            guard let (page, body) = next else { return }
            // A later link of a chain that reuses the serial number begins its own stream.
            if page.serial == file.serial && page.isFirst { ended = true }
            guard page.serial == file.serial, !ended else {
                try write(page.headerBytes + body)
                continue
            }
            guard page.computedCRC(body: body) == page.crc else {
                throw CarrierError(.notWritable, offset: page.offset,
                                   message: "\(path): the Ogg page at byte offset \(page.offset) has a CRC that does not match its bytes; not renumbering a damaged stream (the original is unchanged)")
            }
            var renumbered = page
            renumbered.sequence = UInt32(truncatingIfNeeded: Int64(page.sequence) + delta)
            try write(renumbered.serialized(body: body))
            if page.isLast { ended = true }
        }
    }

    /// Checks the renumbered pages of a written file against the original's: the same pages,
    /// bodies and header fields, but for the stream's sequence numbers (moved by `delta`) and
    /// CRCs (which must match the new bytes).
    private static func compareRenumbered(_ file: OggFile, _ written: FileByteSource, from start: UInt64, at newStart: UInt64, by delta: Int64, ended: Bool,
                                          path: String) throws {
        var original = OggPageWalker(source: file.source, from: start)
        var copy = OggPageWalker(source: written, from: newStart)
        var ended = ended
        func fail(_ offset: UInt64) -> CarrierError {
            CarrierError(.verificationFailed, offset: offset, message: "\(path): the renumbered page at byte offset \(offset) does not match the original's; the original is unchanged")
        }
        while true {
            let old: (page: OggPage, body: ArraySlice<UInt8>)?
            do throws(CarrierError) { old = try original.next() } catch {
                guard ended && error.code != .io else { throw error }
                return try CarrierSaving.compare(file.source, original.offset..<file.fileSize, written, at: copy.offset, checked: CheckedCopies(), path: path)
            }
            guard let (page, body) = old else {
                guard try copy.next() == nil else { throw fail(copy.offset) }
                return
            }
            guard let (new, newBody) = try copy.next(), newBody.elementsEqual(body) else { throw fail(copy.offset) }
            var expected = page
            expected.offset = new.offset
            if page.serial == file.serial && page.isFirst { ended = true }
            if page.serial == file.serial && !ended {
                expected.sequence = UInt32(truncatingIfNeeded: Int64(page.sequence) + delta)
                expected.crc = new.computedCRC(body: newBody)
                if page.isLast { ended = true }
            }
            guard new == expected, new.computedCRC(body: newBody) == new.crc else { throw fail(new.offset) }
        }
    }

    /// A note for each other stream of a multiplexed file whose codec keeps comments of its
    /// own (a Theora video's, a second audio stream's): the save changes the first audio
    /// stream's comment header only, and a reader that shows the video stream's (mutagen,
    /// ffprobe's stream tags) still shows that stream's values.
    static func otherStreamNotes(_ file: OggFile, source: any ByteSource) -> [String] {
        var notes: [String] = []
        for page in file.pages where page.isFirst && page.serial != file.serial {
            guard let head = try? CarrierBytes.read(source, at: page.bodyOffset, count: min(page.bodySize, 8)) else { continue }
            let name: String? = if head.starts(with: [0x80] + Array("theora".utf8)) { "Theora" }
                else if head.starts(with: [0x80] + Array("daala".utf8)) { "Daala" }
                else { Codec.identify(head[...])?.name }
            if let name {
                notes.append("the file's \(name) stream (serial \(page.serial)) has comments of its own, which are not changed: readers that show that stream's may still show the old values")
            }
        }
        return notes
    }
}
