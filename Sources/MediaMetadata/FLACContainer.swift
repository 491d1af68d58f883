import Carriers
import MediaBytes
import VorbisComment

/// Native FLAC files: their `VORBIS_COMMENT` and `PICTURE` blocks, edited through the Vorbis
/// comment store and saved by `FLACFile.save` (in place within the padding, else a verified
/// rewrite). `MediaFormat.definitions` names it in the FLAC row.
struct FLACContainer: CarrierBackedContainer {
    static var family: MetadataFamily { .vorbis }
    static var chapterForms: [ChapterForm] { [.vorbis] }

    let source: FileByteSource
    let path: String
    private let file: FLACFile
    let diagnostics: [Diagnostic]
    var store: VorbisCommentStore
    let duration: ChapterTime?
    let properties: MediaProperties

    init(source: FileByteSource, format: MediaFormat, path: String) throws {
        let file = try FLACFile(source: source)
        self.source = source
        self.path = path
        self.file = file
        let blocks = file.pictures
        store = VorbisCommentStore(
            comment: file.comment,
            pictures: blocks.indices.map { .kept(index: $0, header: blocks[$0].header) },
            pictureSpace: .flac,
            loader: VorbisCommentStore.PictureLoader { index throws(MetadataError) in
                do throws(CarrierError) { return try file.picture(blocks[index]) } catch {
                    throw MetadataError(error.code == .io ? .io : .malformed, offset: error.offset, message: error.description)
                }
            })
        duration = file.duration.flatMap { $0.isFinite && $0 > 0 && $0 < 1e9 ? ChapterTime.milliseconds(UInt64(($0 * 1000).rounded())) : nil }
        properties = MediaProperties(flac: file)
        diagnostics = file.diagnostics
    }

    mutating func setChapters(_ chapters: [Chapter], form: ChapterForm) throws(MetadataError) -> [String] { store.setChapters(chapters) }
    mutating func removeChapters(form: ChapterForm) -> Bool { form == .vorbis && store.removeChapters() }

    func needsWriting(_ options: MediaFile.SaveOptions) -> Bool {
        store.hasChanges || (store.cleared && !file.leadingTags.isEmpty)
    }

    /// The edits in the carrier's terms.
    private func edits() -> (comment: VorbisComment?, pictures: [FLACFile.PictureEdit]) {
        let comment = store.hadComment || !store.comment.fields.isEmpty ? store.comment : nil
        let pictures: [FLACFile.PictureEdit] = store.pictureList.map { picture in
            switch picture {
            case .kept(let index, _): .kept(file.pictures[index])
            case .new(let picture): .new(picture)
            }
        }
        return (comment, pictures)
    }

    func carrierSave(to path: String, _ options: MediaFile.SaveOptions, dryRun: Bool) throws -> CarrierSaveOutcome {
        let (comment, pictures) = edits()
        var carrierOptions = CarrierSaveOptions(padding: Self.padding, dryRun: dryRun)
        carrierOptions.allowInPlace = options.allowInPlace
        return try FLACFile.save(comment: comment, pictures: pictures, removeLeadingTags: store.cleared, to: path, options: carrierOptions)
    }

    var saveWords: (inPlace: String, rewrite: String, what: String) {
        ("the metadata blocks fit their old space (with its padding) and are written over it; the audio does not move",
         "the file is written anew with the new metadata blocks and \(Self.padding) bytes of padding, verified, then renamed over the original",
         "the new metadata blocks")
    }

    /// The padding a rewrite leaves for the next edit (metaflac and libFLAC leave 8 KiB; 4 KiB
    /// holds a few edits of every text field).
    static let padding = 4096
}

extension MediaProperties {
    /// A FLAC stream's properties from STREAMINFO; the bit rate from the audio frames' size.
    init(flac file: FLACFile) {
        guard let info = file.streamInfo else {
            self.init(audio: AudioProperties(codec: "flac"))
            return
        }
        let duration = info.duration
        let bitrate = duration.flatMap { Int(exactly: (Double(file.audioSize) * 8 / $0).rounded()) }
        self.init(audio: AudioProperties(codec: "flac", duration: duration, sampleRate: Int(info.sampleRate), channels: info.channels,
                                         bitsPerSample: info.bitsPerSample, bitrate: bitrate))
    }
}
