#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Carriers
import ID3
import MediaBytes

/// Files whose metadata is the tags a carrier holds (an MPEG audio or ADTS stream, AIFF or WAV
/// chunks): edited through the ID3 store, saved by the carrier. One generic container serves
/// every `TagCarrierFile`; `MediaFormat.definitions` names it in the rows of the carrier's formats.
struct TagCarrierContainer<Carrier: TagCarrierFile & MediaPropertiesReading>: CarrierBackedContainer {
    static var family: MetadataFamily { .id3 }

    /// The file as read (kept to notice a change by another program before saving).
    let source: FileByteSource
    let path: String
    let diagnostics: [Diagnostic]
    var store: ID3MetadataStore
    let duration: ChapterTime?
    let properties: MediaProperties
    static var chapterForms: [ChapterForm] { [.id3] }

    init(source: FileByteSource, format: MediaFormat, path: String) throws {
        let file = try Carrier(source: source)
        self.source = source
        self.path = path
        let tags = file.carriedTags
        store = ID3MetadataStore(tag: tags.id3v2, id3v1: tags.id3v1, ape: tags.ape, info: tags.info, holdsAPE: Carrier.holdsAPE)
        properties = file.mediaProperties
        duration = file.duration.flatMap { $0.isFinite && $0 > 0 && $0 < 1e9 ? ChapterTime.milliseconds(UInt64(($0 * 1000).rounded())) : nil }
        diagnostics = file.diagnostics
    }

    mutating func setChapters(_ chapters: [Chapter], form: ChapterForm) throws(MetadataError) -> [String] {
        store.setID3Chapters(chapters, duration: duration)
    }

    mutating func removeChapters(form: ChapterForm) -> Bool { form == .id3 && store.removeID3Chapters() }

    mutating func setID3v1(_ present: Bool) throws(MetadataError) {
        guard Carrier.holdsID3v1 else {
            throw MetadataError(.notRepresentable, message: "only MP3 and AAC streams end with an ID3v1 tag; this file's tags are in chunks")
        }
        store.id3v1Choice = present
    }

    mutating func removeAllForRestore() {
        store.removeAll()
        store.keepMirrors()
    }

    /// The ID3v2 version a save writes: the one asked for, else the store's.
    private func version(_ options: MediaFile.SaveOptions) -> UInt8? { options.id3Version ?? store.tagVersion }

    func needsWriting(_ options: MediaFile.SaveOptions) -> Bool {
        // A version change alone rewrites a tag the file has; it does not create one.
        store.hasChanges || store.cleared || store.id3v1Choice.map { $0 != (store.id3v1 != nil) } ?? false
            || (version(options).map { !store.original.frames.isEmpty && store.original.majorVersion != $0 } ?? false)
    }

    private func carrierOptions(_ options: MediaFile.SaveOptions, dryRun: Bool) -> CarrierSaveOptions {
        var carrierOptions = CarrierSaveOptions(version: version(options), dryRun: dryRun)
        // ID3v1 holds exactly what ID3v2 says (a removed key goes from both); clearing removes it.
        carrierOptions.mirrorID3v1 = true
        carrierOptions.writeID3v1 = store.id3v1Choice
        carrierOptions.removeID3v1 = store.cleared || store.id3v1Choice == false
        carrierOptions.removeLyrics3 = store.cleared
        carrierOptions.allowInPlace = options.allowInPlace
        return carrierOptions
    }

    /// The tags the save writes: the ID3v2 tag (keys moved to the forms the target version
    /// has), and the APE tag and INFO list when they changed.
    private func tagsToWrite(_ options: MediaFile.SaveOptions) -> CarriedTags {
        var prepared = store
        if let version = version(options) { prepared.prepareForWriting(as: version) }
        return CarriedTags(id3v2: prepared.tag,
                           ape: store.ape != store.originalAPE ? store.ape : nil,
                           info: store.info != store.originalInfo ? store.info ?? RIFFInfoList() : nil)
    }

    func carrierSave(to path: String, _ options: MediaFile.SaveOptions, dryRun: Bool) throws -> CarrierSaveOutcome {
        var carrierOptions = carrierOptions(options, dryRun: dryRun)
        // The file as it was read serves the save's reads (not a copy being edited for --output).
        if path == self.path { carrierOptions.opened = source }
        return try Carrier.save(tagsToWrite(options), to: path, options: carrierOptions)
    }

    var saveWords: (inPlace: String, rewrite: String, what: String) {
        ("the tags fit their old space and are written over it; no other byte moves",
         "the file is written anew with the new tags and \(CarrierSaveOptions().padding) bytes of padding after the ID3v2 frames, verified, then renamed over the original",
         "the new tags")
    }
}
