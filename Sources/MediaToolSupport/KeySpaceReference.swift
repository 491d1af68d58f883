import MediaMetadata

/// The Markdown reference of the key-space table (`Documentation/KeySpace.md`, printed by
/// `tagedit keys --markdown`; a test fails when the committed document differs).
public enum KeySpaceReference {
    /// The Markdown reference matrix of the table (`Documentation/KeySpace.md`).
    public static func markdown() -> String {
        typealias Row = MetadataKeyDefinition
        let rows = MetadataKeyTable.rows
        func code(_ text: String?) -> String {
            guard let text, !text.isEmpty else { return "" }
            return "`" + text.split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|") + "`"
        }
        var out = """
            # Metadata key space

            Generated from `MetadataKeyTable.rows` (Sources/MediaMetadata/MetadataKeyTable.swift) by \
            `tagedit keys --markdown`; do not edit by hand (a test compares the two).

            Uniform keys are TagLib's property names, matched without regard to case. Each native \
            item is also addressable by its identifier (`itsk/%A9nam`, `itlk/com.apple.iTunes:NAME`, \
            `udta/%A9nam`, `mdta/com.apple.quicktime.title`, `3gpp/titl`, `id3/TIT2`, \
            `id3/TXXX:NAME`); the KeysAndIdentifiers article of the MediaMetadata documentation \
            gives the spelling rules.

            Columns: iTunes item list (the first form is written, all are read; a key TagLib has \
            no atom for is the freeform item named as the key, in italics, as TagLib writes it), QuickTime user data, \
            QuickTime metadata key, 3GPP asset, ID3v2.4 frame, ID3v2.3 frame where it differs, RIFF \
            INFO (written only where a WAV file already has an `INFO` list, kept in step with the \
            ID3 tag; an AIFF file's own text chunks stand for four of them, `NAME` for `INAM`, `AUTH` \
            for `IART`, `(c) ` for `ICOP`, `ANNO` for `ICMT`, kept in step the same way), APE item key where it is not the key itself (APE keys are read without regard \
            to case; a key without an APE spelling is written as the key, as TagLib does), Vorbis \
            comment field names (FLAC, Ogg; the first is written, all are read, without regard to \
            case; `TRACKNUMBER` and `DISCNUMBER` are written as the number in their field and the \
            total in `TRACKTOTAL`/`DISCTOTAL`, and read from `TOTALTRACKS`/`TOTALDISCS` too).

            | Key | Kind | Aliases | iTunes | QuickTime udta | QuickTime mdta | 3GPP | ID3v2.4 | ID3v2.3 | RIFF INFO | APE | Vorbis |
            |---|---|---|---|---|---|---|---|---|---|---|---|

            """
        for row in rows {
            let cells = [
                "`\(row.key)`", row.kind.rawValue, row.aliases.map { code($0) }.joined(separator: " "),
                row.iTunes.map { row.iTunesIsFreeformByName ? "*\(code($0.description))*" : code($0.description) }.joined(separator: " "),
                code(row.userData?.description),
                code(row.quickTimeKey), code(row.threeGPP?.description), code(row.id3?.description), code(row.id3v23?.description),
                code(row.riffInfo?.description), code(row.ape), row.vorbisNames.map { code($0) }.joined(separator: " "),
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
            - QuickTime metadata keys are also read by their bare names, as ffmpeg writes them \
            (`-movflags use_metadata_tags`): a name that becomes a key of the table with \
            `com.apple.quicktime.` before it (`title`, `artist`, `album`, `comment`, `genre`, \
            `composer`, `copyright`, `description`), and \(MetadataKeyTable.bareQuickTimeKeys.sorted { $0.key < $1.key }.map { "`\($0.key)` (\($0.value))" }.joined(separator: ", ")). \
            An edit keeps the name the file uses.
            - A Vorbis comment field whose name is not in the table is the key of its name in upper \
            case (`vorbis/FOO` is `FOO`); `CHAPTERnnn`, `CHAPTERnnnNAME` and `CHAPTERnnnURL` fields are \
            chapters, not keys. FLAC pictures are `PICTURE` blocks (`flac/PICTURE[n]`); an Ogg file's are its \
            `METADATA_BLOCK_PICTURE` fields (FLAC picture structures in Base64), named the same way.
            - Every other native item has no uniform key; it is listed, read and written by its \
            identifier, and kept by every write.

            """
        return out
    }
}
