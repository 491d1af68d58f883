import ISOBMFF
import MediaBytes

/// MP4, M4A/M4B/M4V, QuickTime and 3GPP files: the movie's metadata atoms, saved by the movie
/// rewrite planner (in place, movie at the end, or a rewrite).
struct MovieContainer: MetadataContainer {
    static let family = MetadataFamily.mp4

    private let movie: MovieFile
    private let path: String
    var store: MovieMetadataStore
    /// The change to the QuickTime chapter track the save makes; nil leaves it as it is.
    private var chapterTrack: ChapterTrackEdit?
    static var chapterForms: [ChapterForm] { [.quickTime, .nero] }
    /// `covr` images have only a format.
    static var picturesHaveTypes: Bool { false }
    /// The QuickTime chapter track is a track, not an item.
    static var chaptersAreItems: Bool { false }
    /// The movie's duration: `mvhd`'s, else (a fragmented movie, whose `mvhd` says 0) the
    /// audio's from its fragments.
    var duration: ChapterTime? {
        store.duration ?? properties.audio?.duration.flatMap { $0 > 0 && $0 < 1e9 ? ChapterTime.milliseconds(UInt64(($0 * 1000).rounded())) : nil }
    }
    var properties: MediaProperties { MediaProperties(movie: movie.tree) }
    var hasChanges: Bool { store.hasChanges || chapterTrack != nil }

    init(source: FileByteSource, format: MediaFormat, path: String) throws {
        movie = try MovieFile(tree: try AtomTree(source: source), path: path)
        guard movie.tree.atoms.contains(where: { $0.type == "moov" }) else {
            let atoms = movie.tree.atoms.prefix(8).map { "'\($0.type)' at \($0.offset)" }.joined(separator: ", ")
            throw MetadataError(.malformed, path: path, message: "no movie atom (moov) among the top-level atoms (\(atoms.isEmpty ? "none" : atoms)) up to byte offset \(movie.tree.fileSize), where the file ends: there is no metadata to read or write (a file cut short loses its moov when it comes last)")
        }
        self.path = path
        store = MovieMetadataStore(scope: movie.metadata.movie, movieTime: Self.movieTime(of: movie.tree), xmp: movie.metadata.xmp)
    }

    mutating func setChapters(_ chapters: [Chapter], form: ChapterForm) throws(MetadataError) -> [String] {
        if form == .nero { return store.setNeroChapters(chapters) }
        chapterTrack = ChapterTrackEdit(chapters, duration: duration)
        return []
    }

    mutating func removeChapters(form: ChapterForm) -> Bool {
        if form == .nero { return store.removeNeroChapters() }
        guard form == .quickTime else { return false }
        let had = chapterTrack.map { !$0.samples.isEmpty } ?? !QuickTimeChapterTrack.read(movie.tree).tracks.isEmpty
        chapterTrack = .remove
        return had
    }

    /// Removes every writable item, the chapter track included.
    mutating func removeAll() {
        store.removeAll()
        if !QuickTimeChapterTrack.read(movie.tree).tracks.isEmpty { chapterTrack = .remove } else { chapterTrack = nil }
    }

    /// A restore (`MediaFile.replaceAll`) leaves the chapter track to the chapters restored
    /// after the items (`applyChapters`: kept when they are already so, replaced or removed
    /// otherwise), so that a file's own export imported again rewrites nothing.
    mutating func removeAllForRestore() { store.removeAll() }

    /// The QuickTime chapter tracks, then the Nero chapters, as the file holds them (or as edited).
    var chapterLists: [ChapterList] {
        if let edit = chapterTrack {
            let chapters = edit.samples.map { sample in
                Chapter(start: ChapterTime(sample.start, timescale: edit.timescale),
                        end: ChapterTime(sample.start + sample.duration, timescale: edit.timescale), title: sample.title)
            }
            return (chapters.isEmpty ? [] : [ChapterList(form: .quickTime, chapters: chapters)]) + store.chapterLists.map(endingAtTheMovieEnd)
        }
        let (tracks, problems) = QuickTimeChapterTrack.read(movie.tree)
        var lists: [ChapterList] = []
        for (index, track) in tracks.enumerated() {
            var notes = index == 0 ? problems.map(\.description) : []
            if tracks.count > 1 { notes.append("track \(track.trackID) is one of \(tracks.count) chapter tracks") }
            if track.isEnabled { notes.append("the chapter track (track \(track.trackID)) is enabled: players may also show it as subtitles") }
            let chapters = track.samples.map { sample in
                Chapter(start: ChapterTime(sample.start, timescale: track.timescale),
                        end: ChapterTime(sample.start + sample.duration, timescale: track.timescale), title: sample.title)
            }
            lists.append(ChapterList(form: .quickTime, chapters: chapters, notes: notes))
        }
        if tracks.isEmpty && !problems.isEmpty {
            lists.append(ChapterList(form: .quickTime, chapters: [], notes: problems.map(\.description)))
        }
        return lists + store.chapterLists.map(endingAtTheMovieEnd)
    }

    /// A list whose last chapter has no end (Nero chapters in a fragmented movie) ending at the
    /// movie's end.
    private func endingAtTheMovieEnd(_ list: ChapterList) -> ChapterList {
        guard let last = list.chapters.indices.last, list.chapters[last].end == nil, let duration, list.chapters[last].start < duration else { return list }
        var list = list
        list.chapters[last].end = duration
        return list
    }

    private static let movieHeaderPath = AtomPath([.init(type: "moov"), .init(type: "mvhd")])

    private static func movieTime(of tree: AtomTree) -> MediaTimes? {
        guard let mvhd = tree.atom(at: movieHeaderPath),
            let bytes = try? tree.bytes(at: mvhd.payloadOffset, count: Int(min(mvhd.payloadSize, 40)))
        else { return nil }
        var reader = ByteReader(bytes)
        guard let version = try? reader.readUInt8(), (try? reader.skip(3)) != nil, let times = try? MediaTimes(from: &reader, version: version) else { return nil }
        return times
    }

    var diagnostics: [Diagnostic] {
        movie.tree.diagnostics
    }

    func needsWriting(_ options: MediaFile.SaveOptions) -> Bool { hasChanges }

    /// The movie with the edited metadata.
    private var edited: MovieFile {
        var edited = movie
        edited.metadata.movie = store.scope
        edited.chapterTrack = chapterTrack
        return edited
    }

    func plan(_ options: MediaFile.SaveOptions) throws -> SavePlan {
        var movieOptions = MovieSaveOptions()
        movieOptions.allowInPlace = options.allowInPlace && options.output == nil
        return Self.savePlan(try edited.plan(movieOptions), output: options.output, done: false)
    }

    func write(_ options: MediaFile.SaveOptions) throws -> SavePlan {
        if let output = options.output {
            return Self.savePlan(try edited.write(to: output), output: output, done: true)
        }
        var movieOptions = MovieSaveOptions()
        movieOptions.allowInPlace = options.allowInPlace
        let planned = try edited.plan(movieOptions)
        try MediaFile.checkWritable(path, needsDirectory: planned.strategy == .rewrite)
        return Self.savePlan(try edited.save(movieOptions), output: nil, done: true)
    }

    private static func savePlan(_ plan: MovieSavePlan, output: String?, done: Bool) -> SavePlan {
        let method: SaveMethod = switch plan.strategy {
        case .unchanged: .unchanged
        case .inPlace: .inPlace
        case .movieAtEnd: .movieAtEnd
        case .rewrite: .rewrite
        }
        var summary = plan.details
        let writes: [SavePlan.Write]
        if plan.strategy == .rewrite || output != nil {
            writes = [SavePlan.Write(range: 0..<plan.newFileSize, what: "whole file")]
        } else {
            writes = plan.patches.map { SavePlan.Write(range: $0.offset..<$0.offset + UInt64($0.bytes.count), what: "metadata atoms") }
        }
        if let output { summary = (done ? "wrote " : "would write ") + output + ": " + summary }
        return SavePlan(changed: plan.strategy != .unchanged || output != nil, method: output != nil ? .newFile : method, summary: summary, notes: plan.notes, writes: writes)
    }
}
