import MediaBytes

/// A QuickTime timed metadata track (`hdlr` `meta`, sample entry `mebx`; QuickTime File
/// Format, "Timed Metadata Media"): its key declarations and its samples, each a run of
/// boxes whose type is a local key ID and whose payload is the value, timed through `stts`,
/// `ctts` and the edit list. iPhone movies carry location, detected faces, still-image time
/// and camera data this way.
public struct TimedMetadataTrack: Sendable {
    /// A key of the sample entry's table.
    public struct Key: Sendable, Hashable {
        public var localID: UInt32
        /// `mdta` (reverse-DNS keys), `udta`, `itsk`...
        public var namespace: FourCC
        public var key: String
        /// A well-known data type (namespace 0 of `dtyp`), nil otherwise.
        public var dataType: UInt32?
        public var locale: String?
    }

    /// One value of a sample.
    public struct Item: Sendable, Hashable {
        public var localID: UInt32
        public var bytes: [UInt8]
        /// Where the value's box starts in the file.
        public var offset: UInt64
    }

    /// One sample: its presentation time and duration in seconds, and its items.
    public struct Sample: Sendable, Hashable {
        public var time: Double
        public var duration: Double?
        public var offset: UInt64
        public var items: [Item]
    }

    public var trackID: UInt32
    public var keys: [Key]
    public var samples: [Sample]
    /// What could not be read, with byte offsets.
    public var problems: [Diagnostic]

    /// At most this many samples are read from one track (a track claiming more is read up to
    /// here, with a problem saying so).
    public static let sampleLimit = 100_000
    /// A sample larger than this is not read.
    public static let sampleSizeLimit: UInt32 = 1 << 20
    /// At most this many bytes of samples and this many items are read from one track (samples
    /// may all point at the same bytes, so the file's size does not bound them).
    public static let trackByteLimit = 64 << 20
    public static let trackItemLimit = 1_000_000

    /// The timed metadata tracks of `tree`'s movie.
    public static func read(_ tree: AtomTree) -> [TimedMetadataTrack] {
        guard let moov = tree.atoms.first(where: { $0.type == "moov" }) else { return [] }
        let movieTimescale = (tree.payload(of: moov.child("mvhd")) as MovieHeaderBox?)?.timescale ?? 0
        var tracks: [TimedMetadataTrack] = []
        for (index, trak) in moov.children.enumerated() where trak.type == "trak" {
            guard let entry = trak.descendant(TrackSampleTables.stblPath)?.child("stsd")?.children.first, entry.type == "mebx" else { continue }
            let summary = MovieTrackSummary.summary(of: trak, tree: tree, movieTimescale: movieTimescale)
            var track = TimedMetadataTrack(trackID: summary.trackID, keys: [], samples: [], problems: [])
            let path = AtomPath([.init(type: "moov"), .init(type: "trak", index: moov.children[..<index].filter { $0.type == "trak" }.count)])
            track.keys = keys(of: entry, tree: tree, path: path, problems: &track.problems)
            track.samples = samples(of: trak, tree: tree, movieTimescale: movieTimescale, summary: summary, path: path, problems: &track.problems)
            tracks.append(track)
        }
        return tracks
    }

    static func keys(of entry: Atom, tree: AtomTree, path: AtomPath, problems: inout [Diagnostic]) -> [Key] {
        guard let table = entry.child("keys") else {
            problems.append(Diagnostic(.warning, .invalidPayload, offset: entry.offset, path: path, message: "the mebx sample entry has no keys box"))
            return []
        }
        var keys: [Key] = []
        for local in table.children {
            var key = Key(localID: local.type.rawValue, namespace: "    ", key: "", dataType: nil, locale: nil)
            var named = false
            for declaration in local.children where declaration.payloadSize <= 64 << 10 {
                guard let payload = try? tree.bytes(at: declaration.payloadOffset, count: Int(declaration.payloadSize)) else { continue }
                switch MetadataKeyDeclaration.declaration(declaration.type, Array(payload)) {
                case .key(let namespace, let value)?:
                    key.namespace = namespace
                    key.key = MetadataKeyDeclaration.keyText(value)
                    named = true
                case .dataType(let namespace, let type)? where namespace == 0 && type.count == 4:
                    key.dataType = type.reduce(0) { $0 << 8 | UInt32($1) }
                case .locale(let text)?:
                    key.locale = text
                default:
                    continue
                }
            }
            if named {
                keys.append(key)
            } else {
                problems.append(Diagnostic(.warning, .invalidPayload, offset: local.offset, path: path, message: "local key \(local.type) declares no key (keyd)"))
            }
        }
        return keys
    }

    static func samples(of trak: Atom, tree: AtomTree, movieTimescale: UInt32, summary: MovieTrackSummary, path: AtomPath,
                        problems: inout [Diagnostic]) -> [Sample] {
        guard let locator = TrackSampleLocator(trak: trak, tree: tree), summary.timescale > 0 else { return [] }
        let count = min(locator.sampleCount, sampleLimit)
        if locator.sampleCount > sampleLimit {
            problems.append(Diagnostic(.warning, .payloadLimit, offset: trak.offset, path: path,
                                           message: "the track has \(locator.sampleCount) samples; the first \(sampleLimit) are read"))
        }
        let timescale = Double(summary.timescale)
        // The edit list: empty edits delay the track; the first media edit says where it starts.
        var delay = 0.0
        var mediaStart: Int64 = 0
        if let edits: EditListBox = tree.payload(of: trak.child("edts")?.child("elst"), parent: "edts") {
            for entry in edits.entries {
                if entry.mediaTime < 0 {
                    if movieTimescale > 0 { delay += Double(entry.segmentDuration) / Double(movieTimescale) }
                } else {
                    mediaStart = entry.mediaTime
                    break
                }
            }
        }
        var result: [Sample] = []
        var bytesRead = 0, itemsRead = 0
        let located = locator.samples(0..<count)
        for (index, sample) in located.enumerated() {
            guard let offset = sample.offset, let size = sample.size, let decode = sample.decodeTime else { continue }
            // In floating point: hostile times and offsets cannot overflow.
            let time = delay + (Double(decode) + Double(sample.compositionOffset ?? 0) - Double(mediaStart)) / timescale
            let next = index + 1 < located.count ? located[index + 1].decodeTime : (summary.mediaDuration > 0 ? summary.mediaDuration : nil)
            let duration = next.flatMap { $0 >= decode ? Double($0 - decode) / timescale : nil }
            guard bytesRead + Int(size) <= trackByteLimit, itemsRead < trackItemLimit else {
                problems.append(Diagnostic(.warning, .payloadLimit, offset: offset, path: path,
                                               message: "the track's samples pass \(trackByteLimit) bytes or \(trackItemLimit) items at sample \(sample.number); the rest is not read"))
                break
            }
            guard size <= sampleSizeLimit else {
                problems.append(Diagnostic(.warning, .payloadLimit, offset: offset, path: path, message: "sample \(sample.number) of \(size) bytes is not read"))
                continue
            }
            guard let bytes = try? tree.bytes(at: offset, count: Int(size)) else {
                problems.append(Diagnostic(.warning, .truncated, offset: offset, path: path, message: "sample \(sample.number) (\(size) bytes at \(offset)) is not in the file"))
                continue
            }
            var items: [Item] = []
            var at = bytes.startIndex
            while at + 8 <= bytes.endIndex {
                let length = Int(bytes[at..<at + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
                guard length >= 8, at + length <= bytes.endIndex else {
                    problems.append(Diagnostic(.warning, .invalidPayload, offset: offset + UInt64(at - bytes.startIndex), path: path,
                                                   message: "sample \(sample.number): an item of \(length) bytes does not fit the sample"))
                    break
                }
                let id = bytes[at + 4..<at + 8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                items.append(Item(localID: id, bytes: Array(bytes[at + 8..<at + length]), offset: offset + UInt64(at - bytes.startIndex)))
                at += length
            }
            bytesRead += Int(size)
            itemsRead += items.count
            result.append(Sample(time: time, duration: duration, offset: offset, items: items))
        }
        return result
    }
}
