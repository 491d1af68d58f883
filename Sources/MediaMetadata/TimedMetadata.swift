import Carriers
import ID3
import ISOBMFF
import MediaBytes

/// One timed metadata item: what it says and when, from wherever a file carries it.
public struct TimedMetadataEvent: Sendable, Hashable {
    /// Where the event came from.
    public enum Source: String, Sendable, Hashable {
        /// An ID3 tag in a PES packet of a transport stream's metadata stream.
        case transportStream = "ts"
        /// An `emsg` box of a fragmented MP4 / CMAF segment.
        case eventMessage = "emsg"
        /// A sample of a QuickTime timed metadata track (`mebx`).
        case track
        /// The ID3 tag at the start of a packed-audio segment (ADTS or MP3), timed by its
        /// `com.apple.streaming.transportStreamTimestamp`.
        case packedAudio = "packed-audio"
    }

    /// Seconds: a TS packet's PTS (as ffprobe's `pts_time`), an `emsg`'s presentation time on
    /// the segment's timeline, a track sample's media time through the edit list, a packed
    /// audio segment's timestamp.
    public var time: Double
    /// Seconds; nil when the carrier does not say.
    public var duration: Double?
    public var source: Source
    /// The native item, named as `MediaFile.items` names it (`id3/TIT2`, `id3/TXXX:program`,
    /// `mdta/com.apple.quicktime.location.ISO6709`; `emsg/SCHEME` for a message that is not ID3).
    public var identifier: String
    /// The uniform key the item reads as, or nil.
    public var key: String?
    /// The values as `MediaFile.items` renders them.
    public var values: [String]
    /// Pictures the item holds (an `APIC` in a timed tag), described without their bytes.
    public var pictures: [PictureSummary]
    /// Where the carrier of the event starts in the file (the PES's packet, the `emsg` box,
    /// the sample's item).
    public var offset: UInt64
}

/// The timed metadata of one file.
public struct TimedMetadataReport: Sendable {
    public var path: String
    /// `ts`, `mp4`, `mov`, `3gp`, `aac` or `mp3`.
    public var format: String
    /// In time order (events of one time keep their order in the file).
    public var events: [TimedMetadataEvent]
    /// What was tolerated while reading, with byte offsets.
    public var diagnostics: [Diagnostic]
}

/// Reads timed metadata: ID3 in MPEG-2 transport streams, `emsg` boxes and QuickTime timed
/// metadata tracks in MP4 family files, and the timestamped ID3 tag of packed audio.
public enum TimedMetadata {
    /// The timed metadata of the file at `path`.
    ///
    /// - Throws: `MetadataError` `.fileNotFound`, `.unsupportedFormat` (not a transport
    ///   stream, MP4 family, ADTS or MP3 file), `.malformed` when the structure cannot be read.
    public static func read(path: String) throws(MetadataError) -> TimedMetadataReport {
        do {
            let source = try FileByteSource(path: path)
            var report: TimedMetadataReport
            let format = MediaFormat.detect(source, named: path)
            switch format?.definition {
            case let definition? where definition.structure == .transportStream:
                report = try transportStream(source, path: path)
            case let definition? where definition.structure == .atoms && definition.hasMetadata:
                report = try movie(source, path: path, format: definition.format)
            case let definition? where definition.structure == .mpegStream:
                report = try packedAudio(source, path: path, format: definition.format)
            default:
                throw MetadataError(.unsupportedFormat, path: path, message: "no timed metadata this package reads: not an MPEG transport stream, MP4/QuickTime, ADTS or MP3 file")
            }
            // Events at one time keep their file order (then the order read, for the items of one tag).
            report.events = report.events.enumerated().sorted { a, b in
                if a.element.time != b.element.time { return a.element.time < b.element.time }
                if a.element.offset != b.element.offset { return a.element.offset < b.element.offset }
                return a.offset < b.offset
            }.map(\.element)
            return report
        } catch {
            throw MetadataError.wrapping(error, path: path)
        }
    }

    /// The items of an ID3 tag as events at `time`, named and rendered as `MediaFile.items` does.
    static func events(_ tag: ID3v2Tag, time: Double, duration: Double?, source: TimedMetadataEvent.Source, offset: UInt64) -> [TimedMetadataEvent] {
        ID3MetadataStore(tag: tag, id3v1: nil, info: nil).rankedItems.items.map { item in
            TimedMetadataEvent(time: time, duration: duration, source: source, identifier: item.identifier.description, key: item.key,
                               values: item.values, pictures: item.pictures, offset: offset)
        }
    }

    static func transportStream(_ source: FileByteSource, path: String) throws -> TimedMetadataReport {
        let file = try TransportStreamFile(source: source)
        var events: [TimedMetadataEvent] = []
        for event in file.events {
            guard let tag = event.tag, let time = event.time else { continue }
            events += Self.events(tag, time: time, duration: nil, source: .transportStream, offset: event.offset)
        }
        return TimedMetadataReport(path: path, format: "ts", events: events, diagnostics: file.diagnostics)
    }

    static func packedAudio(_ source: FileByteSource, path: String, format: MediaFormat) throws -> TimedMetadataReport {
        let file = try MPEGStreamFile(source: source)
        var events: [TimedMetadataEvent] = []
        if let tag = file.primaryTag, let stamp = tag.transportStreamTimestamp {
            events = Self.events(tag, time: Double(stamp & 0x1_FFFF_FFFF) / 90_000, duration: file.duration, source: .packedAudio, offset: tag.offset)
        }
        return TimedMetadataReport(path: path, format: format.rawValue, events: events, diagnostics: file.diagnostics)
    }

    static func movie(_ source: FileByteSource, path: String, format: MediaFormat) throws -> TimedMetadataReport {
        let tree = try AtomTree(source: source)
        var diagnostics = tree.diagnostics
        var events: [TimedMetadataEvent] = []
        // emsg boxes: top level, each before the moof of its segment. Where each segment starts
        // is found once, walking the top level backwards.
        let starts = segmentStarts(tree)
        var relativeTimes = 0
        var decompressionBudget = ID3v2Tag.maxDecompressedTagSize  // shared by the messages
        for (index, atom) in tree.atoms.enumerated() where atom.type == "emsg" {
            let box: EventMessageBox
            do {
                let bytes = try tree.fieldBytes(of: atom)
                var reader = ByteReader(bytes, baseOffset: atom.payloadOffset)
                box = try EventMessageBox(from: &reader, context: AtomDecodingContext(atom: atom))
            } catch {
                diagnostics.append(Diagnostic(.warning, MetadataError.Code.malformed, offset: atom.offset, path: "emsg", message: "cannot decode: \(error)"))
                continue
            }
            guard box.timescale > 0 else {
                diagnostics.append(Diagnostic(.warning, MetadataError.Code.malformed, offset: atom.offset, path: "emsg", message: "timescale 0: the event has no time"))
                continue
            }
            var time: Double
            if let presentation = box.presentationTime {
                time = Double(presentation) / Double(box.timescale)
            } else {
                let start = starts[index]
                if start == nil {
                    relativeTimes += 1
                    if relativeTimes == 1 {
                        diagnostics.append(Diagnostic(.note, MetadataError.Code.malformed, offset: atom.offset, path: "emsg",
                                                              message: "no sidx or tfdt gives the segment's start: version 0 times are relative to the segment"))
                    }
                }
                time = (start ?? 0) + Double(box.presentationTimeDelta ?? 0) / Double(box.timescale)
            }
            if box.carriesID3 {
                do {
                    let tag = try ID3v2Tag(parsing: box.messageData[...], at: box.messageDataOffset, decompressionBudget: &decompressionBudget)
                    events += Self.events(tag, time: time, duration: box.durationSeconds, source: .eventMessage, offset: atom.offset)
                } catch {
                    diagnostics.append(Diagnostic(.warning, MetadataError.Code.malformed, offset: box.messageDataOffset, path: "emsg", message: "the message is not a readable ID3 tag: \(error.description)"))
                }
            } else {
                // A message is shown up to 4 KiB (the inspector shows its bytes in full).
                let shown = Array(box.messageData.prefix(4096))
                var text = shown.allSatisfy { $0 >= 0x20 || $0 == 0x0A || $0 == 0x09 } ? TextDecoding.utf8(shown) : Base64.encode(shown)
                if shown.count < box.messageData.count { text += " (first 4096 of \(box.messageData.count) bytes)" }
                events.append(TimedMetadataEvent(time: time, duration: box.durationSeconds, source: .eventMessage,
                                                 identifier: "emsg/" + box.schemeIDURI + (box.value.isEmpty ? "" : "#" + box.value), key: nil,
                                                 values: [text], pictures: [], offset: atom.offset))
            }
        }
        // QuickTime timed metadata tracks.
        for track in TimedMetadataTrack.read(tree) {
            diagnostics += track.problems
            let keys = Dictionary(track.keys.map { ($0.localID, $0) }, uniquingKeysWith: { a, _ in a })
            for sample in track.samples {
                for item in sample.items {
                    guard let key = keys[item.localID] else {
                        diagnostics.append(Diagnostic(.warning, MetadataError.Code.malformed, offset: item.offset, path: "track \(track.trackID)",
                                                              message: "an item names local key \(item.localID), which the sample entry does not declare"))
                        continue
                    }
                    let row = key.namespace == "mdta" ? MetadataKeyTable.definition(quickTimeKey: key.key) : nil
                    let value = ItemValue(dataType: .init(rawValue: key.dataType ?? 0), data: item.bytes)
                    let isImage = value.dataType.isImage
                    // A key without a declared type is shown as its bytes (Base64), as an
                    // item of unknown type is.
                    let values = key.dataType == nil ? [Base64.encode(item.bytes)]
                        : MovieMetadataStore.render(isImage ? [] : [value], type: nil, kind: row?.kind).texts
                    let identifier = key.namespace == "mdta" ? MetadataIdentifier(.quickTimeMetadata, key.key).description : "\(key.namespace)/\(key.key)"
                    events.append(TimedMetadataEvent(time: sample.time, duration: sample.duration, source: .track, identifier: identifier,
                                                     key: row?.key, values: values, pictures: isImage ? [MovieMetadataStore.summary(value)] : [],
                                                     offset: item.offset))
                }
            }
        }
        return TimedMetadataReport(path: path, format: format.rawValue, events: events, diagnostics: diagnostics)
    }

    /// For each top-level index, where the segment that follows it starts, in seconds: the
    /// next `sidx`'s earliest presentation time, else the next `moof`'s first `tfdt` in its
    /// track's timescale (from the movie's `mdhd`); nil when neither comes. One backward walk,
    /// with the track timescales read once.
    static func segmentStarts(_ tree: AtomTree) -> [Double?] {
        let timescales = Dictionary(MovieTrackSummary.tracks(in: tree).map { ($0.trackID, $0.timescale) }, uniquingKeysWith: { a, _ in a })
        var starts = [Double?](repeating: nil, count: tree.atoms.count)
        var next: Double?
        for index in tree.atoms.indices.reversed() {
            let atom = tree.atoms[index]
            if atom.type == "sidx" {
                let sidx: SegmentIndexBox? = tree.payload(of: atom)
                next = sidx.flatMap { $0.timescale > 0 ? Double($0.earliestPresentationTime) / Double($0.timescale) : nil }
            } else if atom.type == "moof" {
                next = nil
                if let traf = atom.child("traf"), let header: TrackFragmentHeaderBox = tree.payload(of: traf.child("tfhd"), parent: "traf"),
                    let fields: FragmentFieldsBox = tree.payload(of: traf.child("tfdt"), parent: "traf"),
                    case .unsigned(let decodeTime)? = fields.fields.first(where: { $0.name == "baseMediaDecodeTime" })?.value,
                    let timescale = timescales[header.trackID], timescale > 0
                {
                    next = Double(decodeTime) / Double(timescale)
                }
            }
            starts[index] = next
        }
        return starts
    }
}
