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
import Synchronization

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
    /// The file's layout and its metadata as edited so far.
    var container: any MetadataContainer {
        didSet { readings = Readings() }
    }
    /// `items` and `tags` as computed from `container`, kept until the next edit (a listing
    /// asks for both, and editing looks at them several times).
    private var readings = Readings()
    /// Notes on conversions made by the edits so far (values joined, types not kept).
    public private(set) var notes: [String] = []
    /// Values the typed properties (`title`, `trackNumber`...) could not set, by key: `save()`
    /// throws the first, so that a property assignment never fails silently.
    var deferredErrors: [String: MetadataError] = [:]

    /// The family of a format's native items, or nil for a format this layer does not edit.
    public static func family(of format: MediaFormat) -> MetadataFamily? {
        format.definition?.family
    }

    /// The family of this file's native items: items move byte for byte between files of one family.
    public var family: MetadataFamily { type(of: container).family }

    /// The ID3v2 version edits are made for and the tag is written as (3 or 4; nil keeps the
    /// tag's own, v2.4 for a new or v2.2 tag). Set it before editing, so that each key takes
    /// the form that version has (`MOOD` is TMOO in v2.4 and TXXX:MOOD in v2.3). Formats
    /// without tag versions ignore it.
    public var id3Version: UInt8? {
        didSet { container.setTagVersion(id3Version) }
    }

    /// The file's audio and video streams, from their headers (never by decoding): codec,
    /// duration, sample rate, channels, bit rate; video size and frame rate.
    public var properties: MediaProperties { container.properties }

    /// The first audio stream's properties; nil for a file without audio.
    public var audio: AudioProperties? { properties.audio }

    /// Problems tolerated while reading the file (damaged parts skipped, junk), in file order.
    public var diagnostics: [Diagnostic] { container.diagnostics }

    /// Opens and reads the file at `path`.
    ///
    /// - Throws: `MetadataError` `.fileNotFound`, `.permissionDenied`, `.unsupportedFormat`
    ///   (not a format this package reads, or a directory), `.malformed` (the structure cannot
    ///   be read at all; damaged files that can be read leniently open, with `diagnostics`).
    public init(path: String) throws(MetadataError) {
        self.path = path
        do {
            let source = try FileByteSource(path: path, headLength: MediaFormat.definition(named: path)?.headLength ?? FileByteSource.headLength)
            guard let format = MediaFormat.detect(source, named: path) else {
                throw MetadataError(.unsupportedFormat, path: path, message: "not a format this package reads (\(MediaFormat.names(where: \.hasMetadata)))")
            }
            self.format = format
            guard let type = format.definition?.container else {
                throw MetadataError(.unsupportedFormat, path: path, message: "\(format) files have no tags this package edits")
            }
            container = try type.init(source: source, format: format, path: path)
        } catch {
            throw MetadataError.wrapping(error, path: path)
        }
    }

    // MARK: - Reading

    /// Every native item with its identifier, in file order.
    public var items: [NativeMetadataItem] { rankedItems.items }

    /// The store's items with the rank of their area, computed once until the next edit.
    private var rankedItems: RankedItems { readings.rankedItems { container.rankedItems } }

    /// The uniform tags, TagLib's property map: each key with its values, looked up without
    /// regard to case (`tags["title"]`).
    public var tags: TagMap { readings.tags { TagMap(uniformTags) } }

    /// The tags from the store's contributions (`MetadataStore.forEachTagContribution`): each
    /// key from the best-ranked area that has it when the store merges its areas per key, else
    /// every key of the best-ranked area that gives any tag. When the items were listed
    /// already (a JSON listing, an export), their contributions are taken from them instead
    /// of reading the store a second time (the same contributions: `TagContributionTests`).
    private var uniformTags: [String: [String]] {
        if let ranked = readings.rankedItemsIfRead {
            return Self.uniformTags({ body in ranked.forEachTagContribution(body) }, mergesAreasPerKey: container.mergesAreasPerKey)
        }
        return Self.uniformTags({ body in container.forEachTagContribution(body) }, mergesAreasPerKey: container.mergesAreasPerKey)
    }

    private static func uniformTags(_ forEachContribution: ((_ rank: Int, _ key: String, _ values: [String]) -> Void) -> Void,
                                    mergesAreasPerKey: Bool) -> [String: [String]] {
        // The first values of a key are taken as they are (no new array for them).
        func add(_ values: [String], to entry: inout [String]) {
            if entry.isEmpty { entry = values } else { entry += values }
        }
        if mergesAreasPerKey {
            // Each key's values and the rank they came from, found with one hash per
            // contribution; `mapValues` keeps the table's layout (no rehashing).
            var best: [String: (rank: Int, values: [String])] = [:]
            best.reserveCapacity(16)
            func merge(_ values: [String], rank: Int, into entry: inout (rank: Int, values: [String])) {
                if entry.rank < rank { return }
                if entry.rank > rank { entry = (rank, []) }
                add(values, to: &entry.values)
            }
            forEachContribution { rank, key, values in merge(values, rank: rank, into: &best[key, default: (rank, [])]) }
            return best.mapValues(\.values)
        }
        // One pass: the contributions of a better rank than any before replace what was kept.
        var bestRank = Int.max
        var result: [String: [String]] = [:]
        result.reserveCapacity(16)
        forEachContribution { rank, key, values in
            if rank < bestRank {
                bestRank = rank
                result.removeAll(keepingCapacity: true)
            }
            if rank == bestRank { add(values, to: &result[key, default: []]) }
        }
        return result
    }

    /// The embedded pictures, in file order, with their bytes.
    ///
    /// Reading them can fail after the file opened: a picture in a large ID3 tag is left in the
    /// file when it is opened (only the tag's first 64 KiB are read) and read on first use, so
    /// a file changed or cut short since then throws `.io` or `.malformed` here.
    public var pictures: [MediaPicture] {
        get throws(MetadataError) {
            do { return try container.pictures } catch { throw MetadataError.wrapping(error, path: path) }
        }
    }

    /// The embedded pictures as `pictures` lists them (same order), each with its bytes as
    /// they are: a picture a large ID3 tag left in the file is a range of it, which a writer
    /// reads a chunk at a time (`SplicedBytes.forEachChunk`), so a 200 MB picture is never in
    /// memory at once.
    public var pictureContents: [PictureContent] {
        get throws(MetadataError) {
            do { return try container.pictureContents } catch { throw MetadataError.wrapping(error, path: path) }
        }
    }

    /// The embedded pictures as `pictures` lists them (same order), described without their
    /// bytes: type, MIME type, description and size. A listing reads no picture data this way
    /// (a picture a large ID3 tag left in the file stays there).
    public var pictureSummaries: [PictureSummary] {
        get throws(MetadataError) {
            do { return try container.pictureSummaries } catch { throw MetadataError.wrapping(error, path: path) }
        }
    }

    /// True when the metadata differs from what was read.
    public var hasChanges: Bool { container.hasChanges }

    /// The values of `key` (a uniform key, an alias, a custom key such as `COMMENT:NOTIZ`, or
    /// an identifier); nil when the file has none. For an identifier, the values of every item
    /// it names. A picture key has no text values (nil): read `pictures`.
    public func values(_ key: String) throws(MetadataError) -> [String]? {
        if let total = totalValues(key) { return total }
        switch try resolve(key) {
        case .uniform(let row):
            // Pictures are not text: `pictures` has them.
            return row.kind == .picture ? nil : tags[row.key]
        case .custom(let key, _):
            return tags[key]
        case .identifier(let identifier):
            let matching = items.filter { $0.identifier == identifier }
            return matching.isEmpty ? nil : matching.flatMap(\.values)
        }
    }

    // MARK: - Editing

    /// The prefix that names a custom item: `CUSTOM:Session`.
    public static let customPrefix = "CUSTOM:"

    /// What `key` names: a row of the table (by key or alias), an identifier, a structured
    /// custom key (`COMMENT:X`, `LYRICS:X`, `URL`, `URL:X`, `PERFORMER:X`, `CUSTOM:X`), or a
    /// custom key the file already has. `set`, `import` and `copy` judge keys by this one rule
    /// (`import` and `copy` also accept the custom keys of the file they read from).
    func resolve(_ key: String) throws(MetadataError) -> KeyTarget {
        if key.hasSuffix(":*") {
            throw MetadataError(.unknownKey, path: path, message: "\(key): a pattern names items to remove; a value is set on one key or identifier")
        }
        if let row = MetadataKeyTable.definition(key) { return .uniform(row) }
        if key.contains("/"), let identifier = MetadataIdentifier(parsing: key) { return .identifier(identifier) }
        let upper = key.uppercased()
        for prefix in ["COMMENT:", "LYRICS:", "URL:", "PERFORMER:"] where upper.hasKeyPrefix(prefix) && upper.unicodeScalars.count > prefix.unicodeScalars.count {
            return .custom(key: upper, nativeName: key)
        }
        // `CUSTOM:NAME`: the format's own custom item named NAME (ID3 `TXXX:NAME`, iTunes
        // `----:com.apple.iTunes:NAME`), read back as the key `NAME`.
        if upper.hasKeyPrefix(Self.customPrefix), upper.unicodeScalars.count > Self.customPrefix.unicodeScalars.count {
            let name = String(String.UnicodeScalarView(key.unicodeScalars.dropFirst(Self.customPrefix.unicodeScalars.count)))
            return .custom(key: name.uppercased(), nativeName: name)
        }
        if upper == "URL" { return .custom(key: "URL", nativeName: "") }
        for item in items where item.contributes(to: upper) {
            let native = item.identifier.id3Parts.qualifier ?? item.identifier.freeformParts?.name ?? key
            return .custom(key: upper, nativeName: native)
        }
        throw MetadataError(.unknownKey, path: path, message: "unknown key \"\(key)\": not a uniform key of the key table, CUSTOM:\(key) for a custom item, an identifier such as id3/TXXX:\(key) or itlk/com.apple.iTunes:\(key), nor a custom key the file has")
    }

    /// Replaces the values of `key` (an empty list removes it). Values are checked against the
    /// key's kind (`TRACKNUMBER=abc` throws `.badValue`). `TRACKNUMBER` and `DISCNUMBER` keep
    /// their totals when given a number alone (`4` on a file at `3/12` gives `4/12`; `4/` drops
    /// the total); `TRACKTOTAL` and `DISCTOTAL` set the total and keep the number.
    public mutating func set(_ key: String, _ values: [String]) throws(MetadataError) {
        if try setTotal(key, values) { return }
        let target = try resolve(key)
        // An empty value removes the key, as in TagLib.
        let values = (keepingTotal(target, values) ?? values).filter { !$0.isEmpty }
        if values.isEmpty {
            _ = try remove(key)
            return
        }
        // The same values, already held by writable items, change nothing.
        let holders = items.filter { item in
            switch target {
            case .uniform(let row): item.contributes(to: row.key)
            case .custom(let key, _): item.contributes(to: key)
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
            throw MetadataError(.badValue, path: path, message: "\(row.key) holds pictures, not text: add a picture instead")
        }
        try set(key, existing + values)
    }

    /// Removes `key` from every item that reads as it; false when the file did not have it.
    ///
    /// A uniform key goes with its described forms (`remove("COMMENT")` removes `COMMENT:X`
    /// too); an identifier ending in `:*` names every item of that frame or item type whatever
    /// its qualifier (`id3/COMM:*`, `id3/TXXX:*`, `itlk/com.apple.iTunes:*`).
    @discardableResult
    public mutating func remove(_ key: String) throws(MetadataError) -> Bool {
        if key.hasSuffix(":*") {
            let prefix = String(key.dropLast())
            guard key.contains("/"), let sample = MetadataIdentifier(parsing: prefix + "x") else {
                throw MetadataError(.unknownKey, path: path, message: "\(key): a pattern is an identifier ending in :* (id3/COMM:*, itlk/com.apple.iTunes:*)")
            }
            // `id3/COMM:*` is every comment: with any description, and without one.
            let base = String(sample.description.dropLast(2))
            let matching = items.filter { item in
                let name = item.identifier.description
                return item.isWritable && (name == base || name.hasKeyPrefix(base + ":"))
            }
            do {
                for item in matching { _ = try container.remove(.identifier(item.identifier)) }
            } catch {
                throw MetadataError.wrapping(error, path: path)
            }
            return !matching.isEmpty
        }
        if totalValues(key) != nil {
            let had = totalValues(key)! != nil
            _ = try setTotal(key, [])
            return had
        }
        let target = try resolve(key)
        do {
            var removed = try container.remove(target)
            // Every other item that still reads as the key (or, for a uniform key, as one of its
            // described forms) goes too, so that no reader sees a value that was removed.
            let names: [String] = switch target {
            case .uniform(let row): [row.key]
            case .custom(let key, _): [key]
            case .identifier: []
            }
            for name in names {
                let described: Bool = if case .uniform = target { true } else { false }
                removed = try removeHolders(of: name, includingDescribed: described) || removed
            }
            return removed
        } catch {
            throw MetadataError.wrapping(error, path: path)
        }
    }

    /// Removes every writable item that reads as `key` alone (and, with `includingDescribed`,
    /// as `KEY:DESCRIPTION`); items that stand for several keys (TIPL) are the store's to edit.
    private mutating func removeHolders(of key: String, includingDescribed: Bool, unless keep: (NativeMetadataItem) -> Bool = { _ in false }) throws -> Bool {
        let stale = items.filter { item in
            guard item.isWritable, let name = item.soleContributionKey, !keep(item) else { return false }
            return name == key || (includingDescribed && name.hasKeyPrefix(key + ":"))
        }
        for item in stale { _ = try container.remove(.identifier(item.identifier)) }
        return !stale.isEmpty
    }

    /// After `row` was set: removes the items that read as its key but are none of its native
    /// forms (a `TXXX:TRACKNUMBER` beside `TRCK`, a `----:com.apple.iTunes:TRACKNUMBER` beside
    /// `trkn`, a second spelling of a freeform name), so that every reader sees the new value.
    /// Items in one of the key's forms (another area of the file, such as QuickTime `mdta`
    /// keys) are kept in step by the store.
    mutating func removeOtherHolders(of row: MetadataKeyDefinition) throws {
        _ = try removeHolders(of: row.key, includingDescribed: false) { item in
            MetadataKeyTable.definition(identifier: item.identifier)?.key == row.key
                // (A credit list, TIPL or IPLS, is the form of several keys, its roles: the one
                // the set just wrote is the key's own.)
                || [row.id3, row.id3v23].contains { form in
                    if case .involvedPerson(let frame, _)? = form { item.identifier == MetadataIdentifier(.id3, frame) } else { false }
                }
        }
    }

    /// Removes all metadata (the media is kept; read-only areas such as ID3v1 are refreshed or
    /// kept as the format's save does).
    public mutating func removeAll() {
        container.removeAll()
    }

    public mutating func addPicture(_ picture: MediaPicture) throws(MetadataError) {
        do { notes += try container.addPicture(picture) } catch { throw MetadataError.wrapping(error, path: path) }
    }

    /// False where pictures have no type (MP4 cover art): there a picture replaces them all.
    public var picturesHaveTypes: Bool { Swift.type(of: container).picturesHaveTypes }

    @discardableResult
    public mutating func removePictures(type: PictureType? = nil) -> Int {
        container.removePictures(type: type)
    }

    /// Every writable native item in a form that restores it exactly (`tagedit export`).
    public func nativeItems() throws(MetadataError) -> [(identifier: MetadataIdentifier, data: NativeItemData)] {
        do { return try container.nativeItems().map { ($0.0, $0.1) } } catch { throw MetadataError.wrapping(error, path: path) }
    }

    /// Adds an ID3v1 tag to an MP3 or AAC stream (holding what the ID3v2 tag says, as every
    /// save keeps it) or strips the one it has; throws `.notRepresentable` for other formats.
    /// (`remove("id3v1/*")` strips it too.)
    public mutating func setID3v1(present: Bool) throws(MetadataError) {
        do { try container.setID3v1(present) } catch { throw MetadataError(error.code, path: path, message: error.message) }
    }

    /// Replaces all metadata with `items` exported by `nativeItems` from a file of the same
    /// family (`tagedit import`). A mirror of the items (an MP3's ID3v1 tag) stays, refreshed by
    /// the save from the restored tag.
    ///
    /// An item this file has no place for (an APE item in a WAV file, an INFO entry in an MP3)
    /// is left out and listed in the report as `.notRepresentable`; an item that does not read,
    /// or is of another family, throws (and nothing is saved).
    @discardableResult
    public mutating func replaceAll(with items: [(identifier: MetadataIdentifier, data: NativeItemData)]) throws(MetadataError) -> MigrationReport {
        container.removeAllForRestore()
        var report = MigrationReport()
        do {
            for item in items {
                if let reason = try container.addNative(item.identifier, item.data) {
                    report.entries.append(MigrationReport.Entry(key: item.identifier.description, outcome: .notRepresentable, detail: reason))
                }
            }
        } catch {
            throw MetadataError.wrapping(error, path: path)
        }
        return report
    }

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
        /// Read the saved file again, so that the `MediaFile` goes on from what was written
        /// (false for a caller that is done with it, such as a batch that saves each file once).
        public var rereadAfterSaving: Bool

        public init(dryRun: Bool = false, output: String? = nil, id3Version: UInt8? = nil, allowInPlace: Bool = true, rereadAfterSaving: Bool = true) {
            self.dryRun = dryRun
            self.output = output
            self.id3Version = id3Version
            self.allowInPlace = allowInPlace
            self.rereadAfterSaving = rereadAfterSaving
        }
    }

    /// Writes the changes. The file is verified before it replaces the original (or before the
    /// in-place write is kept); on any failure the original is left as it was. Returns what was
    /// written where (for a dry run, what would be).
    ///
    /// After a save to the file itself, the `MediaFile` reads the saved file again (unless
    /// `rereadAfterSaving` is false): it reflects what was written, and a second edit and save
    /// work. (Should that read fail, the value stays as it was; the save itself succeeded.)
    ///
    /// The save holds the file's exclusive lock (BSD `flock`, the one `tagedit` takes) while it
    /// writes, so two programs using this library never interleave their saves of one file;
    /// one that finds the lock held gets `.locked`.
    ///
    /// - Throws: the error of a typed property (`title`, `trackNumber`...) that could not be
    ///   set, before anything is written; `.locked` when another process holds the file's
    ///   lock; otherwise as `MediaFile(path:)` and the writers.
    @discardableResult
    public mutating func save(_ options: SaveOptions = SaveOptions()) throws(MetadataError) -> SavePlan {
        if let (_, error) = deferredErrors.min(by: { $0.key < $1.key }) { throw error }
        var notes = takeNotes()
        if let version = options.id3Version ?? id3Version, version != 3 && version != 4 {
            throw MetadataError(.badValue, path: path, message: "an ID3v2 tag is written as version 3 or 4, not \(version)")
        }
        var options = options
        options.id3Version = options.id3Version ?? id3Version
        if let output = options.output, Self.sameFile(output, path) {
            throw MetadataError(.badValue, path: path, message: "the output names the file itself")
        }
        if !container.needsWriting(options) && options.output == nil {
            var plan = SavePlan.unchanged
            plan.notes = notes
            return plan
        }
        var plan: SavePlan
        do {
            if options.dryRun {
                plan = try container.plan(options)
            } else {
                // The lock `tagedit` takes (shared when this process holds it already), so that
                // two programs using the library never interleave their saves of one file. A save
                // into a new file leaves this one as it is and takes none: two copies made from
                // one file at once do not meet (a change to it meanwhile fails the copy's check).
                var lock: FileLock?
                if options.output == nil {
                    do { lock = try FileLock(path) } catch {
                        if error.isHeldElsewhere { throw MetadataError(.locked, path: path, message: error.reason) }
                        lock = nil  // cannot be opened: the write says why
                    }
                }
                plan = try container.write(options)
                _ = consume lock
            }
        } catch let error as MetadataError {
            throw error
        } catch {
            throw MetadataError.wrapping(error, path: path)
        }
        notes += plan.notes
        plan.notes = notes
        if options.rereadAfterSaving && !options.dryRun && options.output == nil && plan.changed {
            // Read what was written, so that this value goes on from the saved file.
            if let saved = try? MediaFile(path: path) {
                container = saved.container
                container.setTagVersion(id3Version)
            }
        }
        return plan
    }

    /// True when both paths name the same file (after links).
    private static func sameFile(_ a: String, _ b: String) -> Bool {
        var first = stat(), second = stat()
        guard SystemPath.stat(a, &first) == 0, SystemPath.stat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    /// Refuses a file without any write permission bit (even for root, who could write it: a
    /// read-only file is one its owner protected), and, for a rewrite, a directory without one.
    static func checkWritable(_ path: String, needsDirectory: Bool) throws(MetadataError) {
        var info = stat()
        guard SystemPath.stat(path, &info) == 0 else { return }
        if info.st_mode & 0o222 == 0 {
            throw MetadataError(.permissionDenied, path: path, message: "the file is read-only (no write permission); nothing was written")
        }
        guard needsDirectory else { return }
        let directory = parentDirectory(of: FileReplacement.resolvedPath(path))
        if SystemPath.stat(directory, &info) == 0, info.st_mode & 0o222 == 0 || SystemPath.access(directory, W_OK) != 0 {
            throw MetadataError(.permissionDenied, path: path, message: "the directory \(directory) is read-only, and this change needs the file written anew beside the original; nothing was written")
        }
    }

    private static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

/// Values computed from a file's metadata once and shared by the copies of a `MediaFile` that
/// have not been edited since (an edit starts a new one).
final class Readings: Sendable {
    struct Values {
        var rankedItems: RankedItems?
        var tags: TagMap?
    }

    private let state = Mutex(Values())

    func rankedItems(_ compute: () -> RankedItems) -> RankedItems {
        value(\.rankedItems, compute)
    }

    /// The items if they were computed already; nil otherwise (nothing is computed).
    var rankedItemsIfRead: RankedItems? { state.withLock { $0.rankedItems } }

    func tags(_ compute: () -> TagMap) -> TagMap { value(\.tags, compute) }

    /// The value at `key`, computed (outside the lock) and kept the first time it is asked for.
    private func value<T: Sendable>(_ key: WritableKeyPath<Values, T?> & Sendable, _ compute: () -> T) -> T {
        if let value = state.withLock({ $0[keyPath: key] }) { return value }
        let value = compute()
        state.withLock { $0[keyPath: key] = value }
        return value
    }
}
