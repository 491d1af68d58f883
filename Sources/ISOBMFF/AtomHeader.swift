import MediaBytes

/// The header of an atom (ISO/IEC 14496-12 section 4.2, "Object structure"): its size, its type,
/// and for `uuid` atoms the 16-byte extended type, exactly as they were written.
public struct AtomHeader: Sendable, Hashable {
    /// How the size field was written.
    public enum SizeForm: Sendable, Hashable {
        /// A 32-bit size.
        case compact
        /// `size == 1` followed by a 64-bit `largesize`.
        case extended
        /// `size == 0`: the atom runs to the end of the file (or, tolerated, of its parent).
        case toEnd
    }

    // The stored properties are declared largest first and the header size is kept in a
    // byte, so that a header takes 30 bytes and an `Atom` 64 (a million atoms are a tree of
    // 64 MB, not 96).
    /// The 16-byte extended type of a `uuid` atom.
    public var extendedType: [UInt8]?
    /// File offset of the first header byte.
    public var offset: UInt64
    /// The size the header declares, including the header. For `.toEnd` this is 0.
    public var declaredSize: UInt64
    public var type: FourCC
    public var sizeForm: SizeForm
    @usableFromInline var storedHeaderSize: UInt8
    /// Bytes taken by the header: 8, 16 (64-bit size or uuid), 24 or 32.
    @inlinable public var headerSize: Int {
        get { Int(storedHeaderSize) }
        set { storedHeaderSize = UInt8(newValue) }
    }

    public init(
        type: FourCC, extendedType: [UInt8]? = nil, offset: UInt64, declaredSize: UInt64,
        sizeForm: SizeForm, headerSize: Int
    ) {
        self.type = type
        self.extendedType = extendedType
        self.offset = offset
        self.declaredSize = declaredSize
        self.sizeForm = sizeForm
        storedHeaderSize = UInt8(headerSize)
    }

    /// The `uuid` type.
    public static let uuidType: FourCC = "uuid"

    /// Encodes a header of this form for an atom of `size` bytes in total.
    ///
    /// The original form is kept when the size fits it (so a 64-bit header on a small atom stays
    /// 64-bit); a compact header whose size no longer fits 32 bits becomes an extended one, which
    /// is 8 bytes longer: callers that plan sizes use `encodedHeaderSize(forTotalSize:)` first.
    public func encoded(totalSize size: UInt64) -> [UInt8] {
        var writer = ByteWriter(capacity: 32)
        switch effectiveForm(forTotalSize: size) {
        case .compact:
            writer.writeUInt32(UInt32(size))
            writer.writeFourCC(type)
        case .extended:
            writer.writeUInt32(1)
            writer.writeFourCC(type)
            writer.writeUInt64(size)
        case .toEnd:
            writer.writeUInt32(0)
            writer.writeFourCC(type)
        }
        if let extendedType { writer.writeBytes(extendedType) }
        return writer.bytes
    }

    /// The form `encoded(totalSize:)` uses for a given total size.
    public func effectiveForm(forTotalSize size: UInt64) -> SizeForm {
        if sizeForm == .compact && size > UInt64(UInt32.max) { return .extended }
        return sizeForm
    }
}
