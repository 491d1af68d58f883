import Carriers
import MediaBytes
import VorbisComment

/// Ogg Vorbis, Opus, FLAC-in-Ogg and Speex files: the first such stream's comment header,
/// edited through the Vorbis comment store and saved by `OggFile.save` (in place within the
/// comment's padding, else a verified rewrite). Pictures are the comment's
/// `METADATA_BLOCK_PICTURE` fields (FLAC picture structures in Base64), shown and edited as
/// pictures. `MediaFormat.definitions` names it in the Ogg row.
struct OggContainer: CarrierBackedContainer {
    static var family: MetadataFamily { .vorbis }
    static var chapterForms: [ChapterForm] { [.vorbis] }

    let source: FileByteSource
    let path: String
    private let file: OggFile
    /// The comment's picture fields as read (kept byte for byte while the pictures are), and
    /// the index among the fields of the first.
    private let pictureFields: [VorbisComment.Field]
    private let pictureAt: Int?
    let diagnostics: [Diagnostic]
    var store: VorbisCommentStore
    let duration: ChapterTime?
    let properties: MediaProperties

    static let pictureField = "METADATA_BLOCK_PICTURE"

    init(source: FileByteSource, format: MediaFormat, path: String) throws {
        let file = try OggFile(source: source)
        self.source = source
        self.path = path
        self.file = file
        var diagnostics = file.diagnostics
        // Picture fields whose picture structure reads become pictures; others stay fields.
        var comment = file.comment
        // The legacy form old encoders wrote: `COVERART`, the image in Base64, with its type in
        // `COVERARTMIME`. Read as front covers, as TagLib reads them; a save writes them as
        // picture fields (and drops the legacy pair), which every reader since takes.
        var legacy: [FLACPicture] = []
        if var all = comment?.fields, all.contains(where: { $0.key == "COVERART" }) {
            let types = all.filter { $0.key == "COVERARTMIME" }.map(\.value)
            var index = 0
            all.removeAll { field in
                guard field.key == "COVERART" else { return false }
                defer { index += 1 }
                guard let image = Base64.decode(field.valueBytes), !image.isEmpty else { return false }
                let type = index < types.count && !types[index].isEmpty ? types[index] : MediaPicture.mimeType(sniffing: image) ?? "image/jpeg"
                legacy.append(FLACPicture(type: UInt32(PictureType.frontCover.rawValue), mimeType: type, image: image))
                return true
            }
            if !legacy.isEmpty {
                // (Their types go with them, unless a cover that did not decode stays a field.)
                if !all.contains(where: { $0.key == "COVERART" }) { all.removeAll { $0.key == "COVERARTMIME" } }
                diagnostics.append(Diagnostic(.note, MetadataError.Code.malformed, offset: file.headerPackets[OggFile.commentPacketIndex].offset, path: "COVERART",
                                              message: "\(legacy.count) legacy COVERART field\(legacy.count == 1 ? "" : "s") read as front cover\(legacy.count == 1 ? "" : "s"); a save writes \(legacy.count == 1 ? "it" : "them") as \(Self.pictureField)"))
            }
            comment?.fields = all
        }
        var fields: [VorbisComment.Field] = [], headers: [FLACPicture.Header] = [], first: Int?
        if var all = comment?.fields {
            var index = 0
            all.removeAll { field in
                defer { index += 1 }
                guard field.key == Self.pictureField else { return false }
                guard let header = Self.header(of: field) else {
                    diagnostics.append(Diagnostic(.warning, MetadataError.Code.malformed, offset: file.headerPackets[OggFile.commentPacketIndex].offset, path: Self.pictureField,
                                                          message: "a picture field that is not a Base64 FLAC picture; kept as a field"))
                    return false
                }
                first = first ?? index
                fields.append(field)
                headers.append(header)
                return true
            }
            comment?.fields = all
        }
        pictureFields = fields
        pictureAt = first
        let kept = fields
        // Where the comment header starts: a picture that does not decode is named by it.
        let commentOffset = file.headerPackets.count > OggFile.commentPacketIndex ? file.headerPackets[OggFile.commentPacketIndex].offset : file.headerEnd
        store = VorbisCommentStore(
            comment: comment,
            pictures: headers.indices.map { .kept(index: $0, header: headers[$0]) } + legacy.map { .new($0) },
            pictureSpace: .flac,
            loader: VorbisCommentStore.PictureLoader { index throws(MetadataError) in
                guard let bytes = Base64.decode(kept[index].valueBytes) else {
                    throw MetadataError(.malformed, offset: commentOffset, message: "the comment header at byte offset \(commentOffset), \(Self.pictureField) \(index): not Base64")
                }
                do throws(VorbisCommentError) { return try FLACPicture(parsing: bytes[...]) } catch {
                    throw MetadataError(.malformed, offset: commentOffset, message: "the comment header at byte offset \(commentOffset), \(Self.pictureField) \(index): \(error.message)")
                }
            })
        duration = file.duration.flatMap { $0.isFinite && $0 > 0 && $0 < 1e9 ? ChapterTime.milliseconds(UInt64(($0 * 1000).rounded())) : nil }
        properties = MediaProperties(ogg: file)
        self.diagnostics = diagnostics
    }

    /// The picture header of a `METADATA_BLOCK_PICTURE` field, decoding only the Base64 of its
    /// first bytes.
    static func header(of field: VorbisComment.Field) -> FLACPicture.Header? {
        let text = field.valueBytes
        guard text.count % 4 == 0 else { return nil }
        let total = text.count / 4 * 3 - text.suffix(2).filter { $0 == 0x3D }.count
        // The fields before the image are a few dozen bytes unless the description is long:
        // decoded from a short prefix first (a tenth of an Opus listing's time went to decoding
        // 4 KiB of each cover).
        for prefix in [min(total, 192), min(total, 4096), total] {
            guard let bytes = Base64.decode(text.prefix((prefix + 2) / 3 * 4)) else { return nil }
            do { return try FLACPicture.Header(parsing: bytes[...], totalLength: total) } catch where error.code == .truncated && prefix < total {
                continue
            } catch {
                return nil
            }
        }
        return nil
    }

    mutating func setChapters(_ chapters: [Chapter], form: ChapterForm) throws(MetadataError) -> [String] { store.setChapters(chapters) }
    mutating func removeChapters(form: ChapterForm) -> Bool { form == .vorbis && store.removeChapters() }

    func needsWriting(_ options: MediaFile.SaveOptions) -> Bool { store.hasChanges }

    /// The comment to write: the store's fields with the pictures as fields where the first was.
    private func comment() -> VorbisComment {
        var comment = store.comment
        let pictures = store.pictureList.map { picture in
            switch picture {
            case .kept(let index, _): pictureFields[index]
            case .new(let picture): VorbisComment.Field(name: Self.pictureField, value: Base64.encode(picture.serialized()))
            }
        }
        comment.fields.insert(contentsOf: pictures, at: min(pictureAt ?? comment.fields.count, comment.fields.count))
        return comment
    }

    func carrierSave(to path: String, _ options: MediaFile.SaveOptions, dryRun: Bool) throws -> CarrierSaveOutcome {
        var carrierOptions = CarrierSaveOptions(padding: Self.padding, dryRun: dryRun)
        carrierOptions.allowInPlace = options.allowInPlace
        return try OggFile.save(comment: comment(), to: path, options: carrierOptions)
    }

    var saveWords: (inPlace: String, rewrite: String, what: String) {
        ("the new comment header fits the old header pages (with its padding) and is written over them; no other page changes",
         "the file is written anew with the new comment header (and up to \(Self.padding) bytes of padding), verified, then renamed over the original",
         "the new comment header")
    }

    /// The padding after the comment a rewrite leaves for the next edit, as far as it fits
    /// the header pages without another page (opusenc leaves 512 bytes).
    static let padding = 1024
}

extension MediaProperties {
    /// An Ogg stream's properties from its identification header and last granule position;
    /// the bit rate from the size of the audio pages (Vorbis's nominal one when there is no
    /// duration).
    init(ogg file: OggFile) {
        let id = file.identification
        let duration = file.duration
        let bitrate = duration.flatMap { Int(exactly: (Double(file.audioSize) * 8 / $0).rounded()) } ?? id.nominalBitrate
        let codec = switch file.codec {
        case .vorbis: "vorbis"
        case .opus: "opus"
        case .flac: "flac"
        case .speex: "speex"
        }
        self.init(audio: AudioProperties(codec: codec, duration: duration, sampleRate: id.sampleRate > 0 ? id.sampleRate : nil,
                                         channels: id.channels > 0 ? id.channels : nil, bitsPerSample: id.streamInfo?.bitsPerSample, bitrate: bitrate))
    }
}
