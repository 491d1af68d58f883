import APEv2
import ID3
import MediaBytes

/// The tags a carrier holds, as read: each tag format the file has, by format.
public struct CarriedTags: Sendable {
    /// The ID3v2 tag the metadata layer reads and writes (an MP3's first leading tag, else its
    /// appended one; an AIFF/WAV `ID3 ` chunk).
    public var id3v2: ID3v2Tag?
    /// An ID3v1 tag at the end of an MP3 or ADTS stream.
    public var id3v1: ID3v1Tag?
    /// An APE tag at the end of an MP3 or ADTS stream.
    public var ape: APETag?
    /// A WAV file's `LIST`/`INFO` entries, in order (an empty list for a WAV file without
    /// one); nil for a carrier that cannot hold an `INFO` list.
    public var info: RIFFInfoList?

    public init(id3v2: ID3v2Tag? = nil, id3v1: ID3v1Tag? = nil, ape: APETag? = nil, info: RIFFInfoList? = nil) {
        self.id3v2 = id3v2
        self.id3v1 = id3v1
        self.ape = ape
        self.info = info
    }
}

/// A file layout that carries tags: it reads the layout and the tags in it, and saves a new
/// ID3v2 tag into a file of its kind, keeping every other byte. `MPEGStreamFile` and
/// `IFFChunkFile` are the carriers; a new one (FLAC, Ogg) conforms here and the metadata layer
/// opens and saves it through the same seam.
public protocol TagCarrierFile: Sendable {
    /// Reads the layout of the file and the tags it carries (never the audio).
    init(source: any ByteSource) throws(CarrierError)
    /// The tags the file holds.
    var carriedTags: CarriedTags { get }
    /// What was tolerated while reading (damaged chunks, tags, junk).
    var diagnostics: [CarrierDiagnostic] { get }
    /// The audio's duration in seconds, from the headers (never by decoding); nil when unknown.
    var duration: Double? { get }
    /// Writes `tag` into the file at `path` as its ID3v2 tag, verified before it is kept; the
    /// original is untouched on failure.
    static func save(_ tag: ID3v2Tag, to path: String, options: CarrierSaveOptions) throws -> CarrierSaveOutcome
}

extension MPEGStreamFile: TagCarrierFile {
    public var carriedTags: CarriedTags { CarriedTags(id3v2: primaryTag, id3v1: id3v1, ape: apeTag) }
}

extension IFFChunkFile: TagCarrierFile {
    /// AIFF: the sample frames of `COMM` over the rate; WAV: the `data` chunk's bytes over the
    /// PCM byte rate.
    public var duration: Double? {
        guard let format = audioFormat, format.sampleRate > 0 else { return nil }
        if let frames = format.frameCount { return Double(frames) / format.sampleRate }
        let frameBytes = format.channels * ((format.bitsPerSample + 7) / 8)
        guard frameBytes > 0, let data = root.children.first(where: { $0.id == "data" }) else { return nil }
        return Double(data.dataSize / UInt64(frameBytes)) / format.sampleRate
    }
    public var carriedTags: CarriedTags { CarriedTags(id3v2: id3Tag, info: info ?? RIFFInfoList(form: kind == .wav ? .riffInfo : .aiffText)) }
}
