import MediaBytes

/// The 10-byte header that opens an ID3v2 tag (id3v2.4.0-structure section 3.1): `ID3`, the
/// major and revision version, flags, and the syncsafe size of the tag after the header.
///
/// This is the seed of the ID3 layer: enough to recognise a tag and skip it. Frames, ID3v1 and
/// the files that carry ID3 build on it.
public struct ID3TagHeader: Sendable, Hashable {
    /// 2, 3 or 4 for ID3v2.2, v2.3, v2.4.
    public var majorVersion: UInt8
    public var revision: UInt8
    public var flags: UInt8
    /// Bytes after the header, excluding a v2.4 footer.
    public var tagSize: UInt32

    public static let headerSize = 10

    /// Decodes a header from the first 10 of `bytes`; `nil` when they are not an ID3v2 header.
    /// (Inlinable: made for the caller's collection type, not through generic witnesses, as
    /// every file a listing opens is asked.)
    @inlinable
    public init?<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        // Most files a listing meets are not ID3: answer them without copying anything.
        guard bytes.first == 0x49 else { return nil }
        let b = HeaderBytes(bytes, count: 10)
        guard b.count == 10, b[0] == 0x49, b[1] == 0x44, b[2] == 0x33, b[3] != 0xFF, b[4] != 0xFF,
            let size = SyncsafeInteger.decode(b[6..<10])
        else { return nil }
        majorVersion = b[3]
        revision = b[4]
        flags = b[5]
        tagSize = size
    }

    /// True when the v2.4 footer flag is set (a 10-byte footer follows the tag).
    public var hasFooter: Bool { majorVersion >= 4 && flags & 0x10 != 0 }

    /// Bytes the whole tag takes in the file: header, tag and footer.
    public var totalSize: UInt64 { UInt64(Self.headerSize) + UInt64(tagSize) + (hasFooter ? 10 : 0) }
}
