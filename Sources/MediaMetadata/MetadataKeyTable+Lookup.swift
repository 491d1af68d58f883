import ISOBMFF
import MediaBytes

extension MetadataKeyTable {
    /// The row of a uniform key or alias (case-insensitive), or nil.
    public static func definition(_ name: String) -> Row? { byName[name.uppercased()] }

    private static let byName: [String: Row] = {
        var map: [String: Row] = [:]
        for row in rows {
            map[row.key.uppercased()] = row
            for alias in row.aliases { map[alias.uppercased()] = row }
        }
        return map
    }()

    /// The row whose iTunes forms include `form` (freeform names matched without regard to case).
    static func definition(iTunes form: Row.ITunesForm) -> Row? { byITunes[normalized(form)] }

    private static func normalized(_ form: Row.ITunesForm) -> Row.ITunesForm {
        if case .freeform(let mean, let name) = form { return .freeform(mean: mean, name: name.uppercased()) }
        return form
    }

    private static let byITunes: [Row.ITunesForm: Row] = {
        var map: [Row.ITunesForm: Row] = [:]
        for row in rows { for form in row.iTunes { map[normalized(form)] = row } }
        return map
    }()

    static func definition(userData type: FourCC) -> Row? { byUserData[type] }
    private static let byUserData: [FourCC: Row] = Dictionary(rows.compactMap { row in row.userData.map { ($0, row) } }, uniquingKeysWith: { a, _ in a })

    static func definition(threeGPP type: FourCC) -> Row? { byThreeGPP[type] }
    private static let byThreeGPP: [FourCC: Row] = Dictionary(rows.compactMap { row in row.threeGPP.map { ($0, row) } }, uniquingKeysWith: { a, _ in a })

    /// The row of a QuickTime metadata key: its own spelling, or a bare name as ffmpeg writes
    /// (`-movflags use_metadata_tags`) looked up with `com.apple.quicktime.` before it (as
    /// exiftool does) and in `bareQuickTimeKeys`.
    static func definition(quickTimeKey key: String) -> Row? {
        if let row = byQuickTimeKey[key] { return row }
        guard !key.contains(".") else { return nil }
        return byQuickTimeKey["com.apple.quicktime." + key] ?? bareQuickTimeKeys[key].flatMap { definition($0) }
    }
    private static let byQuickTimeKey: [String: Row] = Dictionary(rows.compactMap { row in row.quickTimeKey.map { ($0, row) } }, uniquingKeysWith: { a, _ in a })

    static func definition(riffInfo id: FourCC) -> Row? { byInfo[id] }
    private static let byInfo: [FourCC: Row] = Dictionary(rows.compactMap { row in row.riffInfo.map { ($0, row) } }, uniquingKeysWith: { a, _ in a })

    /// The row of an ID3 form in either version (`TXXX` descriptions and `TIPL` roles matched
    /// without regard to case).
    static func definition(id3 form: Row.ID3Form) -> Row? { byID3[normalized(form)] }

    private static func normalized(_ form: Row.ID3Form) -> Row.ID3Form {
        switch form {
        case .userText(let description): .userText(description.uppercased())
        case .involvedPerson(let frame, let role): .involvedPerson(frame: frame == "IPLS" ? "TIPL" : frame, role: role.uppercased())
        default: form
        }
    }

    private static let byID3: [Row.ID3Form: Row] = {
        var map: [Row.ID3Form: Row] = [:]
        for row in rows {
            for form in [row.id3, row.id3v23].compactMap({ $0 }) where map[normalized(form)] == nil { map[normalized(form)] = row }
        }
        return map
    }()

    /// The Markdown reference matrix of the table (`Documentation/KeySpace.md`).
    public static func markdown() -> String {
        func code(_ text: String?) -> String {
            guard let text, !text.isEmpty else { return "" }
            return "`" + text.replacingOccurrences(of: "|", with: "\\|") + "`"
        }
        var out = """
            # Metadata key space

            Generated from `MetadataKeyTable.rows` (Sources/MediaMetadata/MetadataKeyTable.swift) by \
            `tagedit keys --markdown`; do not edit by hand (a test compares the two).

            Uniform keys are TagLib's property names, matched without regard to case. Each native \
            item is also addressable by its identifier (`itsk/%A9nam`, `itlk/com.apple.iTunes:NAME`, \
            `udta/%A9nam`, `mdta/com.apple.quicktime.title`, `3gpp/titl`, `id3/TIT2`, \
            `id3/TXXX:NAME`); see the README for the spelling rules.

            Columns: iTunes item list (the first form is written, all are read), QuickTime user data, \
            QuickTime metadata key, 3GPP asset, ID3v2.4 frame, ID3v2.3 frame where it differs, RIFF \
            INFO (read only).

            | Key | Kind | Aliases | iTunes | QuickTime udta | QuickTime mdta | 3GPP | ID3v2.4 | ID3v2.3 | RIFF INFO |
            |---|---|---|---|---|---|---|---|---|---|

            """
        for row in rows {
            let cells = [
                "`\(row.key)`", row.kind.rawValue, row.aliases.map { code($0) }.joined(separator: " "),
                row.iTunes.map { code($0.description) }.joined(separator: " "), code(row.userData?.description),
                code(row.quickTimeKey), code(row.threeGPP?.description), code(row.id3?.description), code(row.id3v23?.description),
                code(row.riffInfo?.description),
            ]
            out += "| " + cells.joined(separator: " | ") + " |\n"
        }
        out += "\n## Notes\n\n"
        for row in rows { if let note = row.note { out += "- `\(row.key)`: \(note)\n" } }
        out += """

            ## Keys outside the table

            - A `TXXX` frame whose description is not in the table is the key named by its \
            description in upper case (`TXXX:foo` is `FOO`), as in TagLib. `tagedit copy` carries such \
            keys to MP4 as `----:com.apple.iTunes:` freeform items with the original description, and \
            freeform items under `com.apple.iTunes` that are not in the table back to `TXXX`.
            - `COMMENT:DESCRIPTION`, `LYRICS:DESCRIPTION` and `URL:DESCRIPTION` are ID3 `COMM`, `USLT` and \
            `WXXX` frames with that description (`URL` alone is a `WXXX` without one); \
            `PERFORMER:INSTRUMENT` is a musician credit in `TMCL` (v2.4) or `IPLS` (v2.3).
            - Every other native item has no uniform key; it is listed, read and written by its \
            identifier, and kept by every write.

            """
        return out
    }
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = self[...]
        while let range = rest.range(of: target) {
            out += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}

extension Substring {
    func range(of target: String) -> Range<Index>? {
        guard !target.isEmpty, count >= target.count else { return nil }
        var start = startIndex
        while start < endIndex {
            if self[start...].hasPrefix(target) { return start..<index(start, offsetBy: target.count) }
            start = index(after: start)
        }
        return nil
    }
}
