import MediaBytes
import Synchronization

/// Where each sample of a track lies in the file and when it is decoded and shown, for browsing
/// a track sample by sample (ISO/IEC 14496-12 section 8.7: `stsc` + `stco`/`co64` + `stsz`, with
/// `stts`, `ctts` and `stss` for times and sync samples).
///
/// Making one reads only the sample-size header (the sample count). The run tables and chunk
/// offsets are decoded when a sample or chunk is first asked for; the sample sizes are added up
/// into a running total every 4096 samples only when a sample past the first 4096 is. After
/// that a page of samples costs one read of at most 4096 + page size entries, wherever it is in
/// a million-sample track; the first page (a node's first row, which `atominspect --json`
/// reads for the node's reference) never reads the whole size table.
public struct TrackSampleLocator: Sendable {
    /// One sample: its 1-based number, decode time and composition offset (in the media
    /// timescale), where its bytes are, and whether a decoder can start at it.
    public struct Sample: Sendable {
        public var number: Int
        public var decodeTime: UInt64?
        public var compositionOffset: Int64?
        public var offset: UInt64?
        public var size: UInt32?
        public var isSync: Bool
        /// The 1-based chunk that holds it (in the `moov` tables).
        public var chunk: Int?
        /// How long it lasts, in the media timescale.
        public var duration: UInt32? = nil
        /// The 1-based number of the top-level `moof` that holds it (a sample of a movie
        /// fragment); nil for a sample of the `moov` tables.
        public var fragment: Int? = nil
        /// The sample groups it is in (`sbgp`): `roll:1`, `seig:1 here` (a description of
        /// the fragment's own `sgpd`).
        public var groups: [String] = []
        /// Its initialization vector and its subsamples' clear and protected byte counts, from
        /// the fragment's `senc` (an encrypted track's sample).
        public var initializationVector: [UInt8]? = nil
        public var subsamples: [(clear: UInt64, protected: UInt64)]? = nil
    }

    struct Run: Sendable {
        var firstSample: Int
        var count: Int
        var value: Int64
        var startTime: UInt64
    }

    /// The tables decoded from the track, built on first use.
    struct Index: Sendable {
        var chunkOffsets: [UInt64] = []
        /// The number of the first sample (0-based) of each chunk, and one past the last.
        var chunkFirstSample: [Int] = []
        var times: [Run] = []
        var compositionOffsets: [Run] = []
        var syncSamples: [UInt32]?
        /// The sample groups of `stbl`'s `sbgp`s.
        var groups: [SampleGroupRuns] = []
        /// The samples' IVs of an `senc` in `stbl` (where ffmpeg writes the encryption of the
        /// samples `moov` lists).
        var encryption: SampleEncryptionIndex?
    }

    /// The track the index is built from, and the index once built (copies of a locator share
    /// it). It keeps the tree alive as long as the locator (the tree's containers over 1 MiB
    /// are not in memory; their tables are read when the index is built).
    private final class LazyIndex: Sendable {
        let trak: Atom
        let tree: AtomTree
        let built = Mutex<Index?>(nil)
        /// The total size of samples `0..<k * checkpointInterval`, for each k: the whole size
        /// table read once, only when a sample past the first block is asked for.
        let checkpoints = Mutex<[UInt64]?>(nil)

        init(trak: Atom, tree: AtomTree) {
            self.trak = trak
            self.tree = tree
        }

        /// The value `slot` holds, computed and kept the first time it is asked for (outside the
        /// lock: two threads asking at once may both compute it, and either result is the same).
        static func memo<T: Sendable>(_ slot: borrowing Mutex<T?>, _ compute: () -> T) -> T {
            if let value = slot.withLock({ $0 }) { return value }
            let value = compute()
            slot.withLock { $0 = value }
            return value
        }
    }

    public let sampleCount: Int
    private let source: any ByteSource
    private let uniformSize: UInt32
    /// Where the per-sample size entries start, and their width in bits (4, 8, 16 or 32).
    private let sizeEntries: (offset: UInt64, bits: Int, count: Int)?
    private let lazyIndex: LazyIndex
    static let checkpointInterval = 4096

    /// The locator of `trak`; nil when it has no sample table or no sample sizes.
    public init?(trak: Atom, tree: AtomTree) {
        guard let stbl = trak.descendant(TrackSampleTables.stblPath),
            let sizeAtom = stbl.child("stsz") ?? stbl.child("stz2"), sizeAtom.payloadSize >= 12,
            let head = try? tree.bytes(at: sizeAtom.payloadOffset, count: 12)
        else { return nil }
        source = tree.source
        let h = Array(head)
        let available = sizeAtom.payloadSize - 12
        if sizeAtom.type == "stz2" {
            let bits = Int(h[7])
            guard [4, 8, 16].contains(bits) else { return nil }
            let declared = Int(UInt32(h[8]) << 24 | UInt32(h[9]) << 16 | UInt32(h[10]) << 8 | UInt32(h[11]))
            let count = min(declared, Int(min(available * 8 / UInt64(bits), UInt64(Int32.max))))
            uniformSize = 0
            sizeEntries = (sizeAtom.payloadOffset + 12, bits, count)
            sampleCount = count
        } else {
            let size = UInt32(h[4]) << 24 | UInt32(h[5]) << 16 | UInt32(h[6]) << 8 | UInt32(h[7])
            let declared = Int(UInt32(h[8]) << 24 | UInt32(h[9]) << 16 | UInt32(h[10]) << 8 | UInt32(h[11]))
            uniformSize = size
            if size == 0 {
                let count = min(declared, Int(min(available / 4, UInt64(Int32.max))))
                sizeEntries = (sizeAtom.payloadOffset + 12, 32, count)
                sampleCount = count
            } else {
                sizeEntries = nil
                sampleCount = declared
            }
        }
        lazyIndex = LazyIndex(trak: trak, tree: tree)
    }

    /// The index, built the first time it is asked for.
    private var index: Index { LazyIndex.memo(lazyIndex.built, buildIndex) }

    private func buildIndex() -> Index {
        let trak = lazyIndex.trak, tree = lazyIndex.tree
        var index = Index()
        guard let stbl = trak.descendant(TrackSampleTables.stblPath) else { return index }
        // The sizes are read from the file a block at a time below, not decoded into a table.
        let tables = TrackSampleTables(trak, tree: tree, decodingSizes: false)
        index.chunkOffsets = tables?.chunks?.box.offsets ?? []
        var firsts: [Int] = []
        if let perChunk = tables?.samplesPerChunk {
            firsts.reserveCapacity(perChunk.count + 1)
            var next = 0
            for count in perChunk {
                firsts.append(next)
                next += Int(count)
            }
            firsts.append(next)
        }
        index.chunkFirstSample = firsts
        func runs(_ entries: [TimeToSampleBox.Entry]) -> [Run] {
            var result: [Run] = []
            var sample = 0
            var time: UInt64 = 0
            for entry in entries {
                result.append(Run(firstSample: sample, count: Int(entry.sampleCount), value: entry.value, startTime: time))
                sample += Int(entry.sampleCount)
                time &+= UInt64(entry.sampleCount) &* UInt64(truncatingIfNeeded: entry.value)
            }
            return result
        }
        index.times = runs(tables?.times?.box.entries ?? [])
        for (type, atom) in [("ctts", stbl.child("ctts")), ("stss", stbl.child("stss"))] as [(FourCC, Atom?)] {
            guard let atom, let bytes = try? tree.fieldBytes(of: atom) else { continue }
            var reader = ByteReader(bytes, baseOffset: atom.payloadOffset)
            let context = AtomDecodingContext(atom: atom, parent: "stbl")
            if type == "ctts", let box = try? TimeToSampleBox(from: &reader, context: context) { index.compositionOffsets = runs(box.entries) }
            if type == "stss", let box = try? SyncSampleBox(from: &reader, context: context) { index.syncSamples = box.sampleNumbers.sorted() }
        }
        index.groups = stbl.children.filter { $0.type == "sbgp" }.compactMap { SampleGroupRuns($0, tree: tree) }
        index.encryption = stbl.child("senc").flatMap {
            SampleEncryptionIndex($0, tree: tree, perSampleIVSize: AtomInspector(tree: tree).perSampleIVSize(of: trak), parent: "stbl")
        }
        return index
    }

    /// The running totals, made the first time a sample past the first block is asked for.
    private var checkpoints: [UInt64] { LazyIndex.memo(lazyIndex.checkpoints, buildCheckpoints) }

    private func buildCheckpoints() -> [UInt64] {
        var totals: [UInt64] = [0]
        var total: UInt64 = 0
        var start = 0
        while start < sampleCount {
            let end = min(start + Self.checkpointInterval, sampleCount)
            for size in sizes(start..<end) { total &+= UInt64(size) }
            totals.append(total)
            start = end
        }
        return totals
    }

    /// The total size of samples `0..<sample`: in the first block added up from its sizes, past
    /// it from the checkpoint before it.
    private func bytesBefore(_ sample: Int) -> UInt64 {
        guard sizeEntries != nil else { return UInt64(uniformSize) &* UInt64(sample) }
        var block = sample / Self.checkpointInterval
        var total: UInt64 = 0
        if block > 0 {
            let checkpoints = self.checkpoints
            block = min(block, checkpoints.count - 1)
            total = checkpoints[block]
        }
        let start = block * Self.checkpointInterval
        return sizes(start..<sample).reduce(total) { $0 &+ UInt64($1) }
    }

    /// The number of chunks (`stco`/`co64` entries).
    public var chunkCount: Int { index.chunkOffsets.count }

    /// The samples in `range` (0-based indexes, clamped to the track).
    public func samples(_ range: Range<Int>) -> [Sample] {
        let range = range.clamped(to: 0..<sampleCount)
        guard !range.isEmpty else { return [] }
        let index = self.index
        let chunkOffsets = index.chunkOffsets, chunkFirstSample = index.chunkFirstSample
        let sizes = self.sizes(range)
        var chunkIndex = chunk(containing: range.lowerBound, index)
        var offset = chunkIndex.map { chunkOffsets[$0] &+ (bytesBefore(range.lowerBound) &- bytesBefore(chunkFirstSample[$0])) }
        var result: [Sample] = []
        result.reserveCapacity(range.count)
        for (i, sample) in range.enumerated() {
            while let c = chunkIndex, sample >= chunkFirstSample[c + 1] {
                chunkIndex = c + 1 < chunkOffsets.count ? c + 1 : nil
                offset = chunkIndex.map { chunkOffsets[$0] }
            }
            let size = i < sizes.count ? sizes[i] : nil
            result.append(Sample(
                number: sample + 1, decodeTime: time(of: sample, in: index.times).map { UInt64($0) },
                compositionOffset: index.compositionOffsets.isEmpty ? nil : run(of: sample, in: index.compositionOffsets)?.value,
                offset: offset, size: size, isSync: isSync(sample, index.syncSamples), chunk: chunkIndex.map { $0 + 1 },
                duration: run(of: sample, in: index.times).map { UInt32(truncatingIfNeeded: $0.value) },
                groups: index.groups.isEmpty ? [] : SampleGroupRuns.membership(of: sample, in: index.groups)))
            if let (iv, pieces) = index.encryption?.sample(sample) {
                result[result.count - 1].initializationVector = iv
                result[result.count - 1].subsamples = pieces
            }
            offset = offset.map { $0 &+ UInt64(size ?? 0) }
        }
        return result
    }

    /// The bytes of chunk `index` (0-based): its offset and its samples' sizes added up; nil when
    /// `stsc` does not map the chunks.
    public func chunkExtent(_ chunk: Int) -> Range<UInt64>? {
        let index = self.index
        let chunkOffsets = index.chunkOffsets, chunkFirstSample = index.chunkFirstSample
        guard chunk >= 0, chunk < chunkOffsets.count, chunk + 1 < chunkFirstSample.count else { return nil }
        let length = bytesBefore(chunkFirstSample[chunk + 1]) &- bytesBefore(chunkFirstSample[chunk])
        let start = chunkOffsets[chunk]
        guard start <= UInt64.max - length else { return nil }
        return start..<start + length
    }

    /// The extent of sample `index` (0-based), or nil.
    public func sampleExtent(_ index: Int) -> Range<UInt64>? {
        guard let sample = samples(index..<index + 1).first, let offset = sample.offset, let size = sample.size,
            offset <= UInt64.max - UInt64(size)
        else { return nil }
        return offset..<offset + UInt64(size)
    }

    /// Sizes of the samples in `range`, read from the file; shorter when the table is.
    func sizes(_ range: Range<Int>) -> [UInt32] {
        let range = range.clamped(to: 0..<sampleCount)
        guard !range.isEmpty else { return [] }
        guard let entries = sizeEntries else { return Array(repeating: uniformSize, count: range.count) }
        let firstBit = UInt64(range.lowerBound) * UInt64(entries.bits)
        let lastBit = UInt64(range.upperBound) * UInt64(entries.bits)
        let start = entries.offset + firstBit / 8
        let count = Int((lastBit + 7) / 8 - firstBit / 8)
        guard let bytes = try? source.read(at: start, count: count), bytes.count == count else { return [] }
        if entries.bits == 32 { return bytes.withUnsafeBytes { ByteReader.bigEndianUInt32s($0) } }
        var result: [UInt32] = []
        result.reserveCapacity(range.count)
        switch entries.bits {
        case 4:
            for sample in range {
                let byte = bytes[(sample - range.lowerBound + (range.lowerBound & 1)) / 2]
                result.append(UInt32(sample & 1 == 0 ? byte >> 4 : byte & 0xF))
            }
        default:
            let width = entries.bits / 8
            var i = 0
            while i + width <= bytes.count {
                var value: UInt32 = 0
                for j in 0..<width { value = value << 8 | UInt32(bytes[i + j]) }
                result.append(value)
                i += width
            }
        }
        return result
    }

    private func chunk(containing sample: Int, _ index: Index) -> Int? {
        let chunkFirstSample = index.chunkFirstSample
        guard chunkFirstSample.count > 1, sample < chunkFirstSample[chunkFirstSample.count - 1] else { return nil }
        var low = 0
        var high = chunkFirstSample.count - 2
        while low < high {
            let mid = (low + high + 1) / 2
            if chunkFirstSample[mid] <= sample { low = mid } else { high = mid - 1 }
        }
        // Chunks holding no samples share a first sample with the next; take the last of them.
        return low
    }

    private func run(of sample: Int, in runs: [Run]) -> Run? {
        var low = 0
        var high = runs.count - 1
        guard high >= 0 else { return nil }
        while low < high {
            let mid = (low + high + 1) / 2
            if runs[mid].firstSample <= sample { low = mid } else { high = mid - 1 }
        }
        let run = runs[low]
        return sample >= run.firstSample && sample < run.firstSample + run.count ? run : nil
    }

    private func time(of sample: Int, in runs: [Run]) -> UInt64? {
        guard let run = run(of: sample, in: runs) else { return nil }
        return run.startTime &+ UInt64(sample - run.firstSample) &* UInt64(truncatingIfNeeded: run.value)
    }

    private func isSync(_ sample: Int, _ syncSamples: [UInt32]?) -> Bool {
        guard let syncSamples else { return true }
        let number = UInt32(truncatingIfNeeded: sample + 1)
        var low = 0
        var high = syncSamples.count
        while low < high {
            let mid = (low + high) / 2
            if syncSamples[mid] < number { low = mid + 1 } else { high = mid }
        }
        return low < syncSamples.count && syncSamples[low] == number
    }
}
