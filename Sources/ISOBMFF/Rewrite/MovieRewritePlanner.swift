#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import MediaBytes

/// How a save reaches the file; `MovieSavePlan.strategy` says which one the planner chose.
public enum MovieWriteStrategy: String, Sendable, CustomStringConvertible {
    /// Nothing changed; nothing is written.
    case unchanged
    /// The new metadata fits the old `moov` plus adjacent `free`/`skip` padding: only that
    /// region is overwritten and no other byte moves.
    case inPlace = "in-place"
    /// `moov` is the last atom: it is rewritten at its place and the file extended or cut; the
    /// media data does not move.
    case movieAtEnd = "movie-at-end"
    /// The whole file is written anew to a temporary file beside it, verified, and renamed
    /// over the original.
    case rewrite

    public var description: String { rawValue }
}

/// What a save may do.
public struct MovieSaveOptions: Sendable {
    /// Bytes of `free` padding written after `moov` when it is rewritten; nil for the default
    /// (1 KiB to 4 KiB, growing with the size of `moov`). When the whole file is written anew
    /// and an atom of 64 MiB or more after the padding moves, a padding that is not 0 grows by
    /// less than 64 KiB so that the atom moves by a multiple of 64 KiB (`CopyAlignment`).
    public var padding: Int?
    /// Put `moov` before the media data ("fast start") when it comes after it; this always
    /// rewrites the file.
    public var fastStart: Bool
    /// Allow the in-place and movie-at-end strategies (false: always rewrite).
    public var allowInPlace: Bool

    public init(padding: Int? = nil, fastStart: Bool = false, allowInPlace: Bool = true) {
        self.padding = padding
        self.fastStart = fastStart
        self.allowInPlace = allowInPlace
    }

    /// The padding for a rewritten `moov` of `size` bytes.
    func paddingSize(forMovieSize size: UInt64) -> UInt64 {
        if let padding { return padding <= 0 ? 0 : UInt64(max(padding, 8)) }
        return min(4096, max(1024, size / 16))
    }
}

/// A save worked out before anything is written.
public struct MovieSavePlan: Sendable {
    public let strategy: MovieWriteStrategy
    /// The new top-level atoms (written whole by the rewrite strategy).
    let nodes: [AtomNode]
    /// For in-place strategies: the byte ranges to overwrite.
    public let patches: [(offset: UInt64, bytes: [UInt8])]
    /// The file region the in-place strategies may write, and nothing else.
    let writableRegion: Range<UInt64>
    public let oldFileSize: UInt64
    public let newFileSize: UInt64
    /// Where the kept top-level atoms go.
    public let offsetMap: OffsetMap
    public let oldMovieSize: UInt64
    public let newMovieSize: UInt64
    /// Padding left after `moov` (top level) in the new file.
    public let padding: UInt64
    /// The chapter tracks removed (by ID and by index among the movie's tracks).
    public internal(set) var removedTrackIDs: Set<UInt32> = []
    /// What the save could not keep of the file it replaced (its owner, an extended
    /// attribute), in words; empty before the save and when it kept everything.
    public internal(set) var notes: [String] = []
    var removedTrackIndexes: Set<Int> = []
    /// The chapter track added: its ID, where its one chunk is in the new file, its samples'
    /// bytes, and the edit it came from.
    var addedTrack: (trackID: UInt32, chunkOffset: UInt64, data: [UInt8], edit: ChapterTrackEdit)?
    /// True when the save changes the chapter track (so that none may remain when none is added).
    var chapterTrackEdited = false

    /// The bytes a save writes.
    public var bytesWritten: UInt64 {
        switch strategy {
        case .unchanged: 0
        case .inPlace, .movieAtEnd: patches.reduce(0) { $0 + UInt64($1.bytes.count) }
        case .rewrite: newFileSize
        }
    }

    /// One line for people: the strategy and its numbers.
    public var summary: String { "\(strategy): \(details)" }

    /// The plan's numbers in words, without the strategy's name.
    public var details: String {
        switch strategy {
        case .unchanged:
            return "nothing to write"
        case .inPlace:
            return "\(bytesWritten) bytes written in \(patches.count) range(s) inside the metadata region; moov \(oldMovieSize) -> \(newMovieSize) bytes, \(padding) bytes of padding after it; no other byte moves" + chapterDetails
        case .movieAtEnd:
            return "moov rewritten at offset \(writableRegion.lowerBound) (\(oldMovieSize) -> \(newMovieSize) bytes, \(padding) bytes of padding); file \(oldFileSize) -> \(newFileSize) bytes; media data does not move" + chapterDetails
        case .rewrite:
            let moved = offsetMap.isIdentity ? "media data stays at its offsets" : "media data moves and every offset into it is updated"
            return "new file of \(newFileSize) bytes (was \(oldFileSize)) written beside the original, verified, then renamed over it; moov \(oldMovieSize) -> \(newMovieSize) bytes, \(padding) bytes of padding; \(moved)" + chapterDetails
        }
    }

    private var chapterDetails: String {
        var parts: [String] = []
        if !removedTrackIDs.isEmpty { parts.append("chapter track \(removedTrackIDs.sorted().map(String.init).joined(separator: ", ")) removed") }
        if let added = addedTrack { parts.append("chapter track \(added.trackID) added (\(added.edit.samples.count) samples, \(added.data.count) bytes at offset \(added.chunkOffset))") }
        return parts.isEmpty ? "" : "; " + parts.joined(separator: "; ")
    }
}

/// Decides how a metadata change is written and prepares it (see `MovieWriteStrategy`).
public enum MovieRewritePlanner {
    /// Plans writing `metadata` (changed from `original`, both read from `tree`).
    ///
    /// - Throws: `AtomError` `.notWritable` when the file's structure is not fully understood
    ///   (any warning while reading it, not exactly one `moov`, an offset that points nowhere).
    ///
    /// - Parameters:
    ///   - tree: the file as read.
    ///   - original: the metadata as read from `tree`.
    ///   - metadata: the metadata to write.
    ///   - chapterTrack: a change to the QuickTime chapter track, made with the save.
    ///   - options: padding, fast start, in place allowed or not.
    ///   - forceRewrite: plan a rewrite even when nothing changed (to copy the file).
    public static func plan(
        tree: AtomTree, original: MovieMetadata, metadata: MovieMetadata, chapterTrack: ChapterTrackEdit? = nil,
        options: MovieSaveOptions = MovieSaveOptions(), forceRewrite: Bool = false
    ) throws -> MovieSavePlan {
        try checkWritable(tree)
        var chapters: ChapterTrackChange?
        if let chapterTrack {
            let moov = tree.atoms.first { $0.type == "moov" }!
            chapters = try ChapterTrackChange(chapterTrack, tree: tree, moov: moov, quickTime: isQuickTime(tree))
        }
        let plan = try makePlan(tree: tree, original: original, metadata: metadata, chapters: chapters, options: options, forceRewrite: forceRewrite)
        guard plan.strategy != .unchanged else { return plan }
        // Every stored offset must land in data that is carried over; one that points outside
        // the media (a cut file, a broken table) means the file is not understood. The chapter
        // tracks removed do not count.
        for pointers in try MovieFile.storedOffsets(in: tree) where !(pointers.trackID.map { plan.removedTrackIDs.contains($0) } ?? false) {
            if let stray = pointers.values.first(where: { plan.offsetMap.map($0) == nil }) {
                throw AtomError(.notWritable, offset: pointers.offset, path: tree.path(ofAtomAt: pointers.offset) ?? .root,
                                message: "not written: '\(pointers.type)' at offset \(pointers.offset) points at offset \(stray), outside the media data the file carries")
            }
        }
        return plan
    }

    private static func makePlan(
        tree: AtomTree, original: MovieMetadata, metadata: MovieMetadata, chapters: ChapterTrackChange?, options: MovieSaveOptions,
        forceRewrite: Bool
    ) throws -> MovieSavePlan {
        var chapters = chapters
        var plan = try makeLayout(tree: tree, original: original, metadata: metadata, chapters: &chapters, options: options, forceRewrite: forceRewrite)
        if let chapters {
            plan.chapterTrackEdited = true
            plan.removedTrackIDs = chapters.removedTrackIDs
            plan.removedTrackIndexes = chapters.removedTrackIndexes
        }
        return plan
    }

    private static func makeLayout(
        tree: AtomTree, original: MovieMetadata, metadata: MovieMetadata, chapters: inout ChapterTrackChange?, options: MovieSaveOptions,
        forceRewrite: Bool
    ) throws -> MovieSavePlan {
        let moovIndex = tree.atoms.firstIndex { $0.type == "moov" }!
        let moov = tree.atoms[moovIndex]
        let traks = moov.children.filter { $0.type == "trak" }
        guard metadata.tracks.count == traks.count, original.tracks.count == traks.count else {
            throw AtomError(.notWritable, offset: moov.offset, path: AtomPath.root.appending("moov"),
                            message: "the metadata lists \(metadata.tracks.count) tracks but the movie has \(traks.count)")
        }

        // The new moov: only scopes that changed are rendered.
        let quickTime = isQuickTime(tree)
        var moovNode = try metadata.movie.rendered(moov, original: original.movie, in: tree, quickTime: quickTime)
        for (index, trak) in traks.enumerated() where metadata.tracks[index] != original.tracks[index] {
            guard let node = try metadata.tracks[index].rendered(trak, original: original.tracks[index], in: tree, quickTime: quickTime) else { continue }
            var parent = try moovNode ?? AtomNode.expanding(moov, in: tree)
            var children = parent.children ?? []
            children[children.firstIndex { $0.originalAtom?.offset == trak.offset }!] = node
            parent.children = children
            moovNode = parent
        }
        // The chapter track: tracks removed, one added.
        if chapters != nil {
            var node = try moovNode ?? AtomNode.expanding(moov, in: tree)
            try chapters!.apply(to: &node, moov: moov, tree: tree)
            moovNode = node
        }
        let chapterMedia = chapters?.mediaNode
        let orphaned = chapters?.orphanedAtoms ?? []

        // Top-level padding around moov (and media data only removed chapter tracks used).
        let absorbable = { (index: Int) in isPadding(tree.atoms[index]) || orphaned.contains(index) }
        var first = moovIndex
        while first > 0, absorbable(first - 1) { first -= 1 }
        var last = moovIndex
        while last + 1 < tree.atoms.count, absorbable(last + 1) { last += 1 }
        let regionEnd = tree.atoms[last].endOffset
        let firstMediaIndex = tree.atoms.firstIndex { $0.type == "mdat" }
        let relocateMovie = options.fastStart && (firstMediaIndex.map { $0 < moovIndex } ?? false)

        guard var moovNode else {
            if relocateMovie || forceRewrite {
                return try rewrite(tree: tree, moovNode: .original(moov), moovIndex: moovIndex, padding: first...last, before: firstMediaIndex, options: options)
            }
            return unchangedPlan(tree, moov: moov)
        }
        absorbPadding(&moovNode, delta: Int64(moovNode.size) - Int64(moov.size))
        let newSize = moovNode.size
        let mediaSize = chapterMedia?.size ?? 0

        if options.allowInPlace && !relocateMovie {
            // 1. In place, keeping moov where it starts, or starting at the padding before it;
            //    new chapter samples go in an mdat right after it.
            for start in [moov.offset, tree.atoms[first].offset] where newSize + mediaSize <= regionEnd - start {
                let rest = regionEnd - start - newSize - mediaSize
                guard rest == 0 || rest >= 8 else { continue }
                let movie = chapters?.settingChunkOffset(start + newSize + 8, in: moovNode) ?? moovNode
                let nodes = [movie] + (chapterMedia.map { [$0] } ?? []) + (rest > 0 ? [.padding(size: rest)] : [])
                var plan = try inPlacePlan(tree: tree, nodes: nodes, region: start..<regionEnd, moov: moov, newMovieSize: newSize, padding: rest, newFileSize: tree.fileSize)
                plan.addedTrack = chapters?.added(at: start + newSize + 8)
                return plan
            }
            // 2. moov is the last atom: rewrite it there and extend or cut the file.
            if last == tree.atoms.count - 1 && tree.trailingSize == 0 {
                let padding = options.paddingSize(forMovieSize: newSize)
                let movie = chapters?.settingChunkOffset(moov.offset + newSize + 8, in: moovNode) ?? moovNode
                let nodes = [movie] + (chapterMedia.map { [$0] } ?? []) + (padding > 0 ? [.padding(size: padding)] : [])
                let end = moov.offset + newSize + mediaSize + padding
                var plan = try inPlacePlan(tree: tree, nodes: nodes, region: moov.offset..<max(end, regionEnd), moov: moov, newMovieSize: newSize, padding: padding, newFileSize: end, strategy: .movieAtEnd)
                plan.addedTrack = chapters?.added(at: moov.offset + newSize + 8)
                return plan
            }
        }
        // 3. Rewrite the whole file.
        return try rewrite(tree: tree, moovNode: moovNode, moovIndex: moovIndex, padding: first...last, before: relocateMovie ? firstMediaIndex : nil,
                           chapters: chapters, options: options)
    }

    /// Refuses a file whose structure is not fully understood.
    static func checkWritable(_ tree: AtomTree) throws(AtomError) {
        if let problem = tree.diagnostics.first(where: { $0.severity >= .warning }) {
            throw AtomError(.notWritable, offset: problem.offset, path: problem.atomError.path,
                            message: "not written, because its structure is not fully understood: \(problem.message)")
        }
        let movies = tree.atoms.filter { $0.type == "moov" }
        guard movies.count == 1, movies[0].isContainer else {
            throw AtomError(.notWritable, offset: movies.dropFirst().first?.offset ?? 0,
                            message: movies.isEmpty ? "not written: the file has no 'moov' atom" : "not written: the file has \(movies.count) 'moov' atoms")
        }
    }

    static func isQuickTime(_ tree: AtomTree) -> Bool {
        guard let ftyp = tree.atoms.first, ftyp.type == "ftyp" else { return true }
        guard let fields = try? tree.fieldBytes(of: ftyp), fields.count >= 4 else { return false }
        let s = fields.startIndex
        return FourCC(fields[s], fields[s + 1], fields[s + 2], fields[s + 3]) == "qt  "
    }

    static func isPadding(_ atom: Atom) -> Bool { atom.type == "free" || atom.type == "skip" }

    /// Lets `free`/`skip` atoms inside the opened containers of moov take up a size change
    /// `delta`: a grown item list eats into the padding beside it, a shrunk one leaves more.
    static func absorbPadding(_ node: inout AtomNode, delta: Int64) {
        var remaining = delta
        absorb(&node, &remaining)
    }

    private static func absorb(_ node: inout AtomNode, _ delta: inout Int64) {
        guard delta != 0, var children = node.children else { return }
        for index in children.indices where delta != 0 {
            if children[index].isPadding {
                let size = Int64(children[index].size)
                let newSize = size - delta
                if newSize == 0 {
                    children.remove(at: index)
                    delta = 0
                    break
                } else if newSize >= 8 {
                    children[index] = .padding(size: UInt64(newSize))
                    delta = 0
                }
            } else if children[index].children != nil {
                absorb(&children[index], &delta)
            }
        }
        node.children = children
    }

    private static func unchangedPlan(_ tree: AtomTree, moov: Atom) -> MovieSavePlan {
        MovieSavePlan(strategy: .unchanged, nodes: [], patches: [], writableRegion: 0..<0,
                      oldFileSize: tree.fileSize, newFileSize: tree.fileSize, offsetMap: OffsetMap(moves: []),
                      oldMovieSize: moov.size, newMovieSize: moov.size, padding: 0)
    }

    /// A plan that overwrites `region` with `nodes`, as a few patches of the bytes that differ.
    private static func inPlacePlan(
        tree: AtomTree, nodes: [AtomNode], region: Range<UInt64>, moov: Atom, newMovieSize: UInt64, padding: UInt64,
        newFileSize: UInt64, strategy: MovieWriteStrategy = .inPlace
    ) throws -> MovieSavePlan {
        // Only what changes is rendered (original atoms that stay in place are skipped), and
        // each rendered segment is compared with the bytes there now.
        var patches: [(offset: UInt64, bytes: [UInt8])] = []
        for segment in try AtomNode.segments(of: nodes, at: region.lowerBound, from: tree) {
            // Old bytes of the part of the segment that exists in the file now.
            let oldEnd = min(segment.offset + UInt64(segment.bytes.count), tree.fileSize)
            let old = oldEnd > segment.offset ? Array(try tree.bytes(at: segment.offset, count: Int(oldEnd - segment.offset))) : []
            patches += differences(segment.bytes, from: old).map { (segment.offset + UInt64($0.start), $0.bytes) }
        }
        let map = OffsetMap(moves: tree.atoms.filter { $0.endOffset <= region.lowerBound || $0.offset >= region.upperBound }
            .map { OffsetMap.Move(start: $0.offset, end: $0.endOffset, delta: 0) })
        return MovieSavePlan(
            strategy: strategy, nodes: [], patches: patches, writableRegion: region,
            oldFileSize: tree.fileSize, newFileSize: newFileSize, offsetMap: map, oldMovieSize: moov.size,
            newMovieSize: newMovieSize, padding: padding)
    }

    /// The runs of `new` that differ from `old` (which may be shorter), by their start in
    /// `new`; runs closer than 64 bytes are joined, so a change is a few writes.
    static func differences(_ new: [UInt8], from old: [UInt8]) -> [(start: Int, bytes: [UInt8])] {
        var runs: [(start: Int, bytes: [UInt8])] = []
        var index = 0
        let common = min(new.count, old.count)
        while index < new.count {
            // Equal blocks are passed a page at a time.
            while index + 4096 <= common && new.withUnsafeBytes({ n in old.withUnsafeBytes { o in memcmp(n.baseAddress! + index, o.baseAddress! + index, 4096) == 0 } }) {
                index += 4096
            }
            guard index < new.count else { break }
            guard index >= old.count || new[index] != old[index] else { index += 1; continue }
            var end = index + 1
            var same = 0
            while end < new.count && same < 64 {
                if end < old.count && new[end] == old[end] { same += 1 } else { same = 0 }
                end += 1
            }
            end -= same
            runs.append((index, Array(new[index..<end])))
            index = end
        }
        return runs
    }

    /// A plan that writes the whole file anew: the top-level atoms in order, the padding that
    /// was around moov replaced by fresh padding, moov moved before the media data when asked,
    /// and every stored offset into moved atoms updated.
    private static func rewrite(
        tree: AtomTree, moovNode: AtomNode, moovIndex: Int, padding: ClosedRange<Int>, before mediaIndex: Int?,
        chapters: ChapterTrackChange? = nil, options: MovieSaveOptions
    ) throws -> MovieSavePlan {
        let moov = tree.atoms[moovIndex]
        // Dropped: the padding around moov, and media data only removed chapter tracks used.
        let dropped = Set(padding).union(chapters?.orphanedAtoms ?? [])
        // New chapter samples go before the first media data that is kept (after moov without).
        let chapterMedia = chapters?.mediaNode
        let chapterIndex = tree.atoms.indices.first { tree.atoms[$0].type == "mdat" && !dropped.contains($0) }
        var chapterOffset: UInt64 = 0
        /// The layout with `padding` after the movie, and where the padding ends.
        func place(_ movie: AtomNode, padding: UInt64) -> (nodes: [AtomNode], map: OffsetMap, size: UInt64, padding: UInt64, paddingEnd: UInt64) {
            var block = padding > 0 ? [movie, AtomNode.padding(size: padding)] : [movie]
            if chapterIndex == nil, let chapterMedia { block.append(chapterMedia) }
            var nodes: [AtomNode] = []
            var moves: [OffsetMap.Move] = []
            var position: UInt64 = 0
            var paddingEnd: UInt64 = 0
            for (index, atom) in tree.atoms.enumerated() {
                if index == mediaIndex || (mediaIndex == nil && index == moovIndex) {
                    for node in block {
                        if node.type == "mdat" { chapterOffset = position + 8 }
                        nodes.append(node)
                        position += node.size
                        if node.type == "moov" || node.type == "free" { paddingEnd = position }
                    }
                }
                if index == chapterIndex, let chapterMedia {
                    chapterOffset = position + 8
                    nodes.append(chapterMedia)
                    position += chapterMedia.size
                }
                if dropped.contains(index) { continue }
                moves.append(OffsetMap.Move(start: atom.offset, end: atom.endOffset, delta: Int64(position) - Int64(atom.offset)))
                nodes.append(.original(atom))
                position += AtomSerializer.serializedSize(of: atom)
            }
            return (nodes, OffsetMap(moves: moves), position, padding, paddingEnd)
        }
        func layout(_ movie: AtomNode) -> (nodes: [AtomNode], map: OffsetMap, size: UInt64, padding: UInt64, paddingEnd: UInt64) {
            let padding = options.paddingSize(forMovieSize: movie.size)
            let first = place(movie, padding: padding)
            // The padding grows so that the largest atom that moves keeps its alignment: of
            // those after it (what comes before it does not move with it).
            let after = first.map.moves.filter { $0.delta != 0 && UInt64(Int64($0.start) + $0.delta) >= first.paddingEnd }
            guard let largest = after.max(by: { $0.end - $0.start < $1.end - $1.start }) else { return first }
            let aligned = CopyAlignment.padding(padding, shift: largest.delta, moving: largest.end - largest.start)
            return aligned == padding ? first : place(movie, padding: aligned)
        }
        var result = layout(moovNode)
        // Moving offsets can widen `stco` to `co64`, which moves the atoms after moov again:
        // repeat until the layout stops changing (sizes only grow, so this ends quickly).
        var settled = result.map.isIdentity
        for _ in 0..<8 where !settled {
            let next = layout(try relocate(moovNode, in: tree, map: result.map))
            settled = next.size == result.size
            result = next
        }
        guard settled else {
            throw AtomError(.notWritable, offset: moov.offset, message: "the new layout of the file does not settle")
        }
        if !result.map.isIdentity {
            // Fragments, their index and HEIF-style items outside moov: offsets inside them move too.
            result.nodes = try result.nodes.map { node in
                guard let atom = node.originalAtom, atom.type != "moov" else { return node }
                return try relocate(node, in: tree, map: result.map)
            }
        }
        let movieIndex = result.nodes.firstIndex { $0.type == "moov" && $0.originalAtom == nil } ?? result.nodes.firstIndex { $0.type == "moov" }!
        if let chapters {
            result.nodes[movieIndex] = chapters.settingChunkOffset(chapterOffset, in: result.nodes[movieIndex])
        }
        var plan = MovieSavePlan(
            strategy: .rewrite, nodes: result.nodes, patches: [], writableRegion: 0..<0,
            oldFileSize: tree.fileSize, newFileSize: result.size, offsetMap: result.map, oldMovieSize: moov.size,
            newMovieSize: result.nodes[movieIndex].size, padding: result.padding)
        plan.addedTrack = chapters?.added(at: chapterOffset)
        return plan
    }

    /// `node` with every stored file offset moved by `map`; containers are opened only where
    /// they hold such offsets.
    static func relocate(_ node: AtomNode, in tree: AtomTree, map: OffsetMap) throws -> AtomNode {
        switch node.content {
        case .original(let atom):
            if !atom.isContainer {
                guard FilePointers.types.contains(atom.type) else { return node }
                let payload = try tree.fieldBytes(of: atom)
                let newEnd = atom.type == "sidx" ? (map.map(atom.offset) ?? atom.offset) + atom.size : 0
                return try FilePointers.relocated(atom, payload: payload, map: map, newAtomEnd: newEnd) ?? node
            }
            guard containsPointers(atom) else { return node }
            var expanded = try AtomNode.expanding(atom, in: tree)
            expanded.children = try expanded.children?.map { try relocate($0, in: tree, map: map) }
            return expanded
        case .container:
            var copy = node
            copy.children = try node.children?.map { try relocate($0, in: tree, map: map) }
            return copy
        case .payload, .encoded:
            return node
        }
    }

    private static func containsPointers(_ atom: Atom) -> Bool {
        atom.children.contains { FilePointers.types.contains($0.type) || containsPointers($0) }
    }
}
