import MediaBytes

/// Structural validation for `atominspect check`: the tree's own diagnostics, fields that do
/// not decode, and the cross-checks a player relies on.
///
/// - exactly one `moov` (none for an image file, a top-level `meta` and no movie, nor for a
///   media segment, which opens with `styp` or a fragment);
/// - every chunk offset (`stco`/`co64`) starts inside an `mdat` payload, and the chunk (its
///   samples' sizes added up through `stsc` and `stsz`) ends inside it too;
/// - `stsz`, `stts` and `stsc` agree on the number of samples.
public enum AtomStructureCheck {
    public static func findings(in tree: AtomTree) -> [Diagnostic] {
        tree.diagnostics + AtomInspector(tree: tree, options: .complete).diagnosticsOfEveryAtom() + crossChecks(in: tree)
    }

    /// The checks across atoms alone (the movie count, the tracks' tables against each other
    /// and against the media data): what `findings` adds to the problems of single atoms.
    public static func crossChecks(in tree: AtomTree) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        let movies = tree.atoms.filter { $0.type == "moov" }
        // An image file (HEIF/AVIF: a top-level `meta` and no movie) needs no `moov`.
        let isImageFile = movies.isEmpty && tree.atoms.contains { $0.type == "meta" }
        if movies.count != 1 && !isImageFile && !(movies.isEmpty && isMediaSegment(tree)) {
            findings.append(Diagnostic(
                .error, .movieCount, offset: movies.dropFirst().first?.offset ?? 0, path: .root,
                message: movies.isEmpty ? "no 'moov' atom: the file has no movie header" : "\(movies.count) 'moov' atoms; a file has exactly one"))
        }
        let mediaData = tree.atoms.filter { $0.type == "mdat" }.map { $0.payloadOffset..<$0.endOffset }
        guard let moov = movies.first else { return findings }
        let moovPath = AtomPath.root.appending("moov", index: movies.count > 1 ? 0 : nil)
        let tracks = moov.children.filter { $0.type == "trak" }
        for (number, trak) in tracks.enumerated() {
            let trakPath = moovPath.appending("trak", index: tracks.count > 1 ? number : nil)
            findings += checkTrack(trak, path: trakPath, tree: tree, mediaData: mediaData)
        }
        return findings
    }

    /// A media segment of a stream (DASH, HLS fMP4, CMAF: ISO/IEC 14496-12 section 8.16): its
    /// fragments need the movie of an initialization segment served apart, so it has none. It
    /// opens with a segment type box or a fragment (or the index and events that go before it).
    public static func isMediaSegment(_ tree: AtomTree) -> Bool {
        guard let first = tree.atoms.first?.type else { return false }
        return ["styp", "moof", "sidx", "emsg", "prft"].contains(first) && tree.atoms.contains { $0.type == "moof" }
    }

    private static func checkTrack(_ trak: Atom, path: AtomPath, tree: AtomTree, mediaData: [Range<UInt64>]) -> [Diagnostic] {
        guard let tables = TrackSampleTables(trak, tree: tree) else { return [] }
        let tablePath = AtomPath(path.components + TrackSampleTables.stblPath.components)
        var findings: [Diagnostic] = []
        if let (sizes, atom) = tables.sizes, let (times, _) = tables.times, UInt64(sizes.sampleCount) != times.sampleCount {
            findings.append(Diagnostic(
                .error, .inconsistentTables, offset: atom.offset, path: tablePath,
                message: "'stsz' lists \(sizes.sampleCount) samples but 'stts' covers \(times.sampleCount)"))
        }
        var samplesPerChunk: [UInt32]?
        if let (chunks, _) = tables.chunks, let (_, mappingAtom) = tables.mapping {
            samplesPerChunk = tables.samplesPerChunk
            if samplesPerChunk == nil {
                findings.append(Diagnostic(
                    .error, .inconsistentTables, offset: mappingAtom.offset, path: tablePath.appending("stsc"),
                    message: "'stsc' does not map the \(chunks.offsets.count) chunks of 'stco'/'co64' (first chunks must rise from 1)"))
            } else if let (sizes, _) = tables.sizes {
                let total = samplesPerChunk!.reduce(UInt64(0)) { $0 + UInt64($1) }
                if total != UInt64(sizes.sampleCount) {
                    findings.append(Diagnostic(
                        .error, .inconsistentTables, offset: mappingAtom.offset, path: tablePath.appending("stsc"),
                        message: "'stsc' puts \(total) samples in \(chunks.offsets.count) chunks but 'stsz' lists \(sizes.sampleCount)"))
                    samplesPerChunk = nil
                }
            }
        }
        if let (_, chunkAtom) = tables.chunks {
            var reported = 0
            for (index, chunk) in tables.chunkExtents(samplesPerChunk: samplesPerChunk).enumerated() {
                let inside = mediaData.contains { $0.contains(chunk.offset) && chunk.length <= $0.upperBound - chunk.offset }
                guard !inside else { continue }
                reported += 1
                if reported <= 5 {
                    findings.append(Diagnostic(
                        .error, .chunkOffsetOutsideMediaData, offset: chunkAtom.offset, path: tablePath.appending(chunkAtom.type),
                        message: "chunk \(index + 1) at offset \(chunk.offset) (\(chunk.length) bytes) is not inside an 'mdat' payload"))
                }
            }
            if reported > 5 {
                findings.append(Diagnostic(
                    .error, .chunkOffsetOutsideMediaData, offset: chunkAtom.offset, path: tablePath.appending(chunkAtom.type),
                    message: "\(reported - 5) more chunks lie outside every 'mdat' payload"))
            }
        }
        return findings
    }
}
