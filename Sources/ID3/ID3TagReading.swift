import MediaBytes

/// Reading a tag from a file without reading its large payloads. A tag inside the prefetched
/// start of the file is parsed from that memory; a larger one is read around its frames, and
/// an `APIC` or `GEOB` frame bigger than `deferThreshold` keeps its data in the file (an
/// `ID3Payload` that reads it when asked), so a tag with a cover of megabytes costs a few KiB
/// of reads. (Below the prefetch size one larger read is cheaper than several small ones:
/// measured on 2026-11-30, an 8 KiB prefetch that left 32 KiB covers in the file listed 1000
/// MP3s no faster than reading each whole, with three reads a file instead of two.)
extension ID3v2Tag {
    /// Reads the tag whose header is at `position` in `source` (the prefetched view of
    /// `original`), leaving large picture and object payloads in the file.
    /// `decompressionBudget` is shared by the tags of one file
    /// (``init(parsing:at:decompressionBudget:)``).
    public static func read(_ source: PrefetchedByteSource, original: any ByteSource, at position: UInt64, header: ID3TagHeader,
                            decompressionBudget: inout Int) throws(ID3Error) -> ID3v2Tag {
        try ID3TagReading.read(source, original: original, at: position, header: header, budget: &decompressionBudget)
    }
}

extension ID3v2Tag {
    /// Reads the tag that starts at `position` in `source` (a file, or a serialization that
    /// refers to one), leaving large picture and object payloads unread, with a budget of its
    /// own for decompression.
    ///
    /// - Throws: `.notATag` when no ID3v2 header is there, or what reading the tag throws.
    public static func read(from source: any ByteSource, at position: UInt64 = 0) throws(ID3Error) -> ID3v2Tag {
        let prefetched: PrefetchedByteSource
        let start: [UInt8]
        do {
            prefetched = try PrefetchedByteSource(source, head: 64 << 10, tail: 0)
            start = try prefetched.readAvailable(at: position, upTo: 10)
        } catch {
            throw ID3Error(.io, offset: position, message: error.description)
        }
        guard let header = ID3TagHeader(start) else { throw ID3Error(.notATag, offset: position, message: "no ID3v2 tag header") }
        var budget = maxDecompressedTagSize
        return try ID3TagReading.read(prefetched, original: source, at: position, header: header, budget: &budget)
    }
}

enum ID3TagReading {
    /// Frames with more payload than this leave it in the file.
    static let deferThreshold = 32 << 10
    /// Bytes read at a time around the frames that are read.
    static let chunk = 16 << 10
    /// Bytes of a deferred frame read for its fields (encoding, MIME type, description).
    static let headRoom = 4 << 10

    /// Reads the tag whose header is at `position`.
    static func read(_ source: PrefetchedByteSource, original: any ByteSource, at position: UInt64, header: ID3TagHeader,
                     budget: inout Int) throws(ID3Error) -> ID3v2Tag {
        let total = Int(min(header.totalSize, source.size - position))
        let plain = header.majorVersion < 3 || header.flags & 0xC0 != 0  // unsynchronised or extended header
        let cut = UInt64(total) < header.totalSize  // the parser reports the missing bytes
        if total <= 2 * chunk || plain || cut || source.holds(position, count: total) {
            return try ID3v2Tag(parsing: slice(source, at: position, count: total), at: position, decompressionBudget: &budget)
        }
        let bodyEnd = min(total, 10 + Int(header.tagSize))  // a v2.4 footer follows the body
        if let tag = try sparse(source, original: original, at: position, total: total, bodyEnd: bodyEnd, version: header.majorVersion, budget: &budget) {
            return tag
        }
        return try ID3v2Tag(parsing: slice(source, at: position, count: total), at: position, decompressionBudget: &budget)
    }

    static func slice(_ source: PrefetchedByteSource, at offset: UInt64, count: Int) throws(ID3Error) -> ArraySlice<UInt8> {
        do { return try source.slice(at: offset, count: count) } catch {
            throw ID3Error(.io, offset: offset, message: error.description)
        }
    }

    /// The tag read with its large payloads left in the file, or nil when the tag is not
    /// regular enough for that (the caller then reads it whole).
    ///
    /// The frames are gathered into a compact copy of the tag in which each large `APIC`/`GEOB`
    /// keeps only its first `headRoom` bytes (its size fields rewritten to match); after
    /// parsing, offsets are mapped back to the file and the payloads point into it.
    private static func sparse(
        _ source: PrefetchedByteSource, original: any ByteSource, at position: UInt64, total: Int, bodyEnd: Int, version: UInt8, budget: inout Int
    ) throws(ID3Error) -> ID3v2Tag? {
        // Bytes of the tag (relative to `position`), read a chunk at a time.
        var window: (start: Int, bytes: ArraySlice<UInt8>) = (0, [])
        func bytes(_ start: Int, _ count: Int) throws(ID3Error) -> ArraySlice<UInt8> {
            if start >= window.start && start + count <= window.start + window.bytes.count {
                let from = window.bytes.startIndex + (start - window.start)
                return window.bytes[from..<from + count]
            }
            // Bytes of the prefetched start are taken where they are (no read, no copy), and
            // leave the window to the bytes read.
            if position + UInt64(start + count) <= UInt64(source.headCount) { return try slice(source, at: position + UInt64(start), count: count) }
            let length = min(total - start, max(count, chunk))
            window = (start, try slice(source, at: position + UInt64(start), count: length))
            return window.bytes[window.bytes.startIndex..<window.bytes.startIndex + count]
        }
        /// True when every byte of `range` is zero, read a chunk at a time without keeping it.
        func allZero(_ range: Range<Int>) throws(ID3Error) -> Bool {
            // Padding the window holds (read to look for a frame after a deferred one).
            if range.lowerBound >= window.start && range.upperBound <= window.start + window.bytes.count {
                let from = window.bytes.startIndex + (range.lowerBound - window.start)
                return FrameReader.isAllZero(window.bytes[from..<from + range.count])
            }
            var start = range.lowerBound
            while start < range.upperBound {
                let count = min(range.upperBound - start, 1 << 20)
                guard FrameReader.isAllZero(try slice(source, at: position + UInt64(start), count: count)) else { return false }
                start += count
            }
            return true
        }
        func sizeField(_ size: Int) -> [UInt8] {
            version == 4 ? SyncsafeInteger.encode(UInt32(size))! : [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
        }

        var compact = Array(try bytes(0, 10))
        // Where bytes were left out: at this index of `compact`, `removed` bytes of the file.
        var removals: [(index: Int, removed: Int, frameOffset: Int, frameSize: Int)] = []
        var index = 10
        while index + 10 <= bodyEnd {
            let head = try bytes(index, 10)
            let i = head.startIndex
            guard head[i] != 0, FrameReader.isValidID(head[i..<i + 4]) else { break }
            let size = version == 4 ? Int(SyncsafeInteger.decode(head[i + 4..<i + 8]) ?? 0) : head[i + 4..<i + 8].reduce(0) { $0 << 8 | Int($1) }
            let end = index + 10 + size
            guard end <= bodyEnd else { break }
            let id = String(decoding: head[i..<i + 4], as: UTF8.self)
            if size > deferThreshold, id == "APIC" || id == "GEOB", head[i + 9] == 0 {
                // The frame must end where the next frame, padding or the tag's end begins;
                // otherwise (plain sizes in v2.4, damage) read the whole tag instead.
                if end < bodyEnd {
                    let next = try bytes(end, min(10, bodyEnd - end))
                    let n = next.startIndex
                    let isFrame = next.count == 10 && FrameReader.isValidID(next[n..<n + 4])
                    let isPadding = next[n] == 0 ? try allZero(end..<bodyEnd) : false
                    guard isFrame || isPadding else { return nil }
                }
                compact += Array(head.prefix(4)) + sizeField(headRoom) + Array(head.suffix(2))
                compact += try bytes(index + 10, headRoom)
                removals.append((compact.count, size - headRoom, index, size))
            } else {
                compact += try bytes(index, 10 + size)
            }
            index = end
        }
        guard !removals.isEmpty else { return nil }
        // Padding is checked a piece at a time and kept as a count, not copied; anything else
        // after the frames goes to the parser, which reports it.
        var padding = 0
        if index < bodyEnd {
            if try allZero(index..<bodyEnd) {
                padding = bodyEnd - index
            } else {
                compact += try bytes(index, bodyEnd - index)
            }
        }
        guard let headerSize = SyncsafeInteger.encode(UInt32(compact.count - 10)) else { return nil }
        compact.replaceSubrange(6..<10, with: headerSize)
        if bodyEnd < total { compact += try bytes(bodyEnd, total - bodyEnd) }  // the footer

        var tag = try ID3v2Tag(parsing: compact[...], at: position, decompressionBudget: &budget)
        // Bytes left out before each removal point, added up, to map compact offsets back.
        var cumulative: [(index: Int, shift: Int)] = []
        for removal in removals { cumulative.append((removal.index, (cumulative.last?.shift ?? 0) + removal.removed)) }
        /// How many bytes were left out before `compactIndex` of the compact tag.
        func shift(before compactIndex: Int) -> Int {
            var low = 0
            var high = cumulative.count
            while low < high {
                let middle = (low + high) / 2
                if cumulative[middle].index <= compactIndex { low = middle + 1 } else { high = middle }
            }
            return low == 0 ? 0 : cumulative[low - 1].shift
        }
        /// The frame with its offset, and those of its embedded frames, moved by `by` bytes.
        func moved(_ frame: ID3Frame, by amount: Int) -> ID3Frame {
            var frame = frame
            frame.offset += UInt64(amount)
            switch frame.content.storage {
            case .chapter(let id, let start, let end, let startOffset, let endOffset, let subframes):
                frame.content = .chapter(elementID: id, startTime: start, endTime: end, startOffset: startOffset, endOffset: endOffset,
                                         subframes: subframes.map { moved($0, by: amount) })
                frame.contentChanged = false
            case .tableOfContents(let id, let top, let ordered, let children, let subframes):
                frame.content = .tableOfContents(elementID: id, isTopLevel: top, isOrdered: ordered, children: children,
                                                 subframes: subframes.map { moved($0, by: amount) })
                frame.contentChanged = false
            default:
                break
            }
            return frame
        }
        tag.totalSize = UInt64(total)
        tag.paddingSize += padding
        // One shift per top-level frame, taken at its header, applies to everything inside it.
        tag.frames = tag.frames.map { moved($0, by: shift(before: Int($0.offset - position))) }
        tag.diagnostics = tag.diagnostics.map { diagnostic in
            var diagnostic = diagnostic
            let compactIndex = Int(diagnostic.offset - min(diagnostic.offset, position))
            diagnostic.offset += UInt64(shift(before: compactIndex))
            return diagnostic
        }
        for removal in removals {
            let frameOffset = position + UInt64(removal.frameOffset)
            guard let i = tag.frames.firstIndex(where: { $0.offset == frameOffset }), let stored = tag.frames[i].stored else { return nil }
            var frame = tag.frames[i]
            // The payload starts after the frame's fields, which lie in the bytes kept.
            let fieldsLength: Int
            switch frame.content.storage {
            case .picture(_, _, _, _, let data), .object(_, _, _, _, let data):
                fieldsLength = frame.body.count - data.count
            default:
                return nil
            }
            guard fieldsLength >= 0, fieldsLength < headRoom else { return nil }
            let payload = ID3Payload(deferredFrom: original, offset: frameOffset + 10 + UInt64(fieldsLength), count: removal.frameSize - fieldsLength)
            switch frame.content.storage {
            case .picture(let e, let mime, let type, let description, _):
                frame.content = .picture(encoding: e, mimeType: mime, pictureType: type, description: description, data: payload)
            case .object(let e, let mime, let filename, let description, _):
                frame.content = .object(encoding: e, mimeType: mime, filename: filename, description: description, data: payload)
            default:
                return nil
            }
            frame.contentChanged = false
            frame.storedSize = 10 + removal.frameSize
            frame.body = frame.body.prefix(fieldsLength)
            frame.stored?.body = stored.body.prefix(fieldsLength)
            frame.stored?.inFile = (original, frameOffset + 10, removal.frameSize)
            tag.frames[i] = frame
        }
        return tag
    }
}

extension PrefetchedByteSource {
    /// True when the prefetched start holds `count` bytes at `offset`.
    func holds(_ offset: UInt64, count: Int) -> Bool {
        offset + UInt64(count) <= UInt64(headCount)
    }
}
