import MediaBytes

/// What one track of a movie is, from its headers and sample description: handler, time,
/// sample entry and the stream parameters it declares (never by reading samples). The
/// metadata layer turns this into audio and video properties.
public struct MovieTrackSummary: Sendable, Hashable {
    public var trackID: UInt32
    public var isEnabled: Bool
    /// `soun`, `vide`, `text`, `meta`...; nil without a readable `hdlr`.
    public var handler: FourCC?
    /// The media timescale and duration (`mdhd`); 0 when unknown.
    public var timescale: UInt32 = 0
    public var mediaDuration: UInt64 = 0
    /// The first sample entry's type (`mp4a`, `alac`, `avc1`, `lpcm`...).
    public var sampleEntryType: FourCC?
    /// Audio: from the sample entry, refined by `esds` and `alac` where they say more.
    public var channels: Int?
    public var sampleRate: Double?
    public var bitsPerSample: Int?
    /// The MPEG-4 object type of an `esds` (0x40 MPEG-4 audio, 0x6B MPEG-1 audio...).
    public var objectTypeIndication: UInt8?
    /// The MPEG-4 audio object type of the AudioSpecificConfig (2 AAC LC, 5 HE-AAC...).
    public var audioObjectType: Int?
    /// The average bit rate the stream declares (`esds`, `alac` or `btrt`), bits per second.
    public var declaredBitrate: UInt32?
    /// Video: the sample entry's size in pixels.
    public var width: Int?
    public var height: Int?
    /// The number of samples (`stts`) and their total size in bytes (`stsz`); nil when the
    /// tables are missing (fragmented movies keep them in fragments).
    public var sampleCount: UInt64?
    public var sampleBytes: UInt64?

    /// The presentation's length through the edit list (`edts/elst`: the non-empty edits, in
    /// seconds); nil without one.
    public var editedDuration: Double?
    /// Uncompressed QuickTime audio whose `wave/enda` says little-endian.
    public var isLittleEndian = false

    /// The track's duration in seconds: through its edit list when it has one (as players and
    /// ffprobe count it, without the encoder's priming samples), else the media duration; nil
    /// when unknown.
    public var duration: Double? {
        if let editedDuration, editedDuration > 0 { return editedDuration }
        return timescale > 0 && mediaDuration > 0 ? Double(mediaDuration) / Double(timescale) : nil
    }

    /// The tracks of `tree`'s movie, in file order. A track whose boxes are missing or damaged
    /// has the fields it could read; it is never an error.
    public static func tracks(in tree: AtomTree) -> [MovieTrackSummary] {
        guard let moov = tree.atoms.first(where: { $0.type == "moov" }) else { return [] }
        let movieTimescale = (tree.payload(of: moov.child("mvhd")) as MovieHeaderBox?)?.timescale ?? 0
        // The tracks read in place (a filtered list of them was a copy of every `trak`).
        var tracks: [MovieTrackSummary] = []
        for index in moov.children.indices where moov.children[index].type == "trak" {
            tracks.append(summary(of: moov.children[index], tree: tree, movieTimescale: movieTimescale))
        }
        if let mvex = moov.child("mvex") {
            // A fragmented movie: the samples of every `moof` count too (ffprobe sums them).
            let totals = fragmentTotals(in: tree, mvex: mvex)
            for index in tracks.indices {
                guard let total = totals[tracks[index].trackID] else { continue }
                tracks[index].mediaDuration &+= total.duration
                tracks[index].sampleCount = (tracks[index].sampleCount ?? 0) + UInt64(total.count)
                tracks[index].sampleBytes = (tracks[index].sampleBytes ?? 0) &+ total.bytes
            }
        }
        return tracks
    }

    /// The samples of each track in the movie fragments: their count, duration (media
    /// timescale) and bytes, from each `trun` with the `tfhd` and `trex` defaults (ISO/IEC
    /// 14496-12, 8.8). A fragment that does not decode adds nothing.
    static func fragmentTotals(in tree: AtomTree, mvex: Atom) -> [UInt32: (count: Int, duration: UInt64, bytes: UInt64)] {
        var defaults: [UInt32: (duration: UInt64, size: UInt64)] = [:]
        for trex in mvex.children where trex.type == "trex" {
            guard let box: FragmentFieldsBox = tree.payload(of: trex, parent: "mvex") else { continue }
            func value(_ name: String) -> UInt64? {
                if case .unsigned(let v)? = box.fields.first(where: { $0.name == name })?.value { return v }
                return nil
            }
            if let id = value("trackID") { defaults[UInt32(truncatingIfNeeded: id)] = (value("defaultSampleDuration") ?? 0, value("defaultSampleSize") ?? 0) }
        }
        var totals: [UInt32: (count: Int, duration: UInt64, bytes: UInt64)] = [:]
        for moof in tree.atoms where moof.type == "moof" {
            for traf in moof.children where traf.type == "traf" {
                guard let tfhd: TrackFragmentHeaderBox = tree.payload(of: traf.child("tfhd"), parent: "traf") else { continue }
                let duration = tfhd.defaultSampleDuration.map(UInt64.init) ?? defaults[tfhd.trackID]?.duration ?? 0
                let size = tfhd.defaultSampleSize.map(UInt64.init) ?? defaults[tfhd.trackID]?.size ?? 0
                var total = totals[tfhd.trackID] ?? (0, 0, 0)
                for trunAtom in traf.children where trunAtom.type == "trun" {
                    guard let trun: TrackRunBox = tree.payload(of: trunAtom, parent: "traf") else { continue }
                    total.count += Int(trun.sampleCount)
                    if trun.samples.isEmpty {
                        total.duration &+= UInt64(trun.sampleCount) &* duration
                        total.bytes &+= UInt64(trun.sampleCount) &* size
                    } else {
                        for sample in trun.samples {
                            total.duration &+= sample.duration.map(UInt64.init) ?? duration
                            total.bytes &+= sample.size.map(UInt64.init) ?? size
                        }
                    }
                }
                totals[tfhd.trackID] = total
            }
        }
        return totals
    }

    /// The movie's duration in seconds (`mvhd`, or `mvex/mehd` for a fragmented movie).
    public static func movieDuration(in tree: AtomTree) -> Double? {
        guard let moov = tree.atoms.first(where: { $0.type == "moov" }),
            let mvhd: MovieHeaderBox = tree.payload(of: moov.child("mvhd")), mvhd.timescale > 0
        else { return nil }
        var duration = mvhd.duration
        if duration == 0 || duration == UInt64(UInt32.max), let mehd = moov.child("mvex")?.child("mehd"),
            let fields: FragmentFieldsBox = tree.payload(of: mehd, parent: "mvex"),
            case .unsigned(let fragmentDuration)? = fields.fields.first(where: { $0.name == "fragmentDuration" })?.value
        {
            duration = fragmentDuration
        }
        return duration > 0 && duration != UInt64(UInt32.max) ? Double(duration) / Double(mvhd.timescale) : nil
    }

    static func summary(of trak: Atom, tree: AtomTree, movieTimescale: UInt32) -> MovieTrackSummary {
        let header = QuickTimeChapterTrack.trackHeader(trak, tree: tree)
        var track = MovieTrackSummary(trackID: header?.trackID ?? 0, isEnabled: header?.isEnabled ?? false)
        let mdia = trak.child("mdia")
        if let handler: HandlerBox = tree.payload(of: mdia?.child("hdlr"), parent: "mdia") { track.handler = handler.handlerType }
        if let mdhd: MediaHeaderBox = tree.payload(of: mdia?.child("mdhd"), parent: "mdia") {
            track.timescale = mdhd.timescale
            track.mediaDuration = mdhd.duration == UInt64(UInt32.max) ? 0 : mdhd.duration
        }
        if movieTimescale > 0, let edits: EditListBox = tree.payload(of: trak.child("edts")?.child("elst"), parent: "edts") {
            let total = edits.entries.filter { $0.mediaTime >= 0 }.reduce(UInt64(0)) { $0 &+ $1.segmentDuration }
            if total > 0 { track.editedDuration = Double(total) / Double(movieTimescale) }
        }
        guard let stbl = trak.descendant(TrackSampleTables.stblPath) else { return track }
        if let entry = stbl.child("stsd")?.children.first {
            track.readSampleEntry(entry, tree: tree, handler: track.handler)
        }
        if let times: TimeToSampleBox = tree.payload(of: stbl.child("stts"), parent: "stbl"), !times.entries.isEmpty {
            track.sampleCount = times.sampleCount
        }
        track.sampleBytes = sampleBytes(stbl.child("stsz"), tree: tree)
        return track
    }

    /// The total size of a track's samples from its `stsz`: the uniform size times the count,
    /// or the 32-bit entries summed as they are read (no table is built); nil without a
    /// readable `stsz` (or with `stz2`, whose small entries are not summed here).
    static func sampleBytes(_ stsz: Atom?, tree: AtomTree) -> UInt64? {
        guard let stsz, stsz.payloadSize >= 12, let head = try? tree.bytes(at: stsz.payloadOffset, count: 12) else { return nil }
        func word(_ at: Int) -> UInt64 {
            let i = head.startIndex + at
            return UInt64(head[i]) << 24 | UInt64(head[i + 1]) << 16 | UInt64(head[i + 2]) << 8 | UInt64(head[i + 3])
        }
        let uniform = word(4)
        let count = word(8)
        guard count > 0 else { return nil }
        if uniform != 0 { return uniform * count }
        // Entries the atom really holds (a count larger than the table is not believed).
        let entries = min(count, (stsz.payloadSize - 12) / 4)
        var total: UInt64 = 0
        var done: UInt64 = 0
        while done < entries {
            let batch = Int(min(entries - done, 1 << 18))
            guard let bytes = try? tree.bytes(at: stsz.payloadOffset + 12 + done * 4, count: batch * 4) else { return nil }
            var index = bytes.startIndex
            while index + 4 <= bytes.endIndex {
                total += UInt64(bytes[index]) << 24 | UInt64(bytes[index + 1]) << 16 | UInt64(bytes[index + 2]) << 8 | UInt64(bytes[index + 3])
                index += 4
            }
            done += UInt64(batch)
        }
        return total
    }

    private mutating func readSampleEntry(_ entry: Atom, tree: AtomTree, handler: FourCC?) {
        sampleEntryType = entry.type
        if let decoded: SampleEntry = tree.payload(of: entry, parent: "stsd", handler: handler) {
            func number(_ name: String) -> Double? {
                switch decoded.fields.first(where: { $0.name == name })?.value {
                case .unsigned(let value)?: Double(value)
                case .integer(let value)?: Double(value)
                case .number(let value)?: value
                default: nil
                }
            }
            switch decoded.kind {
            case .audio:
                guard let audio = decoded.audio else { break }
                channels = Int(exactly: audio.channelCount)
                sampleRate = audio.sampleRate
                // QuickTime version 1 descriptions keep 16 in sampleSize and the real width in
                // bytesPerSample; version 2 has bitsPerChannel.
                let bytesPerSample = audio.bytesPerSample.flatMap { $0 > 0 && $0 <= 8 ? Int($0) * 8 : nil }
                bitsPerSample = audio.bitsPerChannel.map { Int($0) } ?? bytesPerSample ?? audio.sampleSize.map { Int($0) }
            case .video:
                width = number("width").flatMap { Int(exactly: $0) }
                height = number("height").flatMap { Int(exactly: $0) }
            default:
                break
            }
        }
        // The codec's own configuration says more than the QuickTime-era fields; a protected
        // entry (`enca`, `encv`) keeps its children all the same.
        for child in entry.children {
            switch child.type {
            case "esds":
                guard let esds: ElementaryStreamDescriptorBox = tree.payload(of: child, parent: entry.type) else { continue }
                objectTypeIndication = esds.objectTypeIndication
                if let bitrate = esds.averageBitrate, bitrate > 0 { declaredBitrate = bitrate }
                if let config = esds.audioConfig {
                    audioObjectType = config.audioObjectType
                    // The decoder's configuration, not the sample entry, says the rate it
                    // outputs (as ffprobe reports it): SBR's for HE-AAC.
                    if let rate = config.outputSamplingFrequency, rate > 0 { sampleRate = Double(rate) }
                    if (1...7).contains(config.channelConfiguration) {
                        channels = config.channelConfiguration == 7 ? 8 : config.channelConfiguration
                    }
                }
            case "alac":
                // ALACSpecificConfig after the full-box header: frameLength(4) compatibleVersion(1)
                // bitDepth(1) pb mb kb(3) numChannels(1) maxRun(2) maxFrameBytes(4) avgBitRate(4) sampleRate(4).
                guard child.payloadSize >= 28, let bytes = try? tree.bytes(at: child.payloadOffset, count: 28) else { continue }
                var reader = ByteReader(Array(bytes))
                guard (try? reader.skip(9)) != nil, let depth = try? reader.readUInt8(), (try? reader.skip(3)) != nil,
                    let count = try? reader.readUInt8(), (try? reader.skip(6)) != nil,
                    let average = try? reader.readUInt32(), let rate = try? reader.readUInt32()
                else { continue }
                bitsPerSample = Int(depth)
                channels = Int(count)
                if rate > 0 { sampleRate = Double(rate) }
                if average > 0 { declaredBitrate = average }
            case "dfLa":
                // FLACSpecificBox: a full-box header, then metadata blocks, STREAMINFO first; its
                // 20-bit sample rate follows a 4-byte block header and 10 bytes of sizes.
                guard child.payloadSize >= 4 + 4 + 18, let slice = try? tree.bytes(at: child.payloadOffset, count: 4 + 4 + 18) else { continue }
                let bytes = Array(slice)
                guard bytes[4] & 0x7F == 0 else { continue }  // the first block is STREAMINFO (type 0)
                let info = Array(bytes.dropFirst(8))
                let rate = Int(info[10]) << 12 | Int(info[11]) << 4 | Int(info[12]) >> 4
                if rate > 0 { sampleRate = Double(rate) }
                channels = Int(info[12] >> 1 & 0x7) + 1
                bitsPerSample = Int(info[12] & 1) << 4 + Int(info[13] >> 4) + 1
            case "wave":
                // QuickTime's decompression parameters: `enda` 1 means little-endian samples.
                guard let enda = child.child("enda"), enda.payloadSize >= 2,
                    let flag = try? tree.bytes(at: enda.payloadOffset, count: 2) else { continue }
                isLittleEndian = flag.last == 1
            case "btrt":
                guard declaredBitrate == nil, let box: SmallFieldsBox = tree.payload(of: child, parent: entry.type),
                    case .unsigned(let average)? = box.fields.first(where: { $0.name == "averageBitrate" })?.value, average > 0
                else { continue }
                declaredBitrate = UInt32(clamping: average)
            default:
                continue
            }
        }
    }
}

extension AtomTree {
    /// The typed payload of `atom` (`let mdhd: MediaHeaderBox? = tree.payload(of: atom)`), or
    /// nil when the atom is missing or does not decode as `T`. `parent` and `handler` are the
    /// context some payloads need (a sample entry its handler, a `tfdt` nothing).
    public func payload<T: AtomPayload>(of atom: Atom?, parent: FourCC? = nil, handler: FourCC? = nil) -> T? {
        guard let atom, let bytes = try? fieldBytes(of: atom) else { return nil }
        var reader = ByteReader(bytes, baseOffset: atom.payloadOffset)
        var context = AtomDecodingContext(atom: atom, parent: parent, handler: handler)
        context.recordsFieldBytes = false
        return try? T(from: &reader, context: context)
    }
}
