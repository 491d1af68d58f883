import MediaBytes

/// The samples one track has in the movie fragments of a file (ISO/IEC 14496-12 section 8.8),
/// numbered after the samples of its `moov` tables: each track fragment (`traf`) whose `tfhd`
/// names the track, in file order, with its runs (`trun`) read through the defaults of `tfhd`
/// and the movie's `trex`.
///
/// Making one reads each fragment's `tfhd` track ID and its runs' sample counts (a few bytes of
/// `moof`s the tree holds in memory); a page of samples decodes only the track fragments it
/// falls in, so a file of thousands of fragments is browsed sample by sample without decoding
/// them all.
public struct FragmentSampleLocator: Sendable {
    /// One track fragment of the track: the `moof` (and its 1-based number among the file's
    /// top-level `moof`s) and `traf` that hold it, and where its samples fall in the track.
    public struct TrackFragment: Sendable {
        public var fragment: Int
        public var moof: Atom
        public var traf: Atom
        /// 0-based, counted in the whole track (after the `moov` samples).
        public var firstSample: Int
        public var sampleCount: Int
    }

    /// The track's `trex` defaults (section 8.8.3).
    struct Defaults: Sendable {
        var duration: UInt32?
        var size: UInt32?
        var flags: UInt32?
    }

    public let trackID: UInt32
    public let fragments: [TrackFragment]
    /// The per-sample IV size of the track's `tenc` (an encrypted track), for `senc`.
    private let perSampleIVSize: Int?
    /// The samples in fragments (not counting the `moov` ones).
    public let sampleCount: Int
    private let tree: AtomTree
    private let defaults: Defaults

    /// The fragments of track `trackID` in `tree`, their samples numbered from `firstSample`
    /// (the number of samples the track's `moov` tables hold).
    public init(trackID: UInt32, tree: AtomTree, firstSample: Int = 0) {
        self.trackID = trackID
        self.tree = tree
        var defaults = Defaults()
        let movie = tree.atoms.first { $0.type == "moov" }
        for trex in movie?.child("mvex")?.children ?? [] where trex.type == "trex" {
            guard let bytes = try? tree.fieldBytes(of: trex) else { continue }
            var reader = ByteReader(bytes, baseOffset: trex.payloadOffset)
            guard let box = try? FragmentFieldsBox(from: &reader, context: AtomDecodingContext(atom: trex, parent: "mvex")),
                  box.fields.unsigned("trackID") == UInt64(trackID) else { continue }
            defaults = Defaults(duration: box.fields.unsigned("defaultSampleDuration").map { UInt32(truncatingIfNeeded: $0) },
                                size: box.fields.unsigned("defaultSampleSize").map { UInt32(truncatingIfNeeded: $0) },
                                flags: box.fields.unsigned("defaultSampleFlags").map { UInt32(truncatingIfNeeded: $0) })
            break
        }
        self.defaults = defaults
        let trak = movie?.children.first { $0.type == "trak" && QuickTimeChapterTrack.trackHeader($0, tree: tree)?.trackID == trackID }
        perSampleIVSize = trak.flatMap { AtomInspector(tree: tree).perSampleIVSize(of: $0) }
        var found: [TrackFragment] = []
        var next = firstSample
        var number = 0
        for moof in tree.atoms where moof.type == "moof" {
            number += 1
            for traf in moof.children where traf.type == "traf" {
                guard let tfhd = traf.child("tfhd"), let id = Self.word(tree, tfhd.payloadOffset + 4), id == trackID else { continue }
                var count = 0
                for trun in traf.children where trun.type == "trun" {
                    guard let declared = Self.word(tree, trun.payloadOffset + 4) else { continue }
                    count += Self.believedCount(declared, trun: trun, tree: tree)
                }
                found.append(TrackFragment(fragment: number, moof: moof, traf: traf, firstSample: next, sampleCount: count))
                next += count
            }
        }
        fragments = found
        sampleCount = next - firstSample
    }

    private static func word(_ tree: AtomTree, _ offset: UInt64) -> UInt32? {
        guard let bytes = try? tree.bytes(at: offset, count: 4), bytes.count == 4 else { return nil }
        return bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    /// A run's sample count as far as its bytes hold per-sample fields (a run of defaults takes
    /// no bytes per sample; its count is capped at 2^31 - 1 so the track's total stays an `Int`).
    private static func believedCount(_ declared: UInt32, trun: Atom, tree: AtomTree) -> Int {
        guard let flags = word(tree, trun.payloadOffset) else { return 0 }
        let perSample = [0x100, 0x200, 0x400, 0x800].filter { flags & UInt32($0) != 0 }.count * 4
        var count = Int(min(declared, UInt32(Int32.max)))
        if perSample > 0 {
            let header: UInt64 = 8 + (flags & 0x001 != 0 ? 4 : 0) + (flags & 0x004 != 0 ? 4 : 0)
            let room = trun.payloadSize > header ? (trun.payloadSize - header) / UInt64(perSample) : 0
            count = min(count, Int(min(room, UInt64(Int32.max))))
        }
        return count
    }

    /// The samples in `range` (0-based indexes in the whole track; the part before the first
    /// fragment sample is left out).
    public func samples(_ range: Range<Int>) -> [TrackSampleLocator.Sample] {
        guard let first = fragments.first else { return [] }
        let wanted = range.clamped(to: first.firstSample..<first.firstSample + sampleCount)
        guard !wanted.isEmpty else { return [] }
        // The last fragment starting at or before the first sample wanted.
        var low = 0, high = fragments.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if fragments[mid].firstSample <= wanted.lowerBound { low = mid } else { high = mid - 1 }
        }
        var result: [TrackSampleLocator.Sample] = []
        result.reserveCapacity(wanted.count)
        for index in low..<fragments.count {
            let fragment = fragments[index]
            guard fragment.firstSample < wanted.upperBound else { break }
            result += samples(of: fragment, wanted)
        }
        return result
    }

    /// The samples of one track fragment that fall in `wanted`.
    func samples(of fragment: TrackFragment, _ wanted: Range<Int>) -> [TrackSampleLocator.Sample] {
        let traf = fragment.traf
        func decode<T: AtomPayload>(_ atom: Atom, as: T.Type) -> T? {
            guard let bytes = try? tree.fieldBytes(of: atom) else { return nil }
            var reader = ByteReader(bytes, baseOffset: atom.payloadOffset)
            return try? T(from: &reader, context: AtomDecodingContext(atom: atom, parent: "traf", grandparent: "moof"))
        }
        guard let tfhdAtom = traf.child("tfhd"), let header = decode(tfhdAtom, as: TrackFragmentHeaderBox.self) else { return [] }
        var decodeTime = traf.child("tfdt").flatMap { decode($0, as: FragmentFieldsBox.self) }?.fields.unsigned("baseMediaDecodeTime")
        // Where the data is (section 8.8.7.1): an explicit base, or the `moof` when the flag says
        // so or this is the first track fragment in it; after another track's fragment the base
        // is the end of that one's data, which is not worked out here (offsets left unknown).
        let isFirstInMoof = fragment.moof.children.first { $0.type == "traf" }?.offset == traf.offset
        var base: UInt64? = header.baseDataOffset ?? (header.defaultBaseIsMoof || isFirstInMoof ? fragment.moof.offset : nil)
        let defaultDuration = header.defaultSampleDuration ?? defaults.duration
        let defaultSize = header.defaultSampleSize ?? defaults.size
        let defaultFlags = header.defaultSampleFlags ?? defaults.flags
        // The fragment's sample groups, and its samples' IVs and subsamples from `senc`.
        let groups = traf.children.filter { $0.type == "sbgp" }.compactMap { SampleGroupRuns($0, tree: tree) }
        let encryption = traf.child("senc").flatMap { SampleEncryptionIndex($0, tree: tree, perSampleIVSize: perSampleIVSize, parent: "traf") }
        var number = fragment.firstSample
        var result: [TrackSampleLocator.Sample] = []
        for trunAtom in traf.children where trunAtom.type == "trun" {
            guard let run = decode(trunAtom, as: TrackRunBox.self) else { break }
            let count = Self.believedCount(run.sampleCount, trun: trunAtom, tree: tree)
            var offset: UInt64? = run.dataOffset.flatMap { dataOffset in base.map { UInt64(clamping: Int64(clamping: $0) &+ Int64(dataOffset)) } } ?? base
            // A run whose samples all take the defaults: skip to the first wanted arithmetically.
            var start = 0
            if run.samples.isEmpty, number < wanted.lowerBound {
                start = min(wanted.lowerBound - number, count)
                let skipped = UInt64(start)
                decodeTime = decodeTime.flatMap { time in defaultDuration.map { time &+ skipped &* UInt64($0) } }
                offset = offset.flatMap { at in defaultSize.map { at &+ skipped &* UInt64($0) } }
                number += start
            }
            for index in start..<count {
                let sample = index < run.samples.count ? run.samples[index] : TrackRunBox.Sample()
                let duration = sample.duration ?? defaultDuration
                let size = sample.size ?? defaultSize
                let flags = index == 0 ? run.firstSampleFlags ?? sample.flags ?? defaultFlags : sample.flags ?? defaultFlags
                if wanted.contains(number) {
                    let inFragment = number - fragment.firstSample
                    var entry = TrackSampleLocator.Sample(
                        number: number + 1, decodeTime: decodeTime, compositionOffset: sample.compositionTimeOffset, offset: offset, size: size,
                        // sample_is_non_sync_sample (section 8.8.3.1); no flags at all: each sample stands alone.
                        isSync: flags.map { $0 & 0x10000 == 0 } ?? true, chunk: nil, duration: duration, fragment: fragment.fragment,
                        groups: groups.isEmpty ? [] : SampleGroupRuns.membership(of: inFragment, in: groups))
                    if let (iv, pieces) = encryption?.sample(inFragment) {
                        entry.initializationVector = iv
                        entry.subsamples = pieces
                    }
                    result.append(entry)
                }
                number += 1
                if number >= wanted.upperBound { return result }
                decodeTime = decodeTime.flatMap { time in duration.map { time &+ UInt64($0) } }
                offset = offset.flatMap { at in size.map { at &+ UInt64($0) } }
            }
            base = offset
        }
        return result
    }
}
