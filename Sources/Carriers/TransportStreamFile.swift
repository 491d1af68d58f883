import ID3
import MediaBytes

/// An MPEG-2 transport stream (ISO/IEC 13818-1; `.ts` segments of HTTP Live Streaming, 192-byte
/// M2TS packets too) read for its timed metadata: the programs and streams of its PAT and
/// PMTs, and each PES packet of an ID3 metadata stream (stream type 0x15 with a metadata
/// descriptor naming `ID3 `, Apple's "Timed Metadata for HTTP Live Streaming") reassembled and
/// parsed as an ID3v2 tag, timed by its PTS. Audio and video packets are only counted and
/// timed by the PTS of each PES start; their payload is never reassembled or decoded.
///
/// The file is read front to back in large positional reads; damage (lost sync, continuity
/// gaps, bad lengths, sections that do not fit) becomes diagnostics with byte offsets.
public struct TransportStreamFile: Sendable {
    /// A descriptor of a PMT (ISO/IEC 13818-1 section 2.6).
    public struct Descriptor: Sendable, Hashable {
        public var tag: UInt8
        public var bytes: [UInt8]

        /// The format identifier of a metadata pointer (0x25) or metadata (0x26) descriptor whose
        /// metadata format is 0xFF (`ID3 ` for timed ID3), or of a registration descriptor (0x05).
        public var formatIdentifier: FourCC? {
            switch tag {
            case 0x05:
                return bytes.count >= 4 ? FourCC(bytes[0], bytes[1], bytes[2], bytes[3]) : nil
            case 0x25, 0x26:
                var at = 2
                if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xFF { at += 4 }
                guard bytes.count > at, bytes[at] == 0xFF, bytes.count >= at + 5 else { return nil }
                return FourCC(bytes[at + 1], bytes[at + 2], bytes[at + 3], bytes[at + 4])
            default:
                return nil
            }
        }

        public var name: String {
            switch tag {
            case 0x05: "registration"
            case 0x0A: "ISO 639 language"
            case 0x25: "metadata pointer"
            case 0x26: "metadata"
            case 0x0F: "private data indicator"
            default: "descriptor 0x" + String(tag, radix: 16)
            }
        }
    }

    /// One elementary stream of a program.
    public struct Stream: Sendable, Hashable {
        public var pid: UInt16
        public var streamType: UInt8
        public var descriptors: [Descriptor]
        /// Packets seen on the PID, PES packets started, and the first and last PTS among them
        /// (90 kHz ticks).
        public var packetCount = 0
        public var pesCount = 0
        public var firstPTS: UInt64?
        public var lastPTS: UInt64?

        /// True for a timed ID3 stream: stream type 0x15 (metadata in PES) with a metadata
        /// descriptor naming `ID3 `, or any stream whose descriptors name `ID3 `.
        public var isID3: Bool { descriptors.contains { $0.formatIdentifier == "ID3 " } }

        /// What the stream type says it carries.
        public var kind: String {
            switch streamType {
            case 0x01, 0x02, 0x10, 0x1B, 0x24, 0x42, 0xD1, 0xEA: "video"
            case 0x03, 0x04, 0x0F, 0x11, 0x81, 0x87, 0x1C, 0x2D: "audio"
            case 0x15: "metadata"
            case 0x06: "private"
            default: "other"
            }
        }

        public var typeName: String {
            switch streamType {
            case 0x01: "MPEG-1 video"
            case 0x02: "MPEG-2 video"
            case 0x03: "MPEG-1 audio"
            case 0x04: "MPEG-2 audio"
            case 0x06: "private PES data"
            case 0x0F: "AAC (ADTS)"
            case 0x10: "MPEG-4 video"
            case 0x11: "AAC (LATM)"
            case 0x15: "metadata in PES"
            case 0x1B: "H.264"
            case 0x24: "HEVC"
            case 0x81: "AC-3"
            case 0x87: "E-AC-3"
            default: "stream type 0x" + String(streamType, radix: 16)
            }
        }
    }

    /// A program of the PAT with its PMT.
    public struct Program: Sendable, Hashable {
        public var number: UInt16
        public var pmtPID: UInt16
        public var pcrPID: UInt16?
        public var descriptors: [Descriptor] = []
        public var streams: [Stream] = []
        /// Where the PMT that described it was read.
        public var pmtOffset: UInt64?
    }

    /// One PES packet of a timed ID3 stream.
    public struct ID3Event: Sendable {
        public var pid: UInt16
        /// The byte offset of the transport packet where the PES starts.
        public var offset: UInt64
        /// Presentation and decoding time stamps, 90 kHz ticks (33 bits).
        public var pts: UInt64?
        public var dts: UInt64?
        /// The PES payload's size in bytes.
        public var size: Int
        /// The tag it carries; nil when the payload is not a readable ID3v2 tag (`problem` says why).
        public var tag: ID3v2Tag?
        public var problem: String?

        /// The PTS in seconds, as ffprobe's `pts_time`.
        public var time: Double? { pts.map { Double($0) / 90_000 } }
    }

    /// 188, or 192 for M2TS (a 4-byte time code before each packet).
    public let packetSize: Int
    /// Bytes before the sync byte within each packet slot (4 for M2TS).
    public let syncOffset: Int
    public let fileSize: UInt64
    public private(set) var packetCount = 0
    public private(set) var programs: [Program] = []
    public private(set) var events: [ID3Event] = []
    public private(set) var diagnostics: [Diagnostic] = []

    /// The largest PES this reader reassembles for a metadata stream (an ID3 tag in one PES is
    /// at most 64 KiB in practice; a PES of unbounded length is cut here).
    public static let maximumMetadataPES = 1 << 20
    /// Diagnostics after which more of the same kind are only counted.
    static let diagnosticLimit = 200

    /// The packet layout of a file starting with `head`: 188-byte packets with the sync byte
    /// first, or 192-byte M2TS packets; nil when `head` does not look like a transport stream
    /// (three sync bytes one packet apart, or as many as a file of one or two packets holds).
    /// Looked at in place: format detection asks this of every file it opens.
    public static func layout(_ head: ArraySlice<UInt8>) -> (packetSize: Int, syncOffset: Int)? {
        func fits(size: Int, offset: Int) -> Bool {
            guard head.count >= offset + 188 else { return false }
            // Three sync bytes, or as many as a shorter file has room for.
            for position in stride(from: offset, through: offset + 2 * size, by: size) where position < head.count {
                if head[head.startIndex + position] != 0x47 { return false }
            }
            return true
        }
        if fits(size: 188, offset: 0) { return (188, 0) }
        if fits(size: 192, offset: 4) { return (192, 4) }
        return nil
    }

    /// `layout(_:)` of an array.
    public static func layout(_ head: [UInt8]) -> (packetSize: Int, syncOffset: Int)? { layout(head[...]) }

    /// True when `source` starts with transport stream packets (the one test every reader uses).
    public static func isTransportStream(_ source: any ByteSource) -> Bool {
        guard let head = try? source.readAvailable(at: 0, upTo: headSize) else { return false }
        return layout(head) != nil
    }

    /// True when a file beginning with `head` (its first `headSize` bytes, or the whole of a
    /// shorter file) starts with transport packets.
    public static func isTransportStream(_ head: ArraySlice<UInt8>) -> Bool { layout(head) != nil }

    /// The bytes `layout(_:)` looks at.
    public static let headSize = 192 * 3 + 4

    /// Reads the file's programs and timed ID3 events.
    ///
    /// - Throws: `CarrierError` `.unrecognized` when the file does not start with transport
    ///   packets, `.io` when it cannot be read.
    public init(source: any ByteSource) throws(CarrierError) {
        fileSize = source.size
        let head: [UInt8]
        do { head = try source.readAvailable(at: 0, upTo: Self.headSize) } catch { throw CarrierError(.io, offset: 0, message: error.description) }
        guard let layout = Self.layout(head) else {
            throw CarrierError(.unrecognized, offset: 0, message: "not an MPEG transport stream: no sync byte 0x47 at 0, 188 and 376 (or 4, 196 and 388 for M2TS)")
        }
        packetSize = layout.packetSize
        syncOffset = layout.syncOffset
        var scanner = Scanner(packetSize: packetSize, syncOffset: syncOffset)
        try scanner.scan(source)
        packetCount = scanner.packetCount
        programs = scanner.programs
        events = scanner.events
        diagnostics = scanner.diagnostics
    }

    /// The streams of every program whose descriptors name `ID3 `.
    public var id3Streams: [Stream] { programs.flatMap(\.streams).filter(\.isID3) }
}

/// The packet walk behind `TransportStreamFile`.
private struct Scanner {
    let packetSize: Int
    let syncOffset: Int
    var packetCount = 0
    var programs: [TransportStreamFile.Program] = []
    var events: [TransportStreamFile.ID3Event] = []
    var diagnostics: [Diagnostic] = []
    var suppressed: [String: Int] = [:]

    /// PSI sections being assembled, per PID: bytes and where the section started.
    var sections: [UInt16: (bytes: [UInt8], offset: UInt64)] = [:]
    /// Metadata PES being assembled, per PID: its bytes, the offset of its first packet, and
    /// where in the file its first byte is.
    var pes: [UInt16: (bytes: [UInt8], offset: UInt64, start: UInt64)] = [:]
    /// What the compressed frames of all the stream's ID3 events may inflate to, together.
    var decompressionBudget = ID3v2Tag.maxDecompressedTagSize
    /// Per PID (13 bits, flat tables: a packet costs no hashing): the last continuity counter
    /// (-1: none yet), the program whose PMT it carries (-1: none), and the stream it is
    /// (program and stream index, -1: none).
    var continuity = [Int8](repeating: -1, count: 8192)
    var pmtProgram = [Int32](repeating: -1, count: 8192)
    var streamProgram = [Int32](repeating: -1, count: 8192)
    var streamIndex = [Int32](repeating: -1, count: 8192)
    var isMetadataPID = [Bool](repeating: false, count: 8192)
    /// Programs by number (a PAT lists up to 65,535: no linear search per entry).
    var programIndex: [UInt16: Int] = [:]

    init(packetSize: Int, syncOffset: Int) {
        self.packetSize = packetSize
        self.syncOffset = syncOffset
    }

    mutating func note(_ severity: Diagnostic.Severity, _ code: CarrierError.Code, _ kind: String, at offset: UInt64, element: String? = nil, _ message: String) {
        let count = suppressed[kind, default: 0]
        suppressed[kind] = count + 1
        if count < TransportStreamFile.diagnosticLimit {
            diagnostics.append(Diagnostic(severity, code, area: "TS", offset: offset, element: element, message: message))
        } else if count == TransportStreamFile.diagnosticLimit {
            diagnostics.append(Diagnostic(.note, .limit, area: "TS", offset: offset, message: "more \(kind) problems are not listed"))
        }
    }

    mutating func scan(_ source: any ByteSource) throws(CarrierError) {
        let size = UInt64(packetSize)
        let chunkPackets = 5_000
        var position: UInt64 = 0
        let fileSize = source.size
        var buffer: [UInt8] = []
        var bufferStart: UInt64 = 0
        func window(_ at: UInt64, _ count: Int) throws(CarrierError) -> ArraySlice<UInt8>? {
            if at >= bufferStart, at + UInt64(count) <= bufferStart + UInt64(buffer.count) {
                let start = Int(at - bufferStart)
                return buffer[start..<start + count]
            }
            do {
                buffer = try source.readAvailable(at: at, upTo: max(count, packetSize * chunkPackets))
            } catch {
                throw CarrierError(.io, offset: at, message: error.description)
            }
            bufferStart = at
            return buffer.count >= count ? buffer[0..<count] : nil
        }
        while position < fileSize {
            guard let packet = try window(position, packetSize) else {
                note(.warning, .truncated, "truncation", at: position, "the last packet is cut short: \(fileSize - position) of \(packetSize) bytes")
                break
            }
            let sync = packet.startIndex + syncOffset
            guard packet[sync] == 0x47 else {
                // Lost sync: look for three sync bytes a packet apart.
                let lost = position
                var found: UInt64?
                var probe = position + 1
                while probe + 2 * size < fileSize + size, probe < lost + 64 * size {
                    guard let bytes = try window(probe, min(packetSize * 2 + syncOffset + 1, Int(fileSize - probe))) else { break }
                    let s = bytes.startIndex + syncOffset
                    if bytes[s] == 0x47, bytes.count <= packetSize + syncOffset || bytes[s + packetSize] == 0x47 {
                        found = probe
                        break
                    }
                    probe += 1
                }
                guard let found else {
                    note(.warning, .malformed, "sync", at: lost, "lost sync (no 0x47 where a packet should start) and found no packet in the next \(64 * packetSize) bytes; the rest is not read")
                    break
                }
                note(.warning, .malformed, "sync", at: lost, "lost sync: \(found - lost) bytes skipped to the next packet at offset \(found)")
                position = found
                continue
            }
            packetCount += 1
            handle(packet, from: sync, at: position)
            position += size
        }
        finish(at: fileSize)
    }

    /// One packet: `window[first...]` holds its 188 bytes (read in place, not copied).
    mutating func handle(_ window: ArraySlice<UInt8>, from first: Int, at offset: UInt64) {
        let b1 = window[first + 1], b3 = window[first + 3]
        let start = b1 & 0x40 != 0
        let pid = UInt16(b1 & 0x1F) << 8 | UInt16(window[first + 2])
        let slot = Int(pid)
        let control = (b3 >> 4) & 0x3
        let counter = Int8(b3 & 0x0F)
        if b1 & 0x80 != 0 { note(.warning, .malformed, "error indicator", at: offset, element: "PID \(pid)", "transport error indicator set") }
        var payload = 4
        if control & 0x2 != 0 {
            let length = Int(window[first + 4])
            payload = 5 + length
            if payload > 188 {
                note(.warning, .malformed, "adaptation field", at: offset, element: "PID \(pid)", "adaptation field of \(length) bytes does not fit its packet")
                return
            }
            // A discontinuity indicator announces a counter jump.
            if length > 0, window[first + 5] & 0x80 != 0 { continuity[slot] = -1 }
        }
        guard control & 0x1 != 0, pid != 0x1FFF else { return }
        let last = continuity[slot]
        if last >= 0 {
            if counter == last { return }  // a duplicate packet
            if counter != (last + 1) & 0x0F {
                note(.warning, .malformed, "continuity", at: offset, element: "PID \(pid)", "continuity counter jumps from \(last) to \(counter): packets were lost")
                if pes[pid] != nil {
                    note(.warning, .malformed, "continuity", at: offset, element: "PID \(pid)", "the PES being assembled since offset \(pes[pid]!.offset) is dropped")
                    pes[pid] = nil
                }
                sections[pid] = nil
            }
        }
        continuity[slot] = counter
        let body = window[(first + payload)..<(first + 188)]
        if pid == 0 || pmtProgram[slot] >= 0 {
            section(Array(body), start: start, pid: pid, at: offset)
        } else if streamIndex[slot] >= 0 {
            let place = (program: Int(streamProgram[slot]), stream: Int(streamIndex[slot]))
            stream(body, start: start, pid: pid, place: place, at: offset)
            programs[place.program].streams[place.stream].packetCount += 1
        }
    }

    // MARK: PSI

    mutating func section(_ body: [UInt8], start: Bool, pid: UInt16, at offset: UInt64) {
        var body = body[...]
        if start {
            guard let pointer = body.first else { return }
            body = body.dropFirst()
            // The end of a section that started in an earlier packet comes first.
            if var pending = sections[pid], Int(pointer) <= body.count {
                pending.bytes += body.prefix(Int(pointer))
                sections[pid] = pending
                completeSections(pid)
            }
            if sections[pid] != nil {
                note(.warning, .malformed, "section", at: sections[pid]!.offset, element: "PID \(pid)", "a section ends short of its declared length")
            }
            guard Int(pointer) <= body.count else {
                note(.warning, .malformed, "section", at: offset, element: "PID \(pid)", "pointer field \(pointer) points past its packet")
                sections[pid] = nil
                return
            }
            sections[pid] = (Array(body.dropFirst(Int(pointer))), offset)
        } else {
            guard sections[pid] != nil else { return }
            sections[pid]!.bytes.append(contentsOf: body)
        }
        completeSections(pid)
    }

    /// Parses the complete sections at the front of `sections[pid]`.
    mutating func completeSections(_ pid: UInt16) {
        while let pending = sections[pid] {
            let bytes = pending.bytes
            guard bytes.count >= 1 else { return }
            if bytes[0] == 0xFF { sections[pid] = nil; return }  // stuffing
            guard bytes.count >= 3 else { return }
            let length = Int(bytes[1] & 0x0F) << 8 | Int(bytes[2])
            if length > 1021 {
                note(.warning, .malformed, "section", at: pending.offset, element: "PID \(pid)", "section length \(length) is over the 1021 bytes a PSI section may have")
                sections[pid] = nil
                return
            }
            guard bytes.count >= 3 + length else { return }  // more in the next packet
            parse(Array(bytes[0..<3 + length]), pid: pid, at: pending.offset)
            let rest = Array(bytes[(3 + length)...])
            sections[pid] = rest.isEmpty ? nil : (rest, pending.offset)
        }
    }

    mutating func parse(_ section: [UInt8], pid: UInt16, at offset: UInt64) {
        let table = section[0]
        guard section.count >= 12 else {
            note(.warning, .malformed, "section", at: offset, element: "PID \(pid)", "a section of \(section.count) bytes is too short for its header and CRC")
            return
        }
        let end = section.count - 4  // CRC_32
        if pid == 0 && table == 0x00 {
            var at = 8
            while at + 4 <= end {
                let number = UInt16(section[at]) << 8 | UInt16(section[at + 1])
                let pmt = UInt16(section[at + 2] & 0x1F) << 8 | UInt16(section[at + 3])
                at += 4
                guard number != 0 else { continue }  // the network PID
                if let index = programIndex[number] {
                    if programs[index].pmtPID != pmt {
                        pmtProgram[Int(programs[index].pmtPID)] = -1
                        programs[index].pmtPID = pmt
                        pmtProgram[Int(pmt)] = Int32(index)
                    }
                } else {
                    pmtProgram[Int(pmt)] = Int32(programs.count)
                    programIndex[number] = programs.count
                    programs.append(TransportStreamFile.Program(number: number, pmtPID: pmt, pcrPID: nil))
                }
            }
        } else if table == 0x02, pmtProgram[Int(pid)] >= 0 {
            let index = Int(pmtProgram[Int(pid)])
            guard programs[index].pmtOffset == nil else { return }  // repeated PMTs: the first counts
            programs[index].pmtOffset = offset
            let pcr = UInt16(section[8] & 0x1F) << 8 | UInt16(section[9])
            programs[index].pcrPID = pcr == 0x1FFF ? nil : pcr
            let infoLength = Int(section[10] & 0x0F) << 8 | Int(section[11])
            guard 12 + infoLength <= end else {
                note(.warning, .malformed, "section", at: offset, element: "PMT", "program info of \(infoLength) bytes runs past its section")
                return
            }
            programs[index].descriptors = descriptors(section[12..<12 + infoLength], at: offset)
            var at = 12 + infoLength
            while at + 5 <= end {
                let type = section[at]
                let elementary = UInt16(section[at + 1] & 0x1F) << 8 | UInt16(section[at + 2])
                let esLength = Int(section[at + 3] & 0x0F) << 8 | Int(section[at + 4])
                guard at + 5 + esLength <= end else {
                    note(.warning, .malformed, "section", at: offset, element: "PMT", "stream \(elementary)'s descriptors (\(esLength) bytes) run past the section")
                    break
                }
                let stream = TransportStreamFile.Stream(pid: elementary, streamType: type, descriptors: descriptors(section[(at + 5)..<(at + 5 + esLength)], at: offset))
                streamProgram[Int(elementary)] = Int32(index)
                streamIndex[Int(elementary)] = Int32(programs[index].streams.count)
                isMetadataPID[Int(elementary)] = stream.isID3
                programs[index].streams.append(stream)
                at += 5 + esLength
            }
        }
    }

    mutating func descriptors(_ bytes: ArraySlice<UInt8>, at offset: UInt64) -> [TransportStreamFile.Descriptor] {
        var result: [TransportStreamFile.Descriptor] = []
        var at = bytes.startIndex
        while at + 2 <= bytes.endIndex {
            let tag = bytes[at], length = Int(bytes[at + 1])
            guard at + 2 + length <= bytes.endIndex else {
                note(.warning, .malformed, "descriptor", at: offset, element: "PMT", "descriptor 0x\(String(tag, radix: 16)) of \(length) bytes runs past its loop")
                break
            }
            result.append(TransportStreamFile.Descriptor(tag: tag, bytes: Array(bytes[(at + 2)..<(at + 2 + length)])))
            at += 2 + length
        }
        return result
    }

    // MARK: PES

    mutating func stream(_ body: ArraySlice<UInt8>, start: Bool, pid: UInt16, place: (program: Int, stream: Int), at offset: UInt64) {
        let isID3 = isMetadataPID[Int(pid)]
        if start {
            if isID3, pes[pid] != nil { completePES(pid, ended: true) }
            programs[place.program].streams[place.stream].pesCount += 1
            if let header = PESHeader(Array(body)), let pts = header.pts {
                var stream = programs[place.program].streams[place.stream]
                if stream.firstPTS == nil { stream.firstPTS = pts }
                stream.lastPTS = pts
                programs[place.program].streams[place.stream] = stream
            }
            if isID3 { pes[pid] = (Array(body), offset, offset + UInt64(syncOffset + 188 - body.count)) }
        } else if isID3, pes[pid] != nil {
            pes[pid]!.bytes.append(contentsOf: body)  // in place: no copy of what is there
        }
        if isID3, pes[pid] != nil { completePES(pid, ended: false) }
    }

    /// Turns the PES being assembled on `pid` into an event once it is complete (its declared
    /// length reached), or, with `ended` (the next PES started or the file ended), whatever
    /// it holds.
    mutating func completePES(_ pid: UInt16, ended: Bool) {
        guard let pending = pes[pid] else { return }
        let bytes = pending.bytes
        if bytes.count >= 6 {
            let declared = Int(bytes[4]) << 8 | Int(bytes[5])
            if declared > 0 {
                if bytes.count < 6 + declared {
                    guard ended else { return }
                    note(.warning, .truncated, "PES", at: pending.offset, element: "PID \(pid)", "PES declares \(declared) bytes but ends after \(bytes.count - 6)")
                    pes[pid] = nil
                    return
                }
            } else if !ended {
                guard bytes.count > TransportStreamFile.maximumMetadataPES else { return }
                note(.warning, .limit, "PES", at: pending.offset, element: "PID \(pid)", "a metadata PES of unbounded length passes \(TransportStreamFile.maximumMetadataPES) bytes; cut there")
            }
        } else if !ended {
            return
        }
        pes[pid] = nil
        guard let header = PESHeader(bytes) else {
            note(.warning, .malformed, "PES", at: pending.offset, element: "PID \(pid)", "not a PES packet header (no start code 00 00 01, or its header runs past the packet)")
            return
        }
        let declared = Int(bytes[4]) << 8 | Int(bytes[5])
        let end = declared > 0 ? min(bytes.count, 6 + declared) : min(bytes.count, TransportStreamFile.maximumMetadataPES)
        guard header.payloadStart <= end else {
            note(.warning, .malformed, "PES", at: pending.offset, element: "PID \(pid)", "PES header of \(header.payloadStart) bytes is longer than the packet")
            return
        }
        let payload = Array(bytes[header.payloadStart..<end])
        var event = TransportStreamFile.ID3Event(pid: pid, offset: pending.offset, pts: header.pts, dts: header.dts, size: payload.count)
        do {
            // Offsets are the file's while the tag lies in the PES's first packet (packet
            // headers interrupt it after that).
            event.tag = try ID3v2Tag(parsing: payload[...], at: pending.start + UInt64(header.payloadStart), decompressionBudget: &decompressionBudget)
        } catch {
            event.problem = error.description
            note(.warning, .tag, "ID3", at: pending.offset, element: "PID \(pid)", "the PES payload is not a readable ID3v2 tag: \(error.description)")
        }
        events.append(event)
    }

    mutating func finish(at end: UInt64) {
        for pid in pes.keys.sorted() { completePES(pid, ended: true) }
        for (pid, pending) in sections.sorted(by: { $0.key < $1.key }) {
            note(.warning, .truncated, "section", at: pending.offset, element: "PID \(pid)", "a section is cut short by the end of the file at \(end)")
        }
        if programs.isEmpty {
            note(.warning, .malformed, "PAT", at: 0, "no program association table (PID 0) was found")
        }
        for program in programs where program.pmtOffset == nil {
            note(.warning, .malformed, "PMT", at: 0, element: "program \(program.number)", "the PMT of program \(program.number) (PID \(program.pmtPID)) was not found")
        }
    }
}

/// The start of a PES packet: stream id, length, PTS and DTS, and where the payload starts.
struct PESHeader {
    var streamID: UInt8
    var pts: UInt64?
    var dts: UInt64?
    var payloadStart: Int

    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 9, bytes[0] == 0, bytes[1] == 0, bytes[2] == 1 else { return nil }
        streamID = bytes[3]
        // Streams without the optional header (padding, private stream 2, ECM...).
        if [0xBC, 0xBE, 0xBF, 0xF0, 0xF1, 0xFF, 0xF2, 0xF8].contains(streamID) {
            payloadStart = 6
            return
        }
        guard bytes[6] & 0xC0 == 0x80 else { return nil }
        let flags = bytes[7] >> 6
        let headerLength = Int(bytes[8])
        payloadStart = 9 + headerLength
        guard bytes.count >= payloadStart else { return nil }
        func timestamp(_ at: Int) -> UInt64? {
            guard at + 5 <= 9 + headerLength else { return nil }
            let b = bytes[at..<at + 5].map(UInt64.init)
            return (b[0] >> 1 & 0x07) << 30 | b[1] << 22 | (b[2] >> 1) << 15 | b[3] << 7 | b[4] >> 1
        }
        if flags & 0x2 != 0 { pts = timestamp(9) }
        if flags == 0x3 { dts = timestamp(14) }
    }
}
