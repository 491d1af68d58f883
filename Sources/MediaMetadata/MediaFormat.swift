import Carriers
import ID3
import ISOBMFF
import MediaBytes

/// The container formats this package knows, as named in tool output.
public struct MediaFormat: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// ISO base media file: MP4, M4A, M4B, M4V and other `ftyp` brands not listed below.
    public static let mp4 = MediaFormat(rawValue: "mp4")
    /// QuickTime movie (`ftyp` brand `qt  `, or no `ftyp` at all as in classic QuickTime).
    public static let mov = MediaFormat(rawValue: "mov")
    /// 3GPP / 3GPP2 (`3gp*`, `3g2*` brands).
    public static let threeGP = MediaFormat(rawValue: "3gp")
    /// HEIF / AVIF image file (`mif1`, `heic`, `avif`… brands).
    public static let heif = MediaFormat(rawValue: "heif")
    /// MPEG audio (MP3), possibly behind ID3v2 tags.
    public static let mp3 = MediaFormat(rawValue: "mp3")
    /// AAC in ADTS frames, possibly behind an ID3v2 tag (HTTP Live Streaming packed audio).
    public static let aac = MediaFormat(rawValue: "aac")
    /// AIFF / AIFF-C.
    public static let aiff = MediaFormat(rawValue: "aiff")
    /// RIFF WAVE.
    public static let wav = MediaFormat(rawValue: "wav")
    /// Native FLAC (`fLaC`), possibly behind an ID3v2 tag.
    public static let flac = MediaFormat(rawValue: "flac")
    /// An Ogg file of Vorbis, Opus, FLAC or Speex (`OggS`).
    public static let ogg = MediaFormat(rawValue: "ogg")
    /// An MPEG-2 transport stream (HLS segments): its programs, streams and timed ID3 shown,
    /// nothing to edit.
    public static let ts = MediaFormat(rawValue: "ts")

    public var description: String { rawValue }

    /// True for the formats made of ISO-BMFF / QuickTime atoms.
    public var isAtomBased: Bool { self == .mp4 || self == .mov || self == .threeGP || self == .heif }

    /// Recognises a format from the first bytes of a file (at least 64 are best); `nil` when
    /// none matches. (A file behind an ID3v2 tag needs `detect(_:)`, which reads past the tag.)
    /// Each row of `definitions` says how its files begin; the strongest signatures are tried
    /// first (`MediaFormat.Signature`).
    public static func detect(prefix bytes: [UInt8]) -> MediaFormat? { detect(prefix: bytes[...]) }

    private static func detect(prefix bytes: ArraySlice<UInt8>) -> MediaFormat? {
        guard bytes.count >= 8 else { return nil }
        return detectionOrder.first { $0.recognizes(bytes) }?.format
    }

    /// Recognises a file's format, reading only its first bytes (and, behind a leading ID3v2
    /// tag, the first bytes after it: a row whose files may begin with one, MP3 when none does).
    /// A file no row recognises is MP3 or AAC when an MPEG audio or ADTS stream starts in its
    /// first 64 KiB after junk, as ffprobe finds it: eight frames in a row, each leading to
    /// the next, which the audio packets of another container (an MPEG program stream's
    /// 2 KiB packs, an AVI's chunks) do not make; or, for a file `path` names as MP3 or AAC,
    /// three (a short file after junk, as ffprobe reads it given the name).
    public static func detect(_ source: any ByteSource, named path: String? = nil) -> MediaFormat? {
        // Enough for every signature: a transport stream's third packet's sync byte.
        // (A view of the file's prefetched start where it holds them: no copy.)
        guard let head = try? source.slice(at: 0, count: Int(min(UInt64(TransportStreamFile.headSize), source.size))) else { return nil }
        if let tag = ID3TagHeader(head) {
            guard let after = try? source.sliceAvailable(at: tag.totalSize, upTo: 16) else { return .mp3 }
            if let row = detectionOrder.first(where: { $0.mayFollowID3 && $0.recognizes(after) }) { return row.format }
            // Junk between the tag and the stream (an ADTS stream keeps its name after a save
            // put a tag before its junk).
            return streamAfterJunk(source, at: tag.totalSize) ?? .mp3
        }
        if let format = detect(prefix: head) ?? streamAfterJunk(source, at: 0) { return format }
        // A file named as MP3 or AAC whose stream after junk is short (fewer than eight frames).
        guard let path, let named = definition(named: path)?.format, named == .mp3 || named == .aac else { return nil }
        return streamAfterJunk(source, at: 0, run: 3).flatMap { $0 == named ? $0 : nil }
    }

    /// MP3 or AAC when an MPEG audio or ADTS stream of `run` frames in a row starts in the 64 KiB
    /// at `offset`; nil otherwise.
    private static func streamAfterJunk(_ source: any ByteSource, at offset: UInt64, run: Int = 8) -> MediaFormat? {
        guard let bytes = try? source.sliceAvailable(at: offset, upTo: 1 << 16), let stream = MPEGStreamFile.streamStart(in: bytes, run: run) else { return nil }
        return stream.kind == .aac ? .aac : .mp3
    }

    /// The rows in the order their signatures are tried: codes at the start first, then the
    /// first atom, then the frame sync (a WAV whose size field spells `free` is a WAV).
    private static let detectionOrder = Signature.allCases.flatMap { signature in definitions.filter { $0.signature == signature } }

    /// True for an ISO-BMFF/QuickTime file of `format` (by its first atom and brand).
    static func atoms(_ format: MediaFormat) -> @Sendable (ArraySlice<UInt8>) -> Bool {
        { atomFormat($0) == format }
    }

    /// True for a file whose first frame is MPEG audio (MP3) or ADTS (AAC), as `format` says.
    static func frames(_ format: MediaFormat) -> @Sendable (ArraySlice<UInt8>) -> Bool {
        { mpegFrameKind($0) == format }
    }

    /// True for an IFF file: `id` (`FORM`, `RIFF`) and a form type among `forms`.
    static func iff(_ ids: Set<FourCC>, _ forms: Set<FourCC>) -> @Sendable (ArraySlice<UInt8>) -> Bool {
        { bytes in
            guard bytes.count >= 12 else { return false }
            let b = bytes.startIndex
            return ids.contains(FourCC(bytes[b], bytes[b + 1], bytes[b + 2], bytes[b + 3])) && forms.contains(FourCC(bytes[b + 8], bytes[b + 9], bytes[b + 10], bytes[b + 11]))
        }
    }

    /// Atoms that open classic QuickTime files, which have no `ftyp`.
    private static let quickTimeOpenings: FourCCSet = ["moov", "mdat", "wide", "free", "skip", "pnot", "PICT", "junk"]

    /// The format of a file opening with an atom the atom reader accepts (the same set), by the
    /// `ftyp`/`styp` brand when there is one.
    private static func atomFormat(_ bytes: ArraySlice<UInt8>) -> MediaFormat? {
        guard bytes.count >= 8 else { return nil }
        let b = bytes.startIndex
        let type = FourCC(bytes[b + 4], bytes[b + 5], bytes[b + 6], bytes[b + 7])
        guard AtomTree.isOpeningType(type) else { return nil }
        if type == "ftyp" || type == "styp", bytes.count >= 12 {
            return format(forBrand: String(decoding: bytes[b + 8..<b + 12], as: UTF8.self))
        }
        return quickTimeOpenings.contains(type) ? .mov : .mp4
    }

    /// The format an `ftyp` major brand announces.
    public static func format(forBrand brand: String) -> MediaFormat {
        if brand == "qt  " { return .mov }
        if brand.hasPrefix("3g") { return .threeGP }
        switch brand {
        case "mif1", "msf1", "heic", "heix", "hevc", "hevx", "heim", "heis", "avif", "avis", "mif2": return .heif
        default: return .mp4
        }
    }

    /// MPEG audio frame (MP3) or ADTS (AAC) by the 12-bit sync word and the layer bits.
    private static func mpegFrameKind(_ bytes: ArraySlice<UInt8>) -> MediaFormat? {
        guard bytes.count >= 2 else { return nil }
        let b0 = bytes[bytes.startIndex], b1 = bytes[bytes.startIndex + 1]
        guard b0 == 0xFF, b1 & 0xE0 == 0xE0 else { return nil }
        let layer = (b1 >> 1) & 0x3
        if b1 & 0xF0 == 0xF0 && layer == 0 { return .aac }
        return layer == 0 ? nil : .mp3
    }
}
