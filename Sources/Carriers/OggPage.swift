import MediaBytes

/// One page of an Ogg bitstream (RFC 3533 section 6): the `OggS` capture pattern, version 0,
/// the header type flags, the granule position, the stream's serial number, the page's
/// sequence number, the CRC-32 of the page, and the lacing values that cut its body into
/// packet pieces.
public struct OggPage: Sendable, Hashable {
    /// `OggS`.
    public static let capturePattern: [UInt8] = [0x4F, 0x67, 0x67, 0x53]
    /// The header type flags.
    public static let continuedFlag: UInt8 = 0x01
    public static let firstFlag: UInt8 = 0x02
    public static let lastFlag: UInt8 = 0x04
    /// The granule position of a page on which no packet ends.
    public static let noGranule = UInt64.max
    /// The most lacing values one page has, and so the largest body: 255 × 255 bytes.
    public static let maxSegments = 255

    /// The file offset of `OggS`.
    public var offset: UInt64
    public var version: UInt8
    public var flags: UInt8
    /// The granule position as stored (little-endian, two's complement; `noGranule` is -1).
    public var granule: UInt64
    public var serial: UInt32
    public var sequence: UInt32
    public var crc: UInt32
    public var lacing: [UInt8]

    /// True when the page's body begins with the rest of a packet from the page before.
    public var isContinued: Bool { flags & Self.continuedFlag != 0 }
    /// True on a stream's first page (beginning of stream).
    public var isFirst: Bool { flags & Self.firstFlag != 0 }
    /// True on a stream's last page (end of stream).
    public var isLast: Bool { flags & Self.lastFlag != 0 }
    public var headerSize: Int { 27 + lacing.count }
    public var bodySize: Int { lacing.reduce(0) { $0 + Int($1) } }
    public var size: UInt64 { UInt64(headerSize + bodySize) }
    public var range: Range<UInt64> { offset..<offset + size }
    public var bodyOffset: UInt64 { offset + UInt64(headerSize) }

    /// The pieces of packets on this page, in order: where each starts in the body, its length,
    /// and whether the packet ends on this page (a piece whose last lacing value is 255 and
    /// which closes the page goes on in the next page).
    public var pieces: [(start: Int, count: Int, ends: Bool)] {
        var result: [(Int, Int, Bool)] = []
        var start = 0, count = 0
        for value in lacing {
            count += Int(value)
            if value < 255 {
                result.append((start, count, true))
                start += count
                count = 0
            }
        }
        if lacing.last == 255 { result.append((start, count, false)) }
        return result
    }

    /// Parses the page header at the start of `bytes` (at least 27 bytes; the lacing values
    /// after them when `bytes` holds them). Nil when `bytes` does not start with `OggS`.
    /// The second value is the header's size (27 + the segment count) when `bytes` holds fewer.
    static func header(_ bytes: ArraySlice<UInt8>, at offset: UInt64) -> (page: OggPage?, needed: Int) {
        guard bytes.count >= 27 else { return (nil, 27) }
        let b = bytes.startIndex
        guard bytes[b..<b + 4].elementsEqual(capturePattern) else { return (nil, 0) }
        func le(_ at: Int, _ count: Int) -> UInt64 {
            (0..<count).reduce(UInt64(0)) { $0 | UInt64(bytes[b + at + $1]) << (8 * UInt64($1)) }
        }
        let segments = Int(bytes[b + 26])
        guard bytes.count >= 27 + segments else { return (nil, 27 + segments) }
        let page = OggPage(offset: offset, version: bytes[b + 4], flags: bytes[b + 5], granule: le(6, 8), serial: UInt32(le(14, 4)),
                           sequence: UInt32(le(18, 4)), crc: UInt32(le(22, 4)), lacing: Array(bytes[(b + 27)..<(b + 27 + segments)]))
        return (page, page.headerSize)
    }

    /// The page's header bytes with its CRC field as stored.
    public var headerBytes: [UInt8] {
        var bytes = Self.capturePattern
        bytes.reserveCapacity(headerSize)
        bytes.append(version)
        bytes.append(flags)
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: granule >> UInt64(shift))) }
        for value in [serial, sequence, crc] {
            for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
        }
        bytes.append(UInt8(lacing.count))
        bytes += lacing
        return bytes
    }

    /// The whole page for `body`, its CRC computed (the `crc` field is ignored).
    public func serialized(body: ArraySlice<UInt8>) -> [UInt8] {
        var page = self
        page.crc = 0
        var bytes = page.headerBytes + body
        let crc = OggCRC.checksum(bytes)
        for index in 0..<4 { bytes[22 + index] = UInt8(truncatingIfNeeded: crc >> UInt32(8 * index)) }
        return bytes
    }

    /// The CRC a page of these header fields and `body` has.
    public func computedCRC(body: ArraySlice<UInt8>) -> UInt32 {
        var page = self
        page.crc = 0
        var crc = OggCRC()
        crc.update(page.headerBytes[...])
        crc.update(body)
        return crc.value
    }

    /// Lays `packets` out on pages of stream `serial`, numbered from `sequence`: each packet
    /// where `startsPage` says so begins a new page, the others follow on the page before,
    /// and a page holds at most `segmentsPerPage` lacing values (255, the most there can be). A page on which a packet ends has granule
    /// position `granule`, others `noGranule`. The last page gets `lastFlags` (end of stream).
    /// Returns the pages' header fields and, for each, its body's bytes.
    static func paginate(_ packets: [ArraySlice<UInt8>], startsPage: [Bool], serial: UInt32, sequence: UInt32, granule: UInt64,
                         lastFlags: UInt8 = 0, segmentsPerPage: Int = maxSegments) -> [(page: OggPage, body: [UInt8])] {
        let cap = min(max(segmentsPerPage, 1), maxSegments)
        var pages: [(OggPage, [UInt8])] = []
        var lacing: [UInt8] = [], body: [UInt8] = [], continued = false, anyEnds = false
        func close(continuesAfter: Bool) {
            let page = OggPage(offset: 0, version: 0, flags: continued ? continuedFlag : 0, granule: anyEnds ? granule : noGranule,
                               serial: serial, sequence: sequence &+ UInt32(pages.count), crc: 0, lacing: lacing)
            pages.append((page, body))
            lacing = []
            body = []
            continued = continuesAfter
            anyEnds = false
        }
        for (index, packet) in packets.enumerated() {
            if startsPage[index], !lacing.isEmpty { close(continuesAfter: false) }
            var remaining = packet.count
            var at = packet.startIndex
            var first = true
            while true {
                if lacing.count == cap { close(continuesAfter: !first) }
                first = false
                let value = min(remaining, 255)
                lacing.append(UInt8(value))
                body += packet[at..<at + value]
                at += value
                remaining -= value
                if value < 255 { anyEnds = true; break }
            }
        }
        if !lacing.isEmpty || pages.isEmpty { close(continuesAfter: false) }
        if lastFlags != 0 { pages[pages.count - 1].0.flags |= lastFlags }
        return pages.map { (page: $0.0, body: $0.1) }
    }

    /// The number of pages and their total size `paginate` gives for packets of these sizes.
    static func layout(_ sizes: [Int], startsPage: [Bool], segmentsPerPage: Int = maxSegments) -> (pages: Int, bytes: UInt64) {
        let cap = min(max(segmentsPerPage, 1), maxSegments)
        var pages = 0, segments = 0, bytes: UInt64 = 0, open = false
        for (index, size) in sizes.enumerated() {
            if startsPage[index], open { pages += 1; bytes += UInt64(27 + segments); segments = 0; open = false }
            var needed = size / 255 + 1
            bytes += UInt64(size)
            while needed > 0 {
                if segments == cap { pages += 1; bytes += UInt64(27 + segments); segments = 0 }
                let take = min(needed, cap - segments)
                segments += take
                needed -= take
                open = true
            }
        }
        if open || pages == 0 { pages += 1; bytes += UInt64(27 + segments) }
        return (pages, bytes)
    }
}

/// The CRC-32 of Ogg pages (RFC 3533 section 6: polynomial 0x04C11DB7, not reflected, initial
/// value 0, no final XOR), sixteen bytes a step.
public struct OggCRC: Sendable {
    public private(set) var value: UInt32 = 0

    public init() {}

    public static func checksum<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
        var crc = OggCRC()
        crc.update(bytes)
        return crc.value
    }

    public mutating func update<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        if let done: Void = bytes.withContiguousStorageIfAvailable({ update(UnsafeRawBufferPointer($0)) }) { return done }
        for byte in bytes { value = (value << 8) ^ Self.tables[Int(UInt8(truncatingIfNeeded: value >> 24) ^ byte)] }
    }

    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        var crc = value
        var index = 0
        let count = buffer.count
        Self.tables.withUnsafeBufferPointer { table in
            // Slicing by 16: the register takes four bytes, and twelve more go straight to
            // the tables of a byte followed by 11 ... 0 zero bytes.
            func t(_ k: Int, _ byte: UInt32) -> UInt32 { table[k &* 256 &+ Int(byte)] }
            func b(_ at: Int) -> UInt32 { UInt32(buffer[at]) }
            while count - index >= 16 {
                let high = crc ^ (b(index) << 24 | b(index + 1) << 16 | b(index + 2) << 8 | b(index + 3))
                let first = t(15, high >> 24) ^ t(14, high >> 16 & 0xFF) ^ t(13, high >> 8 & 0xFF) ^ t(12, high & 0xFF)
                let second = t(11, b(index + 4)) ^ t(10, b(index + 5)) ^ t(9, b(index + 6)) ^ t(8, b(index + 7))
                let third = t(7, b(index + 8)) ^ t(6, b(index + 9)) ^ t(5, b(index + 10)) ^ t(4, b(index + 11))
                let fourth = t(3, b(index + 12)) ^ t(2, b(index + 13)) ^ t(1, b(index + 14)) ^ t(0, b(index + 15))
                crc = first ^ second ^ third ^ fourth
                index += 16
            }
            while index < count {
                crc = (crc << 8) ^ table[Int(UInt8(truncatingIfNeeded: crc >> 24) ^ buffer[index])]
                index += 1
            }
        }
        value = crc
    }

    /// Table k maps a byte to its CRC shifted through k further zero bytes (slicing by 16).
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 16 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
            tables[byte] = crc
        }
        for k in 1..<16 {
            for byte in 0..<256 {
                let previous = tables[(k - 1) * 256 + byte]
                tables[k * 256 + byte] = (previous << 8) ^ tables[Int(previous >> 24)]
            }
        }
        return tables
    }()
}

/// Reads an Ogg file's pages one after another through a read-ahead buffer, so a walk over
/// every page of a large file makes few reads. Each page comes with its body.
public struct OggPageWalker {
    private let source: any ByteSource
    private let end: UInt64
    private var buffer: [UInt8] = []
    private var bufferStart: UInt64 = 0
    /// Where the next page starts.
    public private(set) var offset: UInt64
    /// How much is read at once.
    private let chunk: Int

    /// A walk over the pages of `source` from `offset` to `end` (the end of the file), reading
    /// `chunk` bytes at a time (a page is read whole however long it is).
    public init(source: any ByteSource, from offset: UInt64 = 0, to end: UInt64? = nil, chunk: Int = 1 << 18) {
        self.source = source
        self.offset = offset
        self.end = min(end ?? source.size, source.size)
        self.chunk = max(chunk, 64)
        bufferStart = offset
    }

    /// The bytes `offset..<offset + count` (fewer at the end of the walk).
    private mutating func bytes(_ count: Int) throws(CarrierError) -> ArraySlice<UInt8> {
        let wanted = min(UInt64(count), end - min(end, offset))
        let startInBuffer = offset >= bufferStart ? offset - bufferStart : UInt64.max
        if startInBuffer == .max || startInBuffer + wanted > UInt64(buffer.count) {
            buffer = try CarrierBytes.read(source, at: offset, count: Int(min(max(UInt64(chunk), wanted), end - offset)))
            bufferStart = offset
        }
        let start = Int(offset - bufferStart)
        return buffer[start..<start + min(Int(wanted), buffer.count - start)]
    }

    /// Moves to the next page after `offset` as libogg finds one past damage: an `OggS` of
    /// version 0 whose page fits the file and whose CRC matches, looking at most `limit` bytes
    /// ahead and checking at most 64 candidates whole (so a hole packed with false `OggS`
    /// costs bounded time). Returns how many bytes were passed over, or nil (and stays) when no
    /// page is found.
    public mutating func resync(limit: UInt64 = 1 << 20) throws(CarrierError) -> UInt64? {
        let start = offset
        var at = start + 1
        var candidates = 0
        while at < end, at - start <= limit, candidates < 64 {
            let window = try CarrierBytes.read(source, at: at, count: Int(min(UInt64(max(chunk, 1 << 16)), end - at)))
            guard window.count >= 27 else { break }
            var index = 0
            while index + 27 <= window.count, candidates < 64 {
                if window[index] == 0x4F, window[index + 1] == 0x67, window[index + 2] == 0x67, window[index + 3] == 0x53,
                   window[index + 4] == 0, window[index + 5] & 0xF8 == 0 {
                    candidates += 1
                    offset = at + UInt64(index)
                    if let (page, body) = try? next(), page.computedCRC(body: body) == page.crc {
                        offset = page.offset
                        return page.offset - start
                    }
                }
                index += 1
            }
            at += UInt64(max(window.count - 26, 1))
        }
        offset = start
        return nil
    }

    /// The next page and its body; nil at the end of the walk.
    ///
    /// - Throws: `CarrierError` `.malformed` when the bytes at `offset` are not a page (naming
    ///   the offset), `.truncated` when a page runs past the end, `.io`.
    public mutating func next() throws(CarrierError) -> (page: OggPage, body: ArraySlice<UInt8>)? {
        guard offset < end else { return nil }
        var (page, needed) = OggPage.header(try bytes(27), at: offset)
        if page == nil, needed > 27 { (page, needed) = OggPage.header(try bytes(needed), at: offset) }
        guard let page else {
            if needed == 0 { throw CarrierError(.malformed, offset: offset, place: "OggS", message: "no Ogg page (OggS) at byte offset \(offset)") }
            throw CarrierError(.truncated, offset: offset, place: "OggS", message: "the file ends inside the Ogg page header at byte offset \(offset)")
        }
        let whole = try bytes(Int(page.size))
        guard whole.count == Int(page.size) else {
            throw CarrierError(.truncated, offset: offset, place: "OggS",
                               message: "the Ogg page at byte offset \(offset) claims \(page.size) bytes; the file has \(end - offset)")
        }
        offset += page.size
        return (page, whole.dropFirst(page.headerSize))
    }
}
