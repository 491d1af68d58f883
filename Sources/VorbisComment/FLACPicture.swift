/// A picture as FLAC's `PICTURE` metadata block holds it (RFC 9639 section 8.8), which is also
/// the Base64 value of a `METADATA_BLOCK_PICTURE` Vorbis comment field in Ogg streams: the
/// ID3v2 picture type, MIME type, description, dimensions and the image bytes.
public struct FLACPicture: Sendable, Hashable {
    /// The ID3v2 `APIC` picture type (3 is the front cover).
    public var type: UInt32
    /// The MIME type, printable ASCII (`image/jpeg`); `-->` means `data` is a URL.
    public var mimeType: String
    /// The description, UTF-8.
    public var description: String
    public var width: UInt32
    public var height: UInt32
    /// Bits per pixel.
    public var colorDepth: UInt32
    /// The number of colours of an indexed image; 0 for others.
    public var colorCount: UInt32
    public var data: [UInt8]

    public init(type: UInt32, mimeType: String, description: String = "", width: UInt32 = 0, height: UInt32 = 0,
                colorDepth: UInt32 = 0, colorCount: UInt32 = 0, data: [UInt8]) {
        self.type = type
        self.mimeType = mimeType
        self.description = description
        self.width = width
        self.height = height
        self.colorDepth = colorDepth
        self.colorCount = colorCount
        self.data = data
    }

    /// The picture's fields before its data, and where the data is: what a listing needs,
    /// read without the image bytes.
    public struct Header: Sendable, Hashable {
        public var type: UInt32
        public var mimeType: String
        public var description: String
        public var width: UInt32
        public var height: UInt32
        public var colorDepth: UInt32
        public var colorCount: UInt32
        /// The data's length and its offset from the start of the structure.
        public var dataLength: UInt32
        public var dataOffset: Int

        /// Reads the header from the first bytes of a picture structure (`bytes` may end
        /// before the data does: the data length is checked against `totalLength`).
        public init(parsing bytes: ArraySlice<UInt8>, totalLength: Int, offset: UInt64 = 0) throws(VorbisCommentError) {
            var reader = FieldReader(bytes, baseOffset: offset, what: "PICTURE")
            type = try reader.uint32BE("picture type")
            let mimeLength = try reader.uint32BE("MIME type length")
            mimeType = String(decoding: try reader.take(Int(mimeLength), "MIME type"), as: UTF8.self)
            let descriptionLength = try reader.uint32BE("description length")
            description = String(decoding: try reader.take(Int(descriptionLength), "description"), as: UTF8.self)
            width = try reader.uint32BE("width")
            height = try reader.uint32BE("height")
            colorDepth = try reader.uint32BE("colour depth")
            colorCount = try reader.uint32BE("colour count")
            let lengthOffset = reader.offset
            dataLength = try reader.uint32BE("data length")
            dataOffset = reader.position - bytes.startIndex
            guard UInt64(dataOffset) + UInt64(dataLength) <= UInt64(totalLength) else {
                throw VorbisCommentError(.truncated, offset: lengthOffset,
                                         message: "the PICTURE claims \(dataLength) bytes of data; the structure has \(max(0, totalLength - dataOffset)) after its header")
            }
        }

        /// The most bytes a header can take before its data (two 2^32-byte strings are
        /// refused earlier by the structure's own length): what to read to parse one.
        public static func prefixLength(total: Int) -> Int { min(total, 1 << 20) }
    }

    /// Reads a whole picture structure.
    public init(parsing bytes: ArraySlice<UInt8>, offset: UInt64 = 0) throws(VorbisCommentError) {
        let header = try Header(parsing: bytes, totalLength: bytes.count, offset: offset)
        let start = bytes.startIndex + header.dataOffset
        self.init(type: header.type, mimeType: header.mimeType, description: header.description, width: header.width,
                  height: header.height, colorDepth: header.colorDepth, colorCount: header.colorCount,
                  data: Array(bytes[start..<start + Int(header.dataLength)]))
    }

    /// The structure's bytes.
    public func serialized() -> [UInt8] {
        var bytes: [UInt8] = []
        let mime = Array(mimeType.utf8), text = Array(description.utf8)
        bytes.reserveCapacity(32 + mime.count + text.count + data.count)
        bytes.appendUInt32BE(type)
        bytes.appendUInt32BE(UInt32(mime.count))
        bytes += mime
        bytes.appendUInt32BE(UInt32(text.count))
        bytes += text
        for value in [width, height, colorDepth, colorCount, UInt32(data.count)] { bytes.appendUInt32BE(value) }
        bytes += data
        return bytes
    }
}
