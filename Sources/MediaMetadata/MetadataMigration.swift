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
    }

    public struct Entry: Sendable {
        /// The uniform key, or the identifier of an item without one.
        public var key: String
        public var outcome: Outcome
        public var detail: String
    }

    public var entries: [Entry] = []

    public func count(_ outcome: Outcome) -> Int { entries.filter { $0.outcome == outcome }.count }
}

extension MediaFile {
    /// Copies the source's metadata into this file's (in memory; `save` writes it): every
    /// uniform and custom tag, the pictures, and, between files of the same family, the native
    /// items that have no key. Keys this file has and the source does not are kept.
    public mutating func copyMetadata(from source: MediaFile) throws(MetadataError) -> MigrationReport {
        var report = MigrationReport()
        let sameFamily = source.isAtomBased == isAtomBased
        let sourceItems = source.items
        for (key, values) in source.tags.sorted(by: { $0.key < $1.key }) {
            let from = sourceItems.first { $0.contributions.contains { $0.key == key } }?.identifier
            let row = MetadataKeyTable.definition(key)
            // A custom key keeps its native spelling (`TXXX:foo` becomes `----:com.apple.iTunes:foo`).
            let nativeName = from.flatMap { $0.keySpace == .id3 ? $0.id3Parts.qualifier : $0.freeformParts?.name } ?? key
            // `COMMENT:Note` keeps the description's case from the source frame.
            let structured = key.firstIndex(of: ":").map { String(key[...$0]) + nativeName }
            let target: KeyTarget = row.map { .uniform($0) } ?? .custom(key: key, nativeName: structured ?? nativeName)
            do {
                let before = notes.count
                try set(target, values: values, key: key)
                let newNotes = Array(notes.dropFirst(before))
                let written = items.filter { $0.contributions.contains { $0.key == key } }.map(\.identifier)
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
        // Items without a uniform key.
        let native = try source.nativeItems()
        for item in sourceItems where item.contributions.isEmpty && item.isWritable && MetadataKeyTable.definition(iTunesOrID3: item) == nil {
            if sameFamily, let data = native.first(where: { $0.identifier == item.identifier })?.data {
                do {
                    _ = store.remove(.identifier(item.identifier))
                    try store.addNative(item.identifier, data)
                    report.entries.append(.init(key: item.identifier.description, outcome: .copied, detail: "native item copied byte for byte"))
                } catch {
                    report.entries.append(.init(key: item.identifier.description, outcome: .notRepresentable, detail: error.message + "; not copied"))
                }
            } else if let parts = item.identifier.freeformParts, parts.mean == MetadataKeyTable.apple, !isAtomBased {
                do {
                    try set(.custom(key: parts.name.uppercased(), nativeName: parts.name), values: item.values, key: item.identifier.description)
                    report.entries.append(.init(key: item.identifier.description, outcome: .converted, detail: "→ id3/TXXX:\(parts.name)"))
                } catch {
                    report.entries.append(.init(key: item.identifier.description, outcome: .notRepresentable, detail: error.message + "; not copied"))
                }
            } else {
                report.entries.append(.init(key: item.identifier.description, outcome: .notRepresentable,
                                            detail: "\(item.dataType) item with no uniform key and no \(isAtomBased ? "MP4" : "ID3") form; not copied"))
            }
        }
        // Pictures.
        let pictures = try source.pictures
        if !pictures.isEmpty {
            removePictures()
            var seen: Set<String> = []
            for var picture in pictures {
                let before = notes.count
                // ID3 holds one picture per type and description: later ones get a numbered description.
                if !isAtomBased {
                    var number = 1
                    let base = picture.description
                    while !seen.insert("\(picture.type)/\(picture.description)").inserted {
                        number += 1
                        picture.description = base.isEmpty ? "\(number)" : "\(base) \(number)"
                    }
                    if picture.description != base { appendNotes(["ID3 needs distinct picture descriptions: this one is \"\(picture.description)\""]) }
                }
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
        if !sameFamily && !source.chapters.isEmpty {
            report.entries.append(.init(key: "chapters", outcome: .notRepresentable,
                                        detail: "\(source.chapters.count) chapters are not copied (writing chapters into another format is not supported yet)"))
        }
        return report
    }

    /// `set` for a resolved target, checking values against the key's kind.
    mutating func set(_ target: KeyTarget, values: [String], key: String) throws(MetadataError) {
        var checked = values
        if case .uniform(let row) = target {
            checked = try values.map { value throws(MetadataError) in try MetadataValueConversion.canonical(value, kind: row.kind, key: row.key) }
        }
        let newNotes = try store.set(target, values: checked)
        appendNotes(newNotes)
    }
}

extension MetadataKeyTable {
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
