import APEv2
import ID3
import MediaBytes

/// The tags of a carrier, by format: what a carrier hands over when it reads a file, and what
/// its save takes back, edited.
///
/// Read, each field is the block the file has (nil: none). Saved, each field is the block the
/// file is to have, and nil keeps the file's block as it is; a block without entries removes
/// it. ID3v1 is not saved from here: it holds what the ID3v2 tag says, and
/// `CarrierSaveOptions` says whether it is updated, mirrored or removed.
public struct CarriedTags: Sendable {
    /// The ID3v2 tag the metadata layer reads and writes (an MP3's tags merged, its first
    /// leading one first: `MPEGStreamFile.mergedTag`; an AIFF/WAV `ID3 ` chunk).
    public var id3v2: ID3v2Tag?
    /// An ID3v1 tag at the end of an MP3 or ADTS stream (read only; see above).
    public var id3v1: ID3v1Tag?
    /// An APE tag at the end of an MP3 or ADTS stream.
    public var ape: APETag?
    /// A WAV file's `LIST`/`INFO` entries or an AIFF file's text chunks, in order (an empty
    /// list for a file without them); nil for a carrier that cannot hold them.
    public var info: RIFFInfoList?

    public init(id3v2: ID3v2Tag? = nil, id3v1: ID3v1Tag? = nil, ape: APETag? = nil, info: RIFFInfoList? = nil) {
        self.id3v2 = id3v2
        self.id3v1 = id3v1
        self.ape = ape
        self.info = info
    }
}

/// A file layout that carries tags of the ID3 family (ID3v2, ID3v1, APE, RIFF INFO, AIFF
/// text): it reads the layout and hands over the tags in it by format, and saves the edited
/// tags into a file of its kind, keeping every other byte. `MPEGStreamFile` and `IFFChunkFile`
/// are the carriers; the metadata layer opens and saves every one through
/// `TagCarrierContainer`. (FLAC and Ogg carry Vorbis comments and have saves of their own.)
public protocol TagCarrierFile: Sendable {
    /// Reads the layout of the file and the tags it carries (never the audio).
    init(source: any ByteSource) throws(CarrierError)
    /// The tags the file holds.
    var carriedTags: CarriedTags { get }
    /// What was tolerated while reading (damaged chunks, tags, junk).
    var diagnostics: [Diagnostic] { get }
    /// The audio's duration in seconds, from the headers (never by decoding); nil when unknown.
    var duration: Double? { get }
    /// Writes `tags` into the file at `path` (each block given replaces the file's; nil keeps
    /// it), verified before it is kept; the original is untouched on failure.
    static func save(_ tags: CarriedTags, to path: String, options: CarrierSaveOptions) throws -> CarrierSaveOutcome
    /// Whether files of this layout can end with an ID3v1 tag (an MPEG audio or ADTS stream),
    /// which `CarrierSaveOptions.writeID3v1` and `.removeID3v1` add and strip.
    static var holdsID3v1: Bool { get }
    /// Whether files of this layout can hold an APE tag (an MPEG audio or ADTS stream, before
    /// its ID3v1 tag): `save` writes `CarriedTags.ape`, a new one too.
    static var holdsAPE: Bool { get }
}

extension TagCarrierFile {
    public static var holdsID3v1: Bool { false }
    public static var holdsAPE: Bool { false }

    /// Writes `tag` as the file's ID3v2 tag and keeps its APE tag and INFO list as they are.
    /// A file's other ID3v2 tags (an MP3's further leading or appended tags, a second ID3
    /// chunk) are removed: start from the carrier's `carriedTags.id3v2`, which holds what they
    /// said, to keep it.
    @discardableResult
    public static func save(_ tag: ID3v2Tag, to path: String, options: CarrierSaveOptions = CarrierSaveOptions()) throws -> CarrierSaveOutcome {
        try save(CarriedTags(id3v2: tag), to: path, options: options)
    }
}

extension MPEGStreamFile: TagCarrierFile {
    public static var holdsID3v1: Bool { true }
    public static var holdsAPE: Bool { true }
    public var carriedTags: CarriedTags { CarriedTags(id3v2: mergedTag, id3v1: id3v1, ape: apeTag) }
}

extension IFFChunkFile: TagCarrierFile {
    /// AIFF: the sample frames of `COMM` over the rate; WAV: the `data` chunk's bytes over the
    /// PCM byte rate, or over the declared average byte rate for a compressed format (MP3 in
    /// WAV), as ffprobe times them.
    public var duration: Double? {
        guard let format = audioFormat, format.sampleRate > 0 else { return nil }
        if let frames = format.frameCount { return Double(frames) / format.sampleRate }
        if !format.isUncompressed {
            guard let rate = format.byteRate, rate > 0, let data = root.children.first(where: { $0.id == "data" }) else { return nil }
            return Double(data.dataSize) / Double(rate)
        }
        let frameBytes = format.channels * ((format.bitsPerSample + 7) / 8)
        guard frameBytes > 0, let data = root.children.first(where: { $0.id == "data" }) else { return nil }
        return Double(data.dataSize / UInt64(frameBytes)) / format.sampleRate
    }
    public var carriedTags: CarriedTags { CarriedTags(id3v2: id3Tag, info: info ?? RIFFInfoList(form: kind == .wav ? .riffInfo : .aiffText)) }
}
