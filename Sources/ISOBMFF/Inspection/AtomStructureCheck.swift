import MediaBytes

/// Structural validation for `atominspect check`: the tree's own diagnostics, fields that do
/// not decode, and the cross-checks a player relies on.
///
/// - exactly one `moov` (none for an image file: a top-level `meta` and no movie);
/// - every chunk offset (`stco`/`co64`) starts inside an `mdat` payload, and the chunk (its
///   samples' sizes added up through `stsc` and `stsz`) ends inside it too;
/// - `stsz`, `stts` and `stsc` agree on the number of samples.
public enum AtomStructureCheck {
    public static func findings(in tree: AtomTree) -> [AtomDiagnostic] {
        var findings = tree.diagnostics
        let inspector = AtomInspector(tree: tree, options: .complete)
        findings += inspector.inspect().diagnostics

        let movies = tree.atoms.filter { $0.type == "moov" }
        // An image file (HEIF/AVIF: a top-level `meta` and no movie) needs no `moov`.
        let isImageFile = movies.isEmpty && tree.atoms.contains { $0.type == "meta" }
        if movies.count != 1 && !isImageFile {
            findings.append(AtomDiagnostic(
                .error, .movieCount, offset: movies.dropFirst().first?.offset ?? 0, path: .root,
                message: movies.isEmpty ? "no 'moov' atom: the file has no movie header" : "\(movies.count) 'moov' atoms; a file has exactly one"))
        }
        let mediaData = tree.atoms.filter { $0.type == "mdat" }.map { $0.payloadOffset..<$0.endOffset }
        guard let moov = movies.first else { return findings }
        let moovPath = AtomPath.root.appending("moov", index: movies.count > 1 ? 0 : nil)
        let tracks = moov.children.filter { $0.type == "trak" }
        for (number, trak) in tracks.enumerated() {
            let trakPath = moovPath.appending("trak", index: tracks.count > 1 ? number : nil)
            findings += checkTrack(trak, path: trakPath, inspector: inspector, mediaData: mediaData)
        }
        return findings
    }

    private static func checkTrack(_ trak: Atom, path: AtomPath, inspector: AtomInspector, mediaData: [Range<UInt64>]) -> [AtomDiagnostic] {
        let stblPath = AtomPath([.init(type: "mdia"), .init(type: "minf"), .init(type: "stbl")])
        guard let stbl = trak.descendant(stblPath) else { return [] }
        let tablePath = AtomPath(path.components + stblPath.components)
        func decode<T: AtomPayload>(_ types: [FourCC], as: T.Type) -> (T, Atom)? {
            for type in types {
                if let atom = stbl.child(type),
                    let payload = try? inspector.decode(AtomDecodingContext(atom: atom, parent: "stbl", grandparent: "minf")) as? T
                {
                    return (payload, atom)
                }
            }
            return nil
        }
        var findings: [AtomDiagnostic] = []
        let sizes = decode(["stsz", "stz2"], as: SampleSizeBox.self)
        let times = decode(["stts"], as: TimeToSampleBox.self)
        let chunks = decode(["stco", "co64"], as: ChunkOffsetBox.self)
        let mapping = decode(["stsc"], as: SampleToChunkBox.self)

        if let (sizes, atom) = sizes, let (times, _) = times, UInt64(sizes.sampleCount) != times.sampleCount {
            findings.append(AtomDiagnostic(
                .error, .inconsistentTables, offset: atom.offset, path: tablePath,
                message: "'stsz' lists \(sizes.sampleCount) samples but 'stts' covers \(times.sampleCount)"))
        }
        var samplesPerChunk: [UInt32]?
        if let (chunks, _) = chunks, let (mapping, mappingAtom) = mapping {
            samplesPerChunk = mapping.samplesPerChunk(chunkCount: chunks.offsets.count)
            if samplesPerChunk == nil {
                findings.append(AtomDiagnostic(
                    .error, .inconsistentTables, offset: mappingAtom.offset, path: tablePath.appending("stsc"),
                    message: "'stsc' does not map the \(chunks.offsets.count) chunks of 'stco'/'co64' (first chunks must rise from 1)"))
            } else if let (sizes, _) = sizes {
                let total = samplesPerChunk!.reduce(UInt64(0)) { $0 + UInt64($1) }
                if total != UInt64(sizes.sampleCount) {
                    findings.append(AtomDiagnostic(
                        .error, .inconsistentTables, offset: mappingAtom.offset, path: tablePath.appending("stsc"),
                        message: "'stsc' puts \(total) samples in \(chunks.offsets.count) chunks but 'stsz' lists \(sizes.sampleCount)"))
                    samplesPerChunk = nil
                }
            }
        }
        if let (chunks, chunkAtom) = chunks {
            var sample = 0
            var reported = 0
            for (index, start) in chunks.offsets.enumerated() {
                var length: UInt64 = 0
                if let perChunk = samplesPerChunk, let (sizes, _) = sizes {
                    let count = Int(perChunk[index])
                    if sizes.uniformSize != 0 {
                        length = UInt64(sizes.uniformSize) * UInt64(count)
                    } else {
                        for i in sample..<sample + count { length += UInt64(sizes.sizes[i]) }
                    }
                    sample += count
                }
                let inside = mediaData.contains { $0.contains(start) && length <= $0.upperBound - start }
                if !inside && chunks.offsets.count > 0 {
                    reported += 1
                    if reported <= 5 {
                        findings.append(AtomDiagnostic(
                            .error, .chunkOffsetOutsideMediaData, offset: chunkAtom.offset, path: tablePath.appending(chunkAtom.type),
                            message: "chunk \(index + 1) at offset \(start) (\(length) bytes) is not inside an 'mdat' payload"))
                    }
                }
            }
            if reported > 5 {
                findings.append(AtomDiagnostic(
                    .error, .chunkOffsetOutsideMediaData, offset: chunkAtom.offset, path: tablePath.appending(chunkAtom.type),
                    message: "\(reported - 5) more chunks lie outside every 'mdat' payload"))
            }
        }
        return findings
    }
}
