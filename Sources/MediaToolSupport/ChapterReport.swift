import MediaMetadata
import MediaBytes

/// Chapters as the tools print them: JSON members, and the chapter-file formats people
/// exchange (mp4chaps text, ffmpeg's ffmetadata, this project's JSON, Podlove Simple Chapters,
/// Podcasting 2.0 JSON chapters).
public enum ChapterReport {
    /// One chapter: `start`/`end` in decimal seconds, `title`, and `subtitle`, `url`, `image`
    /// where it has them (`image`: `url` for a linked picture, else `mimeType`, `size`, `sha256`).
    public static func json(_ chapter: Chapter) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("start", .double(chapter.start.seconds)), ("end", chapter.end.map { .double($0.seconds) } ?? .null), ("title", .string(chapter.title)),
        ]
        if let subtitle = chapter.subtitle { members.append(("subtitle", .string(subtitle))) }
        if let url = chapter.url { members.append(("url", .string(url))) }
        if let image = chapter.image {
            // A linked picture gives its URL; image bytes their type, size and digest.
            members.append(("image", .object(image.linkedURL.map { [("url", .string($0))] }
                ?? [("mimeType", .string(image.mimeType)), ("size", .int(Int64(image.data.count))), ("sha256", .string(PictureDigest.sha256Hex(image.data)))])))
        }
        return .object(members)
    }

    /// The `chapters list --json` entry of one file: its path, the chapters of the chosen form
    /// (or of every form with `form: nil` and `all`), the forms it has with the players that
    /// read each, and the notes.
    public static func listJSON(path: String, lists: [ChapterList], shown: ChapterList?) -> JSONValue {
        .object([
            ("path", .string(PathBytes.display(path))),
            ("form", shown.map { .string($0.form.rawValue) } ?? .null),
            ("chapters", .array((shown?.chapters ?? []).map(json))),
            ("forms", .array(lists.map { list in
                .object([("form", .string(list.form.rawValue)), ("name", .string(list.form.name)), ("readers", .string(list.form.readers)),
                         ("count", .int(Int64(list.chapters.count)))])
            })),
            ("notes", .array(withNotesOf(shown.map { [$0] } ?? [], lists).flatMap { list in list.notes.map { .string("\(list.form.rawValue): \($0)") } })),
        ])
    }

    /// `lists`, each replaced by the shown list of its form (which may carry a note of its own,
    /// such as the form players passed over to reach it).
    static func withNotesOf(_ shown: [ChapterList], _ lists: [ChapterList]) -> [ChapterList] {
        lists.map { list in shown.first { $0.form == list.form } ?? list }
    }
}

extension ChapterReport {
    /// `chapters list` for people: the shown lists, chapter by chapter, then every form the
    /// file has with the players that read it, then the notes.
    public static func text(path: String, lists: [ChapterList], shown: [ChapterList]) -> String {
        var out = "\(path):\n"
        if lists.isEmpty { return out + "  no chapters\n" }
        for list in shown {
            out += "  \(list.form.name): \(list.chapters.count) chapters\n"
            for (index, chapter) in list.chapters.enumerated() {
                out += "    \(index + 1)  \(chapter.start)" + (chapter.end.map { "-\($0)" } ?? "") + "  \(chapter.title.escapingControls)\n"
            }
        }
        for list in lists {
            out += "  form \(list.form.rawValue): \(list.chapters.count) chapters, read by \(list.form.readers)\n"
        }
        for list in withNotesOf(shown, lists) {
            for note in list.notes { out += "  note (\(list.form.rawValue)): \(note)\n" }
        }
        return out
    }
}

/// A chapter-file format that `tagedit chapters export` writes.
public struct ChapterFileFormat: RawRepresentable, Sendable, Hashable, CaseIterable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// mp4v2's `mp4chaps` text: `HH:MM:SS.mmm Title`, one chapter a line.
    public static let mp4chaps = ChapterFileFormat(rawValue: "mp4chaps")
    /// ffmpeg's `;FFMETADATA1` with `[CHAPTER]` sections.
    public static let ffmetadata = ChapterFileFormat(rawValue: "ffmetadata")
    /// This project's JSON: the `chapters list --json` object of one file.
    public static let json = ChapterFileFormat(rawValue: "json")
    /// Podlove Simple Chapters (XML, `psc:chapters`).
    public static let podlove = ChapterFileFormat(rawValue: "podlove")
    /// Podcasting 2.0 JSON chapters (`version` 1.2.0, `chapters` with `startTime`).
    public static let podcastJSON = ChapterFileFormat(rawValue: "podcast-json")

    /// The OGM (mkvmerge simple) format: `CHAPTER01=00:00:00.000` and `CHAPTER01NAME=Title`.
    public static let ogm = ChapterFileFormat(rawValue: "ogm")

    public static let allCases: [ChapterFileFormat] = [.mp4chaps, .ffmetadata, .json, .podlove, .podcastJSON, .ogm]

    /// `chapters` of the file at `path` in this format.
    public func render(_ chapters: [Chapter], path: String, lists: [ChapterList]) -> String {
        switch self {
        case .mp4chaps:
            return chapters.map { "\($0.start) " + Self.mp4chapsTitle($0.title) + "\n" }.joined()
        case .ffmetadata:
            var text = ";FFMETADATA1\n"
            for chapter in chapters {
                // The chapter's own timescale, so that the times stay exact.
                let scale = chapter.start.timescale
                text += "\n[CHAPTER]\nTIMEBASE=1/\(scale)\nSTART=\(chapter.start.value)\n"
                if let end = chapter.end { text += "END=\(end.converted(to: scale))\n" }
                text += "title=\(Self.ffmetadataEscaped(chapter.title))\n"
            }
            return text
        case .json:
            return ChapterReport.listJSON(path: path, lists: lists, shown: ChapterList(form: lists.first?.form ?? .quickTime, chapters: chapters)).serialized() + "\n"
        case .podlove:
            var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<psc:chapters version=\"1.2\" xmlns:psc=\"http://podlove.org/simple-chapters\">\n"
            for chapter in chapters {
                text += "  <psc:chapter start=\"\(chapter.start)\" title=\"\(Self.xmlEscaped(chapter.title))\""
                if let url = chapter.url { text += " href=\"\(Self.xmlEscaped(url))\"" }
                if let image = chapter.image?.linkedURL { text += " image=\"\(Self.xmlEscaped(image))\"" }
                text += "/>\n"
            }
            return text + "</psc:chapters>\n"
        case .podcastJSON:
            let items = chapters.map { chapter -> JSONValue in
                var members: [(String, JSONValue)] = [("startTime", .double(chapter.start.seconds))]
                if let end = chapter.end { members.append(("endTime", .double(end.seconds))) }
                members.append(("title", .string(chapter.title)))
                if let image = chapter.image?.linkedURL { members.append(("img", .string(image))) }
                if let url = chapter.url { members.append(("url", .string(url))) }
                return .object(members)
            }
            return JSONValue.object([("version", .string("1.2.0")), ("chapters", .array(items))]).serialized() + "\n"
        case .ogm:
            // Two digits at least, as mkvmerge numbers them; no escapes (as in mp4chaps).
            let digits = max(2, String(chapters.count).count)
            return chapters.enumerated().map { index, chapter in
                let number = String(index + 1)
                let label = "CHAPTER" + String(repeating: "0", count: digits - number.count) + number
                return "\(label)=\(chapter.start)\n\(label)NAME=\(Self.mp4chapsTitle(chapter.title))\n"
            }.joined()
        default:
            return ""
        }
    }

    /// A title as an mp4chaps line can hold it. The format has no escapes, and its reader (this
    /// package's, and mp4v2's) ends a line at every character Unicode calls a line break (LF,
    /// CR, VT, FF, NEL, U+2028, U+2029): each becomes a space, so a title can never start a
    /// line of its own (a chapter at a time the title's author chose). (The reader also drops
    /// the spaces and tabs between the time and the title, so leading ones do not come back.)
    static func mp4chapsTitle(_ title: String) -> String {
        String(String.UnicodeScalarView(title.unicodeScalars.map { Character($0).isNewline ? " " : $0 }))
    }

    /// ffmetadata escapes `=`, `;`, `#`, `\` and line breaks with a backslash. Scalar by
    /// scalar: CR LF is one `Character`, and both of its halves need the escape (ffmpeg's
    /// reader and this package's end a line at either).
    static func ffmetadataEscaped(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if "=;#\\\n\r".unicodeScalars.contains(scalar) { out.append("\\") }
            out.append(scalar)
        }
        return String(out)
    }

    /// Attribute text: the page escaper's entities (matched on bytes), line breaks and tabs as
    /// character references (an XML reader turns them into spaces otherwise), control
    /// characters XML 1.0 cannot hold as U+FFFD, and a scalar that would join the markup
    /// next to it into one Character (a combining mark after the opening quote or an entity,
    /// a prepended mark before the closing quote or an entity) as a character reference, so a
    /// reader going Character by Character sees the markup too.
    static func xmlEscaped(_ text: String) -> String {
        enum Token { case text(Unicode.Scalar), markup(String) }
        var tokens: [Token] = text.unicodeScalars.map { scalar in
            switch scalar {
            case "&": .markup("&amp;")
            case "<": .markup("&lt;")
            case ">": .markup("&gt;")
            case "\"": .markup("&quot;")
            case "\n", "\r", "\t": .markup("&#\(scalar.value);")
            default: scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF ? .text("\u{FFFD}") : .text(scalar)
            }
        }
        // A scalar that would join markup beside it (the quotes around the value count) into one
        // Character becomes a reference, which is markup too: repeat until none is left.
        func isMarkup(_ index: Int) -> Bool {
            guard tokens.indices.contains(index), case .text = tokens[index] else { return true }
            return false
        }
        var changed = true
        while changed {
            changed = false
            for index in tokens.indices {
                guard case .text(let scalar) = tokens[index] else { continue }
                if (isMarkup(index - 1) && ("a" + String(scalar)).count == 1) || (isMarkup(index + 1) && (String(scalar) + "a").count == 1) {
                    tokens[index] = .markup("&#\(scalar.value);")
                    changed = true
                }
            }
        }
        var out = ""
        for token in tokens {
            switch token {
            case .text(let scalar): out.unicodeScalars.append(scalar)
            case .markup(let text): out += text
            }
        }
        return out
    }
}
