import ISOBMFF
import MediaBytes
import MediaMetadata

/// The output of `tagedit`: `show` as text and JSON, and the `export`/`import` document.
public enum TagReport {
    /// `show --json` for one file (the pinned layout: path, format, audio, video, tags, items,
    /// pictures, chapters, diagnostics), written into `writer`. Pictures are described from
    /// their summaries, so no picture's bytes are read, unless `digests` asks for each one's
    /// SHA-256 (`show --json --digests`). A file that fails part way (a picture that cannot be
    /// read) throws with part of its document written: the caller drops it and reports
    /// `errorJSON`.
    public static func writeJSON(_ file: MediaFile, digests: Bool = false, to writer: inout JSONWriter) throws(MetadataError) {
        writer.beginObject()
        try writeMembers(file, pictures: digests ? .digest : .summary, to: &writer)
        writer.endObject()
    }

    /// How much of each picture a document carries.
    private enum PictureDetail {
        /// Type, MIME type, description and size: what the summaries say (no bytes read).
        case summary
        /// The summary and the SHA-256 of the bytes.
        case digest
        /// The summary and the bytes in Base64 (`export`), and the SHA-256 when `digests`.
        case data([PictureContent], digests: Bool)
    }

    /// `show --json` for a file that could not be read.
    public static func errorJSON(path: String, error: MetadataError) -> JSONValue {
        .object([("path", .string(PathBytes.display(path))), ("error", .string(PathBytes.display(error.description)))])
    }

    /// The members `show --json` and `export` share, with `pictures` as much of each picture
    /// as the document carries.
    private static func writeMembers(_ file: MediaFile, path: String? = nil, pictures: PictureDetail, to writer: inout JSONWriter) throws(MetadataError) {
        let path = path ?? file.path
        let shown = PathBytes.display(path)
        writer.key("path")
        writer.string(shown)
        if shown != path {
            // A name that is not UTF-8: `path` shows its bytes as `\xHH` for people (which a
            // name may also hold as text); `pathBytes` is the name itself, for `import --paths`.
            writer.key("pathBytes")
            writer.string(Base64.encode(PathBytes.bytes(path)))
        }
        writer.key("format")
        writer.string(file.format.rawValue)
        let properties = file.properties
        writer.key("audio")
        if let audio = properties.audio { write(audio, to: &writer) } else { writer.null() }
        writer.key("video")
        writer.beginArray()
        for video in properties.video { write(video, to: &writer) }
        writer.endArray()
        // The items first: the tags are then made from their views, not read a second time.
        let items = file.items
        writer.key("tags")
        writer.beginObject()
        let tags = file.tags.sorted { $0.key < $1.key }
        for index in tags.indices {
            writer.key(string: tags[index].key)
            writer.strings(tags[index].value)
        }
        writer.endObject()
        writer.key("items")
        writer.beginArray()
        // By index: a for-in loop copies every item.
        for index in items.indices {
            writer.beginObject()
            writer.key("identifier")
            items[index].identifier.withDescriptionUTF8 { writer.string(utf8: $0) }
            writer.key("keySpace")
            writer.string(items[index].keySpace.rawValue)
            writer.key("nativeKey")
            writer.string(items[index].nativeKey)
            writer.key("key")
            writer.string(items[index].key)
            writer.key("dataType")
            writer.string(items[index].dataType)
            // `displayValues`, written without joining the two lists.
            writer.key("value")
            writer.beginArray()
            for value in items[index].values { writer.string(value) }
            for picture in items[index].pictures { writer.string(describe(picture)) }
            writer.endArray()
            writer.endObject()
        }
        writer.endArray()
        writer.key("pictures")
        writer.beginArray()
        // A picture still in the file is read a MiB at a time for its digest, and its Base64 is
        // read again as the document goes out (never held whole).
        func digest(_ picture: PictureContent) throws(MetadataError) -> String {
            do { return try PictureDigest.sha256Hex(picture.contents) } catch {
                throw MetadataError(.io, path: file.path, message: "cannot read a picture: \(error)")
            }
        }
        switch pictures {
        case .summary:
            for picture in try file.pictureSummaries {
                writePicture(picture.type, mimeType: picture.mimeType, description: picture.description, size: picture.size, to: &writer)
            }
        case .digest:
            for picture in try file.pictureContents {
                let summary = picture.summary
                writePicture(summary.type, mimeType: summary.mimeType, description: summary.description, size: summary.size,
                             sha256: try digest(picture), to: &writer)
            }
        case .data(let contents, let digests):
            for picture in contents {
                let summary = picture.summary
                writePicture(summary.type, mimeType: summary.mimeType, description: summary.description, size: summary.size,
                             sha256: digests ? try digest(picture) : nil, data: picture.contents, to: &writer)
            }
        }
        writer.endArray()
        writer.key("chapters")
        writer.beginArray()
        for chapter in file.chapters { writer.value(ChapterReport.json(chapter)) }
        writer.endArray()
        writer.key("diagnostics")
        writer.beginArray()
        for diagnostic in file.diagnostics { writer.value(diagnostic.json) }
        writer.endArray()
    }

    /// A picture's object: the members every document has, then its digest and its bytes when
    /// given.
    private static func writePicture(_ type: PictureType, mimeType: String, description: String, size: Int,
                                     sha256: String? = nil, data: SplicedBytes? = nil, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("type")
        writer.string(type.name)
        writer.key("mimeType")
        writer.string(mimeType)
        writer.key("description")
        writer.string(description)
        writer.key("size")
        writer.int(size)
        if let sha256 {
            writer.key("sha256")
            writer.string(sha256)
        }
        if let data {
            writer.key("data")
            writer.base64(data)
        }
        writer.endObject()
    }

    /// One field of `show --tsv`: tabs, line breaks and backslashes written as `\t`, `\n`,
    /// `\r` and `\\`, so every row is one line with a fixed number of columns.
    public static func tsvField(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\r\n": out += "\\r\\n"
            case "\\": out += "\\\\"
            default: out.append(character)
            }
        }
        return out
    }

    /// One row of `show --tsv`: the path, then each column's values joined with "; " (a "; "
    /// within a value written `\\; `, so that `import` reads the value back whole).
    public static func tsvRow(_ file: MediaFile, columns: [String]) throws(MetadataError) -> String {
        var fields = [tsvField(file.path)]
        for column in columns {
            fields.append(tsvCell(try file.values(column) ?? []))
        }
        return fields.joined(separator: "\t") + "\n"
    }

    /// A cell of `show --tsv`: each value escaped (`tsvField`; its "; " as `\\; `), joined with "; ".
    static func tsvCell(_ values: [String]) -> String {
        values.map { value in
            let field = tsvField(value)
            return field.contains("; ") ? field.replacing("; ", with: "\\; ") : field
        }.joined(separator: "; ")
    }

    /// Seconds and rates to the millisecond (three decimals), as JSON numbers.
    static func writeRounded(_ value: Double?, to writer: inout JSONWriter) {
        guard let value, value.isFinite else { return writer.null() }
        writer.double((value * 1000).rounded() / 1000)
    }

    /// `"audio"` in `show --json`: codec (ffprobe's name), duration in seconds, sample rate,
    /// channels, bits per sample (uncompressed and lossless audio only) and bits per second.
    static func write(_ audio: AudioProperties, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("codec")
        writer.string(audio.codec)
        writer.key("duration")
        writeRounded(audio.duration, to: &writer)
        writer.key("sampleRate")
        writer.int(audio.sampleRate)
        writer.key("channels")
        writer.int(audio.channels)
        if let bits = audio.bitsPerSample {
            writer.key("bitsPerSample")
            writer.int(bits)
        }
        writer.key("bitrate")
        writer.int(audio.bitrate)
        writer.endObject()
    }

    /// One video track in `show --json`: codec, width, height, frames per second.
    static func write(_ video: VideoProperties, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("codec")
        writer.string(video.codec)
        writer.key("width")
        writer.int(video.width)
        writer.key("height")
        writer.int(video.height)
        writer.key("frameRate")
        writeRounded(video.frameRate, to: &writer)
        writer.key("duration")
        writeRounded(video.duration, to: &writer)
        writer.endObject()
    }

    /// The audio in one line: `aac, 44100 Hz, 2 channels, 128 kb/s, 3.045 s`.
    public static func describe(_ audio: AudioProperties) -> String {
        var out = TextBuffer(capacity: 64)
        write(audio, to: &out)
        return out.string
    }

    /// `describe(audio)`, written into `out` (one line per file of every listing).
    static func write(_ audio: AudioProperties, to out: inout TextBuffer) {
        out.write(audio.codec)
        if let rate = audio.sampleRate { out.write(", "); out.write(rate); out.write(" Hz") }
        if let channels = audio.channels {
            if channels == 1 { out.write(", mono") } else if channels == 2 { out.write(", stereo") } else { out.write(", "); out.write(channels); out.write(" channels") }
        }
        if let bits = audio.bitsPerSample { out.write(", "); out.write(bits); out.write(" bit") }
        if let bitrate = audio.bitrate { out.write(", "); out.write(bitrate / 1000 + (bitrate % 1000 >= 500 ? 1 : 0)); out.write(" kb/s") }
        if let duration = audio.duration, duration.isFinite { out.write(", "); out.write(seconds(duration)) }
    }

    /// A video track in one line: `h264, 320x240, 25 fps`.
    public static func describe(_ video: VideoProperties) -> String {
        var parts = [video.codec]
        if let width = video.width, let height = video.height { parts.append("\(width)x\(height)") }
        if let rate = video.frameRate, rate.isFinite {
            let text = Int(exactly: rate).map { String($0) } ?? String((rate * 1000).rounded() / 1000)
            parts.append(text + " fps")
        }
        if let duration = video.duration, duration.isFinite { parts.append(seconds(duration)) }
        return parts.joined(separator: ", ")
    }

    /// Seconds with three decimals: `3.045 s`.
    static func seconds(_ value: Double) -> String { FieldValue.seconds(value) + " s" }

    /// An item's values as `show` lists them: its text values, then each picture it holds as
    /// `front-cover, image/jpeg, 2048 bytes` (and its description, quoted).
    public static func displayValues(_ item: NativeMetadataItem) -> [String] {
        item.values + item.pictures.map(describe)
    }

    /// A picture in one line: type, MIME type, size and description.
    public static func describe(_ picture: PictureSummary) -> String {
        "\(picture.type.name), \(picture.mimeType), \(picture.size) bytes" + (picture.description.isEmpty ? "" : ", \"\(picture.description)\"")
    }

    /// The problems (warnings and errors, not notes) a reading command reports on standard
    /// error, one line each: `PATH: warning: at byte offset N (PLACE): MESSAGE`.
    public static func problemLines(_ file: MediaFile) -> [String] {
        file.diagnostics.filter(\.isProblem).map { "\(file.path): \($0)" }
    }

    /// `show` as text: the tags, then pictures and chapters, and with `native` every item.
    public static func text(_ file: MediaFile, native: Bool) throws(MetadataError) -> String {
        var out = TextBuffer(capacity: 1024)
        out.write(PathBytes.display(file.path).escapingControls)
        out.write(" (")
        out.write(file.format.description)
        out.write(")\n")
        let properties = file.properties
        if let audio = properties.audio {
            out.write("  audio: ")
            write(audio, to: &out)
            out.write("\n")
        }
        for video in properties.video { out.write("  video: "); out.write(describe(video)); out.write("\n") }
        // With `native`, the items first: the tags are then made from their views.
        let items = native ? file.items : []
        let tags = file.tags.sorted { $0.key < $1.key }
        if tags.isEmpty { out.write("  no tags\n") }
        let widths = tags.map { Self.columns($0.key) }
        let width = widths.max() ?? 0
        for ((key, values), keyWidth) in zip(tags, widths) {
            for value in values.isEmpty ? [""] : values {
                out.write("  ")
                out.write(key)
                out.writeSpaces(width - keyWidth + 2)
                out.writeEscapingControls(value)
                out.write("\n")
            }
        }
        for picture in try file.pictureSummaries {
            out.write("  picture: ")
            out.write(picture.type.name)
            out.write(", ")
            out.write(picture.mimeType)
            out.write(", ")
            out.write(picture.size)
            out.write(" bytes")
            if !picture.description.isEmpty { out.write(", \""); out.writeEscapingControls(picture.description); out.write("\"") }
            out.write("\n")
        }
        for chapter in file.chapters {
            out.write("  chapter: \(chapter.start)" + (chapter.end.map { "-\($0)" } ?? "") + "  \(chapter.title.escapingControls)\n")
        }
        if native {
            out.write("  native items:\n")
            for item in items {
                let values = displayValues(item).map { $0.count > 80 ? String($0.prefix(77)) + "..." : $0 }.joined(separator: " | ").escapingControls
                out.write("    \(item.identifier)  [\(item.dataType)]" + (item.key.map { " \($0)" } ?? "") + "  \(values)\n")
            }
        }
        return out.string
    }

    /// The characters of a key as the listing aligns them (keys are nearly always printable
    /// ASCII, whose byte count is the character count; "\r\n" is two bytes and one character).
    static func columns(_ key: String) -> Int {
        key.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x80 } ? key.utf8.count : key.count
    }

    // MARK: - Export and import

    /// The version of the export document this code writes. Version 2 (2026-11-29) carries
    /// each picture's bytes once, in `pictures`, where a native item holding it refers to it;
    /// digests only when asked for. Version 1 documents (no `version` member) repeated every
    /// picture in its native item and always had digests; `importDocument` reads both.
    public static let exportVersion = 2

    /// The lossless document of `tagedit export` (version `exportVersion`): its `version`, the
    /// `show --json` members, the pictures with their bytes (and their SHA-256 with
    /// `digests`), and `native`: every writable item in a form that restores it exactly. A
    /// native item's bytes that end with a picture's bytes are written as
    /// `{"prefix": Base64 of the bytes before them, "picture": the picture's index}`, so every
    /// picture is in the document once. As with `writeJSON`, a file that fails part way throws
    /// with part of it written. `path` is the path the document names instead of the one the
    /// file was opened by (a backup names the absolute path).
    public static func writeExportDocument(_ file: MediaFile, path: String? = nil, digests: Bool = false, to writer: inout JSONWriter) throws(MetadataError) {
        writer.beginObject()
        writer.key("version")
        writer.int(exportVersion)
        let pictures = try file.pictureContents
        // Room for the pictures in memory, whose Base64 is most of the document, at once, and
        // for the rest (5-6 KB for a dozen tags: with 4 KiB the document outgrew its buffer
        // after the pictures and was copied whole).
        writer.reserveRoom(for: pictures.reduce(16 << 10) { $0 + Base64.encodedCount($1.contents.countInMemory) + 256 })
        try writeMembers(file, path: path, pictures: .data(pictures, digests: digests), to: &writer)
        // The bytes of a native item: Base64, or the part before a picture and the picture's index.
        func bytes(_ bytes: SplicedBytes) throws(MetadataError) {
            for index in pictures.indices where !pictures[index].contents.isEmpty {
                let picture = pictures[index].contents
                let holds: Bool
                do { holds = try bytes.hasSuffix(picture) } catch {
                    throw MetadataError(.io, path: file.path, message: "cannot read a picture: \(error)")
                }
                guard holds else { continue }
                writer.beginObject()
                writer.key("prefix")
                writer.base64(bytes.subrange(0..<bytes.count - picture.count))
                writer.key("picture")
                writer.int(index)
                writer.endObject()
                return
            }
            writer.base64(bytes)
        }
        // The forms the chapters are in (`qt`, `nero`, `id3`, `vorbis`), for a restore that
        // writes those and no other.
        let chapterForms = file.chapterLists.filter { !$0.chapters.isEmpty }.map(\.form.rawValue)
        if !chapterForms.isEmpty {
            writer.key("chapterForms")
            writer.beginArray()
            for form in chapterForms { writer.string(form) }
            writer.endArray()
        }
        writer.key("native")
        writer.beginArray()
        for item in try file.nativeItems() {
            writer.beginObject()
            writer.key("identifier")
            item.identifier.withDescriptionUTF8 { writer.string(utf8: $0) }
            switch item.data {
            case .itemValues(let values, let children):
                writer.key("values")
                writer.beginArray()
                for value in values {
                    writer.beginObject()
                    writer.key("typeSet")
                    writer.int(Int(value.typeSet))
                    writer.key("dataType")
                    writer.int(Int(value.typeIndicator))
                    writer.key("country")
                    writer.int(Int(value.country))
                    writer.key("language")
                    writer.int(Int(value.language))
                    writer.key("data")
                    try bytes(SplicedBytes(value.bytes))
                    writer.endObject()
                }
                writer.endArray()
                if !children.isEmpty {
                    writer.key("otherChildren")
                    writer.beginArray()
                    for child in children { writer.base64(child) }
                    writer.endArray()
                }
            case .userData(let payload):
                writer.key("payload")
                try bytes(SplicedBytes(payload))
            case .id3Frame(let version, let frame):
                writer.key("id3Version")
                writer.int(Int(version))
                writer.key("frame")
                try bytes(frame)
            case .text(let text):
                writer.key("text")
                writer.string(text)
            }
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
    }

    /// A document read back for `tagedit import`.
    public struct ImportDocument: Sendable {
        /// The file the document was exported from (`path`), which `import --paths` applies it to.
        public var path: String?
        public var format: String?
        public var tags: [(key: String, values: [String])]
        /// The custom keys of the document's source file, each with its native spelling: the
        /// keys of its `items` that are not uniform keys (a `TXXX:foo` is `FOO`, spelled `foo`),
        /// which `import` writes as custom items.
        public var customKeys: [String: String] = [:]
        public var native: [(identifier: MetadataIdentifier, data: NativeItemData)]?
        public var pictures: [MediaPicture]
        /// The document's `chapters`, when it has the member (an empty list: no chapters).
        public var chapters: [Chapter]?
        /// The forms the document's chapters were in (`chapterForms`), when it says.
        public var chapterForms: [ChapterForm]?
        /// True when the document's `items` list ID3v1 fields: its file had an ID3v1 tag (a
        /// mirror of the ID3v2 tag, so no native item), which a restore puts back.
        public var hasID3v1 = false
        /// Keys to remove (a table's empty cells).
        public var removals: [String] = []
        /// A row of a table: its keys are set as `tagedit set` sets them (the values a key has
        /// already change nothing), not imported as a migration.
        public var isTableRow = false
    }

    /// The rows of a table as `show --tsv` writes it, edited in a spreadsheet and saved as TSV
    /// or CSV (RFC 4180 quoting; told apart by a tab in the header line): a `path` column, then
    /// a column per key; a cell's values are separated by `; ` (as `show --tsv` joins them), an
    /// empty cell removes the key. TSV cells are unescaped as `show --tsv` escapes them (`\t`,
    /// `\n`, `\r`, `\\`, and `\; ` for a "; " within a value).
    public static func importTable(_ text: String) throws(ImportError) -> [ImportDocument] {
        let body = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        let firstLine = body.prefix { $0 != "\n" && $0 != "\r\n" }
        let isTSV = firstLine.contains("\t")
        let rows = isTSV ? tsvRows(body) : try csvRows(body)
        guard let header = rows.first?.cells, header.first?.lowercased() == "path", header.count > 1 else {
            throw ImportError(message: "a table starts with a header line: path, then a column per key")
        }
        let keys = Array(header.dropFirst())
        var documents: [ImportDocument] = []
        for row in rows.dropFirst() where !(row.cells.count == 1 && row.cells[0].isEmpty) {
            guard row.cells.count == header.count else {
                throw ImportError(message: "line \(row.line): \(row.cells.count) cells where the header has \(header.count)")
            }
            var document = ImportDocument(path: isTSV ? tsvUnescaped(row.cells[0][...]) : row.cells[0], format: nil, tags: [], native: nil, pictures: [])
            document.isTableRow = true
            for (key, cell) in zip(keys, row.cells.dropFirst()) {
                if cell.isEmpty {
                    document.removals.append(key)
                } else {
                    document.tags.append((key, isTSV ? tsvValues(cell) : cell.split(separator: "; ", omittingEmptySubsequences: false).map { String($0) }))
                }
            }
            documents.append(document)
        }
        return documents
    }

    /// Tab-separated rows, one a line, cells as written (`tsvUnescaped` and `tsvValues` read them).
    static func tsvRows(_ text: String) -> [(line: Int, cells: [String])] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            var line = Substring(line)
            if line.hasSuffix("\r") { line = line.dropLast() }
            guard !line.isEmpty else { return nil }
            return (index + 1, line.split(separator: "\t", omittingEmptySubsequences: false).map { String($0) })
        }
    }

    /// The values of a TSV cell as `tsvCell` writes them: split at each "; " that is not
    /// escaped, each part unescaped.
    static func tsvValues(_ cell: String) -> [String] {
        var values: [String] = []
        var start = cell.startIndex, index = cell.startIndex
        while index < cell.endIndex {
            let next = cell.index(after: index)
            if cell[index] == "\\" {
                index = next < cell.endIndex ? cell.index(after: next) : next
            } else if cell[index] == ";", next < cell.endIndex, cell[next] == " " {
                values.append(tsvUnescaped(cell[start..<index]))
                index = cell.index(after: next)
                start = index
            } else {
                index = next
            }
        }
        values.append(tsvUnescaped(cell[start...]))
        return values
    }

    static func tsvUnescaped(_ field: Substring) -> String {
        var out = ""
        var escaped = false
        for character in field {
            if escaped {
                switch character {
                case "t": out += "\t"
                case "n": out += "\n"
                case "r": out += "\r"
                default: out.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// Comma-separated rows (RFC 4180): a quoted cell may hold commas, line breaks and `""`.
    static func csvRows(_ text: String) throws(ImportError) -> [(line: Int, cells: [String])] {
        var rows: [(line: Int, cells: [String])] = []
        var cells: [String] = []
        var cell = ""
        var quoted = false, wasQuoted = false
        var line = 1, rowLine = 1
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func endRow() {
            cells.append(cell)
            if !(cells.count == 1 && cells[0].isEmpty && !wasQuoted) { rows.append((rowLine, cells)) }
            cells = []
            cell = ""
            wasQuoted = false
        }
        while let scalar = pending ?? scalars.next() {
            pending = nil
            if quoted {
                if scalar == "\"" {
                    if let next = scalars.next() {
                        if next == "\"" { cell.unicodeScalars.append("\"") } else { quoted = false; pending = next }
                    } else {
                        quoted = false
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    cell.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where cell.isEmpty:
                quoted = true
                wasQuoted = true
            case ",":
                cells.append(cell)
                cell = ""
            case "\r":
                continue
            case "\n":
                endRow()
                line += 1
                rowLine = line
            default:
                cell.unicodeScalars.append(scalar)
            }
        }
        if quoted { throw ImportError(message: "line \(rowLine): a quoted cell is not closed") }
        if !cell.isEmpty || !cells.isEmpty || wasQuoted { endRow() }
        return rows
    }

    public struct ImportError: Error, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Reads an export document (or a hand-written one holding only `tags`).
    /// The documents of `json`: one export document, or an array of them as `export -r`
    /// writes it (its `{path, error}` entries, files that could not be read, are passed over).
    public static func importDocuments(_ json: JSONValue) throws(ImportError) -> [ImportDocument] {
        guard let list = json.arrayValue else { return [try importDocument(json)] }
        var documents: [ImportDocument] = []
        for (index, element) in list.enumerated() where element["error"] == nil {
            do { documents.append(try importDocument(element)) } catch { throw ImportError(message: "document \(index + 1): \(error.message)") }
        }
        return documents
    }

    public static func importDocument(_ json: JSONValue) throws(ImportError) -> ImportDocument {
        guard case .object = json else { throw ImportError(message: "the document is not a JSON object") }
        if let version = json["version"] {
            // Version 1 has no member; a later one may mean what this code cannot read.
            guard let number = version.intValue, (1...Int64(exportVersion)).contains(number) else {
                throw ImportError(message: "version: this tagedit reads export documents of versions 1 to \(exportVersion), not \(version.intValue.map(String.init) ?? "that")")
            }
        }
        var path = json["path"]?.stringValue
        if let encoded = json["pathBytes"] {
            guard let bytes = encoded.stringValue.flatMap(Base64.decode), !bytes.isEmpty else {
                throw ImportError(message: "pathBytes: expected a file name's bytes in Base64")
            }
            path = PathBytes.string(bytes)
        }
        var document = ImportDocument(path: path, format: json["format"]?.stringValue, tags: [], native: nil, pictures: [])
        if let tags = json["tags"], tags.objectMembers == nil { throw ImportError(message: "tags: expected an object of KEY: [values]") }
        for (key, value) in json["tags"]?.objectMembers ?? [] {
            if let text = value.stringValue {
                document.tags.append((key, [text]))
            } else if let list = value.arrayValue, list.allSatisfy({ $0.stringValue != nil }) {
                document.tags.append((key, list.compactMap(\.stringValue)))
            } else {
                throw ImportError(message: "tags.\(key): expected a string or a list of strings")
            }
        }
        // The source's custom items: a key outside the table held by a TXXX frame, an iTunes
        // freeform item or an APE item.
        for item in json["items"]?.arrayValue ?? [] {
            if item["keySpace"]?.stringValue == MetadataIdentifier.KeySpace.id3v1.rawValue { document.hasID3v1 = true }
            guard let key = item["key"]?.stringValue, MetadataKeyTable.definition(key) == nil,
                let text = item["identifier"]?.stringValue, let identifier = MetadataIdentifier(parsing: text)
            else { continue }
            let name: String? = switch identifier.keySpace {
            case .id3 where identifier.id3Parts.frame == "TXXX": identifier.id3Parts.qualifier
            case .iTunesLong: identifier.freeformParts?.name
            default: nil
            }
            if let name { document.customKeys[key.uppercased()] = name }
        }
        if let chapters = json["chapters"] {
            guard let items = chapters.arrayValue else { throw ImportError(message: "chapters: expected a list") }
            do {
                document.chapters = try ChapterFileFormat.chapters(in: items)
            } catch {
                throw ImportError(message: "chapters: \(error.description)")
            }
        }
        if let forms = json["chapterForms"] {
            guard let list = forms.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else { throw ImportError(message: "chapterForms: expected a list of forms (qt, nero, id3, vorbis)") }
            document.chapterForms = list.compactMap(\.stringValue).map(ChapterForm.init(rawValue:))
        }
        if let native = json["native"], native.arrayValue == nil { throw ImportError(message: "native: expected a list") }
        if let pictures = json["pictures"], pictures.arrayValue == nil { throw ImportError(message: "pictures: expected a list") }
        for (index, entry) in (json["pictures"]?.arrayValue ?? []).enumerated() {
            guard let text = entry["data"]?.stringValue, let data = Base64.decode(text) else {
                throw ImportError(message: "pictures[\(index)].data: expected the picture as Base64")
            }
            var type = PictureType.frontCover
            if let name = entry["type"] {
                guard let parsed = name.stringValue.flatMap(PictureType.init(named:)) ?? name.intValue.flatMap(UInt8.init(exactly:)).map(PictureType.init(rawValue:)) else {
                    throw ImportError(message: "pictures[\(index)].type: expected a picture type (front-cover, ...) or 0-255")
                }
                type = parsed
            }
            guard let mime = entry["mimeType"]?.stringValue ?? MediaPicture.mimeType(sniffing: data) else {
                throw ImportError(message: "pictures[\(index)]: no mimeType")
            }
            document.pictures.append(MediaPicture(type: type, mimeType: mime, description: entry["description"]?.stringValue ?? "", data: data))
        }
        if let native = json["native"]?.arrayValue {
            var items: [(MetadataIdentifier, NativeItemData)] = []
            for (index, entry) in native.enumerated() {
                guard let text = entry["identifier"]?.stringValue, let identifier = MetadataIdentifier(parsing: text) else {
                    throw ImportError(message: "native[\(index)]: missing or bad identifier")
                }
                // Base64, or (version 2) the bytes before a picture and the picture's index.
                func bytes(_ value: JSONValue?, _ what: String) throws(ImportError) -> [UInt8] {
                    if let value, value.objectMembers != nil {
                        guard let picture = value["picture"]?.intValue.flatMap(Int.init(exactly:)), document.pictures.indices.contains(picture) else {
                            throw ImportError(message: "native[\(index)].\(what).picture: expected the index of one of the \(document.pictures.count) pictures")
                        }
                        var prefix: [UInt8] = []
                        if let member = value["prefix"] {
                            guard let text = member.stringValue, let decoded = Base64.decode(text) else {
                                throw ImportError(message: "native[\(index)].\(what).prefix: expected Base64")
                            }
                            prefix = decoded
                        }
                        return prefix + document.pictures[picture].data
                    }
                    guard let text = value?.stringValue, let data = Base64.decode(text) else { throw ImportError(message: "native[\(index)].\(what): expected Base64") }
                    return data
                }
                if let values = entry["values"]?.arrayValue {
                    var itemValues: [NativeItemValue] = []
                    for value in values {
                        let data = try bytes(value["data"], "values.data")
                        itemValues.append(NativeItemValue(typeIndicator: UInt32(clamping: value["dataType"]?.intValue ?? 0), data: data,
                                                    typeSet: UInt8(clamping: value["typeSet"]?.intValue ?? 0), country: UInt16(clamping: value["country"]?.intValue ?? 0),
                                                    language: UInt16(clamping: value["language"]?.intValue ?? 0)))
                    }
                    var children: [[UInt8]] = []
                    for child in entry["otherChildren"]?.arrayValue ?? [] { children.append(try bytes(child, "otherChildren")) }
                    items.append((identifier, .itemValues(itemValues, otherChildren: children)))
                } else if entry["payload"] != nil {
                    items.append((identifier, .userData(try bytes(entry["payload"], "payload"))))
                } else if entry["frame"] != nil {
                    items.append((identifier, .id3Frame(version: UInt8(clamping: entry["id3Version"]?.intValue ?? 4), bytes: SplicedBytes(try bytes(entry["frame"], "frame")))))
                } else if let text = entry["text"] {
                    guard let text = text.stringValue else { throw ImportError(message: "native[\(index)].text: expected a string") }
                    items.append((identifier, .text(text)))
                } else {
                    throw ImportError(message: "native[\(index)]: expected values, payload, frame or text")
                }
            }
            document.native = items.map { ($0.0, $0.1) }
        }
        return document
    }
}

extension String {
    init(format2 value: Int) { self = value < 10 ? "0\(value)" : "\(value)" }

}

/// Text written as UTF-8 bytes and made into one `String` at the end: a listing appends dozens
/// of pieces per file, and appending to a `String` costs several times more per piece than
/// copying bytes.
struct TextBuffer {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    var string: String { String(decoding: bytes, as: UTF8.self) }

    mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func write(_ value: Int) { write(String(value)) }

    mutating func writeSpaces(_ count: Int) {
        if count > 0 { bytes.append(contentsOf: repeatElement(0x20, count: count)) }
    }

    /// `text` on one line, with nothing a terminal acts on (`TerminalText`).
    mutating func writeEscapingControls(_ text: String) { TerminalText.append(text, to: &bytes) }
}

extension ToolExitCode {
    /// The code for a failure of the metadata layer.
    public static func code(for error: MetadataError) -> Int32 {
        let code: ToolExitCode = switch error.code {
        case .unknownKey, .badValue, .notRepresentable: .badInput
        case .fileNotFound: .notFound
        case .unsupportedFormat: .unsupportedFormat
        case .malformed, .notWritable: .malformed
        case .permissionDenied: .permissionDenied
        case .locked: .locked
        default: .ioError
        }
        return code.rawValue
    }
}
