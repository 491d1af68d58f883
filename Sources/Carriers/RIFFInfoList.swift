import MediaBytes

/// A RIFF `LIST` chunk of form type `INFO` (Microsoft/IBM Multimedia Programming Interface and
/// Data Specifications 1.0, "INFO List Chunk"): text entries such as `INAM` (title), `IART`
/// (artist), `ICMT` (comment), each a chunk of NUL-terminated text padded to an even length.
public struct RIFFInfoList: Sendable, Hashable {
    public struct Entry: Sendable, Hashable {
        public var id: FourCC
        public var value: String
        public init(_ id: FourCC, _ value: String) {
            self.id = id
            self.value = value
        }
    }

    public var entries: [Entry]

    public init(_ entries: [Entry] = []) { self.entries = entries }

    /// The whole `LIST` chunk (header, `INFO`, entries), little-endian sizes. Text is written
    /// as UTF-8 (what the reader tries first) with its terminating NUL.
    public var chunkBytes: [UInt8] {
        var body: [UInt8] = Array("INFO".utf8)
        for entry in entries {
            let text = Array(entry.value.utf8) + [0]
            body += entry.id.bytes + Self.littleEndian(UInt32(text.count)) + text
            if text.count % 2 == 1 { body.append(0) }
        }
        return Array("LIST".utf8) + Self.littleEndian(UInt32(body.count)) + body
    }

    static func littleEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }
}
