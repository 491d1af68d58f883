import MediaBytes

/// The sample tables of one track (`trak/mdia/minf/stbl`), decoded: sizes (`stsz`/`stz2`),
/// times (`stts`), chunk offsets (`stco`/`co64`) and the sample-to-chunk map (`stsc`), each with
/// the atom it came from; a table that is missing or does not decode is nil. The save
/// verification reads chunk extents from here, so it does not depend on the inspector.
struct TrackSampleTables {
    var sizes: (box: SampleSizeBox, atom: Atom)?
    var times: (box: TimeToSampleBox, atom: Atom)?
    var chunks: (box: ChunkOffsetBox, atom: Atom)?
    var mapping: (box: SampleToChunkBox, atom: Atom)?

    static let stblPath = AtomPath([.init(type: "mdia"), .init(type: "minf"), .init(type: "stbl")])

    /// The tables of `trak`; nil when it has no `stbl`. Without `decodingSizes`, `sizes` stays
    /// nil (a reader that takes the sizes from the file a block at a time).
    init?(_ trak: Atom, tree: AtomTree, decodingSizes: Bool = true) {
        guard let stbl = trak.descendant(Self.stblPath) else { return nil }
        func decode<T: AtomPayload>(_ types: [FourCC], as: T.Type) -> (T, Atom)? {
            for type in types {
                guard let atom = stbl.child(type), let bytes = try? tree.fieldBytes(of: atom) else { continue }
                var reader = ByteReader(bytes, baseOffset: atom.payloadOffset)
                if let payload = try? T(from: &reader, context: AtomDecodingContext(atom: atom, parent: "stbl", grandparent: "minf")) {
                    return (payload, atom)
                }
            }
            return nil
        }
        sizes = decodingSizes ? decode(["stsz", "stz2"], as: SampleSizeBox.self) : nil
        times = decode(["stts"], as: TimeToSampleBox.self)
        chunks = decode(["stco", "co64"], as: ChunkOffsetBox.self)
        mapping = decode(["stsc"], as: SampleToChunkBox.self)
    }

    /// Samples per chunk through `stsc`; nil when `stsc` does not map the chunks.
    var samplesPerChunk: [UInt32]? {
        guard let chunks, let mapping else { return nil }
        return mapping.box.samplesPerChunk(chunkCount: chunks.box.offsets.count)
    }

    /// Where each chunk starts and how many bytes its samples take. With `samplesPerChunk`
    /// (which must agree with `stsz`) nil or no sizes, the lengths are 0.
    func chunkExtents(samplesPerChunk perChunk: [UInt32]?) -> [(offset: UInt64, length: UInt64)] {
        guard let chunks else { return [] }
        var sample = 0
        return chunks.box.offsets.enumerated().map { index, start in
            guard let perChunk, let sizes = sizes?.box else { return (start, 0) }
            let count = Int(perChunk[index])
            var length: UInt64 = 0
            if sizes.uniformSize != 0 {
                length = UInt64(sizes.uniformSize) * UInt64(count)
            } else if sample + count <= sizes.sizes.count {
                for i in sample..<sample + count { length += UInt64(sizes.sizes[i]) }
            }
            sample += count
            return (start, length)
        }
    }
}
