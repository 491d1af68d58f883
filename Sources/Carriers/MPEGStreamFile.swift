import APEv2
import ID3
import MediaBytes

/// The layout of an MP3 or ADTS AAC file: ID3v2 tags at the start (several in a row are
/// allowed), junk before the first audio frame, the first frame's header (and Xing/Info/LAME
/// header), and at the end an appended ID3v2 tag with footer, an APEv2 block, a Lyrics3v2
/// block and an ID3v1 tag, in the orders real files use. Only headers, tags and the first
/// frame are read; never the audio.
public struct MPEGStreamFile: Sendable {
    public enum Kind: String, Sendable { case mp3, aac }

    public var kind: Kind?
    public var fileSize: UInt64
    /// ID3v2 tags at the start of the file, in order.
    public var leadingTags: [ID3v2Tag]
    /// Bytes between the leading tags and the first audio frame.
    public var junkBeforeAudio: Range<UInt64>?
    /// Where the audio frames are.
    public var audio: Range<UInt64>
    public var mpegHeader: MPEGAudioFrameHeader?
    public var xingHeader: XingHeader?
    public var adtsHeader: ADTSFrameHeader?
    /// Where the leading tags end (the file's start when it has none).
    public var leadingTagsEnd: UInt64 = 0
    /// An ID3v2 tag appended at the end (found by its footer).
    public var appendedTag: ID3v2Tag?
    /// Where the appended tag is (header to footer).
    public var appendedBlock: Range<UInt64>?
    /// ADTS: the frames counted from the first on (up to `adtsScanLimit` bytes of them) and the
    /// bytes they cover; nil for MPEG audio.
    public var adtsFrames: (count: Int, bytes: UInt64)?
    /// A CBR stream's bit rate in kbit/s, from the frame after its `Info` header.
    public var constantBitrate: Int?
    /// How many bytes of an ADTS stream's frame headers are walked for its duration; a longer
    /// stream is measured by the average frame of this much.
    public static let adtsScanLimit: UInt64 = 4 << 20
    /// Where the APE tag is (header to footer).
    public var apeBlock: Range<UInt64>?
    /// The APE tag (APEv1 or APEv2) at the end of the file, before a Lyrics3v2 block and an
    /// ID3v1 tag.
    public var apeTag: APETag?
    /// A Lyrics3v2 block (detected and preserved, not edited).
    public var lyrics3Block: Range<UInt64>?
    /// The fields of that block, when they add up.
    public var lyrics3: Lyrics3Block?
    /// The ID3v1 tag: the last 128 bytes of the file, or those before an appended tag.
    public var id3v1: ID3v1Tag?
    /// Where the ID3v1 tag is.
    public var id3v1Block: Range<UInt64>?
    public var diagnostics: [Diagnostic]
    /// The file's bytes, for the frame walk (`walkFrames`), which reads the audio when asked.
    let source: any ByteSource

    /// Most ID3v2 tags read in a row at the start of a file; anything after them is taken as
    /// the start of the audio.
    public static let maxLeadingTags = 16

    /// How far from the end of the leading tags to look for the first frame.
    public static let syncSearchLimit = 256 << 10

    public init(source original: any ByteSource) throws(CarrierError) {
        // Two reads serve a typical file: its first 64 KiB (tags, first frame) and last 512
        // bytes (ID3v1, APE and Lyrics3 trailers, an appended tag's footer); a larger tag
        // costs a few more, and its large payloads are left in the file.
        self.source = original
        let source: PrefetchedByteSource
        do { source = try PrefetchedByteSource(original, head: 64 << 10, tail: 512) } catch {
            throw CarrierError(.io, message: error.description)
        }
        fileSize = source.size
        leadingTags = []
        diagnostics = []
        var position: UInt64 = 0
        // What the compressed frames of all the file's tags may inflate to, together.
        var decompressionBudget = ID3v2Tag.maxDecompressedTagSize
        // Leading tags, one after another.
        var lastTagStart: UInt64?
        // What follows the last tag, read once for the look for another tag's header and for
        // the first audio frame (the 4 KiB window below).
        var following: (at: UInt64, bytes: ArraySlice<UInt8>) = (0, [])
        func bytesFollowing(_ position: UInt64) throws(CarrierError) -> ArraySlice<UInt8> {
            if following.at != position || following.bytes.isEmpty { following = (position, try CarrierBytes.slice(source, at: position, count: 4096)) }
            return following.bytes
        }
        while leadingTags.count < Self.maxLeadingTags, let header = ID3TagHeader(try bytesFollowing(position).prefix(10)) {
            lastTagStart = position
            do {
                let tag = try ID3v2Tag.read(source, original: original, at: position, header: header, decompressionBudget: &decompressionBudget)
                leadingTags.append(tag)
                diagnostics += tag.diagnostics.map { $0.within("ID3v2") }
            } catch {
                diagnostics.append(Diagnostic(.warning, error.code, offset: error.offset, message: error.message).within("ID3v2"))
            }
            position += header.totalSize
            if position >= fileSize { break }
        }

        leadingTagsEnd = position

        // The end of the file: ID3v1, APEv2, Lyrics3v2, appended ID3v2 (and an ID3v1 tag before
        // an appended one, which mutagen reads).
        var end = fileSize
        // A leading tag cut short (it claims more bytes than the file has) does not hide an
        // ID3v1 tag at the end, which TagLib and ffmpeg read whatever comes before: it is
        // looked for after the frames the cut tag holds.
        var v1Floor = position
        if position > fileSize, let cut = lastTagStart {
            if let last = leadingTags.last, last.offset == cut {
                v1Floor = last.frames.map { $0.offset + UInt64($0.storedSize) }.max() ?? cut + 10
            } else {
                v1Floor = cut + 10  // a tag that could not be read at all (a version not known)
            }
        }
        if let v1 = try Self.id3v1(source, endingAt: end, floor: v1Floor) {
            (id3v1, id3v1Block) = (v1, end - 128..<end)
            end -= 128
        }
        var moved = true
        while moved {
            moved = false
            if apeTag == nil, let ape = Self.apeTag(source, endingAt: end, floor: position, diagnostics: &diagnostics) {
                apeTag = ape.tag
                apeBlock = ape.range
                end = ape.range.lowerBound
                moved = true
            }
            if let lyrics = try Self.lyrics3Block(source, endingAt: end, floor: position) {
                lyrics3Block = lyrics
                lyrics3 = Lyrics3Block(try CarrierBytes.read(source, at: lyrics.lowerBound, count: Int(lyrics.count)))
                end = lyrics.lowerBound
                moved = true
            }
            if appendedTag == nil, end >= position + 20 {
                let footer = try CarrierBytes.slice(source, at: end - 10, count: 10)
                if footer.starts(with: [0x33, 0x44, 0x49]), let size = SyncsafeInteger.decode(footer.dropFirst(6)),
                    UInt64(size) + 20 <= end - position
                {
                    let start = end - 20 - UInt64(size)
                    let bytes = try CarrierBytes.slice(source, at: start, count: Int(UInt64(size) + 20))
                    if let tag = try? ID3v2Tag(parsing: bytes, at: start, decompressionBudget: &decompressionBudget) {
                        appendedTag = tag
                        appendedBlock = start..<end
                        diagnostics += tag.diagnostics.map { $0.within("ID3v2") }
                        end = start
                        moved = true
                        // Only directly before an appended tag, not before an APE tag or a
                        // Lyrics3 block (whose place is before it).
                        if id3v1 == nil, let v1 = try Self.id3v1(source, endingAt: end, floor: position) {
                            (id3v1, id3v1Block) = (v1, end - 128..<end)
                            end -= 128
                        }
                    }
                }
            }
        }

        // The first audio frame: near the tags in nearly every file, so look in 4 KiB first.
        audio = position..<max(position, end)
        let room = end > position ? end - position : 0
        var windowSize = Int(min(4096, room))
        var window = try bytesFollowing(position).prefix(windowSize)
        // An IFF file behind the tags (an ID3v2 tag some program put before a WAV or AIFF
        // file): its samples are not MPEG frames, whatever a sync search would find in them.
        let iff = ["RIFF", "RF64", "BW64", "FORM"].first { window.starts(with: $0.utf8) }
        var found = iff == nil ? Self.locateStream(in: window) : nil
        if found == nil, iff == nil, room > UInt64(windowSize) {
            windowSize = Int(min(UInt64(Self.syncSearchLimit), room))
            window = try CarrierBytes.slice(source, at: position, count: windowSize)
            found = Self.locateStream(in: window)
        }
        if let iff {
            diagnostics.append(Diagnostic(.warning, .malformed, area: "MPEG", offset: position,
                                          message: "\(iff == "FORM" ? "an IFF file (FORM: AIFF or another form)" : "a RIFF file (\(iff): WAV or another form)") follows \(leadingTags.isEmpty ? "the junk" : "the ID3v2 tag") (a tag put before it by another program): its audio is not MPEG and is not read"))
        } else if let (index, kind) = found {
            self.kind = kind
            if index > 0 {
                junkBeforeAudio = position..<position + UInt64(index)
                diagnostics.append(Diagnostic(.note, .padding, area: "MPEG", offset: position,
                                                 message: "\(index) bytes before the first audio frame"))
                // An ID3v2 tag in the junk is read by some programs and not by others: worth a
                // warning, not a reason to refuse a save (the junk is kept as it is).
                if let stray = Self.strayTagHeader(in: window.prefix(index)) {
                    diagnostics.append(Diagnostic(.warning, .padding, area: "MPEG", offset: position + UInt64(stray.index),
                                                  message: "an ID3v2.\(stray.version) tag of \(stray.size) bytes in the junk before the audio (a tag starts the file or follows one): not read here, nor by ffmpeg, mutagen or exiftool, but read by TagLib when no tag starts the file; a tag written here goes at the start, and the stray one stays in the junk"))
                }
            }
            audio = position + UInt64(index)..<end
            let frame = window.dropFirst(index).prefix(2048)
            if kind == .mp3, let header = MPEGAudioFrameHeader(frame) {
                mpegHeader = header
                xingHeader = XingHeader(frame: frame, header: header)
                // LAME writes a CBR file's `Info` frame at a higher rate when the tag does not fit
                // a frame of the stream's own: the stream's rate is the next frame's.
                if xingHeader?.tag == "Info", let length = header.frameLength, index + length + 4 <= window.count,
                    let next = MPEGAudioFrameHeader(window.dropFirst(index + length))
                {
                    constantBitrate = next.bitrate
                }
                // A stream shorter than its header counts was cut (a partial download or copy).
                // It is timed as the header says, as ffprobe and players do; the warning says
                // how much is there.
                if let counted = countedBytesCutShort {
                    let share = Double(audio.count) / Double(counted) * 100
                    diagnostics.append(Diagnostic(.warning, .truncated, area: "MPEG", offset: end,
                                                  message: "the audio ends after \(audio.count) bytes, but its \(xingHeader?.tag ?? "Xing") header counts \(counted) (\(share < 1 ? "under 1" : String(Int(share)))% is there): the file was cut short"))
                }
            } else {
                adtsHeader = ADTSFrameHeader(frame)
                adtsFrames = Self.countADTSFrames(original, in: audio)
            }
        } else if windowSize > 0 {
            diagnostics.append(Diagnostic(.warning, .malformed, area: "MPEG", offset: position,
                                             message: "no MPEG audio or ADTS frame in the first \(windowSize) bytes after the tags"))
        }
    }

    /// The ID3v1 tag in the 128 bytes before `end`, if they are one and after `floor`.
    static func id3v1(_ source: any ByteSource, endingAt end: UInt64, floor: UInt64) throws(CarrierError) -> ID3v1Tag? {
        guard end >= 128 + floor else { return nil }
        return ID3v1Tag(try CarrierBytes.slice(source, at: end - 128, count: 128))
    }

    /// The tag most tools treat as the file's tag: the first leading one, else the appended one.
    public var primaryTag: ID3v2Tag? { leadingTags.first ?? appendedTag }

    /// The ID3v2 tags after the primary one: further leading tags, then the appended one.
    public var otherTags: [ID3v2Tag] { leadingTags.isEmpty ? [] : Array(leadingTags.dropFirst()) + (appendedTag.map { [$0] } ?? []) }

    /// What the file's ID3v2 tags say together, as ffmpeg reads them: the primary tag, and
    /// each frame of the other tags whose slot (`ID3Frame.slot`) no earlier tag fills. A save
    /// writes this as the one tag and removes the others, so that every reader sees one truth.
    public var mergedTag: ID3v2Tag? { primaryTag?.merging(otherTags).tag }

    /// The frames of the other tags that an earlier tag's frame of the same slot hides from
    /// every reader (a merge leaves them out).
    public var hiddenFrames: [ID3Frame] { primaryTag?.merging(otherTags).hidden ?? [] }

    /// Walks the ADTS frame headers in `audio` from its start (64 KiB reads), stopping at the
    /// first byte that is not a frame header or at `adtsScanLimit`.
    static func countADTSFrames(_ source: any ByteSource, in audio: Range<UInt64>) -> (count: Int, bytes: UInt64)? {
        var count = 0
        var position = audio.lowerBound
        let limit = min(audio.upperBound, audio.lowerBound + adtsScanLimit)
        var window: [UInt8] = []
        var windowStart = position
        while position + 7 <= audio.upperBound, position < limit {
            if position < windowStart || position + 7 > windowStart + UInt64(window.count) {
                windowStart = position
                guard let bytes = try? source.readAvailable(at: position, upTo: Int(min(64 << 10, audio.upperBound - position))), bytes.count >= 7 else { break }
                window = bytes
            }
            let at = Int(position - windowStart)
            guard let header = ADTSFrameHeader(window[at..<at + 7]) else { break }
            count += 1
            position += UInt64(header.frameLength)
        }
        return count > 0 ? (count, min(position, audio.upperBound) - audio.lowerBound) : nil
    }

    /// Duration in seconds: from the Xing or VBRI frame count when there is one, else from the
    /// bit rate; for ADTS, 1024 samples per counted frame (scaled to the whole stream when the
    /// walk covered less of it).
    public var duration: Double? {
        if let header = adtsHeader, let rate = header.sampleRate, rate > 0, let frames = adtsFrames, frames.bytes > 0 {
            // A walk that stopped short (the scan limit, or a damaged frame header) times the
            // rest of the stream by the average frame it saw.
            let scale = frames.bytes < UInt64(audio.count) ? Double(audio.count) / Double(frames.bytes) : 1
            return Double(frames.count) * 1024 / Double(rate) * scale
        }
        if let header = mpegHeader {
            if let frames = xingHeader?.frameCount, header.sampleRate > 0 {
                // As ffprobe and players count it, also for a stream cut short (the warning says
                // how much of it is there).
                return Double(frames) * Double(header.samplesPerFrame) / Double(header.sampleRate)
            }
            if header.bitrate > 0 { return Double(audio.count) * 8 / Double(header.bitrate * 1000) }
        }
        return nil
    }

    /// The bytes the Xing or VBRI header counts, when the audio in the file is shorter by more
    /// than a frame (a partial download or copy); nil otherwise.
    public var countedBytesCutShort: UInt64? {
        guard let counted = xingHeader?.byteCount.map(UInt64.init), let header = mpegHeader,
              counted > UInt64(audio.count) + UInt64(header.frameLength ?? 0) else { return nil }
        return counted
    }

    /// Average bit rate in kbit/s.
    public var bitrate: Int? { bitsPerSecond.map { $0 / 1000 + ($0 % 1000 >= 500 ? 1 : 0) } }

    /// Average bit rate in bits per second: a CBR stream's frame rate; a VBR stream's bytes
    /// (from its Xing or VBRI header) over its duration; an ADTS stream's bytes over its
    /// duration.
    public var bitsPerSecond: Int? {
        if adtsHeader != nil, let duration, duration > 0 { return Int(exactly: (Double(audio.count) * 8 / duration).rounded()) }
        if let constantBitrate { return constantBitrate * 1000 }
        if let header = mpegHeader {
            // A CBR file's `Info` header counts frames too, but its rate is the frame header's.
            if let duration, duration > 0, xingHeader?.frameCount != nil, xingHeader?.tag != "Info" {
                return Int(exactly: (Double(xingHeader?.byteCount.map(UInt64.init) ?? UInt64(audio.count)) * 8 / duration).rounded())
            }
            return header.bitrate * 1000
        }
        return nil
    }

    /// Where the stream starts in `bytes` (what follows the tags): two frames in a row at the
    /// start, or three after junk (`streamStart(in:)`), so that a false sync inside other data
    /// is not taken for audio.
    /// The first ID3v2 tag header in `bytes` (junk before the audio): where it starts, its
    /// major version and its size with the header; nil when there is none.
    static func strayTagHeader(in bytes: ArraySlice<UInt8>) -> (index: Int, version: UInt8, size: Int)? {
        var index = bytes.startIndex
        while index + 10 <= bytes.endIndex {
            if bytes[index] == 0x49, bytes[index + 1] == 0x44, bytes[index + 2] == 0x33,
               (2...4).contains(bytes[index + 3]), bytes[index + 4] != 0xFF,
               bytes[(index + 6)..<(index + 10)].allSatisfy({ $0 < 0x80 }) {
                let size = bytes[(index + 6)..<(index + 10)].reduce(0) { $0 << 7 | Int($1) } + 10
                return (index - bytes.startIndex, bytes[index + 3], size)
            }
            index += 1
        }
        return nil
    }

    static func locateStream(in bytes: ArraySlice<UInt8>) -> (Int, Kind)? {
        guard let found = firstFrame(in: bytes) else { return nil }
        if found.0 == 0 { return found }
        return streamStart(in: bytes).map { ($0.offset, $0.kind) }
    }

    /// Where an MPEG audio or ADTS stream starts in `bytes` that begin with something else (junk
    /// before the first frame, with no ID3v2 tag to say what follows), and its kind: the first
    /// offset where `run` frames follow one another, each header leading to the next and all of
    /// one version, layer and sample rate. Stricter than what is looked for behind a tag, since
    /// nothing else says the file is MPEG audio; nil when no such run starts in `bytes`. The
    /// offset is from the start of `bytes`.
    public static func streamStart(in bytes: [UInt8], run: Int = 3) -> (offset: Int, kind: Kind)? { streamStart(in: bytes[...], run: run) }

    /// `streamStart(in:run:)` of a slice, looked at in place.
    public static func streamStart(in bytes: ArraySlice<UInt8>, run: Int = 3) -> (offset: Int, kind: Kind)? {
        let base = bytes.startIndex
        var index = 0
        while index + 4 <= bytes.count {
            defer { index += 1 }
            guard bytes[base + index] == 0xFF, bytes[base + index + 1] & 0xE0 == 0xE0 else { continue }
            var at = index
            var found = 0
            var kind: Kind?
            var first: MPEGAudioFrameHeader?
            var firstADTS: ADTSFrameHeader?
            while found < run, at + 7 <= bytes.count {
                if kind != .mp3, let adts = ADTSFrameHeader(bytes[(base + at)...].prefix(7)), adts.frameLength > 7,
                    firstADTS.map({ $0.sampleRate == adts.sampleRate && $0.audioObjectType == adts.audioObjectType && $0.isMPEG2 == adts.isMPEG2 }) ?? true
                {
                    kind = .aac
                    firstADTS = firstADTS ?? adts
                    at += adts.frameLength
                } else if kind != .aac, let header = MPEGAudioFrameHeader(bytes[(base + at)...].prefix(4)), let length = header.frameLength, length > 4,
                    first.map({ $0.version == header.version && $0.layer == header.layer && $0.sampleRate == header.sampleRate }) ?? true
                {
                    kind = .mp3
                    first = first ?? header
                    at += length
                } else {
                    break
                }
                found += 1
            }
            if found == run, let kind { return (index, kind) }
        }
        return nil
    }

    /// The first offset in `bytes` where two consecutive valid frames (or one running to the end)
    /// start, and what kind of stream they are.
    static func firstFrame(in bytes: ArraySlice<UInt8>) -> (Int, Kind)? {
        let base = bytes.startIndex
        var index = 0
        while index + 4 <= bytes.count {
            defer { index += 1 }
            guard bytes[base + index] == 0xFF, bytes[base + index + 1] & 0xE0 == 0xE0 else { continue }
            if let adts = ADTSFrameHeader(bytes[(base + index)...].prefix(7)) {
                let next = index + adts.frameLength
                if next >= bytes.count || ADTSFrameHeader(bytes[(base + next)...].prefix(7)) != nil { return (index, .aac) }
                continue
            }
            if let header = MPEGAudioFrameHeader(bytes[(base + index)...].prefix(4)) {
                guard let length = header.frameLength else { return (index, .mp3) }
                let next = index + length
                if next + 4 > bytes.count { return (index, .mp3) }
                if let following = MPEGAudioFrameHeader(bytes[(base + next)...].prefix(4)), following.version == header.version,
                    following.layer == header.layer, following.sampleRate == header.sampleRate
                {
                    return (index, .mp3)
                }
            }
        }
        return nil
    }

    /// The APE tag whose footer ends at `end`, its problems added to `diagnostics`; nil when
    /// there is none (or its footer's size does not fit, which is a warning).
    static func apeTag(_ source: any ByteSource, endingAt end: UInt64, floor: UInt64, diagnostics: inout [Diagnostic]) -> (tag: APETag, range: Range<UInt64>)? {
        do {
            guard let found = try APETag.read(from: source, endingAt: end, floor: floor) else { return nil }
            diagnostics += found.tag.diagnostics.map { $0.within("APEv2") }
            return found
        } catch {
            diagnostics.append(Diagnostic(.warning, error.code == .io ? .truncated : .tag, area: "APEv2", offset: error.offset ?? end, message: error.message))
            return nil
        }
    }

    /// A Lyrics3v2 block (`LYRICSBEGIN` ... six size digits, `LYRICS200`) ending at `end`.
    static func lyrics3Block(_ source: any ByteSource, endingAt end: UInt64, floor: UInt64) throws(CarrierError) -> Range<UInt64>? {
        guard end >= floor + 15 else { return nil }
        let trailer = try CarrierBytes.slice(source, at: end - 15, count: 15)
        guard trailer.dropFirst(6).elementsEqual("LYRICS200".utf8),
            let size = UInt64(String(decoding: trailer.prefix(6), as: UTF8.self)), size + 15 <= end - floor
        else { return nil }
        let start = end - 15 - size
        let begin = try CarrierBytes.slice(source, at: start, count: 11)
        guard begin.elementsEqual("LYRICSBEGIN".utf8) else { return nil }
        return start..<end
    }
}
