import MediaBytes

/// What a chapter-track edit does to a movie, worked out before the layout: which tracks go,
/// which top-level media atoms go with them, and the track that is added.
struct ChapterTrackChange {
    var edit: ChapterTrackEdit
    /// The IDs of the chapter tracks removed.
    var removedTrackIDs: Set<UInt32>
    /// Indexes of the removed tracks among the movie's `trak` atoms.
    var removedTrackIndexes: Set<Int>
    /// Top-level atoms (by index) that only removed tracks point into: their media data goes too.
    var orphanedAtoms: Set<Int>
    /// The new track, when the edit has samples.
    var builder: ChapterTrackBuilder?
    /// Where in `moov`'s children the new `trak` is.
    var newTrackIndex: Int?
    /// The movie's tracks as read, in file order.
    private let infos: [QuickTimeChapterTrack.TrackInfo]

    /// The `mdat` holding the new track's samples.
    var mediaNode: AtomNode? {
        builder.map { _ in AtomNode.leaf("mdat", payload: edit.mediaData) }
    }

    /// Works out the change `edit` makes to the movie `moov` of `tree`.
    init(_ edit: ChapterTrackEdit, tree: AtomTree, moov: Atom, quickTime: Bool) throws(AtomError) {
        self.edit = edit
        let infos = moov.children.filter { $0.type == "trak" }.map { QuickTimeChapterTrack.trackInfo($0, path: "", tree: tree) }
        self.infos = infos
        // The chapter tracks: text tracks some other track names in its tref/chap.
        var removedIDs: Set<UInt32> = []
        for info in infos {
            for target in info.chapterReferences where target != info.trackID {
                if let chapter = infos.first(where: { $0.trackID == target }), chapter.handler == "text" || chapter.handler == "sbtl" {
                    removedIDs.insert(target)
                }
            }
        }
        removedTrackIDs = removedIDs
        removedTrackIndexes = Set(infos.indices.filter { removedIDs.contains(infos[$0].trackID) })

        // Top-level atoms that removed tracks point into and nothing else does.
        var pointedByRemoved: Set<Int> = []
        var pointedByOthers: Set<Int> = []
        let pointers = (try? MovieFile.storedOffsets(in: tree)) ?? []
        for pointer in pointers {
            for value in pointer.values {
                guard let index = tree.atoms.firstIndex(where: { $0.offset <= value && value < $0.endOffset }) else { continue }
                if let track = pointer.trackID, removedIDs.contains(track) { pointedByRemoved.insert(index) } else { pointedByOthers.insert(index) }
            }
        }
        orphanedAtoms = Set(pointedByRemoved.subtracting(pointedByOthers).filter { tree.atoms[$0].type == "mdat" })

        guard !edit.samples.isEmpty else { builder = nil; return }
        if moov.child("mvex") != nil {
            throw AtomError(.notWritable, offset: moov.offset, path: AtomPath.root.appending("moov"),
                            message: "not written: a chapter track cannot be added to a fragmented movie (moov/mvex); write Nero chapters instead")
        }
        guard let header = MovieHeaderFields(moov: moov, tree: tree) else {
            throw AtomError(.notWritable, offset: moov.offset, path: AtomPath.root.appending("moov"), message: "not written: the movie header (mvhd) cannot be read")
        }
        let kept = infos.indices.filter { !removedTrackIndexes.contains($0) }
        guard !kept.isEmpty else {
            throw AtomError(.notWritable, offset: moov.offset, path: AtomPath.root.appending("moov"), message: "not written: the movie has no track to name the chapter track")
        }
        let highest = infos.map(\.trackID).max() ?? 0
        let next = header.nextTrackID == 0 || header.nextTrackID == .max ? highest &+ 1 : max(header.nextTrackID, highest &+ 1)
        guard next != 0, next != .max else {
            throw AtomError(.notWritable, offset: moov.offset, path: AtomPath.root.appending("moov/mvhd"), message: "not written: no track ID is left for a chapter track")
        }
        // Offsets become 64-bit where the file is near the 32-bit limit.
        let wide = tree.fileSize + moov.size * 2 + UInt64(edit.mediaData.count) + (1 << 20) > UInt64(UInt32.max)
        builder = ChapterTrackBuilder(edit: edit, trackID: next, movieTimescale: header.timescale, quickTime: quickTime, wideOffsets: wide)
    }

    /// The track that names the chapter track: the first enabled sound or video track, else the
    /// first enabled track, else the first sound or video track, else the first.
    private static func host(_ infos: [QuickTimeChapterTrack.TrackInfo], kept: [Int]) -> Int {
        let media: (Int) -> Bool = { infos[$0].handler == "soun" || infos[$0].handler == "vide" }
        return kept.first { infos[$0].isEnabled && media($0) } ?? kept.first { infos[$0].isEnabled } ?? kept.first(where: media) ?? kept[0]
    }

    /// Applies the change to the movie node `moovNode` (the movie's new `moov`, its `trak`
    /// children in the order of `traks`): drops the removed tracks and every `chap` reference,
    /// adds the new track (its chunk offset still 0) named by the host's existing `tref`, and
    /// raises `mvhd`'s next track ID.
    mutating func apply(to moovNode: inout AtomNode, moov: Atom, tree: AtomTree) throws {
        var movie = try Self.opened(moovNode, tree)
        let kept = infos.indices.filter { !removedTrackIndexes.contains($0) }
        let hostIndex = builder == nil ? nil : Self.host(infos, kept: kept)
        var children: [AtomNode] = []
        var trakIndex = 0
        for child in movie.children ?? [] {
            guard child.type == "trak" else { children.append(child); continue }
            defer { trakIndex += 1 }
            if removedTrackIndexes.contains(trakIndex) { continue }
            var node = child
            let info = infos[trakIndex]
            if !info.chapterReferences.isEmpty || trakIndex == hostIndex {
                // References to tracks that stay (chapter images: a video track of pictures) are
                // kept; those to removed, missing or the same track go; the new track is named last.
                var references = info.chapterReferences.filter { id in
                    id != info.trackID && !removedTrackIDs.contains(id) && infos.contains { $0.trackID == id }
                }
                if trakIndex == hostIndex, let id = builder?.trackID { references.append(id) }
                node = try Self.withChapterReferences(node, references, tree: tree)
            }
            children.append(node)
        }
        if let builder {
            let at = (children.lastIndex { $0.type == "trak" }).map { $0 + 1 } ?? children.count
            children.insert(builder.trak(chunkOffset: 0), at: at)
            newTrackIndex = at
            if let index = children.firstIndex(where: { $0.type == "mvhd" }), let mvhd = moov.child("mvhd"),
                var fields = MovieHeaderFields(moov: moov, tree: tree) {
                fields.nextTrackID = builder.trackID &+ 1
                var node = AtomNode.original(mvhd)
                node.content = .payload(try fields.payload(of: mvhd, tree: tree))
                children[index] = node
            }
        }
        movie.children = children
        moovNode = movie
    }

    /// The track added, for the plan, when its chunk is at `offset`.
    func added(at offset: UInt64) -> (trackID: UInt32, chunkOffset: UInt64, data: [UInt8], edit: ChapterTrackEdit)? {
        builder.map { ($0.trackID, offset, edit.mediaData, edit) }
    }

    /// The movie node with the new track's chunk at `offset`.
    func settingChunkOffset(_ offset: UInt64, in moovNode: AtomNode) -> AtomNode {
        guard let builder, let index = newTrackIndex, var children = moovNode.children else { return moovNode }
        children[index] = builder.trak(chunkOffset: offset)
        var node = moovNode
        node.children = children
        return node
    }

    /// `trak` with its `tref/chap` naming `references` (removed when there are none), in the
    /// existing `tref`, or a new one before `mdia`.
    private static func withChapterReferences(_ trak: AtomNode, _ references: [UInt32], tree: AtomTree) throws -> AtomNode {
        var node = try opened(trak, tree)
        var children = node.children ?? []
        var chap: AtomNode?
        if !references.isEmpty {
            var writer = ByteWriter(capacity: 4 * references.count)
            for id in references { writer.writeUInt32(id) }
            chap = .leaf("chap", payload: writer.bytes)
        }
        if let index = children.firstIndex(where: { $0.type == "tref" }) {
            var tref = try opened(children[index], tree)
            var boxes = tref.children ?? []
            if let at = boxes.firstIndex(where: { $0.type == "chap" }) {
                boxes.removeAll { $0.type == "chap" }
                if let chap { boxes.insert(chap, at: at) }
            } else if let chap {
                boxes.append(chap)
            }
            if boxes.isEmpty {
                children.remove(at: index)
            } else {
                tref.children = boxes
                children[index] = tref
            }
        } else if let chap {
            let at = children.firstIndex { $0.type == "mdia" } ?? children.count
            children.insert(.container("tref", children: [chap]), at: at)
        }
        node.children = children
        return node
    }

    /// A container node opened one level (an original atom expanded).
    private static func opened(_ node: AtomNode, _ tree: AtomTree) throws -> AtomNode {
        if let atom = node.originalAtom { return try AtomNode.expanding(atom, in: tree) }
        return node
    }
}

/// The fields of `mvhd` a chapter track needs: the timescale and the next track ID, and where
/// the ID is in the payload.
struct MovieHeaderFields {
    var timescale: UInt32
    var nextTrackID: UInt32
    private var nextTrackIDPosition: Int

    init?(moov: Atom, tree: AtomTree) {
        guard let mvhd = moov.child("mvhd"), let payload = try? tree.fieldBytes(of: mvhd), let version = payload.first else { return nil }
        let bytes = Array(payload)
        let timescaleAt = version == 1 ? 20 : 12
        nextTrackIDPosition = version == 1 ? 108 : 96
        guard bytes.count >= nextTrackIDPosition + 4 else { return nil }
        func word(_ at: Int) -> UInt32 { bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        timescale = max(word(timescaleAt), 1)
        nextTrackID = word(nextTrackIDPosition)
    }

    /// The `mvhd` payload with `nextTrackID` written in.
    func payload(of mvhd: Atom, tree: AtomTree) throws -> [UInt8] {
        var bytes = Array(try tree.fieldBytes(of: mvhd))
        for i in 0..<4 { bytes[nextTrackIDPosition + i] = UInt8(truncatingIfNeeded: nextTrackID >> UInt32(8 * (3 - i))) }
        return bytes
    }
}
