import Carriers
import ISOBMFF
import MediaBytes

/// A family of files whose native metadata items are of one kind, so that they move between
/// files of the family byte for byte (`MediaFile.copyMetadata`, `nativeItems`): the atoms of
/// MP4/MOV/3GP files, or the ID3v2 frames that MP3, ADTS, AIFF and WAV files carry. An open
/// set: a new family is a new constant.
public struct MetadataFamily: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// ISO-BMFF / QuickTime metadata atoms (iTunes items, QuickTime keys and user data, 3GPP assets).
    public static let mp4 = MetadataFamily(rawValue: "MP4")
    /// ID3v2 frames, with the ID3v1 tag and RIFF INFO entries beside them.
    public static let id3 = MetadataFamily(rawValue: "ID3")
    /// Vorbis comment fields and FLAC pictures (FLAC, Ogg Vorbis, Opus, Speex).
    public static let vorbis = MetadataFamily(rawValue: "Vorbis")

    public var description: String { rawValue }
}

/// How a save writes a file, in the same words for every format. An open set.
public struct SaveMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Nothing to write.
    public static let unchanged = SaveMethod(rawValue: "unchanged")
    /// Only the metadata's bytes are overwritten; no other byte moves.
    public static let inPlace = SaveMethod(rawValue: "in-place")
    /// MP4: the movie atom is written anew at the end of the file; media data does not move.
    public static let movieAtEnd = SaveMethod(rawValue: "movie-at-end")
    /// The whole file is written anew beside the original, verified, and renamed over it.
    public static let rewrite = SaveMethod(rawValue: "rewrite")
    /// The result goes to a new file (`SaveOptions.output`); the original is not touched.
    public static let newFile = SaveMethod(rawValue: "new file")

    public var description: String { rawValue }
}

/// What a save does (planned) or did (written), for every family alike.
public struct SavePlan: Sendable {
    /// One region of the file that is written.
    public struct Write: Sendable, Hashable {
        /// Where in the written file.
        public var range: Range<UInt64>
        /// What the bytes are (`ID3v2 tag`, `ID3v1 tag`, `moov`, `whole file`).
        public var what: String
    }

    /// False when there was nothing to write.
    public var changed: Bool
    public var method: SaveMethod
    /// The plan in words (sizes, padding, what moved), without the method's name.
    public var summary: String
    /// Conversions and losses: values joined, frames the target version cannot hold.
    public var notes: [String]
    /// What is written where.
    public var writes: [Write]

    public init(changed: Bool, method: SaveMethod, summary: String, notes: [String] = [], writes: [Write] = []) {
        self.changed = changed
        self.method = method
        self.summary = summary
        self.notes = notes
        self.writes = writes
    }

    static let unchanged = SavePlan(changed: false, method: .unchanged, summary: "nothing to change")

    /// The plan of a carrier's save (`CarrierSaveOutcome`): `inPlace` or `rewrite` says how in
    /// words; with `output`, a new file holding `what`.
    init(_ outcome: CarrierSaveOutcome, output: String?, path: String, inPlace: String, rewrite: String, what: String) {
        let written = outcome.method == .inPlace
        let summary = output.map { "wrote \($0) (a copy of \(path) with \(what))" } ?? (written ? inPlace : rewrite)
        self.init(changed: true, method: output != nil ? .newFile : written ? .inPlace : .rewrite, summary: summary, notes: outcome.notes,
                  writes: outcome.ranges.map { Write(range: $0.range, what: $0.what) })
    }
}

/// A container whose save is one call of its carrier (`MPEGStreamFile.save`,
/// `IFFChunkFile.save`, `FLACFile.save`, `OggFile.save`): planned as a dry run, run on the file
/// itself, or on a verified copy when the save goes to a new file. The container supplies the
/// call and the words of its plans; the rest is here, once.
protocol CarrierBackedContainer: MetadataContainer {
    /// The file as read (a save refuses a file changed since).
    var source: FileByteSource { get }
    var path: String { get }
    /// Runs the carrier's save of the edits on the file at `path` (a dry run decides the
    /// method and writes nothing).
    func carrierSave(to path: String, _ options: MediaFile.SaveOptions, dryRun: Bool) throws -> CarrierSaveOutcome
    /// How an in-place save and a rewrite write the file, and what a new file holds, in words.
    var saveWords: (inPlace: String, rewrite: String, what: String) { get }
}

extension CarrierBackedContainer {
    func plan(_ options: MediaFile.SaveOptions) throws -> SavePlan {
        if let output = options.output {
            return SavePlan(changed: true, method: .newFile, summary: "would write \(output) (a copy of \(path) with \(saveWords.what))")
        }
        return savePlan(try carrierSave(to: path, options, dryRun: true), output: nil)
    }

    func write(_ options: MediaFile.SaveOptions) throws -> SavePlan {
        // The metadata was read from the file as it was; another program's change since then would be lost.
        try source.checkUnchanged()
        guard let output = options.output else {
            let planned = try carrierSave(to: path, options, dryRun: true)
            try MediaFile.checkWritable(path, needsDirectory: planned.method == .rewritten)
            return savePlan(try carrierSave(to: path, options, dryRun: false), output: nil)
        }
        // A new file: a verified copy, edited as a temporary file, then put in place (renamed
        // over a file, written through to a device or a FIFO); a failure leaves the output as
        // it was (see `FileReplacement.create(_:editing:edit:)`).
        var outcome: CarrierSaveOutcome?
        try FileReplacement.create(output, editing: source) { copy in
            outcome = try carrierSave(to: copy, options, dryRun: false)
        }
        return savePlan(outcome!, output: output)
    }

    private func savePlan(_ outcome: CarrierSaveOutcome, output: String?) -> SavePlan {
        let words = saveWords
        return SavePlan(outcome, output: output, path: path, inPlace: words.inPlace, rewrite: words.rewrite, what: words.what)
    }
}

/// One kind of file layout the metadata layer opens, edits and saves. A conforming type reads
/// the file into its metadata store, plans a save and writes it; `MediaFile` finds it through
/// the format's row in `MediaFormat.definitions`. Adding a format (a carrier such as FLAC, with
/// its tag format) means one conforming type and its row there, and table rows in
/// `MetadataKeyTable`.
protocol MetadataContainer: Sendable {
    associatedtype Store: MetadataStore
    /// The family of its native items.
    static var family: MetadataFamily { get }

    /// Reads the file whose bytes are `source`.
    init(source: FileByteSource, format: MediaFormat, path: String) throws
    /// The metadata as edited so far.
    var store: Store { get set }
    /// The store's reads (the extension forwards each to `store`). Requirements, not only
    /// extension members, so that each container's witness reads its own stored `store` in
    /// place: through the protocol's getter, every read copied the whole store (a movie's two
    /// item lists and their atoms, each field retained and released).
    var rankedItems: RankedItems { get }
    func forEachTagContribution(_ body: (_ rank: Int, _ key: String, _ values: [String]) -> Void)
    var mergesAreasPerKey: Bool { get }
    var pictures: [MediaPicture] { get throws(MetadataError) }
    var pictureContents: [PictureContent] { get throws(MetadataError) }
    var pictureSummaries: [PictureSummary] { get throws(MetadataError) }
    func nativeItems() throws(MetadataError) -> [(MetadataIdentifier, NativeItemData)]
    /// What was tolerated while reading the file (damaged structure read leniently).
    var diagnostics: [Diagnostic] { get }
    /// The chapters the file holds, one list per form, in the order of `ChapterForm.all`.
    var chapterLists: [ChapterList] { get }
    /// The chapter forms files of this kind hold, in the order they are written.
    static var chapterForms: [ChapterForm] { get }
    /// False where pictures have no type (MP4 cover art): there a picture replaces them all.
    static var picturesHaveTypes: Bool { get }
    /// True when every chapter form of the file is made of native items (ID3 `CHAP`/`CTOC`
    /// frames, Vorbis `CHAPTERnnn` fields), so that native items copied within the family
    /// carry the chapters byte for byte; false where a form is not an item (a chapter track).
    static var chaptersAreItems: Bool { get }
    /// The file's duration, for the end of the last chapter; nil when unknown.
    var duration: ChapterTime? { get }
    /// The audio and video streams, from the headers already read (a movie reads its sample
    /// tables for the bit rate).
    var properties: MediaProperties { get }
    /// Replaces the chapters of `form` (one of `chapterForms`) with `chapters` (in order, no two
    /// at the same start); returns notes.
    mutating func setChapters(_ chapters: [Chapter], form: ChapterForm) throws(MetadataError) -> [String]
    /// Removes the chapters of `form`; false when there were none.
    mutating func removeChapters(form: ChapterForm) -> Bool
    /// True when the edits differ from what was read.
    var hasChanges: Bool { get }
    /// Removes every writable item and every chapter.
    mutating func removeAll()
    /// Removes every writable item and every chapter for a restore (`MediaFile.replaceAll`),
    /// keeping what mirrors the items (an ID3v1 tag, which the save refreshes from the
    /// restored ID3v2 tag).
    mutating func removeAllForRestore()
    /// Adds (true) or strips (false) an ID3v1 tag at the save; throws `.notRepresentable`
    /// where the format has none.
    mutating func setID3v1(_ present: Bool) throws(MetadataError)
    /// True when a save with `options` has something to write (an edit, or a change of tag
    /// version that the options ask for).
    func needsWriting(_ options: MediaFile.SaveOptions) -> Bool
    /// How a save with `options` would write; nothing is written.
    func plan(_ options: MediaFile.SaveOptions) throws -> SavePlan
    /// Writes the metadata as `plan` would, verified before it replaces the original (or before
    /// an in-place write is kept); the original is untouched on failure.
    func write(_ options: MediaFile.SaveOptions) throws -> SavePlan
}

extension MetadataContainer {
    static var picturesHaveTypes: Bool { true }
    static var chaptersAreItems: Bool { true }
    /// A container whose chapters are all in its tags.
    var chapterLists: [ChapterList] { store.chapterLists }
    /// The store's reads, forwarded so that `MediaFile` reads its store in place (a store read
    /// as `any MetadataStore` was copied into a box of its own, a heap allocation, each time).
    var rankedItems: RankedItems { store.rankedItems }
    func forEachTagContribution(_ body: (_ rank: Int, _ key: String, _ values: [String]) -> Void) { store.forEachTagContribution(body) }
    var mergesAreasPerKey: Bool { store.mergesAreasPerKey }
    var pictures: [MediaPicture] { get throws(MetadataError) { try store.pictures } }
    var pictureContents: [PictureContent] { get throws(MetadataError) { try store.pictureContents } }
    var pictureSummaries: [PictureSummary] { get throws(MetadataError) { try store.pictureSummaries } }
    func nativeItems() throws(MetadataError) -> [(MetadataIdentifier, NativeItemData)] { try store.nativeItems() }
    var hasChanges: Bool { store.hasChanges }
    /// The store's edits, forwarded so that `MediaFile` edits its container without knowing its type.
    mutating func set(_ target: KeyTarget, values: [String]) throws(MetadataError) -> [String] { try store.set(target, values: values) }
    mutating func remove(_ target: KeyTarget) throws(MetadataError) -> Bool { try store.remove(target) }
    mutating func removeAll() { store.removeAll() }
    mutating func removeAllForRestore() { removeAll() }
    mutating func setID3v1(_ present: Bool) throws(MetadataError) {
        throw MetadataError(.notRepresentable, message: "only MP3 and AAC streams end with an ID3v1 tag")
    }
    mutating func addPicture(_ picture: MediaPicture) throws(MetadataError) -> [String] { try store.addPicture(picture) }
    mutating func removePictures(type: PictureType?) -> Int { store.removePictures(type: type) }
    mutating func addNative(_ identifier: MetadataIdentifier, _ data: NativeItemData) throws(MetadataError) -> String? { try store.addNative(identifier, data) }
    mutating func setTagVersion(_ version: UInt8?) { store.tagVersion = version }
}

