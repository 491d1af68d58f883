import MediaBytes

/// A change to a movie's QuickTime chapter track, made by a save (`MovieFile.chapterTrack`):
/// the chapter tracks the movie has are removed with their `chap` references, and when
/// `samples` is not empty a new one is added.
public struct ChapterTrackEdit: Sendable, Hashable {
    /// The media timescale of the samples' starts and durations.
    public var timescale: UInt32
    /// One sample per chapter, in order, starting at 0 and each ending where the next starts;
    /// empty to remove the chapter track.
    public var samples: [QuickTimeChapterTrack.Sample]

    public init(timescale: UInt32, samples: [QuickTimeChapterTrack.Sample]) {
        self.timescale = max(timescale, 1)
        self.samples = samples
    }

    /// Removes the chapter tracks.
    public static let remove = ChapterTrackEdit(timescale: 1000, samples: [])

    /// The media data of the track: the samples one after another, each a 16-bit length, the
    /// title in UTF-8 (cut to 65,535 bytes at a character boundary) and an `encd` atom saying
    /// UTF-8 (0x100), as Apple and ffmpeg write them.
    public var mediaData: [UInt8] { samples.flatMap(Self.sampleBytes) }

    static func sampleBytes(_ sample: QuickTimeChapterTrack.Sample) -> [UInt8] {
        let text = TextDecoding.utf8Bytes(of: sample.title, maxBytes: 0xFFFF)
        var writer = ByteWriter(capacity: text.count + 14)
        writer.writeUInt16(UInt16(text.count))
        writer.writeBytes(text)
        writer.writeUInt32(12)
        writer.writeFourCC("encd")
        writer.writeUInt32(0x100)
        return writer.bytes
    }

    /// The track's duration in its media timescale.
    var mediaDuration: UInt64 { samples.reduce(0) { $0 &+ $1.duration } }
}

/// Builds the `trak` of a chapter track: disabled, `mdhd` in the edit's timescale, handler
/// `text`, `gmhd` with `gmin` and `text`, a self-contained `dref`, a QuickTime text sample
/// entry, one `stts` entry per sample, every sample in one chunk at `chunkOffset`, and an
/// edit list covering the movie.
struct ChapterTrackBuilder {
    var edit: ChapterTrackEdit
    var trackID: UInt32
    var movieTimescale: UInt32
    /// The QuickTime file format (`qt  ` brand) rather than ISO-BMFF: the handler's name is a
    /// Pascal string and its component type `mhlr`.
    var quickTime: Bool
    /// Chunk offsets as 64-bit (`co64`).
    var wideOffsets: Bool

    /// The size of the `trak` (it does not depend on the chunk offset).
    var size: UInt64 { trak(chunkOffset: 0).size }

    func trak(chunkOffset: UInt64) -> AtomNode {
        let movieDuration = Self.rescale(edit.mediaDuration, from: edit.timescale, to: movieTimescale)
        var tkhd = ByteWriter(capacity: 96)
        let longMovie = movieDuration > UInt64(UInt32.max)
        tkhd.writeUInt8(longMovie ? 1 : 0)
        tkhd.writeUInt24(0x000002)  // in the movie, not enabled: players do not show it as text
        writeTimes(&tkhd, long: longMovie, first: trackID, duration: movieDuration, trackHeader: true)
        tkhd.writeBytes([UInt8](repeating: 0, count: 8))  // reserved
        tkhd.writeUInt16(0)  // layer
        tkhd.writeUInt16(0)  // alternate group
        tkhd.writeUInt16(0)  // volume
        tkhd.writeUInt16(0)
        writeIdentityMatrix(&tkhd)
        tkhd.writeUInt32(0)  // width
        tkhd.writeUInt32(0)  // height

        var elst = ByteWriter(capacity: 28)
        elst.writeUInt8(longMovie ? 1 : 0)
        elst.writeUInt24(0)
        elst.writeUInt32(1)
        if longMovie { elst.writeUInt64(movieDuration); elst.writeUInt64(0) } else { elst.writeUInt32(UInt32(movieDuration)); elst.writeUInt32(0) }
        elst.writeUInt32(0x0001_0000)  // rate 1.0

        let duration = edit.mediaDuration
        let longMedia = duration > UInt64(UInt32.max)
        var mdhd = ByteWriter(capacity: 44)
        mdhd.writeUInt8(longMedia ? 1 : 0)
        mdhd.writeUInt24(0)
        writeTimes(&mdhd, long: longMedia, first: edit.timescale, duration: duration, trackHeader: false)
        mdhd.writeUInt16(0x55C4)  // 'und'
        mdhd.writeUInt16(0)

        var hdlr = ByteWriter(capacity: 48)
        hdlr.writeUInt32(0)
        hdlr.writeFourCC(quickTime ? "mhlr" : FourCC(rawValue: 0))
        hdlr.writeFourCC("text")
        hdlr.writeBytes([UInt8](repeating: 0, count: 12))
        let name = Array("Chapters".utf8)
        if quickTime { hdlr.writeUInt8(UInt8(name.count)); hdlr.writeBytes(name) } else { hdlr.writeBytes(name); hdlr.writeUInt8(0) }

        var gmin = ByteWriter(capacity: 16)
        gmin.writeUInt32(0)
        gmin.writeUInt16(0x0040)  // graphics mode: copy
        for _ in 0..<3 { gmin.writeUInt16(0x8000) }  // opcolor
        gmin.writeUInt16(0)  // balance
        gmin.writeUInt16(0)
        var text = ByteWriter(capacity: 36)
        writeIdentityMatrix(&text)

        var dref = ByteWriter(capacity: 20)
        dref.writeUInt32(0)
        dref.writeUInt32(1)
        dref.writeUInt32(12)
        dref.writeFourCC("url ")
        dref.writeUInt32(1)  // self-contained

        // The QuickTime text sample description.
        var entry = ByteWriter(capacity: 60)
        entry.writeBytes([0, 0, 0, 0, 0, 0])
        entry.writeUInt16(1)  // data reference index
        entry.writeUInt32(0)  // display flags
        entry.writeUInt32(0)  // justification: left
        for _ in 0..<3 { entry.writeUInt16(0) }  // background colour
        for _ in 0..<4 { entry.writeUInt16(0) }  // default text box
        entry.writeUInt64(0)  // reserved
        entry.writeUInt16(0)  // font number
        entry.writeUInt16(0)  // font face
        entry.writeUInt8(0)
        entry.writeUInt16(0)
        for _ in 0..<3 { entry.writeUInt16(0) }  // foreground colour
        entry.writeUInt8(0)  // text name: empty Pascal string
        var stsd = ByteWriter(capacity: 72)
        stsd.writeUInt32(0)
        stsd.writeUInt32(1)
        stsd.writeUInt32(UInt32(8 + entry.bytes.count))
        stsd.writeFourCC("text")
        stsd.writeBytes(entry.bytes)

        var stts = ByteWriter(capacity: 8 + edit.samples.count * 8)
        stts.writeUInt32(0)
        stts.writeUInt32(UInt32(edit.samples.count))
        for sample in edit.samples {
            stts.writeUInt32(1)
            stts.writeUInt32(UInt32(clamping: sample.duration))
        }
        var stsc = ByteWriter(capacity: 20)
        stsc.writeUInt32(0)
        stsc.writeUInt32(1)
        stsc.writeUInt32(1)
        stsc.writeUInt32(UInt32(edit.samples.count))
        stsc.writeUInt32(1)
        var stsz = ByteWriter(capacity: 12 + edit.samples.count * 4)
        stsz.writeUInt32(0)
        stsz.writeUInt32(0)
        stsz.writeUInt32(UInt32(edit.samples.count))
        for sample in edit.samples { stsz.writeUInt32(UInt32(ChapterTrackEdit.sampleBytes(sample).count)) }
        var offsets = ByteWriter(capacity: 16)
        offsets.writeUInt32(0)
        offsets.writeUInt32(1)
        if wideOffsets { offsets.writeUInt64(chunkOffset) } else { offsets.writeUInt32(UInt32(clamping: chunkOffset)) }

        let stbl = AtomNode.container("stbl", children: [
            .leaf("stsd", payload: stsd.bytes), .leaf("stts", payload: stts.bytes), .leaf("stsc", payload: stsc.bytes),
            .leaf("stsz", payload: stsz.bytes), .leaf(wideOffsets ? "co64" : "stco", payload: offsets.bytes),
        ])
        let minf = AtomNode.container("minf", children: [
            .container("gmhd", children: [.leaf("gmin", payload: gmin.bytes), .leaf("text", payload: text.bytes)]),
            .container("dinf", children: [.leaf("dref", payload: dref.bytes)]),
            stbl,
        ])
        return .container("trak", children: [
            .leaf("tkhd", payload: tkhd.bytes),
            .container("edts", children: [.leaf("elst", payload: elst.bytes)]),
            .container("mdia", children: [.leaf("mdhd", payload: mdhd.bytes), .leaf("hdlr", payload: hdlr.bytes), minf]),
        ])
    }

    /// `value` in units of `from` per second, in units of `to`, rounded to the nearest.
    static func rescale(_ value: UInt64, from: UInt32, to: UInt32) -> UInt64 {
        guard from != to, from > 0 else { return value }
        let (high, low) = value.multipliedFullWidth(by: UInt64(to))
        guard high < UInt64(from) else { return .max }
        let (quotient, remainder) = UInt64(from).dividingFullWidth((high, low))
        return remainder * 2 >= UInt64(from) ? quotient + 1 : quotient
    }

    /// Creation and modification times (zero: unknown), then the track ID or timescale, then
    /// (for `tkhd`) a reserved word, then the duration.
    private func writeTimes(_ writer: inout ByteWriter, long: Bool, first: UInt32, duration: UInt64, trackHeader: Bool) {
        if long { writer.writeUInt64(0); writer.writeUInt64(0) } else { writer.writeUInt32(0); writer.writeUInt32(0) }
        writer.writeUInt32(first)
        if trackHeader { writer.writeUInt32(0) }
        if long { writer.writeUInt64(duration) } else { writer.writeUInt32(UInt32(duration)) }
    }

    private func writeIdentityMatrix(_ writer: inout ByteWriter) {
        for value: UInt32 in [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000] { writer.writeUInt32(value) }
    }
}
