import MediaBytes
import VorbisComment

/// An Ogg file (RFC 3533) of one of the codecs whose tags are a Vorbis comment: Vorbis, Opus
/// (RFC 7845), FLAC in Ogg, Speex. Reads the first such logical stream's header packets (the
/// identification header, the comment header, and the codec's other headers) and the
/// granule position of its last page; never the audio packets in between.
///
/// The pages of other streams (a chained file's further links, a multiplexed stream) are
/// skipped and kept. `walkPages` reads every page when asked (for `check` and the page table).
public struct OggFile: Sendable {
    /// The codecs whose comment header this reads.
    public enum Codec: String, Sendable, Hashable, CaseIterable {
        case vorbis, opus, flac, speex

        /// The codec's name for people.
        public var name: String {
            switch self {
            case .vorbis: "Vorbis"
            case .opus: "Opus"
            case .flac: "FLAC"
            case .speex: "Speex"
            }
        }

        /// The codec whose identification header `packet` is; nil for another codec.
        static func identify(_ packet: ArraySlice<UInt8>) -> Codec? {
            if packet.starts(with: [0x01] + Array("vorbis".utf8)) { return .vorbis }
            if packet.starts(with: Array("OpusHead".utf8)) { return .opus }
            if packet.starts(with: [0x7F] + Array("FLAC".utf8)) { return .flac }
            if packet.starts(with: Array("Speex   ".utf8)) { return .speex }
            return nil
        }

        /// The bytes before the Vorbis comment in the comment header packet (FLAC's is the
        /// `VORBIS_COMMENT` block header, whose length changes with the comment).
        public var commentPrefix: [UInt8] {
            switch self {
            case .vorbis: [0x03] + Array("vorbis".utf8)
            case .opus: Array("OpusTags".utf8)
            case .flac: [4, 0, 0, 0]
            case .speex: []
            }
        }

        /// True when the comment header may end with zero padding after the comment (read
        /// and ignored by decoders, as mutagen and opusenc write it), so it can be edited in place.
        var allowsPadding: Bool { self != .flac }
    }

    /// A header packet of the stream: its bytes, where it starts, and whether it starts a page.
    public struct Packet: Sendable, Hashable {
        public var bytes: [UInt8]
        /// The file offset of its first byte.
        public var offset: UInt64
        /// The index in `pages` of the page where it starts.
        public var pageIndex: Int
        /// True when it is the first thing on its page.
        public var startsPage: Bool
    }

    /// What the identification header says (and FLAC's `STREAMINFO`).
    public struct Identification: Sendable, Hashable {
        public var channels = 0
        public var sampleRate = 0
        /// Vorbis's nominal bit rate, Speex's bit rate; nil when not given.
        public var nominalBitrate: Int?
        /// Opus: samples at 48 kHz to drop at the start, the input's rate, and the mapping family.
        public var preSkip: Int?
        public var inputSampleRate: Int?
        public var mappingFamily: Int?
        /// Opus's output gain (Q7.8 dB).
        public var outputGain: Int?
        /// FLAC in Ogg.
        public var streamInfo: FLACFile.StreamInfo?
        /// Speex's mode (0 narrowband, 1 wideband, 2 ultra-wideband).
        public var speexMode: Int?
    }

    public let source: any ByteSource
    public let fileSize: UInt64
    public let codec: Codec
    /// The serial number of the stream read.
    public let serial: UInt32
    /// Every page from the start of the file to the end of the header packets (other streams'
    /// pages among them), in file order.
    public let pages: [OggPage]
    /// The stream's header packets in order: identification, comment, and the codec's others.
    public let headerPackets: [Packet]
    public let identification: Identification
    /// The Vorbis comment (the comment header's), when it reads.
    public let comment: VorbisComment?
    /// Bytes after the comment in its packet (padding, or Opus's binary data).
    public let commentTrailing: [UInt8]
    /// The end of the page where the last header packet ends: the audio pages start here.
    public let headerEnd: UInt64
    /// The granule position of the stream's last page with one (nil when not found).
    public let lastGranule: UInt64?
    public let diagnostics: [Diagnostic]

    /// Most header packets, pages and bytes read before the audio: real files have 2-5 packets
    /// on a few pages; a comment header with large pictures may span thousands of pages.
    public static let maxHeaderPackets = 64
    public static let maxHeaderBytes = 256 << 20
    /// Most pages walked before the header packets end (theirs and other streams'): 256 MiB of
    /// header packets take 4,129 full pages.
    public static let maxHeaderPages = 20_000

    /// True when `bytes` (a file's first bytes) start with an Ogg page.
    public static func isOgg(_ bytes: ArraySlice<UInt8>) -> Bool { bytes.starts(with: OggPage.capturePattern) }

    /// The index of the comment header in `headerPackets` (the second packet in all four codecs).
    public static let commentPacketIndex = 1

    public init(source: any ByteSource) throws(CarrierError) {
        self.source = source
        fileSize = source.size
        var diagnostics: [Diagnostic] = []
        // The header pages and the last pages are read from the first and last 64 KiB, each
        // fetched at once; the walk reads small pieces of them (what lies beyond is read as needed).
        let reader: any ByteSource
        do { reader = try PrefetchedByteSource(source, head: 64 << 10, tail: 64 << 10) } catch {
            throw CarrierError(.io, offset: 0, message: error.description)
        }
        var walker = OggPageWalker(source: reader, chunk: 4096)
        var pages: [OggPage] = []
        var chosen: (serial: UInt32, codec: Codec)?
        var packets: [Packet] = []
        var partial: [UInt8] = [], partialStart: (offset: UInt64, page: Int, startsPage: Bool)?
        var expected: Int?
        var nextSequence: UInt32?
        var headerBytes = 0
        var headerEnd: UInt64?
        while headerEnd == nil {
            let next: (page: OggPage, body: ArraySlice<UInt8>)?
            do { next = try walker.next() } catch {
                guard error.code != .io && !pages.isEmpty else { throw error }
                if error.code == .malformed, let skipped = try walker.resync() {
                    diagnostics.append(Diagnostic(.warning, .malformed, area: "Ogg", offset: error.offset ?? 0, element: "OggS[\(pages.count)]",
                                                         message: "\(skipped) bytes that are not an Ogg page (a hole in the stream) are passed over"))
                    continue
                }
                diagnostics.append(Diagnostic(.error, error.code, area: "Ogg", offset: error.offset ?? walker.offset, element: "OggS[\(pages.count)]",
                                                     message: error.message + " (before the end of the header packets)"))
                break
            }
            guard let (page, body) = next else {
                if chosen != nil {
                    diagnostics.append(Diagnostic(.error, .truncated, area: "Ogg", offset: walker.offset,
                                                         message: "the file ends before the stream's header packets do (\(packets.count) read)"))
                }
                break
            }
            let place = "OggS[\(pages.count)]"
            guard pages.count < Self.maxHeaderPages else {
                throw CarrierError(.limit, offset: page.offset, place: place, message: "more than \(Self.maxHeaderPages) pages before the end of the header packets; not read")
            }
            pages.append(page)
            if page.version != 0 {
                diagnostics.append(Diagnostic(.error, .malformed, area: "Ogg", offset: page.offset, element: place, message: "Ogg page version \(page.version), not 0"))
            }
            if page.computedCRC(body: body) != page.crc {
                diagnostics.append(Diagnostic(.error, .malformed, area: "Ogg", offset: page.offset, element: place,
                                                     message: "the page's CRC (0x\(String(page.crc, radix: 16))) does not match its bytes"))
            }
            if chosen == nil {
                guard page.isFirst else {
                    throw CarrierError(.malformed, offset: page.offset, place: place,
                                       message: "the Ogg page at byte offset \(page.offset) is not a stream's first page, and no stream of Vorbis, Opus, FLAC or Speex began before it")
                }
                let first = page.pieces.first.map { body.dropFirst($0.start).prefix($0.count) } ?? []
                guard let codec = Codec.identify(first) else {
                    diagnostics.append(Diagnostic(.note, .unrecognized, area: "Ogg", offset: page.offset, element: place,
                                                         message: "stream \(Self.hex(page.serial)) is not Vorbis, Opus, FLAC or Speex; its pages are kept as they are"))
                    if pages.count >= 64 { throw CarrierError(.unrecognized, offset: 0, message: "no Vorbis, Opus, FLAC or Speex stream begins in the first 64 Ogg pages") }
                    continue
                }
                chosen = (page.serial, codec)
                nextSequence = page.sequence
            }
            guard let (serial, codec) = chosen, page.serial == serial else { continue }
            if page.isFirst && !packets.isEmpty {
                diagnostics.append(Diagnostic(.error, .malformed, area: "Ogg", offset: page.offset, element: place, message: "a second beginning-of-stream page for stream \(Self.hex(serial))"))
            }
            if let expectedSequence = nextSequence, page.sequence != expectedSequence {
                diagnostics.append(Diagnostic(.warning, .malformed, area: "Ogg", offset: page.offset, element: place,
                                                     message: "page sequence number \(page.sequence), expected \(expectedSequence) (a page is missing)"))
            }
            nextSequence = page.sequence &+ 1
            for (pieceIndex, piece) in page.pieces.enumerated() {
                if pieceIndex == 0, page.isContinued != (partialStart != nil) {
                    diagnostics.append(Diagnostic(.error, .malformed, area: "Ogg", offset: page.offset, element: place,
                                                         message: page.isContinued ? "the page continues a packet, but none was open" : "the page does not continue the packet the page before left open"))
                    partial = []
                    partialStart = nil
                    if page.isContinued { continue }
                }
                if partialStart == nil { partialStart = (page.bodyOffset + UInt64(piece.start), pages.count - 1, piece.start == 0) }
                headerBytes += piece.count
                guard headerBytes <= Self.maxHeaderBytes else {
                    throw CarrierError(.limit, offset: page.offset, place: place, message: "the header packets pass \(Self.maxHeaderBytes >> 20) MiB; not read")
                }
                partial += body.dropFirst(piece.start).prefix(piece.count)
                guard piece.ends, let start = partialStart else { continue }
                if packets.count == expected {
                    diagnostics.append(Diagnostic(.warning, .malformed, area: "Ogg", offset: start.offset, element: place,
                                                         message: "an audio packet shares a page with the last header packet"))
                    break
                }
                packets.append(Packet(bytes: partial, offset: start.offset, pageIndex: start.page, startsPage: start.startsPage))
                partial = []
                partialStart = nil
                if packets.count == 1 { expected = Self.headerCount(codec, packets[0].bytes) }
                if expected == nil, codec == .flac, packets.count > 1, let type = packets.last!.bytes.first {
                    if type == 0xFF {
                        // An audio frame (sync code) before any block flagged last.
                        diagnostics.append(Diagnostic(.error, .malformed, area: "FLAC", offset: start.offset, element: place,
                                                             message: "the audio begins before a metadata block flagged last"))
                        packets.removeLast()
                        expected = packets.count
                    } else if type & 0x80 != 0 {
                        expected = packets.count  // FLAC's last metadata block, when the count is not given
                    }
                }
                if packets.count > Self.maxHeaderPackets {
                    throw CarrierError(.limit, offset: page.offset, place: place, message: "more than \(Self.maxHeaderPackets) header packets; not read")
                }
            }
            if let expected, packets.count >= expected { headerEnd = page.range.upperBound }
        }
        guard let (serial, codec) = chosen else {
            throw CarrierError(.unrecognized, offset: 0, message: "no Vorbis, Opus, FLAC or Speex stream in this Ogg file")
        }
        self.codec = codec
        self.serial = serial
        self.pages = pages
        headerPackets = packets
        self.headerEnd = headerEnd ?? walker.offset
        identification = Self.identification(codec, packets.first?.bytes ?? [])
        if packets.isEmpty || Self.identification(codec, packets[0].bytes).channels == 0 {
            diagnostics.append(Diagnostic(.error, .malformed, area: codec.name, offset: packets.first?.offset ?? 0, message: "the \(codec.name) identification header is damaged"))
        }
        var comment: VorbisComment?
        var trailing: [UInt8] = []
        if packets.count > Self.commentPacketIndex {
            let packet = packets[Self.commentPacketIndex]
            do {
                (comment, trailing) = try Self.readComment(codec, packet)
            } catch {
                // The fields before the damage are read (a save refuses the file).
                let body = Self.commentBody(codec, packet)
                comment = body.isEmpty ? nil : VorbisComment.salvaging(body, offset: packet.offset).comment
                let kept = comment.map { " (the \($0.fields.count) fields before it are read)" } ?? ""
                diagnostics.append(Diagnostic(.error, .tag, area: "comment header", offset: error.offset, message: error.message + kept))
            }
        }
        self.comment = comment
        commentTrailing = trailing
        lastGranule = headerEnd == nil ? nil : try Self.lastGranule(reader, serial: serial, after: self.headerEnd)
        self.diagnostics = diagnostics
    }

    /// The number of header packets a stream has, from its identification header; nil when the
    /// packets themselves say (FLAC without a count).
    static func headerCount(_ codec: Codec, _ id: [UInt8]) -> Int? {
        switch codec {
        case .vorbis: return 3
        case .opus: return 2
        case .speex:
            let extra = id.count >= 72 ? Int(le32(id, 68)) : 0
            return 2 + min(extra, maxHeaderPackets - 2)
        case .flac:
            let count = id.count >= 9 ? Int(id[7]) << 8 | Int(id[8]) : 0
            return count == 0 ? nil : 1 + min(count, maxHeaderPackets - 1)
        }
    }

    static func le32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }

    static func identification(_ codec: Codec, _ id: [UInt8]) -> Identification {
        var result = Identification()
        switch codec {
        case .vorbis where id.count >= 30:
            result.channels = Int(id[11])
            result.sampleRate = Int(le32(id, 12))
            let nominal = Int32(bitPattern: le32(id, 20))
            result.nominalBitrate = nominal > 0 ? Int(nominal) : nil
        case .opus where id.count >= 19:
            result.channels = Int(id[9])
            result.sampleRate = 48000
            result.preSkip = Int(id[10]) | Int(id[11]) << 8
            result.inputSampleRate = Int(le32(id, 12))
            result.outputGain = Int(Int16(bitPattern: UInt16(id[16]) | UInt16(id[17]) << 8))
            result.mappingFamily = Int(id[18])
        case .flac where id.count >= 51:
            if let info = FLACFile.StreamInfo(Array(id[17..<51])) {
                result.streamInfo = info
                result.channels = info.channels
                result.sampleRate = Int(info.sampleRate)
            }
        case .speex where id.count >= 80:
            result.sampleRate = Int(le32(id, 36))
            result.speexMode = Int(le32(id, 40))
            result.channels = Int(le32(id, 48))
            let bitrate = Int32(bitPattern: le32(id, 52))
            result.nominalBitrate = bitrate > 0 ? Int(bitrate) : nil
        default: break
        }
        if result.channels > 255 || result.sampleRate > 1 << 24 { return Identification() }
        return result
    }

    /// The comment in a comment header packet, and the bytes after it.
    static func readComment(_ codec: Codec, _ packet: Packet) throws(VorbisCommentError) -> (VorbisComment, [UInt8]) {
        let prefix = codec.commentPrefix
        var body = packet.bytes[...]
        if codec == .flac {
            guard let type = body.first, type & 0x7F == 4, body.count >= 4 else {
                throw VorbisCommentError(.malformed, offset: packet.offset, message: "the second FLAC header packet is not a VORBIS_COMMENT block")
            }
            let length = Int(body[1]) << 16 | Int(body[2]) << 8 | Int(body[3])
            guard 4 + length == body.count else {
                throw VorbisCommentError(.malformed, offset: packet.offset,
                                         message: "the VORBIS_COMMENT block claims \(length) bytes; its packet holds \(body.count - 4)")
            }
            body = body.dropFirst(4)
        } else {
            guard body.starts(with: prefix) else {
                throw VorbisCommentError(.malformed, offset: packet.offset, message: "the second \(codec.name) header packet is not the comment header")
            }
            body = body.dropFirst(prefix.count)
        }
        let comment = try VorbisComment(parsing: body, offset: packet.offset + UInt64(body.startIndex), framingBit: codec == .vorbis)
        return (comment, codec == .flac ? [] : Array(packet.bytes.suffix(comment.trailing)))
    }

    /// The comment body of a comment header packet (after the codec's prefix).
    static func commentBody(_ codec: Codec, _ packet: Packet) -> ArraySlice<UInt8> {
        if codec == .flac {
            let bytes = packet.bytes
            guard bytes.count >= 4 else { return [] }
            return bytes.dropFirst(4).prefix(Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3]))
        }
        return packet.bytes.starts(with: codec.commentPrefix) ? packet.bytes.dropFirst(codec.commentPrefix.count) : []
    }

    /// The granule position of the last page of stream `serial` that has one, looked for
    /// backwards from the end in windows up to 1 MiB.
    static func lastGranule(_ source: any ByteSource, serial: UInt32, after start: UInt64) throws(CarrierError) -> UInt64? {
        let size = source.size
        var window: UInt64 = 1 << 16
        while true {
            let from = max(start, size > window ? size - window : 0)
            let bytes = try CarrierBytes.read(source, at: from, count: Int(size - from))
            var index = bytes.count - 27
            while index >= 0 {
                if bytes[index] == 0x4F, bytes[index + 1] == 0x67, bytes[index + 2] == 0x67, bytes[index + 3] == 0x53,
                   let page = OggPage.header(bytes[index...], at: from + UInt64(index)).page,
                   page.version == 0, page.serial == serial, page.granule != OggPage.noGranule {
                    return page.granule
                }
                index -= 1
            }
            if from == start || window >= 1 << 20 { return nil }
            window <<= 2
        }
    }

    /// Seconds of audio, from the last granule position (less Opus's pre-skip).
    public var duration: Double? {
        guard let lastGranule, lastGranule < 1 << 62, identification.sampleRate > 0 else { return nil }
        let samples = Int64(lastGranule) - Int64(identification.preSkip ?? 0)
        return samples > 0 ? Double(samples) / Double(identification.sampleRate) : nil
    }

    /// The bytes after the header packets.
    public var audioSize: UInt64 { fileSize - min(fileSize, headerEnd) }

    static func hex(_ serial: UInt32) -> String { "0x" + String(serial, radix: 16) }
}

extension OggFile {
    /// One row of the page table: a page's header fields and whether its CRC matched.
    public struct PageSummary: Sendable, Hashable {
        public var offset: UInt64
        public var size: UInt32
        public var flags: UInt8
        public var segments: UInt8
        public var granule: UInt64
        public var serial: UInt32
        public var sequence: UInt32
        public var crcMatches: Bool
    }

    /// Every page of the file from `from`, each checked: its CRC, its sequence number (one more
    /// than the page before of its stream), its granule position (never lower than the one
    /// before of its stream), no page of a stream after its last page. Rows beyond `maxRows`
    /// are checked and not kept.
    public func walkPages(from start: UInt64 = 0, maxRows: Int = 2_000_000) -> (pages: [PageSummary], count: Int, diagnostics: [Diagnostic]) {
        var walker = OggPageWalker(source: source, from: start)
        var rows: [PageSummary] = []
        var diagnostics: [Diagnostic] = []
        var sequences: [UInt32: UInt32] = [:], granules: [UInt32: UInt64] = [:], ended: Set<UInt32> = [], lastPages: [UInt32: UInt64] = [:]
        var count = 0
        func report(_ severity: Diagnostic.Severity, _ page: OggPage, _ message: String) {
            guard diagnostics.count < 1000 else { return }
            diagnostics.append(Diagnostic(severity, .malformed, area: "Ogg", offset: page.offset, element: "audio page \(count)", message: message))
        }
        while true {
            let next: (page: OggPage, body: ArraySlice<UInt8>)?
            do { next = try walker.next() } catch {
                if error.code == .malformed, let skipped = try? walker.resync() {
                    diagnostics.append(Diagnostic(.error, .malformed, area: "Ogg", offset: error.offset ?? 0, element: "audio page \(count)",
                                                         message: "\(skipped) bytes that are not an Ogg page (a hole in the stream)"))
                    continue
                }
                diagnostics.append(Diagnostic(.error, error.code, area: "Ogg", offset: error.offset ?? walker.offset, element: "audio page \(count)", message: error.message))
                break
            }
            guard let (page, body) = next else { break }
            // A new link of a chain that reuses the serial of the link before (`cat a.ogg
            // b.ogg` of two streams an encoder numbered alike): a new stream, said once.
            if page.isFirst, ended.contains(page.serial) {
                ended.remove(page.serial)
                sequences[page.serial] = nil
                granules[page.serial] = nil
                report(.warning, page, "a new link of the chain reuses the serial number \(Self.hex(page.serial)) of the link before (RFC 3533 asks for a new one); read as the next link")
            }
            let crcMatches = page.computedCRC(body: body) == page.crc
            if !crcMatches { report(.error, page, "CRC mismatch: the page says 0x\(String(page.crc, radix: 16)), its bytes give 0x\(String(page.computedCRC(body: body), radix: 16))") }
            if page.version != 0 { report(.error, page, "Ogg page version \(page.version), not 0") }
            if let expected = sequences[page.serial], page.sequence != expected {
                report(.warning, page, "stream \(Self.hex(page.serial)): page sequence number \(page.sequence), expected \(expected)")
            }
            if ended.contains(page.serial) { report(.error, page, "stream \(Self.hex(page.serial)) has a page after its end-of-stream page") }
            if page.granule != OggPage.noGranule {
                if let before = granules[page.serial], Int64(bitPattern: page.granule) < Int64(bitPattern: before) {
                    report(.warning, page, "stream \(Self.hex(page.serial)): granule position \(Int64(bitPattern: page.granule)) is lower than the page before's (\(Int64(bitPattern: before)))")
                }
                granules[page.serial] = page.granule
            }
            sequences[page.serial] = page.sequence &+ 1
            lastPages[page.serial] = page.offset
            if page.isLast { ended.insert(page.serial) }
            if rows.count < maxRows {
                rows.append(PageSummary(offset: page.offset, size: UInt32(page.size), flags: page.flags, segments: UInt8(page.lacing.count),
                                        granule: page.granule, serial: page.serial, sequence: page.sequence, crcMatches: crcMatches))
            }
            count += 1
        }
        // A stream whose last page does not say it is the last (ogginfo warns too): the file
        // was cut short, or its writer did not finish it; players read what is there.
        for (serial, offset) in lastPages.sorted(by: { $0.value < $1.value }) where !ended.contains(serial) && diagnostics.count < 1000 {
            diagnostics.append(Diagnostic(.warning, .truncated, area: "Ogg", offset: offset, element: "stream \(Self.hex(serial))",
                                          message: "stream \(Self.hex(serial)) ends without an end-of-stream page: the file was cut short, or its writer did not finish it"))
        }
        return (rows, count, diagnostics)
    }
}
