import Carriers
import ISOBMFF
import MediaBytes

/// What the audio of a file is, from the headers the parsers read (never by decoding audio).
/// Codec names are ffprobe's (`aac`, `mp3`, `alac`, `pcm_s16le`...), so that scripts can compare.
public struct AudioProperties: Sendable, Hashable {
    public var codec: String
    /// In seconds; nil when the headers do not say.
    public var duration: Double?
    public var sampleRate: Int?
    public var channels: Int?
    /// Bits per sample of uncompressed and lossless audio; nil for lossy codecs.
    public var bitsPerSample: Int?
    /// Average bit rate in bits per second.
    public var bitrate: Int?

    public init(codec: String, duration: Double? = nil, sampleRate: Int? = nil, channels: Int? = nil, bitsPerSample: Int? = nil, bitrate: Int? = nil) {
        self.codec = codec
        self.duration = duration
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitsPerSample = bitsPerSample
        self.bitrate = bitrate
    }
}

/// What a video track is: codec (ffprobe's name), size in pixels and frames per second.
public struct VideoProperties: Sendable, Hashable {
    public var codec: String
    public var width: Int?
    public var height: Int?
    /// The average frame rate (samples over the media duration); nil when unknown.
    public var frameRate: Double?
    public var duration: Double?

    public init(codec: String, width: Int? = nil, height: Int? = nil, frameRate: Double? = nil, duration: Double? = nil) {
        self.codec = codec
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.duration = duration
    }
}

/// The streams of a file: its first audio stream and its video tracks.
public struct MediaProperties: Sendable, Hashable {
    public var audio: AudioProperties?
    public var video: [VideoProperties]

    public init(audio: AudioProperties? = nil, video: [VideoProperties] = []) {
        self.audio = audio
        self.video = video
    }
}

extension MediaProperties {
    /// ffprobe's codec names for sample entry types (ISO/IEC 14496-12 and -15, QuickTime).
    static let movieCodecs: [FourCC: String] = [
        "mp4a": "aac", "alac": "alac", "ac-3": "ac3", "ec-3": "eac3", "ac-4": "ac4", "Opus": "opus", "fLaC": "flac",
        ".mp3": "mp3", "samr": "amr_nb", "sawb": "amr_wb", "ulaw": "pcm_mulaw", "alaw": "pcm_alaw",
        "twos": "pcm_s16be", "sowt": "pcm_s16le", "raw ": "pcm_u8", "in24": "pcm_s24be", "in32": "pcm_s32be",
        "fl32": "pcm_f32be", "fl64": "pcm_f64be",
        "avc1": "h264", "avc3": "h264", "hvc1": "hevc", "hev1": "hevc", "mp4v": "mpeg4", "av01": "av1", "vp09": "vp9",
        "s263": "h263", "h263": "h263", "jpeg": "mjpeg", "mjpa": "mjpeg", "apcn": "prores", "apch": "prores",
        "apcs": "prores", "apco": "prores", "ap4h": "prores",
    ]

    /// The properties of a movie: its first enabled sound track (else the first sound track)
    /// and every video track.
    init(movie tree: AtomTree) {
        let tracks = MovieTrackSummary.tracks(in: tree)
        let sound = tracks.first { $0.handler == "soun" && $0.isEnabled } ?? tracks.first { $0.handler == "soun" }
        audio = sound.map { Self.audio(of: $0) }
        video = tracks.filter { $0.handler == "vide" }.map { track in
            var frameRate: Double?
            if let samples = track.sampleCount, let duration = track.duration, duration > 0 { frameRate = Double(samples) / duration }
            return VideoProperties(codec: track.sampleEntryType.map(Self.codecName) ?? "unknown", width: track.width,
                                   height: track.height, frameRate: frameRate, duration: track.duration)
        }
    }

    static func codecName(_ type: FourCC) -> String {
        movieCodecs[type] ?? type.description.trimmingTrailingSpaces
    }

    static func audio(of track: MovieTrackSummary) -> AudioProperties {
        var codec = track.sampleEntryType.map(codecName) ?? "unknown"
        var bits = track.bitsPerSample
        switch track.sampleEntryType {
        case "mp4a":
            // The object type says which MPEG audio it is; only MPEG-4 audio is AAC.
            switch track.objectTypeIndication {
            case 0x69, 0x6B: codec = "mp3"
            case 0xA5: codec = "ac3"
            case 0xA6: codec = "eac3"
            case 0xDD: codec = "vorbis"
            default: if track.audioObjectType == 34 { codec = "mp3" }
            }
            bits = nil
        case "lpcm":
            codec = bits.map { "pcm_s\($0)le" } ?? "pcm"
        case "in24", "in32", "fl32", "fl64":
            // The type says the sample width; QuickTime's version 1 fields often do not.
            if track.isLittleEndian { codec = String(codec.dropLast(2)) + "le" }
            bits = ["in24": 24, "in32": 32, "fl32": 32, "fl64": 64][track.sampleEntryType!]
        case "alac", "twos", "sowt", "raw ", "fLaC":
            break
        default:
            bits = nil
        }
        var bitrate: Int?
        // Over the media's own duration (priming samples included), as ffprobe counts it.
        if let bytes = track.sampleBytes, track.timescale > 0, track.mediaDuration > 0 {
            let duration = Double(track.mediaDuration) / Double(track.timescale)
            bitrate = Int(exactly: (Double(bytes) * 8 / duration).rounded())
        } else if let declared = track.declaredBitrate {
            bitrate = Int(declared)
        }
        return AudioProperties(codec: codec, duration: track.duration, sampleRate: track.sampleRate.flatMap { Int(exactly: $0.rounded()) },
                               channels: track.channels, bitsPerSample: bits, bitrate: bitrate)
    }

    /// The audio of an MPEG audio or ADTS stream, from its first frame, Xing/VBRI/LAME header
    /// and (ADTS) the frame headers.
    init(stream file: MPEGStreamFile) {
        video = []
        if let header = file.mpegHeader {
            audio = AudioProperties(codec: header.layer == 3 ? "mp3" : "mp\(header.layer)", duration: file.duration,
                                    sampleRate: header.sampleRate, channels: header.channelCount, bitrate: file.bitsPerSecond)
        } else if let header = file.adtsHeader {
            let channels = header.channelConfiguration == 7 ? 8 : header.channelConfiguration
            audio = AudioProperties(codec: "aac", duration: file.duration, sampleRate: header.sampleRate,
                                    channels: channels > 0 ? channels : nil, bitrate: file.bitsPerSecond)
        } else {
            audio = nil
        }
    }

    /// The audio of an AIFF (`COMM`) or WAV (`fmt `) file.
    init(chunks file: IFFChunkFile) {
        video = []
        guard let format = file.audioFormat else {
            audio = nil
            return
        }
        let bits = format.bitsPerSample
        let codec: String
        if let tag = format.formatTag {
            switch tag {
            case 1, 0xFFFE: codec = bits <= 8 ? "pcm_u8" : "pcm_s\(bits)le"
            case 3: codec = "pcm_f\(bits)le"
            case 6: codec = "pcm_alaw"
            case 7: codec = "pcm_mulaw"
            case 0x55: codec = "mp3"
            default: codec = "0x" + String(tag, radix: 16)
            }
        } else {
            switch format.compressionType {
            case nil, "NONE", "twos": codec = bits <= 8 ? "pcm_s8" : "pcm_s\(bits)be"
            case "sowt": codec = "pcm_s\(bits)le"
            case "fl32", "FL32": codec = "pcm_f32be"
            case "fl64", "FL64": codec = "pcm_f64be"
            case "ulaw", "ULAW": codec = "pcm_mulaw"
            case "alaw", "ALAW": codec = "pcm_alaw"
            case let other?: codec = other.description.trimmingTrailingSpaces
            }
        }
        let duration = file.duration
        let isPCM = codec.hasPrefix("pcm_")
        var bitrate: Int?
        if isPCM, format.sampleRate > 0 {
            bitrate = Int(exactly: (format.sampleRate * Double(format.channels * bits)).rounded())
        } else if !format.isUncompressed, let rate = format.byteRate, rate > 0 {
            bitrate = Int(rate) * 8
        }
        audio = AudioProperties(codec: codec, duration: duration, sampleRate: Int(exactly: format.sampleRate.rounded()), channels: format.channels,
                                bitsPerSample: isPCM ? bits : nil, bitrate: bitrate)
    }
}

private extension String {
    var trimmingTrailingSpaces: String {
        var result = Substring(self)
        while result.last == " " { result = result.dropLast() }
        return String(result)
    }
}

/// A carrier whose stream properties the metadata layer knows how to read: one row per carrier.
protocol MediaPropertiesReading {
    var mediaProperties: MediaProperties { get }
}

extension MPEGStreamFile: MediaPropertiesReading {
    var mediaProperties: MediaProperties { MediaProperties(stream: self) }
}

extension IFFChunkFile: MediaPropertiesReading {
    var mediaProperties: MediaProperties { MediaProperties(chunks: self) }
}
