import ID3
import MediaBytes
import VorbisComment

/// A native FLAC file's metadata blocks (RFC 9639 section 8): the `fLaC` marker, then blocks
/// of a 4-byte header (last-block flag, 7-bit type, 24-bit length) and a body, then the audio
/// frames. Reads every block header and the bodies of `STREAMINFO`, `VORBIS_COMMENT` and the
/// headers of `PICTURE` blocks; never the audio, never a picture's image bytes.
///
/// ID3v2 tags some taggers put before `fLaC` are skipped and kept (`leadingTags`).
public struct FLACFile: Sendable {
    /// A metadata block's type (RFC 9639 table 5). An open set: reserved types are kept as bytes.
    public struct BlockType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let streamInfo = BlockType(rawValue: 0)
        public static let padding = BlockType(rawValue: 1)
        public static let application = BlockType(rawValue: 2)
        public static let seekTable = BlockType(rawValue: 3)
        public static let vorbisComment = BlockType(rawValue: 4)
        public static let cueSheet = BlockType(rawValue: 5)
        public static let picture = BlockType(rawValue: 6)

        public var description: String {
            switch rawValue {
            case 0: "STREAMINFO"
            case 1: "PADDING"
            case 2: "APPLICATION"
            case 3: "SEEKTABLE"
            case 4: "VORBIS_COMMENT"
            case 5: "CUESHEET"
            case 6: "PICTURE"
            case 127: "forbidden (127)"
            default: "reserved (\(rawValue))"
            }
        }
    }

    /// One metadata block: where it is and what it is.
    public struct Block: Sendable, Hashable {
        public var type: BlockType
        public var isLast: Bool
        /// File offset of the 4-byte header.
        public var offset: UInt64
        /// The body's length (24 bits).
        public var length: UInt32
        public var bodyRange: Range<UInt64> { offset + 4..<offset + 4 + UInt64(length) }
        public var range: Range<UInt64> { offset..<bodyRange.upperBound }
    }

    /// The `STREAMINFO` block (RFC 9639 section 8.2).
    public struct StreamInfo: Sendable, Hashable {
        public var minBlockSize: UInt16
        public var maxBlockSize: UInt16
        public var minFrameSize: UInt32
        public var maxFrameSize: UInt32
        public var sampleRate: UInt32
        public var channels: Int
        public var bitsPerSample: Int
        /// Interchannel samples in the stream; 0 when unknown.
        public var totalSamples: UInt64
        /// The MD5 of the decoded audio; all zero when not computed.
        public var md5: [UInt8]

        public init?(_ body: [UInt8]) {
            guard body.count >= 34 else { return nil }
            func int(_ range: Range<Int>) -> UInt64 { body[range].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
            minBlockSize = UInt16(int(0..<2))
            maxBlockSize = UInt16(int(2..<4))
            minFrameSize = UInt32(int(4..<7))
            maxFrameSize = UInt32(int(7..<10))
            let packed = int(10..<18)
            sampleRate = UInt32(packed >> 44)
            channels = Int((packed >> 41) & 0x7) + 1
            bitsPerSample = Int((packed >> 36) & 0x1F) + 1
            totalSamples = packed & 0xF_FFFF_FFFF
            md5 = Array(body[18..<34])
        }

        /// Seconds, when the sample count and rate are known.
        public var duration: Double? {
            totalSamples > 0 && sampleRate > 0 ? Double(totalSamples) / Double(sampleRate) : nil
        }
    }

    /// A `PICTURE` block's fields before its image bytes.
    public struct PictureBlock: Sendable, Hashable {
        /// The index of the block in `blocks`.
        public var blockIndex: Int
        public var header: FLACPicture.Header
    }

    public let source: any ByteSource
    /// ID3v2 tags before the `fLaC` marker (not part of FLAC; some taggers write them), by range.
    public let leadingTags: [Range<UInt64>]
    /// The offset of `fLaC`.
    public let markerOffset: UInt64
    /// Every metadata block, in file order (up to the one flagged last, or the first damaged one).
    public let blocks: [Block]
    public let streamInfo: StreamInfo?
    /// The Vorbis comment (the first `VORBIS_COMMENT` block's) and its block index.
    public let comment: VorbisComment?
    public let commentBlockIndex: Int?
    public let pictures: [PictureBlock]
    /// Where the audio frames start: the end of the last metadata block.
    public let audioOffset: UInt64
    public let fileSize: UInt64
    public let diagnostics: [Diagnostic]

    /// Most metadata blocks read from one file (each is at least 4 bytes; a real file has a few).
    public static let maxBlockCount = 10_000

    /// True when `bytes` (a file's first bytes, or those after its ID3v2 tags) open a FLAC stream.
    public static func isFLAC(_ bytes: ArraySlice<UInt8>) -> Bool { bytes.starts(with: [0x66, 0x4C, 0x61, 0x43]) }

    public init(source: any ByteSource) throws(CarrierError) {
        self.source = source
        fileSize = source.size
        // The metadata blocks are read from the first 64 KiB, fetched at once (one system call
        // for a typical file instead of one per block); what lies beyond is read as needed.
        let reader: any ByteSource
        do { reader = try PrefetchedByteSource(source, head: 64 << 10, tail: 0) } catch {
            throw CarrierError(.io, offset: 0, message: error.description)
        }
        var diagnostics: [Diagnostic] = []
        // ID3v2 tags before the marker.
        var at: UInt64 = 0
        var tags: [Range<UInt64>] = []
        while tags.count < 16, let header = ID3TagHeader(try CarrierBytes.read(reader, at: at, count: 10)), at + header.totalSize <= fileSize {
            tags.append(at..<at + header.totalSize)
            diagnostics.append(Diagnostic(.note, .tag, area: "ID3v2", offset: at,
                                                 message: "an ID3v2 tag of \(header.totalSize) bytes comes before fLaC (not part of FLAC); it is kept as it is"))
            at += header.totalSize
        }
        leadingTags = tags
        guard Self.isFLAC(try CarrierBytes.read(reader, at: at, count: 4)[...]) else {
            throw CarrierError(.unrecognized, offset: at, message: "no fLaC marker at byte offset \(at): not a FLAC file")
        }
        markerOffset = at
        at += 4

        var blocks: [Block] = []
        var streamInfo: StreamInfo?
        var comment: VorbisComment?
        var commentIndex: Int?
        var pictures: [PictureBlock] = []
        while true {
            let header = try CarrierBytes.read(reader, at: at, count: 4)
            guard header.count == 4 else {
                diagnostics.append(Diagnostic(.error, .truncated, area: "FLAC", offset: at, message: "the file ends where a metadata block header should be (the last block was not flagged last)"))
                break
            }
            let type = BlockType(rawValue: header[0] & 0x7F)
            let length = UInt32(header[1]) << 16 | UInt32(header[2]) << 8 | UInt32(header[3])
            let block = Block(type: type, isLast: header[0] & 0x80 != 0, offset: at, length: length)
            let index = blocks.count
            var place: String { "\(type)[\(index)]" }  // made only for a diagnostic
            if type.rawValue == 127 {
                diagnostics.append(Diagnostic(.error, .malformed, area: "FLAC", offset: at, element: place, message: "block type 127 is forbidden; the metadata ends here"))
                break
            }
            if block.bodyRange.upperBound > fileSize {
                diagnostics.append(Diagnostic(.error, .truncated, area: "FLAC", offset: at, element: place,
                                                     message: "the \(type) block claims \(length) bytes; the file has \(fileSize - min(fileSize, at + 4)) after its header"))
                break
            }
            if blocks.isEmpty && type != .streamInfo {
                diagnostics.append(Diagnostic(.error, .malformed, area: "FLAC", offset: at, element: place, message: "the first metadata block is \(type), not STREAMINFO"))
            }
            switch type {
            case .streamInfo where streamInfo == nil:
                streamInfo = StreamInfo(try CarrierBytes.read(reader, at: block.bodyRange.lowerBound, count: Int(min(length, 34))))
                if length != 34 {
                    diagnostics.append(Diagnostic(.warning, .malformed, area: "FLAC", offset: at, element: place, message: "STREAMINFO is \(length) bytes, not 34"))
                }
            case .vorbisComment:
                if comment != nil {
                    diagnostics.append(Diagnostic(.warning, .malformed, area: "FLAC", offset: at, element: place,
                                                         message: "a second VORBIS_COMMENT block; the first is read, this one is kept as it is"))
                    break
                }
                let body = try CarrierBytes.read(reader, at: block.bodyRange.lowerBound, count: Int(length))
                let (read, error) = VorbisComment.salvaging(body[...], offset: block.bodyRange.lowerBound)
                comment = read
                commentIndex = read == nil ? nil : blocks.count
                if let error {
                    // The fields before the damage are read (a save refuses the file).
                    let kept = read.map { ", the \($0.fields.count) fields before it are read" } ?? ""
                    diagnostics.append(Diagnostic(.error, .tag, area: "VORBIS_COMMENT", offset: error.offset, message: error.message + "; the block is kept as it is" + kept))
                }
            case .picture:
                do {
                    pictures.append(PictureBlock(blockIndex: blocks.count, header: try Self.pictureHeader(reader, block)))
                } catch {
                    diagnostics.append(Diagnostic(.error, .tag, area: "FLAC", offset: error.offset, element: place, message: error.message + "; the block is kept as it is"))
                }
            default: break
            }
            blocks.append(block)
            at = block.bodyRange.upperBound
            if block.isLast { break }
            if blocks.count >= Self.maxBlockCount {
                diagnostics.append(Diagnostic(.error, .limit, area: "FLAC", offset: at, message: "more than \(Self.maxBlockCount) metadata blocks; the rest is not read"))
                break
            }
        }
        if streamInfo == nil {
            diagnostics.append(Diagnostic(.error, .malformed, area: "FLAC", offset: markerOffset + 4, message: "no STREAMINFO block"))
        }
        audioOffset = at
        let sync = try CarrierBytes.read(reader, at: at, count: 2)
        if blocks.last?.isLast == true, !(sync.count == 2 && sync[0] == 0xFF && sync[1] & 0xFE == 0xF8) {
            diagnostics.append(Diagnostic(.warning, .malformed, area: "FLAC", offset: at,
                                                 message: sync.isEmpty ? "no audio frames after the metadata" : "the audio does not start with a FLAC frame sync code"))
        }
        self.blocks = blocks
        self.streamInfo = streamInfo
        self.comment = comment
        commentBlockIndex = commentIndex
        self.pictures = pictures
        self.diagnostics = diagnostics
    }

    /// Reads a `PICTURE` block's header, and not its image bytes.
    static func pictureHeader(_ source: any ByteSource, _ block: Block) throws(VorbisCommentError) -> FLACPicture.Header {
        let total = Int(block.length)
        // The fields before the image are a few dozen bytes unless the description is long.
        var prefix = min(total, 4096)
        while true {
            let bytes: [UInt8]
            do { bytes = try source.read(at: block.bodyRange.lowerBound, count: prefix) } catch {
                throw VorbisCommentError(.truncated, offset: block.offset, message: error.description)
            }
            do {
                return try FLACPicture.Header(parsing: bytes[...], totalLength: total, offset: block.bodyRange.lowerBound)
            } catch where prefix < total && error.code == .truncated {
                prefix = total  // a description longer than the first read
            }
        }
    }

    /// A picture block's whole picture, image bytes too.
    public func picture(_ picture: PictureBlock) throws(CarrierError) -> FLACPicture {
        let block = blocks[picture.blockIndex]
        do {
            try source.checkUnchanged()
            let body = try source.read(at: block.bodyRange.lowerBound, count: Int(block.length))
            return try FLACPicture(parsing: body[...], offset: block.bodyRange.lowerBound)
        } catch let error as VorbisCommentError {
            throw CarrierError(.tag, offset: error.offset, place: "PICTURE", message: error.message)
        } catch {
            throw CarrierError(.io, offset: block.offset, message: "\(error)")
        }
    }

    /// The bytes of a block, header and body.
    public func bytes(of block: Block) throws(CarrierError) -> [UInt8] {
        try CarrierBytes.read(source, at: block.offset, count: Int(4 + block.length))
    }

    /// The audio's duration from STREAMINFO.
    public var duration: Double? { streamInfo?.duration }

    /// The audio frames' bytes (to the end of the file).
    public var audioSize: UInt64 { fileSize - min(fileSize, audioOffset) }
}
