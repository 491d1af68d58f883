import MediaBytes

/// An ISO-BMFF / QuickTime file opened for editing its metadata: read the metadata, change
/// `metadata`, and `save`.
///
/// A save never leaves a damaged file: the change is planned first (`plan`), the result is
/// re-read and verified before it replaces anything (the structure parses without new
/// diagnostics, every chunk and fragment still points at the same media bytes, and the
/// metadata reads back as intended), and a failure leaves the original as it was.
public struct MovieFile: Sendable {
    /// The file it was read from, when it was read from a path.
    public let path: String?
    public let tree: AtomTree
    /// The metadata as read.
    public let originalMetadata: MovieMetadata
    /// The metadata to write; change it, then save.
    public var metadata: MovieMetadata
    /// A change to the QuickTime chapter track to make with the save; nil leaves it as it is.
    public var chapterTrack: ChapterTrackEdit?

    public init(tree: AtomTree, path: String? = nil) throws(AtomError) {
        self.tree = tree
        self.path = path
        originalMetadata = try MovieMetadata(tree: tree)
        metadata = originalMetadata
    }

    /// Opens and reads the file at `path` (leniently: `save` refuses what it cannot write).
    public init(path: String) throws {
        try self.init(tree: try AtomTree(contentsOf: path), path: path)
    }

    /// True when `metadata` differs from what was read.
    public var hasChanges: Bool { metadata != originalMetadata || chapterTrack != nil }

    /// How `save` would write the change, without writing anything.
    public func plan(_ options: MovieSaveOptions = MovieSaveOptions()) throws -> MovieSavePlan {
        try MovieRewritePlanner.plan(tree: tree, original: originalMetadata, metadata: metadata, chapterTrack: chapterTrack, options: options)
    }

    /// Writes the changed metadata into the file it was read from and returns the plan it
    /// followed.
    ///
    /// - Throws: `AtomError` `.notWritable` (the file is not understood well enough; nothing
    ///   written), `.verificationFailed` (the result did not read back as planned; the original
    ///   kept), `FileWriteError` and `ByteSourceError` for I/O (the file changed since it was
    ///   read, a full disk, no permission; the original kept).
    @discardableResult
    public func save(_ options: MovieSaveOptions = MovieSaveOptions()) throws -> MovieSavePlan {
        guard let path else {
            throw AtomError(.notWritable, message: "the file was not read from a path; use write(to:)")
        }
        var plan = try self.plan(options)
        switch plan.strategy {
        case .unchanged:
            return plan
        case .inPlace, .movieAtEnd:
            // Verify what the file will read like before touching it: the whole check reads the
            // original through `tree`, which reads what it did not hold in memory (the tables of
            // a `moov` over 1 MiB) from the file itself, so it must run before the first write.
            try verify(PatchedByteSource(base: tree.source, patches: plan.patches, size: plan.newFileSize), plan: plan)
            // Refused when the file changed since it was read; a failed write or read-back
            // puts the old bytes back. What is on disk afterwards must be the view just
            // verified: the planned length and every planned byte.
            try FileReplacement.patch(path, ranges: plan.patches, newSize: plan.newFileSize, expecting: tree.source as? FileByteSource) { _ in
                try verifyPatched(try FileByteSource(path: path), plan: plan)
            }
        case .rewrite:
            try tree.source.checkUnchanged()
            var checked = CheckedCopies()
            plan.notes = try FileReplacement.replace(path, write: { sink in
                for node in plan.nodes { try node.write(to: &sink, from: tree) }
                checked = sink.checkedCopies
            }, verify: { temporary in
                try verify(try FileByteSource(path: temporary), plan: plan, checked: checked)
                // Last check before the rename: nothing else wrote to the file meanwhile.
                try tree.source.checkUnchanged()
            })
        }
        return plan
    }

    /// Writes a new file at `output` with the changed metadata (the whole file, laid out like a
    /// rewrite); the file it was read from is not touched. An existing `output` is replaced.
    @discardableResult
    public func write(to output: String, options: MovieSaveOptions = MovieSaveOptions()) throws -> MovieSavePlan {
        var options = options
        options.allowInPlace = false
        var plan = try self.plan(options)
        if plan.strategy == .unchanged {
            // Nothing to change: the copy is the file as it is.
            plan = try MovieRewritePlanner.plan(tree: tree, original: originalMetadata, metadata: metadata, chapterTrack: chapterTrack, options: options, forceRewrite: true)
        }
        var checked = CheckedCopies()
        try FileReplacement.create(output, write: { sink in
            for node in plan.nodes { try node.write(to: &sink, from: tree) }
            checked = sink.checkedCopies
        }, verify: { temporary in
            try verify(try FileByteSource(path: temporary), plan: plan, checked: checked)
        })
        return plan
    }

    // MARK: - Verification

    /// Checks that `result` (the file as written, or as it will be) is what `plan` meant. The
    /// byte comparison of the carried-over atoms skips what the save's sink copied and read
    /// back equal already (`checked`).
    func verify(_ result: any ByteSource, plan: MovieSavePlan, checked: CheckedCopies = CheckedCopies()) throws {
        func fail(_ message: String, offset: UInt64 = 0) -> AtomError {
            AtomError(.verificationFailed, offset: offset, message: "the written file was not kept: \(message)")
        }
        guard result.size == plan.newFileSize else {
            throw fail("it has \(result.size) bytes, \(plan.newFileSize) were planned")
        }
        // An in-place save writes inside the metadata region only.
        if plan.strategy == .inPlace || plan.strategy == .movieAtEnd {
            for patch in plan.patches where patch.offset < plan.writableRegion.lowerBound || patch.offset + UInt64(patch.bytes.count) > plan.writableRegion.upperBound {
                throw fail("a write at \(patch.offset) leaves the metadata region")
            }
        }
        let written: AtomTree
        do {
            written = try AtomTree(source: result)
        } catch {
            throw fail("it does not parse: \(error)")
        }
        // No new diagnostics.
        var before: [String: Int] = [:]
        for diagnostic in tree.diagnostics { before[diagnostic.code, default: 0] += 1 }
        var after: [String: Int] = [:]
        for diagnostic in written.diagnostics { after[diagnostic.code, default: 0] += 1 }
        if let new = written.diagnostics.first(where: { after[$0.code]! > before[$0.code, default: 0] }) {
            throw fail("it reads with a new problem: \(new)", offset: new.offset)
        }
        guard written.atoms.filter({ $0.type == "moov" }).count == 1 else { throw fail("it does not have exactly one 'moov'") }
        // The metadata reads back as intended: the tracks kept, then the chapter track added.
        let readBack = try MovieMetadata(tree: written)
        var expectedTracks = metadata.tracks.enumerated().filter { !plan.removedTrackIndexes.contains($0.offset) }.map(\.element)
        if plan.addedTrack != nil { expectedTracks.append(MetadataScope()) }
        guard readBack.movie == metadata.movie, readBack.tracks == expectedTracks else {
            throw fail("its metadata does not read back as written")
        }
        // An edit in place that moved nothing and wrote no byte of an offset or sample table:
        // instead of decoding every table again (tens of milliseconds for a movie of a million
        // samples), each of those atoms must be where it was, as large, and outside every
        // planned write; the written ranges must hold the planned bytes; and a table the read
        // had in memory (one in a container of at most 1 MiB) must hold the same bytes in the
        // result, so a stray write to it is still caught. The tables of a larger movie are not
        // read at all: the edit writes only the ranges checked here.
        if plan.strategy == .inPlace, plan.offsetMap.isIdentity, plan.removedTrackIDs.isEmpty, plan.addedTrack == nil, !plan.chapterTrackEdited {
            let before = Self.tableAtoms(in: tree), after = Self.tableAtoms(in: written)
            let writes = plan.patches.filter { !$0.bytes.isEmpty }.map { $0.offset..<$0.offset + UInt64($0.bytes.count) }
            if before.elementsEqual(after, by: { $0.type == $1.type && $0.offset == $1.offset && $0.size == $1.size }),
                !before.contains(where: { table in writes.contains { $0.overlaps(table.offset..<table.offset + table.size) } }) {
                for table in before where !Self.tableContainers.contains(table.type) && tree.holdsInMemory(table.offset, count: table.size) {
                    try Self.compare(tree.source, at: table.offset, with: result, at: table.offset, count: table.size, fail: fail)
                }
                for patch in plan.patches {
                    guard try result.read(at: patch.offset, count: patch.bytes.count) == patch.bytes else {
                        throw fail("the \(patch.bytes.count) bytes written at \(patch.offset) do not read back as planned", offset: patch.offset)
                    }
                }
                return
            }
        }
        // Every stored offset of what was kept points where the moved data now is.
        let removed = plan.removedTrackIDs
        let added = plan.addedTrack?.trackID
        let oldPointers = try Self.storedOffsets(in: tree).filter { $0.trackID.map { !removed.contains($0) } ?? true }
        let newPointers = try Self.storedOffsets(in: written).filter { $0.trackID == nil || $0.trackID != added }
        guard oldPointers.count == newPointers.count else { throw fail("it stores \(newPointers.count) offsets, the original \(oldPointers.count)") }
        for (old, new) in zip(oldPointers, newPointers) {
            guard old.type == new.type || (old.type == "stco" && new.type == "co64"), old.values.count == new.values.count, old.trackID == new.trackID else {
                throw fail("'\(new.type)' at \(new.offset) does not match the original '\(old.type)'", offset: new.offset)
            }
            for (value, moved) in zip(old.values, new.values) where plan.offsetMap.map(value) != moved {
                throw fail("'\(new.type)' at \(new.offset) points at \(moved) where \(value) moved to \(plan.offsetMap.map(value).map(String.init) ?? "nowhere")", offset: new.offset)
            }
        }
        // Every chunk of every kept track still covers the same bytes: same lengths, inside one
        // atom that was carried over whole.
        let oldChunks = Self.chunkExtents(in: tree).filter { !removed.contains($0.trackID) }
        let newChunks = Self.chunkExtents(in: written)
        let keptChunks = newChunks.filter { $0.trackID != added }
        guard oldChunks.count == keptChunks.count else { throw fail("it has \(keptChunks.count) tracks with chunks, \(oldChunks.count) were kept") }
        for (old, new) in zip(oldChunks, keptChunks) {
            guard old.trackID == new.trackID, old.chunks.count == new.chunks.count else {
                throw fail("track \(new.trackID) has \(new.chunks.count) chunks, the original \(old.chunks.count)")
            }
            for (a, b) in zip(old.chunks, new.chunks) where a.length != b.length || plan.offsetMap.map(a.offset) != b.offset || (a.length > 0 && !plan.offsetMap.holds(a.offset, length: a.length)) {
                throw fail("track \(new.trackID) has a chunk at \(b.offset) (\(b.length) bytes) that does not match the original at \(a.offset) (\(a.length) bytes)", offset: b.offset)
            }
        }
        // The chapter track added holds exactly the samples written, and reads as the chapters.
        if let track = plan.addedTrack {
            guard let chunks = newChunks.first(where: { $0.trackID == track.trackID })?.chunks,
                chunks.count == 1, chunks[0].offset == track.chunkOffset, chunks[0].length == UInt64(track.data.count)
            else { throw fail("the chapter track \(track.trackID) does not have its one chunk at \(track.chunkOffset)") }
            guard try result.read(at: track.chunkOffset, count: track.data.count) == track.data else {
                throw fail("the chapter samples at \(track.chunkOffset) are not the bytes written", offset: track.chunkOffset)
            }
            let chapters = QuickTimeChapterTrack.read(written).tracks
            guard chapters.count == 1, chapters[0].trackID == track.trackID, chapters[0].samples == track.edit.samples, !chapters[0].isEnabled else {
                throw fail("the chapter track does not read back as the chapters written")
            }
        } else if plan.chapterTrackEdited && !QuickTimeChapterTrack.read(written).tracks.isEmpty {
            throw fail("it still has a chapter track")
        }
        // The carried-over atoms hold the same bytes (media data included).
        switch plan.strategy {
        case .unchanged:
            break
        case .inPlace, .movieAtEnd:
            break  // the writes were checked against the metadata region first
        case .rewrite:
            for node in plan.nodes {
                guard let atom = node.originalAtom, let newStart = plan.offsetMap.map(atom.offset) else { continue }
                try Self.compare(tree.source, at: atom.offset, with: result, at: newStart, count: atom.size, skipping: checked, fail: fail)
            }
        }
    }

    /// Checks that the file patched in place reads as the patched view `verify` checked before
    /// the write: the planned length, and the planned bytes in every written range. The rest
    /// of the file was not written (the patch is refused when the file changed since it was
    /// read), and the original cannot be read again to compare with: it is this file.
    func verifyPatched(_ result: any ByteSource, plan: MovieSavePlan) throws {
        guard result.size == plan.newFileSize else {
            throw AtomError(.verificationFailed, message: "the written file was not kept: it has \(result.size) bytes, \(plan.newFileSize) were planned")
        }
        for patch in plan.patches where !patch.bytes.isEmpty {
            guard try result.read(at: patch.offset, count: patch.bytes.count) == patch.bytes else {
                throw AtomError(.verificationFailed, offset: patch.offset,
                                message: "the written file was not kept: the \(patch.bytes.count) bytes written at \(patch.offset) do not read back as planned")
            }
        }
    }

    private static func compare(_ a: any ByteSource, at aStart: UInt64, with b: any ByteSource, at bStart: UInt64, count: UInt64,
                                skipping checked: CheckedCopies = CheckedCopies(), fail: (String, UInt64) -> AtomError) throws {
        guard try a.hasSameBytes(at: aStart, as: b, at: bStart, count: count, skipping: checked) else {
            throw fail("the \(count) bytes copied from offset \(aStart) differ from the original", bStart)
        }
    }

    /// Containers of the table atoms: their place and size are checked, their bytes through
    /// their children.
    static let tableContainers: FourCCSet = ["trak", "stbl"]

    /// The atoms that say where samples are (offset tables, sample sizes and chunks, track
    /// headers), in file order.
    static func tableAtoms(in tree: AtomTree) -> [(type: FourCC, offset: UInt64, size: UInt64)] {
        var result: [(type: FourCC, offset: UInt64, size: UInt64)] = []
        func visit(_ atoms: [Atom]) {
            for atom in atoms {
                if tableTypes.contains(atom.type) { result.append((atom.type, atom.offset, atom.size)) }
                if !atom.children.isEmpty { visit(atom.children) }
            }
        }
        visit(tree.atoms)
        return result
    }

    private static let tableTypes = FourCCSet(Array(FilePointers.types) + Array(tableContainers) + ["stsc", "stsz", "stz2", "tkhd"])

    /// One offset-bearing atom: its type, where it is, the track it belongs to (nil outside
    /// the movie's tracks: fragments, item locations, the segment index) and its offsets.
    typealias StoredOffsets = (type: FourCC, offset: UInt64, trackID: UInt32?, values: [UInt64])

    /// The stored file offsets of every offset-bearing atom, in file order.
    static func storedOffsets(in tree: AtomTree) throws -> [StoredOffsets] {
        var result: [StoredOffsets] = []
        func visit(_ atoms: [Atom], depth: Int, track: UInt32?) throws {
            for atom in atoms {
                var track = track
                if depth <= 1 {
                    track = depth == 1 && atom.type == "trak" ? QuickTimeChapterTrack.trackHeader(atom, tree: tree)?.trackID ?? 0 : nil
                }
                if !atom.isContainer, FilePointers.types.contains(atom.type) {
                    let values = try FilePointers.offsets(type: atom.type, payload: try tree.fieldBytes(of: atom), atomEnd: atom.endOffset)
                    result.append((atom.type, atom.offset, track, values))
                }
                if !atom.children.isEmpty { try visit(atom.children, depth: depth + 1, track: track) }
            }
        }
        try visit(tree.atoms, depth: 0, track: nil)
        return result
    }

    /// The chunks of each track of the first `moov`, by track ID: where each starts and how
    /// many bytes its samples take (through `stsc` and `stsz`/`stz2`); an empty list for a
    /// track whose tables do not decode.
    static func chunkExtents(in tree: AtomTree) -> [(trackID: UInt32, chunks: [(offset: UInt64, length: UInt64)])] {
        guard let moov = tree.atoms.first(where: { $0.type == "moov" }) else { return [] }
        return moov.children.filter { $0.type == "trak" }.map { trak in
            let id = QuickTimeChapterTrack.trackHeader(trak, tree: tree)?.trackID ?? 0
            guard let tables = TrackSampleTables(trak, tree: tree), let perChunk = tables.samplesPerChunk, tables.sizes != nil
            else { return (id, []) }
            return (id, tables.chunkExtents(samplesPerChunk: perChunk))
        }
    }
}
