import MediaBytes

/// An APE tag (APEv1 and APEv2, as the APEv2 specification describes them): an optional
/// 32-byte header (v2), the items, and a 32-byte footer, all sizes little-endian. It sits at
/// the end of an MP3 file, before a Lyrics3v2 block and an ID3v1 tag when there are any.
///
/// Read leniently: an item that breaks the layout ends the items with a diagnostic, and sizes
/// and counts are bounded by the tag's own size, so a hostile footer cannot make the reader
/// allocate or loop beyond it. An unchanged tag serializes to the bytes it was read from.
public struct APETag: Sendable, Hashable {
    /// 1000 (APEv1) or 2000 (APEv2).
    public var version: UInt32
    public var items: [APEItem]
    /// The tag flags of the footer as stored (bit 31: a header precedes the items; bit 0: read only).
    public var flags: UInt32
    /// Problems tolerated while reading.
    public var diagnostics: [Diagnostic] = []

    /// Most items read from one tag.
    public static let maxItems = 10_000
    /// The largest tag read (the specification's practical limit is far smaller).
    public static let maxSize: UInt64 = 64 << 20

    static let preamble = Array("APETAGEX".utf8)

    public init(version: UInt32 = 2000, items: [APEItem] = []) {
        self.version = version
        self.items = items
        flags = version >= 2000 ? 0x8000_0000 : 0
    }

    /// True when a header precedes the items (APEv2 tags written by this package always have one).
    public var hasHeader: Bool { version >= 2000 && flags & 0x8000_0000 != 0 }
    public var isReadOnly: Bool { flags & 1 != 0 }

    /// The values of the text item `key` (compared without regard to case), nil when there is
    /// none or it is not text.
    public func values(_ key: String) -> [String]? {
        items.first { $0.key.uppercased() == key.uppercased() }?.texts
    }

    // MARK: - Reading

    /// The fields of a 32-byte header or footer.
    struct Boundary {
        var version: UInt32
        var size: UInt32
        var count: UInt32
        var flags: UInt32

        init?(_ bytes: ArraySlice<UInt8>) {
            guard bytes.count >= 32, bytes.prefix(8).elementsEqual(APETag.preamble) else { return nil }
            let s = bytes.startIndex
            version = APETag.readLittleEndian(bytes, at: s + 8)
            size = APETag.readLittleEndian(bytes, at: s + 12)
            count = APETag.readLittleEndian(bytes, at: s + 16)
            flags = APETag.readLittleEndian(bytes, at: s + 20)
        }
    }

    /// Reads the tag whose footer ends at `end` (its last byte is at `end - 1`), with its header
    /// when the footer says there is one; nil when no `APETAGEX` footer is there. The tag may not
    /// start below `floor`.
    ///
    /// - Returns: the tag and the byte range it takes (header included).
    /// - Throws: `APEError` `.malformed` when the footer is there but its size does not fit the
    ///   file; `.io` when reading fails.
    public static func read(from source: any ByteSource, endingAt end: UInt64, floor: UInt64 = 0) throws(APEError) -> (tag: APETag, range: Range<UInt64>)? {
        guard end >= floor + 32 else { return nil }
        let footerBytes = try bytes(source, at: end - 32, count: 32)
        guard let footer = Boundary(footerBytes), footer.flags & 0x2000_0000 == 0 else { return nil }
        let size = UInt64(footer.size)
        let headerSize: UInt64 = footer.version >= 2000 && footer.flags & 0x8000_0000 != 0 ? 32 : 0
        guard size >= 32, size <= maxSize, size + headerSize <= end - floor else {
            throw APEError(.malformed, offset: end - 32, message: "the APE footer declares a tag of \(footer.size) bytes, which does not fit before it")
        }
        let start = end - size - headerSize
        let whole = try bytes(source, at: start, count: Int(size + headerSize))
        guard whole.count == Int(size + headerSize) else { throw APEError(.io, offset: start, message: "the APE tag is cut short") }
        let tag = try APETag(whole, at: start)
        return (tag, start..<end)
    }

    /// Parses a whole tag: an optional header, the items, and the footer at the end.
    public init(parsing bytes: [UInt8]) throws(APEError) {
        try self.init(bytes[...], at: 0)
    }

    init(_ bytes: ArraySlice<UInt8>, at offset: UInt64) throws(APEError) {
        guard bytes.count >= 32, let footer = Boundary(bytes.suffix(32)) else {
            throw APEError(.notATag, offset: offset, message: "no APETAGEX footer")
        }
        version = footer.version
        flags = footer.flags
        var itemsStart = bytes.startIndex
        if let header = Boundary(bytes.prefix(32)), header.flags & 0x2000_0000 != 0 {
            itemsStart += 32
            if header.size != footer.size || header.count != footer.count {
                diagnostics.append(Diagnostic(apeOffset: offset, message: "the APE header and footer disagree (\(header.size)/\(header.count) vs \(footer.size)/\(footer.count)); the footer is used"))
            }
        }
        items = []
        let itemsEnd = bytes.endIndex - 32
        var index = itemsStart
        var remaining = min(Int(footer.count), Self.maxItems)
        func fileOffset(_ i: Int) -> UInt64 { offset + UInt64(i - bytes.startIndex) }
        while remaining > 0 {
            guard itemsEnd - index >= 9 else {
                diagnostics.append(Diagnostic(apeOffset: fileOffset(index), message: "the footer counts \(footer.count) items, but only \(items.count) fit in the tag"))
                break
            }
            let valueSize = Int(Self.readLittleEndian(bytes, at: index))
            let itemFlags = Self.readLittleEndian(bytes, at: index + 4)
            let keyStart = index + 8
            guard let nul = bytes[keyStart..<itemsEnd].firstIndex(of: 0) else {
                diagnostics.append(Diagnostic(apeOffset: fileOffset(index), message: "an item key is not terminated inside the tag; the rest is not read"))
                break
            }
            let key = String(decoding: bytes[keyStart..<nul], as: UTF8.self)
            guard APEItem.isValidKey(key) else {
                diagnostics.append(Diagnostic(apeOffset: fileOffset(index), message: "an item key is not 2-255 printable ASCII characters; the rest is not read"))
                break
            }
            let valueStart = nul + 1
            guard valueSize <= itemsEnd - valueStart else {
                diagnostics.append(Diagnostic(apeOffset: fileOffset(index), key: key, message: "item \(key) declares \(valueSize) bytes but only \(itemsEnd - valueStart) remain in the tag; the rest is not read"))
                break
            }
            var item = APEItem(key: key, flags: itemFlags, value: Array(bytes[valueStart..<valueStart + valueSize]))
            item.offset = fileOffset(index)
            items.append(item)
            index = valueStart + valueSize
            remaining -= 1
        }
        if remaining == 0, index < itemsEnd {
            diagnostics.append(Diagnostic(apeOffset: fileOffset(index), message: "\(itemsEnd - index) bytes after the last item are not an item"))
        }
    }

    // MARK: - Writing

    /// The tag as stored: for APEv2 a header, the items in order, and the footer; for APEv1 the
    /// items and the footer. A tag read without diagnostics and not changed gives back its bytes.
    public func serialized() -> [UInt8] {
        let body = items.flatMap(\.encoded)
        let size = UInt32(clamping: body.count + 32)
        let withHeader = hasHeader
        var footerFlags = flags & ~UInt32(0x2000_0000)
        if withHeader { footerFlags |= 0x8000_0000 }
        func boundary(_ flags: UInt32) -> [UInt8] {
            Self.preamble + Self.littleEndian(version) + Self.littleEndian(size) + Self.littleEndian(UInt32(items.count)) + Self.littleEndian(flags)
                + [UInt8](repeating: 0, count: 8)
        }
        return (withHeader ? boundary(footerFlags | 0x2000_0000) : []) + body + boundary(footerFlags)
    }

    // MARK: - Little-endian helpers

    static func littleEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }

    static func readLittleEndian(_ bytes: ArraySlice<UInt8>, at index: Int) -> UInt32 {
        UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24
    }

    private static func bytes(_ source: any ByteSource, at offset: UInt64, count: Int) throws(APEError) -> ArraySlice<UInt8> {
        do { return try source.sliceAvailable(at: offset, upTo: count) } catch { throw APEError(.io, offset: offset, message: error.description) }
    }
}
