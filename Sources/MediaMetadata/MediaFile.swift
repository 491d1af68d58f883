#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Carriers
import ID3
import ISOBMFF
import MediaBytes

/// A media file opened for reading and editing its metadata through the uniform key space,
/// whatever its format: open it, read `tags`/`items`/`pictures`/`chapters`, change them with
/// `set`/`add`/`remove`, and `save`.
///
/// ```swift
/// var file = try MediaFile(path: "song.m4a")
/// print(file.tags["TITLE"] ?? [])
/// try file.set("TRACKNUMBER", ["3/12"])
/// try file.save()
/// ```
public struct MediaFile: Sendable {
    public let path: String
    public let format: MediaFormat
    var store: any MetadataStore
    private let container: Container
    /// Notes on conversions made by the edits so far (values joined, types not kept).
    public private(set) var notes: [String] = []
    /// Set by `removeAll`: the save also removes read-only tags it can (an ID3v1 tag).
    private var cleared = false

    /// The ID3v2 version edits are made for and the tag is written as (3 or 4; nil keeps the
    /// tag's own, v2.4 for a new or v2.2 tag). Set it before editing, so that each key takes
    /// the form that version has (`MOOD` is TMOO in v2.4 and TXXX:MOOD in v2.3).
    public var id3Version: UInt8? {
        didSet {
            guard var id3 = store as? ID3MetadataStore else { return }
            id3.targetVersion = id3Version
            store = id3
        }
    }

    private enum Container: Sendable {
        case movie(MovieFile)
        /// The MP3/AAC or AIFF/WAV file as read (kept to notice a change before saving).
        case mpeg(FileByteSource)
        case iff(FileByteSource)
    }

    /// Opens and reads the file at `path`.
    ///
    /// - Throws: `MetadataError` `.fileNotFound`, `.permissionDenied`, `.unsupportedFormat`
    ///   (not a format this package reads, or a directory), `.malformed` (the structure cannot
    ///   be read at all; damaged files that can be read leniently open).
    public init(path: String) throws(MetadataError) {
        self.path = path
        do {
            let source = try FileByteSource(path: path)
            guard let format = MediaFormat.detect(source) else {
                throw MetadataError(.unsupportedFormat, path: path, message: "not a format this tool reads (MP4, M4A, MOV, 3GP, MP3, AAC, AIFF, WAV)")
            }
            self.format = format
            switch format {
            case .mp4, .mov, .threeGP:
                let movie = try MovieFile(tree: try AtomTree(source: source), path: path)
                guard movie.tree.atoms.contains(where: { $0.type == "moov" }) else {
                    throw MetadataError(.malformed, path: path, message: "no movie atom (moov): there is no metadata to read or write")
                }
                container = .movie(movie)
                store = MovieMetadataStore(scope: movie.metadata.movie, duration: Self.duration(of: movie.tree))
            case .mp3, .aac:
                let file = try MPEGStreamFile(source: source)
                container = .mpeg(source)
                store = ID3MetadataStore(tag: file.primaryTag, id3v1: file.id3v1, info: [])
            case .aiff, .wav:
                let file = try IFFChunkFile(source: source)
                container = .iff(source)
                store = ID3MetadataStore(tag: file.id3Tag, id3v1: nil, info: file.infoEntries)
            default:
                throw MetadataError(.unsupportedFormat, path: path, message: "\(format) files have no tags this tool edits")
            }
        } catch {
            throw MetadataError.wrapping(error, path: path)
        }
    }

    private static func duration(of tree: AtomTree) -> Double? {
        guard let path = AtomPath(parsing: "moov/mvhd"), let mvhd = tree.atom(at: path), let bytes = try? tree.bytes(at: mvhd.payloadOffset, count: Int(min(mvhd.payloadSize, 40))) else {
            return nil
        }
        var reader = ByteReader(bytes)
        guard let version = try? reader.readUInt8(), (try? reader.skip(3)) != nil, let times = try? MediaTimes(from: &reader, version: version) else { return nil }
        return times.durationSeconds
    }

    // MARK: - Reading

    /// Every native item with its identifier, in file order.
    public var items: [NativeMetadataItem] { store.rankedItems.map(\.item) }

    /// The uniform tags, TagLib's property map: each key with its values, keys sorted.
    public var tags: [String: [String]] {
        let ranked = store.rankedItems
        var result: [String: [String]] = [:]
        if store.mergesAreasPerKey {
            var rankOfKey: [String: Int] = [:]
            for (rank, item) in ranked {
                for contribution in item.contributions {
                    if let best = rankOfKey[contribution.key], best < rank { continue }
                    if rankOfKey[contribution.key] != rank { result[contribution.key] = [] }
                    rankOfKey[contribution.key] = rank
                    result[contribution.key, default: []] += contribution.values
                }
            }
        } else {
            guard let best = ranked.filter({ !$0.item.contributions.isEmpty }).map(\.rank).min() else { return [:] }
            for (rank, item) in ranked where rank == best {
                for contribution in item.contributions { result[contribution.key, default: []] += contribution.values }
            }
        }
        return result
    }

    public var pictures: [MediaPicture] {
        get throws(MetadataError) {
            do { return try store.pictures } catch { throw MetadataError.wrapping(error, path: path) }
        }
    }

    public var chapters: [MediaChapter] { store.chapters }

    /// True when the metadata differs from what was read.
    public var hasChanges: Bool { store.hasChanges }

    /// The values of `key` (a uniform key, an alias, a custom key such as `COMMENT:NOTIZ`, or
    /// an identifier); nil when the file has none. For an identifier, the values of every item
    /// it names.
    public func values(_ key: String) throws(MetadataError) -> [String]? {
        switch try resolve(key) {
        case .uniform(let row):
            if row.kind == .picture {
                let pictures = try pictures
                return pictures.isEmpty ? nil : pictures.map { "\($0.typeName), \($0.mimeType), \($0.data.count) bytes" }
            }
            return tags[row.key]
        case .custom(let key, _):
            return tags[key]
        case .identifier(let identifier):
            let matching = items.filter { $0.identifier == identifier }
            return matching.isEmpty ? nil : matching.flatMap(\.values)
        }
    }

    // MARK: - Editing

    /// What `key` names: a row of the table (by key or alias), an identifier, a structured
    /// custom key (`COMMENT:X`, `LYRICS:X`, `URL`, `URL:X`, `PERFORMER:X`), or a custom key the
    /// file already has.
    func resolve(_ key: String) throws(MetadataError) -> KeyTarget {
        if let row = MetadataKeyTable.definition(key) { return .uniform(row) }
        if key.contains("/"), let identifier = MetadataIdentifier(parsing: key) { return .identifier(identifier) }
        let upper = key.uppercased()
        for prefix in ["COMMENT:", "LYRICS:", "URL:", "PERFORMER:"] where upper.hasPrefix(prefix) && upper.count > prefix.count {
            return .custom(key: upper, nativeName: key)
        }
        if upper == "URL" { return .custom(key: "URL", nativeName: "") }
        for item in items where item.contributions.contains(where: { $0.key == upper }) {
            let native = item.identifier.id3Parts.qualifier ?? item.identifier.freeformParts?.name ?? key
            return .custom(key: upper, nativeName: native)
        }
        throw MetadataError(.unknownKey, path: path, message: "unknown key \"\(key)\": not a uniform key (see `tagedit keys`), an identifier such as id3/TXXX:\(key) or itlk/com.apple.iTunes:\(key), nor a custom key the file has")
    }

    /// Replaces the values of `key` (an empty list removes it). Values are checked against the
    /// key's kind (`TRACKNUMBER=abc` throws `.badValue`).
    public mutating func set(_ key: String, _ values: [String]) throws(MetadataError) {
        let target = try resolve(key)
        // An empty value removes the key, as in TagLib.
        let values = values.filter { !$0.isEmpty }
        if values.isEmpty {
            _ = try remove(key)
            return
        }
        // The same values, already held by writable items, change nothing.
        let holders = items.filter { item in
            switch target {
            case .uniform(let row): item.contributions.contains { $0.key == row.key }
            case .custom(let key, _): item.contributions.contains { $0.key == key }
            case .identifier(let identifier): item.identifier == identifier
            }
        }
        if holders.contains(where: \.isWritable), try self.values(key) == values { return }
        do {
            try set(target, values: values, key: key)
        } catch {
            throw MetadataError.wrapping(error, path: path)
        }
    }

    /// Appends `values` to those `key` has.
    public mutating func add(_ key: String, _ values: [String]) throws(MetadataError) {
        let existing = try self.values(key) ?? []
        if case .uniform(let row) = try resolve(key), row.kind == .picture {
            throw MetadataError(.badValue, path: path, message: "\(row.key): pictures are added with `tagedit picture add`")
        }
        try set(key, existing + values)
    }

    /// Removes `key`; false when the file did not have it.
    @discardableResult
    public mutating func remove(_ key: String) throws(MetadataError) -> Bool {
        let target = try resolve(key)
        switch target {
        case .uniform(let row):
            let hasForm = isMovie ? !row.iTunes.isEmpty || row.quickTimeKey != nil || row.userData != nil || row.threeGPP != nil
                : row.id3 != nil || row.riffInfo != nil
            if !hasForm { throw MetadataError(.notRepresentable, path: path, message: "\(row.key) has no form in \(format) files") }
        case .identifier(let identifier):
            let spaces: [MetadataIdentifier.KeySpace] = isMovie ? [.iTunes, .iTunesLong, .quickTimeMetadata, .quickTimeUserData, .threeGPP] : [.id3]
            if !spaces.contains(identifier.keySpace) {
                throw MetadataError(.notRepresentable, path: path, message: "\(identifier) cannot be removed from \(format) files" + (identifier.keySpace == .id3v1 || identifier.keySpace == .riffInfo ? " (it is read only)" : ""))
            }
        case .custom:
            break
        }
        return store.remove(target)
    }

    /// Removes all metadata (the media is kept; read-only areas such as ID3v1 are refreshed or
    /// kept as the format's save does).
    public mutating func removeAll() {
        store.removeAll()
        cleared = true
    }

    public mutating func addPicture(_ picture: MediaPicture) throws(MetadataError) {
        do { notes += try store.addPicture(picture) } catch { throw MetadataError.wrapping(error, path: path) }
    }

    @discardableResult
    public mutating func removePictures(type: UInt8? = nil) -> Int {
        store.removePictures(type: type)
    }

    /// Every writable native item in a form that restores it exactly (`tagedit export`).
    public func nativeItems() throws(MetadataError) -> [(identifier: MetadataIdentifier, data: NativeItemData)] {
        do { return try store.nativeItems().map { ($0.0, $0.1) } } catch { throw MetadataError.wrapping(error, path: path) }
    }

    /// Replaces all metadata with `items` exported by `nativeItems` from a file of the same
    /// family (`tagedit import`).
    public mutating func replaceAll(with items: [(identifier: MetadataIdentifier, data: NativeItemData)]) throws(MetadataError) {
        store.removeAll()
        do {
            for item in items { try store.addNative(item.identifier, item.data) }
        } catch {
            throw MetadataError.wrapping(error, path: path)
        }
    }

    /// True for MP4/MOV/3GP files, whose native items are atoms (the others carry ID3 tags).
    public var isAtomBased: Bool { isMovie }

    mutating func appendNotes(_ more: [String]) { notes += more }

    /// Notes the edits produced, and clears them.
    mutating func takeNotes() -> [String] {
        defer { notes = [] }
        return notes
    }

    // MARK: - Saving

    /// How `save` writes.
    public struct SaveOptions: Sendable {
        /// Plan the write and report it, writing nothing.
        public var dryRun: Bool
        /// Write the result to this new file and leave the original untouched.
        public var output: String?
        /// The ID3v2 version to write (3 or 4); nil keeps the tag's (v2.4 for a new tag or v2.2).
        public var id3Version: UInt8?
        /// Write a change that fits the file's padding in place (fast: only the metadata bytes
        /// are written). False always writes the whole file anew beside the original and renames
        /// it over it: slower for large files, but atomic against a crash or power loss, which an
        /// in-place write is not.
        public var allowInPlace: Bool

        public init(dryRun: Bool = false, output: String? = nil, id3Version: UInt8? = nil, allowInPlace: Bool = true) {
            self.dryRun = dryRun
            self.output = output
            self.id3Version = id3Version
            self.allowInPlace = allowInPlace
        }
    }

    /// What a save did (or, for a dry run, would do).
    public struct SaveResult: Sendable {
        /// False when there was nothing to write.
        public var changed: Bool
        /// How, in the same words for every format: `unchanged`, `in-place`, `movie-at-end` (MP4:
        /// the movie atom rewritten at the end of the file), `rewrite` (the whole file written anew
        /// and renamed over the original), `new file` (`output`).
        public var method: String
        /// The plan in words (sizes, padding, what moved).
        public var summary: String
        /// Conversions and losses: values joined, frames the target version cannot hold.
        public var notes: [String]
    }

    /// Writes the changes. The file is verified before it replaces the original (or before the
    /// in-place write is kept); on any failure the original is left as it was.
    @discardableResult
    public mutating func save(_ options: SaveOptions = SaveOptions()) throws(MetadataError) -> SaveResult {
        var notes = takeNotes()
        let id3Version = options.id3Version ?? self.id3Version
        if let version = id3Version, version != 3 && version != 4 {
            throw MetadataError(.badValue, path: path, message: "--id3v2-version must be 3 or 4, not \(version)")
        }
        if let version = id3Version, var id3 = store as? ID3MetadataStore {
            id3.prepareForWriting(as: version)
            store = id3
        }
        // A version change alone rewrites a tag the file has; it does not create one.
        let original = (store as? ID3MetadataStore)?.original
        let changed = hasChanges || cleared || (id3Version != nil && original.map { !$0.frames.isEmpty && $0.majorVersion != id3Version } ?? false)
        if let output = options.output, Self.sameFile(output, path) {
            throw MetadataError(.badValue, path: path, message: "--output names the file itself; leave it out to edit the file in place")
        }
        if !changed && options.output == nil {
            return SaveResult(changed: false, method: "unchanged", summary: "nothing to change", notes: notes)
        }
        do {
            switch container {
            case .movie(var movie):
                guard let scope = (store as? MovieMetadataStore)?.scope else { preconditionFailure("a movie has a movie store") }
                movie.metadata.movie = scope
                if let output = options.output {
                    if options.dryRun {
                        var planOptions = MovieSaveOptions()
                        planOptions.allowInPlace = false
                        let plan = try movie.plan(planOptions)
                        return SaveResult(changed: changed, method: "new file", summary: "would write \(output): " + plan.summary, notes: notes)
                    }
                    let plan = try movie.write(to: output)
                    return SaveResult(changed: changed, method: "new file", summary: "wrote \(output): " + plan.summary, notes: notes)
                }
                var movieOptions = MovieSaveOptions()
                movieOptions.allowInPlace = options.allowInPlace
                let plan = try movie.plan(movieOptions)
                if options.dryRun { return SaveResult(changed: true, method: plan.strategy.description, summary: plan.summary, notes: notes) }
                try Self.checkWritable(path, needsDirectory: plan.strategy == .rewrite)
                let done = try movie.save(movieOptions)
                return SaveResult(changed: true, method: done.strategy.description, summary: done.summary, notes: notes)
            case .mpeg(let source), .iff(let source):
                guard let tag = (store as? ID3MetadataStore)?.tag else { preconditionFailure("an ID3 carrier has an ID3 store") }
                // The tag was read from the file as it was; another program's change since then
                // would be lost (the movie save checks the same in MovieFile).
                try source.checkUnchanged()
                var id3Options = CarrierSaveOptions(version: id3Version)
                // ID3v1 holds exactly what ID3v2 says (a removed key goes from both); `clear` removes it.
                id3Options.mirrorID3v1 = true
                id3Options.removeID3v1 = cleared
                id3Options.allowInPlace = options.allowInPlace
                let target = options.output ?? path
                if let output = options.output {
                    if options.dryRun { return SaveResult(changed: changed, method: "new file", summary: "would write \(output) (a copy of \(path) with the new tag)", notes: notes) }
                    try Self.copy(path, to: output)
                }
                // A failed save into a new file leaves no half-made output behind.
                var succeeded = false
                defer { if let output = options.output, !succeeded { unlink(output) } }
                id3Options.dryRun = true
                let planned = try saveID3(tag, to: target, options: id3Options)
                notes += planned.notes
                let summary = planned.method == .inPlace ? "the ID3v2 tag is written in place (it fits the old tag's space)"
                    : "the file is written anew with the new ID3v2 tag and \(id3Options.padding) bytes of padding, then renamed over the original"
                if options.dryRun { return SaveResult(changed: true, method: planned.method.rawValue, summary: summary, notes: notes) }
                try Self.checkWritable(target, needsDirectory: planned.method == .rewritten)
                id3Options.dryRun = false
                let outcome = try saveID3(tag, to: target, options: id3Options)
                succeeded = true
                return SaveResult(changed: true, method: options.output == nil ? outcome.method.rawValue : "new file", summary: summary, notes: notes)
            }
        } catch {
            throw MetadataError.wrapping(error, path: path)
        }
    }

    /// True when both paths name the same file (after links).
    private static func sameFile(_ a: String, _ b: String) -> Bool {
        var first = stat(), second = stat()
        guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    private var isMovie: Bool { if case .movie = container { true } else { false } }

    private func saveID3(_ tag: ID3v2Tag, to target: String, options: CarrierSaveOptions) throws -> CarrierSaveOutcome {
        if case .iff = container { return try IFFChunkFile.save(tag, to: target, options: options) }
        return try MPEGStreamFile.save(tag, to: target, options: options)
    }

    /// Refuses a file without any write permission bit (even for root, who could write it: a
    /// read-only file is one its owner protected), and, for a rewrite, a directory without one.
    static func checkWritable(_ path: String, needsDirectory: Bool) throws(MetadataError) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        if info.st_mode & 0o222 == 0 {
            throw MetadataError(.permissionDenied, path: path, message: "the file is read-only (no write permission); nothing was written")
        }
        guard needsDirectory else { return }
        let directory = parentDirectory(of: FileReplacement.resolvedPath(path))
        if stat(directory, &info) == 0, info.st_mode & 0o222 == 0 || access(directory, W_OK) != 0 {
            throw MetadataError(.permissionDenied, path: path, message: "the directory \(directory) is read-only, and this change needs the file written anew beside the original; nothing was written")
        }
    }

    private static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Copies `path` to `output` (a verified new file), for `--output` with formats whose save
    /// edits a file in place.
    private static func copy(_ path: String, to output: String) throws {
        let source = try FileByteSource(path: path)
        try FileReplacement.create(output, write: { sink in
            try source.copy(from: 0, count: source.size, to: &sink)
        }, verify: { temporary in
            let written = try FileByteSource(path: temporary)
            guard written.size == source.size, try written.hasSameBytes(at: 0, as: source, at: 0, count: source.size) else {
                throw MetadataError(.verificationFailed, path: output, message: "the copy differs from \(path)")
            }
        })
    }
}
