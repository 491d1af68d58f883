import MediaBytes

/// The optional extended header after the tag header (id3v2.3.0 section 3.2;
/// id3v2.4.0-structure section 3.2).
public struct ID3ExtendedHeader: Sendable, Hashable {
    /// Bytes it takes in the tag body.
    public var storedSize: Int
    /// v2.3: padding size stated in the header.
    public var paddingSize: UInt32?
    /// v2.3: CRC-32 of the frames; v2.4: a 35-bit CRC.
    public var crc: UInt64?
    /// v2.4: the tag is an update of an earlier one.
    public var isUpdate = false
    /// v2.4: the restrictions byte (tag size, text encoding, text size, image encoding, image size).
    public var restrictions: UInt8?

    init(_ body: [UInt8], version: UInt8, offset: UInt64) throws(ID3Error) {
        var reader = ByteReader(body, baseOffset: offset)
        do {
            if version == 3 {
                let size = try reader.readUInt32()
                let flags = try reader.readUInt16()
                // Size 10 carries a CRC and says so by its flag; size 6 does not.
                guard size == (flags & 0x8000 != 0 ? 10 : 6) else {
                    throw ID3Error(.invalidExtendedHeader, offset: offset, message: "v2.3 extended header size \(size) does not match its CRC flag")
                }
                paddingSize = try reader.readUInt32()
                if flags & 0x8000 != 0 { crc = UInt64(try reader.readUInt32()) }
                storedSize = 4 + Int(size)
            } else {
                guard let size = SyncsafeInteger.decode(try reader.readBytes(4)), size >= 6, Int(size) <= body.count else {
                    throw ID3Error(.invalidExtendedHeader, offset: offset, message: "v2.4 extended header size is not a syncsafe size within the tag")
                }
                storedSize = Int(size)
                _ = try reader.readUInt8()  // number of flag bytes, always 1
                let flags = try reader.readUInt8()
                if flags & 0x40 != 0 { isUpdate = true; _ = try reader.readUInt8() }
                if flags & 0x20 != 0 {
                    _ = try reader.readUInt8()
                    crc = (try reader.readBytes(5)).reduce(0) { $0 << 7 | UInt64($1 & 0x7F) }
                }
                if flags & 0x10 != 0 {
                    _ = try reader.readUInt8()
                    restrictions = try reader.readUInt8()
                }
            }
        } catch let error as ID3Error {
            throw error
        } catch {
            throw ID3Error(.invalidExtendedHeader, offset: offset, message: "extended header is cut off: \(error)")
        }
    }
}
