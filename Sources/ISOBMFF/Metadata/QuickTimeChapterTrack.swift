import MediaBytes

/// A QuickTime chapter track: the form of chapters Apple's players read (Books, Music,
/// QuickTime Player, AV Foundation). A track of any kind names it in its `tref/chap`; it is a
/// `text` (or `sbtl`) track whose samples are the chapter titles, each shown from its decode
/// time for its duration, in the track's media timescale.
///
/// A sample is a 16-bit big-endian length and that many bytes of text (UTF-16 when it starts
/// with a byte-order mark, else UTF-8; an `encd` atom after the text may say which), followed
/// by optional atoms. Reading is bounded: at most `maximumSamples` samples and
/// `maximumSampleSize` bytes of each are read, whatever the tables claim.
public struct QuickTimeChapterTrack: Sendable, Hashable {
    /// One chapter: its start and duration in `timescale` units, and its title.
    public struct Sample: Sendable, Hashable {
        public var start: UInt64
        public var duration: UInt64
        public var title: String

        public init(start: UInt64, duration: UInt64, title: String) {
            self.start = start
            self.duration = duration
            self.title = title
        }
    }

    /// A problem met reading the track: where, and what.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        public var offset: UInt64
        public var path: String
        public var message: String
        public var description: String { "at byte offset \(offset) (\(path)): \(message)" }
    }

    public var trackID: UInt32
    /// The IDs of the tracks whose `tref/chap` names this one.
    public var referencedBy: [UInt32]
    /// The media timescale of the samples' times.
    public var timescale: UInt32
    public var samples: [Sample]
    /// Whether the track's `tkhd` marks it enabled (a chapter track is usually disabled, so
    /// players do not show it as subtitles).
    public var isEnabled: Bool
    /// The track's path in the file (`moov/trak[2]`).
    public var path: String

    public static let maximumSamples = 10_000
    public static let maximumSampleSize = 16 * 1024

    /// One track of a movie, as far as chapters need it.
    struct TrackInfo {
        var atom: Atom
        var path: String
        var trackID: UInt32
        var isEnabled: Bool
        var handler: FourCC?
        var timescale: UInt32?
        var mediaDuration: UInt64?
        var chapterReferences: [UInt32]
    }

    /// The chapter tracks of the first movie in `tree`, in the order they are referenced, and
    /// the problems met (a reference to a missing track or to the track itself, a track that is
    /// not text, samples past the end of the file, more samples than are read).
    public static func read(_ tree: AtomTree) -> (tracks: [QuickTimeChapterTrack], problems: [Problem]) {
        guard let moov = tree.atoms.first(where: { $0.type == "moov" }) else { return ([], []) }
        // Without a chapter reference there is nothing to read or report (most music files):
        // looked for in place, before any track is copied out.
        let children = moov.children
        guard children.indices.contains(where: { children[$0].type == "trak" && children[$0].child("tref")?.child("chap") != nil }) else { return ([], []) }
        let traks = children.filter { $0.type == "trak" }
        let infos = traks.enumerated().map { index, trak in
            trackInfo(trak, path: "moov/trak" + (traks.count > 1 ? "[\(index)]" : ""), tree: tree)
        }
        var problems: [Problem] = []
        var order: [UInt32] = []
        var referencedBy: [UInt32: [UInt32]] = [:]
        for info in infos {
            for target in info.chapterReferences {
                let at = info.atom.descendant(AtomPath(parsing: "tref/chap")!)?.offset ?? info.atom.offset
                if target == info.trackID {
                    problems.append(Problem(offset: at, path: info.path + "/tref/chap", message: "the track names itself as its chapter track; ignored"))
                    continue
                }
                guard infos.contains(where: { $0.trackID == target }) else {
                    problems.append(Problem(offset: at, path: info.path + "/tref/chap", message: "names track \(target) as its chapter track, and there is no such track"))
                    continue
                }
                if referencedBy[target] == nil { order.append(target) }
                referencedBy[target, default: []].append(info.trackID)
            }
        }
        var tracks: [QuickTimeChapterTrack] = []
        for id in order {
            guard let info = infos.first(where: { $0.trackID == id }) else { continue }
            guard info.handler == "text" || info.handler == "sbtl" else {
                problems.append(Problem(offset: info.atom.offset, path: info.path,
                                        message: "named as a chapter track but its handler is \(info.handler.map { "'\($0)'" } ?? "missing"), not 'text'; not read as chapters"))
                continue
            }
            guard let timescale = info.timescale, timescale > 0, let locator = TrackSampleLocator(trak: info.atom, tree: tree) else {
                problems.append(Problem(offset: info.atom.offset, path: info.path, message: "chapter track without a usable timescale or sample table; not read"))
                continue
            }
            let count = min(locator.sampleCount, maximumSamples)
            if locator.sampleCount > maximumSamples {
                problems.append(Problem(offset: info.atom.offset, path: info.path + "/mdia/minf/stbl",
                                        message: "the chapter track claims \(locator.sampleCount) samples; the first \(maximumSamples) are read"))
            }
            let located = locator.samples(0..<count)
            var samples: [Sample] = []
            for (index, sample) in located.enumerated() {
                guard let offset = sample.offset, let size = sample.size, let start = sample.decodeTime else { continue }
                let end: UInt64 = if index + 1 < located.count, let next = located[index + 1].decodeTime {
                    next
                } else {
                    max(info.mediaDuration ?? start, start)
                }
                let readable = Int(min(UInt64(size), UInt64(maximumSampleSize)))
                guard offset < tree.source.size, let bytes = try? tree.source.read(at: offset, count: Int(min(UInt64(readable), tree.source.size - offset))) as [UInt8] else {
                    problems.append(Problem(offset: offset, path: info.path, message: "chapter sample \(sample.number) lies past the end of the file"))
                    continue
                }
                samples.append(Sample(start: start, duration: end >= start ? end - start : 0, title: title(of: Array(bytes))))
            }
            tracks.append(QuickTimeChapterTrack(trackID: id, referencedBy: referencedBy[id] ?? [], timescale: timescale, samples: samples,
                                                isEnabled: info.isEnabled, path: info.path))
        }
        return (tracks, problems)
    }

    /// The track ID and enabled flag of `trak`'s `tkhd` (one read of its first 24 bytes); nil
    /// without a readable `tkhd`.
    static func trackHeader(_ trak: Atom, tree: AtomTree) -> (trackID: UInt32, isEnabled: Bool)? {
        guard let tkhd = trak.child("tkhd"), tkhd.payloadSize >= 24, let head = try? tree.bytes(at: tkhd.payloadOffset, count: 24) else { return nil }
        let s = head.startIndex
        let at = s + (head[s] == 1 ? 20 : 12)
        return (head[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) }, head[s + 3] & 1 != 0)
    }

    static func trackInfo(_ trak: Atom, path: String, tree: AtomTree) -> TrackInfo {
        func payload(_ atom: Atom?, _ count: Int) -> [UInt8]? {
            guard let atom, atom.payloadSize >= UInt64(count), let bytes = try? tree.bytes(at: atom.payloadOffset, count: count) else { return nil }
            return Array(bytes)
        }
        func number(_ bytes: ArraySlice<UInt8>) -> UInt64 { bytes.reduce(0) { $0 << 8 | UInt64($1) } }
        let header = trackHeader(trak, tree: tree)
        var info = TrackInfo(atom: trak, path: path, trackID: header?.trackID ?? 0, isEnabled: header?.isEnabled ?? false, chapterReferences: [])
        let mdia = trak.child("mdia")
        if let hdlr: HandlerBox = tree.payload(of: mdia?.child("hdlr"), parent: "mdia") { info.handler = hdlr.handlerType }
        if let mdhd: MediaHeaderBox = tree.payload(of: mdia?.child("mdhd"), parent: "mdia") {
            info.timescale = mdhd.timescale
            info.mediaDuration = mdhd.duration
        }
        if let chap = trak.child("tref")?.child("chap") {
            let count = Int(min(chap.payloadSize / 4, 256))
            if let ids = payload(chap, count * 4) {
                info.chapterReferences = stride(from: 0, to: ids.count, by: 4).map { UInt32(number(ids[$0..<$0 + 4])) }
            }
        }
        return info
    }

    /// The title in a text sample: its length-prefixed text, decoded as its byte-order mark or
    /// `encd` atom says (UTF-8 otherwise, ISO Latin-1 for bytes that are not UTF-8).
    public static func title(of sample: [UInt8]) -> String {
        guard sample.count >= 2 else { return "" }
        let length = Int(sample[0]) << 8 | Int(sample[1])
        let text = Array(sample[2..<min(2 + length, sample.count)])
        if text.starts(with: [0xFE, 0xFF]) || text.starts(with: [0xFF, 0xFE]) { return TextDecoding.utf16(text) }
        var encoding: UInt32?
        var position = 2 + length
        while position + 8 <= sample.count {
            let size = Int(sample[position]) << 24 | Int(sample[position + 1]) << 16 | Int(sample[position + 2]) << 8 | Int(sample[position + 3])
            guard size >= 8, position + size <= sample.count else { break }
            if Array(sample[position + 4..<position + 8]) == Array("encd".utf8), size >= 12 {
                encoding = sample[position + 8..<position + 12].reduce(0) { $0 << 8 | UInt32($1) }
            }
            position += size
        }
        // 0x100 is Unicode (UTF-8 in a text sample), as ffmpeg and Apple write it.
        if encoding == 0x100 || String(validating: text, as: UTF8.self) != nil { return TextDecoding.utf8(text) }
        return TextDecoding.latin1(text)
    }
}
