/// Builds MPEG-2 transport streams in test code (ISO/IEC 13818-1): a PAT, a PMT with a timed
/// ID3 stream (stream type 0x15 with the metadata pointer and metadata descriptors of Apple's
/// "Timed Metadata for HTTP Live Streaming") and optionally an ADTS audio stream, then PES
/// packets at given PTS values, each cut into 188-byte packets with continuity counters and
/// adaptation-field stuffing. Damage is made by editing the bytes afterwards.
public struct TransportStreamBuilder {
    public static let id3PID: UInt16 = 0x102
    public static let audioPID: UInt16 = 0x101
    public static let pmtPID: UInt16 = 0x100

    public private(set) var bytes: [UInt8] = []
    private var counters: [UInt16: UInt8] = [:]

    public init(audio: Bool = false, programNumber: UInt16 = 1) {
        bytes += packets(pid: 0, payload: [0] + Self.section(table: 0x00, id: 1, body: [
            UInt8(programNumber >> 8), UInt8(programNumber & 0xFF), 0xE0 | UInt8(Self.pmtPID >> 8), UInt8(Self.pmtPID & 0xFF),
        ]), start: true)
        bytes += packets(pid: Self.pmtPID, payload: [0] + Self.pmt(programNumber: programNumber, audio: audio), start: true)
    }

    /// `ID3 ` as the metadata descriptors name it.
    static let id3: [UInt8] = Array("ID3 ".utf8)

    static func pmt(programNumber: UInt16, audio: Bool) -> [UInt8] {
        // metadata_pointer_descriptor: application format 0xFFFF + 'ID3 ', format 0xFF + 'ID3 ',
        // service 0, flags (no locator, carriage 0, reserved), program number.
        let pointer: [UInt8] = [0xFF, 0xFF] + id3 + [0xFF] + id3 + [0x00, 0x1F, UInt8(programNumber >> 8), UInt8(programNumber & 0xFF)]
        // metadata_descriptor: the same formats, service 0, decoder config flags 0, reserved.
        let metadata: [UInt8] = [0xFF, 0xFF] + id3 + [0xFF] + id3 + [0x00, 0x0F]
        let pcr = audio ? audioPID : id3PID
        var body: [UInt8] = [0xE0 | UInt8(pcr >> 8), UInt8(pcr & 0xFF)]
        let info = [0x25, UInt8(pointer.count)] + pointer
        body += [0xF0 | UInt8(info.count >> 8), UInt8(info.count & 0xFF)] + info
        if audio {
            body += [0x0F, 0xE0 | UInt8(audioPID >> 8), UInt8(audioPID & 0xFF), 0xF0, 0x00]
        }
        let es = [0x26, UInt8(metadata.count)] + metadata
        body += [0x15, 0xE0 | UInt8(id3PID >> 8), UInt8(id3PID & 0xFF), 0xF0 | UInt8(es.count >> 8), UInt8(es.count & 0xFF)] + es
        return section(table: 0x02, id: programNumber, body: body)
    }

    /// A long-form PSI section with its CRC_32.
    static func section(table: UInt8, id: UInt16, body: [UInt8]) -> [UInt8] {
        let length = 5 + body.count + 4
        var section: [UInt8] = [table, 0xB0 | UInt8(length >> 8), UInt8(length & 0xFF), UInt8(id >> 8), UInt8(id & 0xFF), 0xC1, 0x00, 0x00] + body
        let crc = crc32(section)
        section += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        return section
    }

    /// The MPEG-2 CRC-32 (polynomial 0x04C11DB7, initial 0xFFFFFFFF, not reflected).
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? crc << 1 ^ 0x04C1_1DB7 : crc << 1 }
        }
        return crc
    }

    /// A PES packet (stream id 0xBD for metadata, 0xC0 for audio) with a PTS.
    public static func pes(streamID: UInt8, pts: UInt64, payload: [UInt8], declaredLength: Int? = nil) -> [UInt8] {
        let t = pts & 0x1_FFFF_FFFF
        let stamp: [UInt8] = [
            0x21 | UInt8(t >> 29 & 0x0E), UInt8(t >> 22 & 0xFF), UInt8(t >> 14 & 0xFE) | 1, UInt8(t >> 7 & 0xFF), UInt8(t << 1 & 0xFE) | 1,
        ]
        let length = declaredLength ?? (3 + stamp.count + payload.count)
        return [0, 0, 1, streamID, UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), 0x84, 0x80, UInt8(stamp.count)] + stamp + payload
    }

    /// Appends a timed ID3 event: `tag` in one PES at `pts` (90 kHz ticks).
    public mutating func addID3(_ tag: [UInt8], pts: UInt64) {
        bytes += packets(pid: Self.id3PID, payload: Self.pes(streamID: 0xBD, pts: pts, payload: tag), start: true)
    }

    /// Appends an audio PES (its payload is not looked at by the reader under test).
    public mutating func addAudio(_ payload: [UInt8], pts: UInt64) {
        bytes += packets(pid: Self.audioPID, payload: Self.pes(streamID: 0xC0, pts: pts, payload: payload), start: true)
    }

    /// Appends raw packets carrying `payload` on `pid` (the first with the unit start flag).
    public mutating func addRaw(pid: UInt16, payload: [UInt8], start: Bool = true) {
        bytes += packets(pid: pid, payload: payload, start: start)
    }

    /// `payload` cut into 188-byte packets; the last is filled with adaptation-field stuffing.
    mutating func packets(pid: UInt16, payload: [UInt8], start: Bool) -> [UInt8] {
        var out: [UInt8] = []
        var rest = payload[...]
        var first = true
        repeat {
            let counter = counters[pid, default: 15] &+ 1 & 0x0F
            counters[pid] = counter
            let chunk = rest.prefix(184)
            rest = rest.dropFirst(chunk.count)
            var packet: [UInt8] = [0x47, (first && start ? 0x40 : 0) | UInt8(pid >> 8 & 0x1F), UInt8(pid & 0xFF)]
            if chunk.count < 184 {
                let stuffing = 184 - chunk.count
                packet.append(0x30 | counter)
                if stuffing == 1 {
                    packet.append(0)
                } else {
                    packet += [UInt8(stuffing - 1), 0x00] + [UInt8](repeating: 0xFF, count: stuffing - 2)
                }
            } else {
                packet.append(0x10 | counter)
            }
            out += packet + chunk
            first = false
        } while !rest.isEmpty
        return out
    }
}
