import ISOBMFF

/// What `MediaFile.copyMetadata(from:)` did with each piece of the source's metadata.
public struct MigrationReport: Sendable {
    public enum Outcome: String, Sendable {
        /// Carried over with the same value and an equivalent native form.
        case copied = "copied"
        /// Carried over with its form or value changed (the detail says how).
        case converted = "converted"
        /// Not carried over: the destination format has no place for it (the detail says what
        /// was done instead).
        case notRepresentable = "not representable"
        /// Not carried over on purpose: it describes how the source's audio was encoded, not
        /// the destination's (the detail says what).
        case leftOut = "left out"
    }

    /// Keys that describe how a file's audio was encoded, which `copyMetadata(from:)` leaves
    /// out: the destination's audio was encoded on its own (a transcode, another file), so the
    /// source's values would say something false about it. With what each one says. (And
    /// ENCODEDBY when it comes from MP4's `©too`, the encoding tool; an `import` applies a
    /// document as it is, as a restore must.)
    public static let encodingKeys: [String: String] = [
        "ENCODER": "the program that encoded the source's audio",
        "ENCODER_OPTIONS": "the settings the source's audio was encoded with",
        "ENCODING": "the software and settings that encoded the source's audio",
        "R128_TRACK_GAIN": "an Opus gain, relative to the source's own Opus header (the REPLAYGAIN keys carry loudness between formats)",
        "R128_ALBUM_GAIN": "an Opus gain, relative to the source's own Opus header (the REPLAYGAIN keys carry loudness between formats)",
        "ITUNSMPB": "the encoder delay and padding of the source's AAC stream",
    ]

    public struct Entry: Sendable {
        /// The uniform key, or the identifier of an item without one.
        public var key: String
        public var outcome: Outcome
        public var detail: String
    }

    public var entries: [Entry] = []

    public init() {}

    public func count(_ outcome: Outcome) -> Int { entries.filter { $0.outcome == outcome }.count }
}

extension MediaFile {
    /// Copies the source's metadata into this file's (in memory; `save` writes it): every
    /// uniform and custom tag, the pictures, and, between files of the same family, the native
    /// items that have no key. Keys this file has and the source does not are kept.
    public mutating func copyMetadata(from source: MediaFile) throws(MetadataError) -> MigrationReport {
        var report = MigrationReport()
        let sameFamily = source.family == family
        let sourceItems = source.items
        var tags = source.tags.sorted { $0.key < $1.key }.map { key, values in
            (key: key, values: values, from: sourceItems.first { $0.contributes(to: key) }?.identifier)
        }
        tags.removeAll { tag in
            // (ENCODEDBY is the person or organisation in ID3, but the encoding tool in MP4's
            // `©too`, which TagLib names so too.)
            let tool = tag.key.uppercased() == "ENCODEDBY" && tag.from == MetadataIdentifier(.iTunes, "\u{A9}too")
            guard let what = tool ? "the tool that encoded the source's audio (MP4's ©too)" : MigrationReport.encodingKeys[tag.key.uppercased()] else { return false }
            report.entries.append(.init(key: tag.key, outcome: .leftOut, detail: "\(what), not this file's; not copied"))
            return true
        }
        applyTags(tags, sameFamily: sameFamily, to: &report)
        // Items without a uniform key, except those that travel with the tags or the pictures
        // (and, between families, the chapters: below).
        // Native forms are only needed within a family (serialising them reads large pictures).
        let native = sameFamily ? try source.nativeItems() : []
        for item in sourceItems where !item.hasContributions && item.isWritable && MetadataKeyTable.definition(iTunesOrID3: item) == nil
            && item.travelsWith != .tags && item.travelsWith != .pictures && (sameFamily || item.travelsWith != .chapters)
        {
            if sameFamily, let data = native.first(where: { $0.identifier == item.identifier })?.data {
                do {
                    _ = try container.remove(.identifier(item.identifier))
                    if let reason = try container.addNative(item.identifier, data) {
                        report.entries.append(.init(key: item.identifier.description, outcome: .notRepresentable, detail: reason + "; not copied"))
                    } else {
                        report.entries.append(.init(key: item.identifier.description, outcome: .copied, detail: "native item copied byte for byte"))
                    }
                } catch {
                    report.entries.append(.init(key: item.identifier.description, outcome: .notRepresentable, detail: error.message + "; not copied"))
                }
            } else {
                report.entries.append(.init(key: item.identifier.description, outcome: .notRepresentable,
                                            detail: "\(item.dataType) item with no uniform key and no \(family) form; not copied"))
            }
        }
        let pictures = try source.pictures
        if !pictures.isEmpty { applyPictures(pictures, to: &report) }
        let chapters = source.chapters
        if !chapters.isEmpty {
            report.entries += try applyChapters(chapters, restoring: sameFamily, forms: sameFamily ? source.chapterLists.map(\.form) : nil)
        }
        return report
    }

    /// Writes `chapters` (from another file or a document) in every form this file holds and
    /// reports it; with `restoring` (the native items of a file of the same family were just
    /// copied), chapters made of items (ID3 `CHAP`/`CTOC` frames with every sub-frame, Vorbis
    /// `CHAPTERnnn` fields) are kept as they were copied, and a QuickTime chapter track is
    /// still written.
    ///
    /// `forms`: the forms the chapters came in (a file of the same family, an export document);
    /// those this file holds are written, not every form (an M4B with only Nero chapters is
    /// restored with only Nero chapters, no chapter track and its untitled chapter at 0).
    public mutating func applyChapters(_ chapters: [Chapter], restoring: Bool, forms: [ChapterForm]? = nil) throws(MetadataError) -> [MigrationReport.Entry] {
        if restoring && Swift.type(of: container).chaptersAreItems {
            let forms = chapterForms.map(\.name).joined(separator: " and ")
            return chapters.isEmpty ? [] : [.init(key: "chapters", outcome: .copied, detail: "\(chapters.count) chapters copied as their \(forms) items")]
        }
        if chapters.isEmpty {
            let removed = removeChapters()
            return removed.isEmpty ? [] : [.init(key: "chapters", outcome: .copied, detail: "no chapters: \(removed.map(\.name).joined(separator: ", ")) removed")]
        }
        let kept = forms?.filter(chapterForms.contains) ?? []
        // Chapters the file already has, in those forms and no other, are left as they are (an
        // import of a file's own export rewrote its chapter track every time).
        let current = chapterLists
        if Set(current.map(\.form)) == Set(kept.isEmpty ? current.map(\.form) : kept), !current.isEmpty,
           current.allSatisfy({ Self.sameChapters($0.chapters, chapters) }) {
            return [.init(key: "chapters", outcome: .copied, detail: "\(chapters.count) chapters, already so")]
        }
        do {
            let notes = try setChapters(chapters, forms: kept.isEmpty ? nil : kept)
            let forms = chapterLists.map(\.form.name).joined(separator: " and ")
            return [.init(key: "chapters", outcome: notes.isEmpty ? .copied : .converted,
                          detail: "\(chapters.count) chapters written as \(forms)" + (notes.isEmpty ? "" : " (adjusted: see the notes)"))]
        } catch {
            return [.init(key: "chapters", outcome: .notRepresentable, detail: error.message + "; not copied")]
        }
    }

    /// True when two lists hold the same chapters: starts (to the millisecond), titles,
    /// subtitles and URLs.
    static func sameChapters(_ a: [Chapter], _ b: [Chapter]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { x, y in
            x.start.converted(to: 1000) == y.start.converted(to: 1000) && x.title == y.title && x.subtitle == y.subtitle && x.url == y.url
        }
    }

    /// Sets `tags` (from a document, such as an export of a file of the other family) and, when
    /// there are any, replaces the pictures; what the format cannot hold is reported, not thrown.
    ///
    /// Keys are judged as `set` judges them; `customKeys` are the custom keys the document's
    /// source file had (an export lists them among its items), each with its native spelling,
    /// which are written as this format's custom items.
    ///
    /// - Throws: `.unknownKey` for a key `set` would refuse, before anything is changed.
    public mutating func importTags(_ tags: [(key: String, values: [String])], pictures: [MediaPicture], customKeys: [String: String] = [:]) throws(MetadataError) -> MigrationReport {
        for (key, _) in tags where customKeys[key.uppercased()] == nil { _ = try resolve(key) }
        var report = MigrationReport()
        applyTags(tags.map { ($0.key, $0.values, nil) }, sameFamily: false, customKeys: customKeys, to: &report)
        if !pictures.isEmpty { applyPictures(pictures, to: &report) }
        return report
    }

    private mutating func applyTags(_ tags: [(key: String, values: [String], from: MetadataIdentifier?)], sameFamily: Bool, customKeys: [String: String] = [:],
                                    to report: inout MigrationReport) {
        for (key, values, from) in tags {
            let row = MetadataKeyTable.definition(key)
            // A custom key keeps its native spelling (`TXXX:foo` becomes `----:com.apple.iTunes:foo`),
            // and `COMMENT:Note` the case of its description.
            // (An item without a name of its own, a `TMCL` musician credit, keeps the key's
            // qualifier: `PERFORMER:GUITAR`, not `PERFORMER:PERFORMER:GUITAR`.)
            let ownName = from.flatMap { $0.keySpace == .id3 ? $0.id3Parts.qualifier : $0.freeformParts?.name } ?? customKeys[key.uppercased()]
            let nativeName = ownName ?? key
            let structured = key.keyParts.map { $0.base + ":" + (ownName ?? $0.qualifier) }
            let target: KeyTarget
            if let row {
                target = .uniform(row)
            } else if from != nil || customKeys[key.uppercased()] != nil {
                // A custom key of the file read from.
                target = .custom(key: key.uppercased(), nativeName: structured ?? nativeName)
            } else if let resolved = try? resolve(key) {
                target = resolved
            } else {
                report.entries.append(.init(key: key, outcome: .notRepresentable, detail: "unknown key; not copied"))
                continue
            }
            do {
                let before = notes.count
                try set(target, values: values, key: key)
                let newNotes = Array(notes.dropFirst(before))
                let written = items.filter { $0.isWritable && $0.contributes(to: row?.key ?? key.uppercased()) }.map(\.identifier)
                // Converted: the set noted a change, or the value changed its native type (a
                // pair, number, flag or date moving between ID3 text and typed atoms), or a
                // custom key changed its carrier (TXXX and freeform items).
                let changesType = !sameFamily && (row.map { $0.kind != .text } ?? true)
                let detail = "\(from?.description ?? key) → \(written.map(\.description).joined(separator: ", "))"
                    + (newNotes.isEmpty ? "" : "; " + newNotes.joined(separator: "; "))
                report.entries.append(.init(key: key, outcome: newNotes.isEmpty && !changesType ? .copied : .converted, detail: detail))
            } catch {
                report.entries.append(.init(key: key, outcome: .notRepresentable, detail: error.message + "; not copied"))
            }
        }
    }

    private mutating func applyPictures(_ pictures: [MediaPicture], to report: inout MigrationReport) {
        removePictures()
        // Where pictures have no type (MP4 cover art), players show the first: the front cover
        // goes first (a tagger may have stored the back cover before it).
        let ordered = picturesHaveTypes ? pictures : pictures.filter { $0.type == .frontCover } + pictures.filter { $0.type != .frontCover }
        for picture in ordered {
            let before = notes.count
            // A store that holds one picture of each description numbers the later ones itself,
            // in its notes (ID3).
            do {
                try addPicture(picture)
                let newNotes = notes.dropFirst(before)
                report.entries.append(.init(key: "picture (\(picture.typeName))", outcome: newNotes.isEmpty ? .copied : .converted,
                                            detail: "\(picture.mimeType), \(picture.data.count) bytes" + (newNotes.isEmpty ? "" : "; " + newNotes.joined(separator: "; "))))
            } catch {
                report.entries.append(.init(key: "picture (\(picture.typeName))", outcome: .notRepresentable, detail: error.message + "; not copied"))
            }
        }
    }

    /// `set` for a resolved target, checking values against the key's kind.
    mutating func set(_ target: KeyTarget, values: [String], key: String) throws(MetadataError) {
        var checked = values
        let row: MetadataKeyDefinition? = switch target {
        case .uniform(let row): row
        case .identifier(let identifier): MetadataKeyTable.definition(identifier: identifier)
        case .custom: nil
        }
        if let row {
            checked = try values.map { value throws(MetadataError) in try MetadataValueConversion.canonical(value, kind: row.kind, key: row.key) }
        }
        let newNotes = try container.set(target, values: checked)
        appendNotes(newNotes)
        if case .uniform(let row) = target {
            do { try removeOtherHolders(of: row) } catch { throw MetadataError.wrapping(error, path: path) }
        }
    }
}

extension MetadataKeyTable {
    /// The row of the item an identifier names, or nil.
    static func definition(identifier: MetadataIdentifier) -> Row? {
        switch identifier.keySpace {
        case .iTunes: identifier.fourCC.flatMap { definition(iTunes: .item($0)) }
        case .iTunesLong: identifier.freeformParts.flatMap { definition(iTunes: .freeform(mean: $0.mean, name: $0.name)) }
        case .quickTimeMetadata: definition(quickTimeKey: identifier.key)
        case .quickTimeUserData: identifier.fourCC.flatMap { definition(userData: $0) }
        case .threeGPP: identifier.fourCC.flatMap { definition(threeGPP: $0) }
        case .riffInfo: identifier.fourCC.flatMap { definition(riffInfo: $0) }
        case .ape: definition(apeKey: identifier.key)
        case .vorbis: definition(vorbisKey: identifier.key)
        case .id3, .id32:
            switch identifier.id3Parts {
            case ("TXXX", let description?): definition(id3: .userText(description))
            case ("COMM", let description): definition(id3: .comment(description ?? ""))
            case ("USLT", let description): definition(id3: .lyrics(description ?? ""))
            case ("UFID", let owner?): definition(id3: .uniqueFileID(owner))
            case (let frame, nil): definition(id3: .frame(frame))
            default: nil
            }
        default: nil
        }
    }

    /// The row of a native item's iTunes or ID3 form (pictures and other keyed items that give
    /// no text tag), or nil.
    static func definition(iTunesOrID3 item: NativeMetadataItem) -> Row? {
        switch item.keySpace {
        case .iTunes: item.identifier.fourCC.flatMap { definition(iTunes: .item($0)) }
        case .iTunesLong: item.identifier.freeformParts.flatMap { definition(iTunes: .freeform(mean: $0.mean, name: $0.name)) }
        case .id3: item.identifier.id3Parts.frame == "APIC" ? definition("PICTURE") : nil
        case .quickTimeMetadata: definition(quickTimeKey: item.identifier.key)
        default: nil
        }
    }
}
