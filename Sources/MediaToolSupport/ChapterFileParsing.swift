import MediaMetadata

/// A chapter file that does not read: where (a 1-based line) and what.
public struct ChapterFileError: Error, Sendable, CustomStringConvertible {
    public var line: Int?
    public var message: String

    public init(line: Int?, _ message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { (line.map { "line \($0): " } ?? "") + message }
}

extension ChapterFileFormat {
    /// The format of chapter-file text, from its first characters: `;FFMETADATA1` is ffmetadata,
    /// `<` Podlove XML, a JSON object with `startTime` members Podcasting 2.0, other JSON this
    /// project's, anything else mp4chaps.
    public static func detect(_ text: String) -> ChapterFileFormat {
        let start = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if start.hasPrefix(";FFMETADATA") { return .ffmetadata }
        if start.hasPrefix("<") { return .podlove }
        if start.hasPrefix("{") || start.hasPrefix("[") { return text.contains("\"startTime\"") ? .podcastJSON : .json }
        if start.prefix(7).uppercased() == "CHAPTER", start.dropFirst(7).first?.isNumber == true { return .ogm }
        return .mp4chaps
    }

    /// The chapters in `text`, in file order.
    ///
    /// - Throws: `ChapterFileError` naming the line of the first thing that does not read.
    public func parse(_ text: String) throws(ChapterFileError) -> [Chapter] {
        let chapters: [Chapter]
        switch self {
        case .mp4chaps: chapters = try Self.parseMP4Chaps(text)
        case .ffmetadata: chapters = try Self.parseFFMetadata(text)
        case .json, .podcastJSON: chapters = try Self.parseJSON(text, podcast: self == .podcastJSON)
        case .podlove: chapters = try Self.parsePodlove(text)
        case .ogm: chapters = try Self.parseOGM(text)
        default: throw ChapterFileError(line: nil, "\(rawValue) is not a chapter file format this tool reads")
        }
        guard !chapters.isEmpty else { throw ChapterFileError(line: nil, "the \(rawValue) file lists no chapters") }
        return chapters
    }

    /// What a chapter file of this format says that chapters here do not keep (a chapter holds
    /// a start, an end, a title, a subtitle, a URL and an image, bytes or a link):
    /// Podcasting 2.0's `location` and `toc: false`. One sentence each, for a note; empty when
    /// nothing is dropped. (An image URL, Podcasting 2.0's `img` or Podlove's `image`, is kept
    /// as a linked picture; a form that holds no images says so when it is written.)
    public func unkept(in text: String) -> [String] {
        var counts: [(String, Int)] = []
        switch self {
        case .podcastJSON:
            guard let items = (try? JSONValue.parse(text))?["chapters"]?.arrayValue else { return [] }
            counts = [
                ("location", items.filter { $0["location"] != nil }.count),
                ("toc: false (hidden from the table of contents)", items.filter { $0["toc"] == .bool(false) }.count),
            ]
        default:
            return []
        }
        return counts.filter { $0.1 > 0 }.map { name, count in
            "\(count) chapter\(count == 1 ? "'s" : "s'") \(name) not kept: a chapter here holds its times, title, subtitle, URL and image"
        }
    }

    /// A time as chapter files write it: `H:MM:SS.fff`, `MM:SS.fff` or seconds `SS.fff`, the
    /// fraction kept exactly (up to nine digits).
    static func parseTime(_ text: Substring) -> ChapterTime? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        func number(_ digits: Substring, below limit: UInt64) -> UInt64? {
            guard !digits.isEmpty, digits.count <= 12, digits.allSatisfy(\.isASCIIDigit), let value = UInt64(digits), value < limit else { return nil }
            return value
        }
        let last = parts.last!.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        var seconds: UInt64 = 0
        for (index, part) in parts.dropLast().enumerated() {
            guard let value = number(part, below: index == 0 ? 1_000_000 : 60) else { return nil }
            seconds = seconds * 60 + value
        }
        guard let whole = number(last[0], below: parts.count > 1 ? 60 : 1 << 40) else { return nil }
        seconds = seconds * 60 * (parts.count > 1 ? 1 : 0) + whole
        var fraction: UInt64 = 0
        var scale: UInt64 = 1
        if last.count == 2 {
            guard last[1].count <= 9, let digits = number(last[1], below: 1_000_000_000) else { return nil }
            fraction = digits
            scale = (0..<last[1].count).reduce(1) { r, _ in r * 10 }
        }
        let timescale = max(scale, 1000)
        return ChapterTime(seconds * timescale + fraction * (timescale / scale), timescale: UInt32(timescale))
    }

    /// mp4v2's `mp4chaps` text: `TIME TITLE` a line; blank lines and `#` comments skipped.
    static func parseMP4Chaps(_ text: String) throws(ChapterFileError) -> [Chapter] {
        var chapters: [Chapter] = []
        // Lines end at LF, CR LF (one Character) or CR.
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            // Scalar by scalar: a title that starts with a combining mark must not join the
            // space before it (as one Character it would, and the time would not end there).
            let trimmed = line.unicodeScalars.drop { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" }
            if trimmed.isEmpty || trimmed.first == "#" { continue }
            let time = Substring(trimmed.prefix { $0 != " " && $0 != "\t" })
            guard let start = parseTime(time) else {
                throw ChapterFileError(line: index + 1, "\"\(time)\" is not a time (HH:MM:SS.mmm)")
            }
            let title = trimmed.dropFirst(time.unicodeScalars.count).drop { $0 == " " || $0 == "\t" }
            chapters.append(Chapter(start: start, title: String(Substring(title))))
        }
        return chapters
    }

    /// The OGM (mkvmerge simple) format: `CHAPTERnn=HH:MM:SS.mmm` and `CHAPTERnnNAME=Title`
    /// lines, paired by their number (names matched without regard to case), in number order.
    static func parseOGM(_ text: String) throws(ChapterFileError) -> [Chapter] {
        var starts: [Int: ChapterTime] = [:]
        var names: [Int: String] = [:]
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            // Scalar by scalar: a title that starts with a combining mark must not join the `=`
            // before it (as one Character it would, and the key would not end there).
            let trimmed = line.unicodeScalars.drop { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" }
            if trimmed.isEmpty || trimmed.first == "#" { continue }
            guard let equals = trimmed.firstIndex(of: "="), String(String.UnicodeScalarView(trimmed.prefix(7))).uppercased() == "CHAPTER" else {
                throw ChapterFileError(line: index + 1, "expected CHAPTERnn=time or CHAPTERnnNAME=title")
            }
            let key = String(String.UnicodeScalarView(trimmed[trimmed.index(trimmed.startIndex, offsetBy: 7)..<equals]))
            let digits = key.prefix { $0.isASCII && $0.isNumber }
            guard let number = Int(digits) else { throw ChapterFileError(line: index + 1, "\"CHAPTER\(key)\" has no chapter number") }
            let value = String(String.UnicodeScalarView(trimmed[trimmed.index(after: equals)...]))
            switch key.dropFirst(digits.count).uppercased() {
            case "":
                guard let time = parseTime(Substring(value).drop { $0 == " " }) else { throw ChapterFileError(line: index + 1, "\"\(value)\" is not a time (HH:MM:SS.mmm)") }
                starts[number] = time
            case "NAME":
                names[number] = value
            default:
                throw ChapterFileError(line: index + 1, "\"CHAPTER\(key)\" is not CHAPTERnn or CHAPTERnnNAME")
            }
        }
        if let number = names.keys.sorted().first(where: { starts[$0] == nil }) {
            throw ChapterFileError(line: nil, "CHAPTER\(number)NAME has no CHAPTER\(number) time")
        }
        return starts.keys.sorted().map { Chapter(start: starts[$0]!, title: names[$0] ?? "") }
    }

    /// ffmpeg's metadata file: `;FFMETADATA1`, then `[CHAPTER]` sections with `TIMEBASE`,
    /// `START`, `END` and `title`; backslash escapes, a backslash at a line's end continuing it.
    static func parseFFMetadata(_ text: String) throws(ChapterFileError) -> [Chapter] {
        // Logical lines: an escaped line break joins two physical ones. Scalar by scalar, as
        // ffmpeg reads bytes: a combining mark after '=' or '\\' must not hide either (as one
        // Character it would), and CR LF ends a line like LF.
        var lines: [(number: Int, text: String)] = []
        var current = String.UnicodeScalarView()
        var startLine = 1
        var lineNumber = 1
        var escaped = false
        var scalars = text.unicodeScalars.makeIterator()
        var next = scalars.next()
        while let scalar = next {
            next = scalars.next()
            if escaped {
                current.append("\\")
                current.append(scalar)
                escaped = false
                if scalar == "\n" { lineNumber += 1 }
                continue
            }
            if scalar == "\\" { escaped = true; continue }
            if scalar == "\r" && next == "\n" { continue }
            if scalar == "\n" {
                lines.append((startLine, String(current)))
                current = String.UnicodeScalarView()
                lineNumber += 1
                startLine = lineNumber
                continue
            }
            current.append(scalar)
        }
        if !current.isEmpty { lines.append((startLine, String(current))) }
        guard let header = lines.first, header.text.hasPrefix(";FFMETADATA") else {
            throw ChapterFileError(line: 1, "an ffmetadata file starts with \";FFMETADATA1\"")
        }
        func unescaped(_ value: Substring.UnicodeScalarView) -> String {
            var out = String.UnicodeScalarView()
            var pending = false
            for scalar in value {
                if pending { out.append(scalar); pending = false } else if scalar == "\\" { pending = true } else { out.append(scalar) }
            }
            return String(out)
        }
        struct Section { var line: Int; var timebase: (UInt64, UInt64) = (1, 1_000_000_000); var start: UInt64?; var end: UInt64?; var title = "" }
        var sections: [Section] = []
        var inChapter = false
        for (number, line) in lines.dropFirst() {
            if line.isEmpty || line.hasPrefix(";") || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                inChapter = line == "[CHAPTER]"
                if inChapter { sections.append(Section(line: number)) }
                continue
            }
            guard inChapter else { continue }
            // The key ends at the first '=' that is not escaped.
            var keyScalars = String.UnicodeScalarView()
            var rest = Substring(line).unicodeScalars
            var pending = false
            var found = false
            for (offset, scalar) in line.unicodeScalars.enumerated() {
                if pending { keyScalars.append(scalar); pending = false; continue }
                if scalar == "\\" { pending = true; continue }
                if scalar == "=" { rest = Substring(line).unicodeScalars.dropFirst(offset + 1); found = true; break }
                keyScalars.append(scalar)
            }
            let key = String(keyScalars)
            guard found else { throw ChapterFileError(line: number, "\"\(line)\" is not KEY=VALUE") }
            let value = unescaped(rest)
            switch key.uppercased() {
            case "TIMEBASE":
                let parts = value.split(separator: "/")
                guard parts.count == 2, let num = UInt64(parts[0]), let den = UInt64(parts[1]), num > 0, den > 0, den <= UInt64(UInt32.max), num <= 1_000_000 else {
                    throw ChapterFileError(line: number, "TIMEBASE \"\(value)\" is not a fraction such as 1/1000")
                }
                sections[sections.count - 1].timebase = (num, den)
            case "START", "END":
                guard let time = UInt64(value), time < 1 << 52 else { throw ChapterFileError(line: number, "\(key) \"\(value)\" is not a whole number of time-base units") }
                if key.uppercased() == "START" { sections[sections.count - 1].start = time } else { sections[sections.count - 1].end = time }
            case "TITLE":
                sections[sections.count - 1].title = value
            default:
                break
            }
        }
        return try sections.map { (section: Section) throws(ChapterFileError) -> Chapter in
            guard let start = section.start else { throw ChapterFileError(line: section.line, "the [CHAPTER] has no START") }
            let (num, den) = section.timebase
            let end = section.end.map { ChapterTime($0 * num, timescale: UInt32(den)) }
            return Chapter(start: ChapterTime(start * num, timescale: UInt32(den)), end: end, title: section.title)
        }
    }

    /// This project's JSON (`chapters list --json` or `export --format json`: an object with
    /// `chapters`, or an array of such objects, of which the first is taken) or Podcasting 2.0
    /// JSON (`chapters` with `startTime`); times in decimal seconds.
    static func parseJSON(_ text: String, podcast: Bool) throws(ChapterFileError) -> [Chapter] {
        let value: JSONValue
        do {
            value = try JSONValue.parse(text)
        } catch {
            throw ChapterFileError(line: line(ofByte: error.offset, in: text), error.message)
        }
        var root = value
        if let array = value.arrayValue {
            guard let first = array.first else { throw ChapterFileError(line: nil, "the JSON array is empty") }
            root = first.objectMembers != nil && first["chapters"] != nil ? first : .object([("chapters", value)])
        }
        guard let items = root["chapters"]?.arrayValue else {
            throw ChapterFileError(line: nil, "the JSON has no \"chapters\" array")
        }
        return try chapters(in: items, podcast: podcast)
    }

    /// The chapters of a JSON `chapters` array (`start`/`end` or, for Podcasting 2.0,
    /// `startTime`/`endTime` in decimal seconds; `title`, `subtitle`, `url`).
    public static func chapters(in items: [JSONValue], podcast: Bool = false) throws(ChapterFileError) -> [Chapter] {
        let startKey = podcast ? "startTime" : "start"
        let endKey = podcast ? "endTime" : "end"
        return try items.enumerated().map { (index: Int, item: JSONValue) throws(ChapterFileError) -> Chapter in
            guard let start = item[startKey].flatMap(seconds) else {
                throw ChapterFileError(line: nil, "chapter \(index + 1) has no \"\(startKey)\" in seconds")
            }
            var chapter = Chapter(start: start, end: item[endKey].flatMap(seconds), title: item["title"]?.stringValue ?? "")
            chapter.subtitle = item["subtitle"]?.stringValue
            chapter.url = item["url"]?.stringValue
            // An image URL (Podcasting 2.0's `img`, or this project's `image.url`): a linked picture.
            if let url = (podcast ? item["img"] : item["image"]?["url"])?.stringValue, !url.isEmpty { chapter.image = .link(to: url) }
            return chapter
        }
    }

    /// A number of seconds as an exact time in milliseconds (microseconds when finer).
    private static func seconds(_ value: JSONValue) -> ChapterTime? {
        let number: Double
        switch value {
        case .int(let v): number = Double(v)
        case .uint(let v): number = Double(v)
        case .double(let v): number = v
        default: return nil
        }
        guard number.isFinite, number >= 0, number < 1e12 else { return nil }
        let millis = (number * 1000).rounded()
        if abs(millis - number * 1000) < 1e-6 { return .milliseconds(UInt64(millis)) }
        return ChapterTime(UInt64((number * 1_000_000).rounded()), timescale: 1_000_000)
    }

    /// Podlove Simple Chapters: `<psc:chapter start="..." title="..." href="..." image="..."/>`
    /// elements (any namespace prefix), times in normal play time; `image` is a linked picture.
    static func parsePodlove(_ text: String) throws(ChapterFileError) -> [Chapter] {
        guard text.contains("chapters") else { throw ChapterFileError(line: 1, "not a Podlove Simple Chapters document (no chapters element)") }
        var chapters: [Chapter] = []
        var rest = Substring(text)
        while let open = rest.firstRange(of: "<") {
            let afterOpen = rest[open.upperBound...]
            guard let close = afterOpen.firstIndex(of: ">") else {
                throw ChapterFileError(line: line(of: open.lowerBound, in: text), "an element is not closed")
            }
            let element = afterOpen[..<close]
            rest = afterOpen[afterOpen.index(after: close)...]
            let name = element.prefix { !$0.isWhitespace && $0 != "/" }
            guard name == "chapter" || name.hasSuffix(":chapter") else { continue }
            let attributes = try attributes(of: element.dropFirst(name.count), line: line(of: open.lowerBound, in: text))
            let at = line(of: open.lowerBound, in: text)
            guard let startText = attributes["start"], let start = parseTime(Substring(startText)) else {
                throw ChapterFileError(line: at, "the chapter has no start time (HH:MM:SS.mmm)")
            }
            var chapter = Chapter(start: start, title: attributes["title"] ?? "")
            chapter.url = attributes["href"]
            if let image = attributes["image"], !image.isEmpty { chapter.image = .link(to: image) }
            chapters.append(chapter)
        }
        return chapters
    }

    private static func attributes(of text: Substring, line: Int) throws(ChapterFileError) -> [String: String] {
        var result: [String: String] = [:]
        var rest = text
        while true {
            rest = rest.drop { $0.isWhitespace || $0 == "/" }
            guard !rest.isEmpty else { return result }
            let name = rest.prefix { $0 != "=" && !$0.isWhitespace }
            rest = rest.dropFirst(name.count).drop(while: \.isWhitespace)
            guard rest.first == "=" else { throw ChapterFileError(line: line, "attribute \(name) has no value") }
            rest = rest.dropFirst().drop(while: \.isWhitespace)
            guard let quote = rest.first, quote == "\"" || quote == "'" else { throw ChapterFileError(line: line, "attribute \(name) is not quoted") }
            rest = rest.dropFirst()
            guard let end = rest.firstIndex(of: quote) else { throw ChapterFileError(line: line, "attribute \(name) is not closed") }
            result[String(name)] = xmlUnescaped(rest[..<end])
            rest = rest[rest.index(after: end)...]
        }
    }

    /// XML character and entity references replaced.
    static func xmlUnescaped(_ text: Substring) -> String {
        // Scalar by scalar: a mark before '&' or after ';' would hide either inside one Character.
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        let named: [String: Unicode.Scalar] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            guard scalar == "&", let semi = scalars[index...].prefix(10).firstIndex(of: ";") else {
                out.append(scalar)
                continue
            }
            let name = String(String.UnicodeScalarView(scalars[index..<semi]))
            var value: Unicode.Scalar? = named[name]
            if value == nil, name.hasPrefix("#") {
                let code = name.hasPrefix("#x") || name.hasPrefix("#X") ? UInt32(name.dropFirst(2), radix: 16) : UInt32(name.dropFirst())
                value = code.flatMap(Unicode.Scalar.init)
            }
            guard let value else {
                out.append(scalar)
                continue
            }
            out.append(value)
            index = semi + 1
        }
        return String(out)
    }

    private static func line(of index: String.Index, in text: String) -> Int {
        text[..<index].reduce(1) { $1 == "\n" || $1 == "\r\n" ? $0 + 1 : $0 }
    }

    private static func line(ofByte offset: Int, in text: String) -> Int {
        text.utf8.prefix(offset).reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
