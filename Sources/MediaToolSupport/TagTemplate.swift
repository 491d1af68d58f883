import MediaMetadata

/// A text made of literal parts and tag fields: `{ARTIST} - {TITLE}`, used by `show --format`,
/// `rename` (rendering) and `from-name` (matching).
///
/// A field is `{KEY}`, `{KEY:0N}` (a number zero-padded to N digits), `{KEY:ascii}`,
/// `{KEY:lower}`, `{KEY:upper}` (filters, several in a row apply in order) or `{KEY|fallback}`
/// (used when the file has no value; itself a pattern, so `{ALBUMARTIST|{ARTIST}}` falls back
/// to another key; without one, a missing key is empty, and `rename` refuses the file). KEY is
/// anything `tagedit get` accepts (uniform keys, `TRACKTOTAL`, identifiers), or one of the file
/// fields `path`, `filename` (with extension), `basename` (without), `ext`, `duration`,
/// `bitrate`, `codec`, `samplerate` and `channels`. `TRACKNUMBER` and `DISCNUMBER` give their
/// number without the total (`3`, not `3/12`); `{{` and `}}` are literal braces.
///
/// A section `{?...}` is a pattern of its own that is left out, text and all, when a field in
/// it has no value (and no fallback): `{?{TRACKNUMBER:02} - }{TITLE}` is `03 - Title`, or
/// `Title` for a file without a track number. A key missing in a section is not missing from
/// the whole (`rename` does not refuse the file for it).
public struct TagTemplate: Sendable, Hashable {
    public struct Field: Sendable, Hashable {
        public var key: String
        /// Zero-pad numbers to this many digits.
        public var width: Int?
        /// The text after `|`, as written.
        public var fallback: String?
        /// The fallback as a template of its own (`{ALBUMARTIST|{ARTIST}}`).
        public var fallbackParts: [Part]?
        /// What the value goes through, in order (`{ARTIST:ascii:lower}`).
        public var filters: [Filter]

        public init(key: String, width: Int? = nil, fallback: String? = nil, filters: [Filter] = []) {
            self.key = key
            self.width = width
            self.fallback = fallback
            self.filters = filters
            fallbackParts = fallback.flatMap { try? TagTemplate($0).parts }
        }
    }

    /// A change made to a field's value.
    public enum Filter: String, Sendable, Hashable, CaseIterable {
        /// Latin letters without their marks (`Björk` → `Bjork`, `ß` → `ss`), typographic quotes
        /// and dashes as ASCII ones, anything else that is not ASCII as `_`.
        case ascii
        case lower
        case upper

        func apply(_ text: String) -> String {
            switch self {
            case .ascii: TagTemplate.asciiFolded(text)
            case .lower: text.lowercased()
            case .upper: text.uppercased()
            }
        }
    }

    public indirect enum Part: Sendable, Hashable {
        case literal(String)
        case field(Field)
        /// `{?...}`: shown only when every field in it has a value.
        case section([Part])
    }

    public let parts: [Part]

    public struct SyntaxError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The file fields a template can name beside tag keys: the file's name, and its audio
    /// (`duration` as m:ss or h:mm:ss, `bitrate` in kbit/s, `codec`, `samplerate`, `channels`).
    public static let fileFields: Set<String> = ["path", "filename", "basename", "ext", "duration", "bitrate", "codec", "samplerate", "channels"]
    /// Keys that hold an `n/m` pair and read as their `n` in a template.
    static let pairKeys: Set<String> = ["TRACKNUMBER", "DISCNUMBER"]

    public init(_ text: String) throws(SyntaxError) {
        var parts: [Part] = []
        var literal = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if character == "{" || character == "}", next < text.endIndex, text[next] == character {
                literal.append(character)
                index = text.index(after: next)
                continue
            }
            if character == "}" { throw SyntaxError(description: "unmatched \"}\" in the pattern \"\(text)\" (write }} for a brace)") }
            guard character == "{" else {
                literal.append(character)
                index = next
                continue
            }
            // The matching brace: a fallback may hold fields of its own (`{A|{B}}`), a section
            // a pattern (`{?{A} }}}` holds a literal brace).
            guard let close = Self.closingBrace(in: text, openingAt: index) else {
                throw SyntaxError(description: "unclosed \"{\" in the pattern \"\(text)\"")
            }
            if !literal.isEmpty { parts.append(.literal(literal)); literal = "" }
            if next < close, text[next] == "?" {
                let inner = try TagTemplate(String(text[text.index(after: next)..<close]))
                guard !inner.fields.isEmpty else {
                    throw SyntaxError(description: "the section {\(text[next..<close])} in the pattern \"\(text)\" has no field to depend on")
                }
                parts.append(.section(inner.parts))
            } else {
                parts.append(.field(try Self.field(String(text[next..<close]), in: text)))
            }
            index = text.index(after: close)
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        self.parts = parts
    }

    /// The `}` that closes the `{` at `open`. A field ends at its first `}` outside the fields
    /// of its fallback (`{A|{B}}`); a section's body is a pattern, with literal braces written
    /// `{{` and `}}`, which are stepped over (`{?{A}}} }` holds a `}`).
    static func closingBrace(in text: String, openingAt open: String.Index) -> String.Index? {
        var index = text.index(after: open)
        let isSection = index < text.endIndex && text[index] == "?"
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if isSection, character == "{" || character == "}", next < text.endIndex, text[next] == character {
                index = text.index(after: next)
                continue
            }
            if character == "}" { return index }
            if character == "{" {
                guard let inner = closingBrace(in: text, openingAt: index) else { return nil }
                index = text.index(after: inner)
                continue
            }
            index = next
        }
        return nil
    }

    private static func field(_ body: String, in text: String) throws(SyntaxError) -> Field {
        var body = Substring(body)
        var fallback: String?
        if let bar = body.firstIndex(of: "|") {
            fallback = String(body[body.index(after: bar)...])
            body = body[..<bar]
        }
        var width: Int?
        var filters: [Filter] = []
        // Trailing `:0N` and `:filter`s (an identifier's own colons, `id3/TXXX:NAME`, stay).
        while let colon = body.lastIndex(of: ":"), body.index(after: colon) < body.endIndex {
            let suffix = body[body.index(after: colon)...]
            if suffix.allSatisfy({ $0.isASCII && $0.isNumber }) {
                guard let parsed = Int(suffix), parsed <= 32 else {
                    throw SyntaxError(description: "{\(body)}: pad to at most 32 digits")
                }
                width = parsed
            } else if let filter = Filter(rawValue: suffix.lowercased()) {
                filters.insert(filter, at: 0)
            } else {
                break
            }
            body = body[..<colon]
        }
        if let fallback, (try? TagTemplate(fallback)) == nil {
            throw SyntaxError(description: "{\(body)|\(fallback)}: the fallback is not a pattern")
        }
        let key = String(body).trimmingCharacters(" ")
        guard !key.isEmpty else { throw SyntaxError(description: "an empty field {} in the pattern \"\(text)\"") }
        // File fields are lower case in the documentation and match in any case, like keys.
        return Field(key: fileFields.contains(key.lowercased()) ? key.lowercased() : key.uppercased(), width: width, fallback: fallback, filters: filters)
    }

    /// The fields the template names, those in sections too.
    public var fields: [Field] { Self.fields(parts) }

    static func fields(_ parts: [Part]) -> [Field] {
        parts.flatMap { part -> [Field] in
            switch part {
            case .literal: []
            case .field(let field): [field]
            case .section(let inner): fields(inner)
            }
        }
    }

    /// The text for `file`, each field's value passed through `escape` (file names replace
    /// characters there).
    public func render(_ file: MediaFile, escape: (String) -> String = { $0 }) throws(MetadataError) -> String {
        var missing: [String] = []
        return try render(file, missing: &missing, escape: escape)
    }

    /// The text for `file`; `missing` gets the keys that had no value and no fallback (a
    /// fallback, even `{KEY|}`, says that an empty value is meant).
    public func render(_ file: MediaFile, missing: inout [String], escape: (String) -> String = { $0 }) throws(MetadataError) -> String {
        try Self.render(parts, file, missing: &missing, escape: escape)
    }

    static func render(_ parts: [Part], _ file: MediaFile, missing: inout [String], escape: (String) -> String) throws(MetadataError) -> String {
        var out = ""
        for part in parts {
            switch part {
            case .literal(let text): out += text
            case .section(let inner):
                var inside: [String] = []
                let text = try render(inner, file, missing: &inside, escape: escape)
                if inside.isEmpty { out += text }
            case .field(let field):
                let text = try ownValue(of: field, in: file)
                if !text.isEmpty {
                    out += escape(text)
                } else if let fallback = field.fallbackParts {
                    out += try render(fallback, file, missing: &missing, escape: escape)
                } else {
                    missing.append(field.key)
                }
            }
        }
        return out
    }

    /// `show --format`: the text for `file` as one line: the values with their control
    /// characters escaped (`TerminalText`), the template's own text as given but for its line
    /// breaks (written `\n`, `\r`: a tab in the template stays a tab).
    public func line(_ file: MediaFile) throws(MetadataError) -> String {
        let text = try render(file, escape: { $0.escapingControls })
        guard text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return text + "\n" }
        return text.unicodeScalars.map { $0 == "\n" ? "\\n" : $0 == "\r" ? "\\r" : String($0) }.joined() + "\n"
    }

    /// One field's text for `file`: its first value (several joined with "; "), padded and
    /// filtered, or the fallback.
    public func value(of field: Field, in file: MediaFile) throws(MetadataError) -> String {
        var missing: [String] = []
        return try Self.render([.field(field)], file, missing: &missing, escape: { $0 })
    }

    /// A field's own text (empty when the file has no value), padded and filtered.
    static func ownValue(of field: Field, in file: MediaFile) throws(MetadataError) -> String {
        var text: String
        let audio = file.properties.audio
        switch field.key {
        case "path": text = file.path
        case "filename": text = PathNames.lastComponent(file.path)
        case "basename": text = Self.splitExtension(PathNames.lastComponent(file.path)).name
        case "ext": text = Self.splitExtension(PathNames.lastComponent(file.path)).ext
        case "duration": text = audio?.duration.map(Self.clock) ?? ""
        case "bitrate": text = audio?.bitrate.map { String(($0 + 500) / 1000) } ?? ""
        case "codec": text = audio?.codec ?? ""
        case "samplerate": text = audio?.sampleRate.map { String($0) } ?? ""
        case "channels": text = audio?.channels.map { String($0) } ?? ""
        default:
            let values = try file.values(field.key) ?? []
            text = values.joined(separator: "; ")
            if Self.pairKeys.contains(field.key), let first = values.first {
                text = String(first.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)[0]).trimmingCharacters(" ")
            }
        }
        if text.isEmpty { return "" }
        if let width = field.width, let number = Int(text), number >= 0 {
            let digits = String(number)
            text = String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        for filter in field.filters { text = filter.apply(text) }
        return text
    }

    /// Seconds as `m:ss`, or `h:mm:ss` from an hour.
    static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(total / 60):\(two(rest))"
    }

    /// `text` in ASCII (`Filter.ascii`): a Latin letter with marks becomes the letter (by its
    /// Unicode name, `LATIN SMALL LETTER O WITH ACUTE`), marks on their own go, ligatures and
    /// a few letters of their own are spelled out, quotes and dashes become ASCII ones, and
    /// anything else becomes `_`.
    static func asciiFolded(_ text: String) -> String {
        let spelled: [String: String] = [
            "SHARP S": "ss", "AE": "ae", "THORN": "th", "ETH": "d", "DOTLESS I": "i", "O WITH STROKE": "o", "L WITH STROKE": "l", "D WITH STROKE": "d",
        ]
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII { out.unicodeScalars.append(scalar); continue }
            let properties = scalar.properties
            if properties.generalCategory == .nonspacingMark || properties.generalCategory == .enclosingMark { continue }
            switch scalar.value {
            case 0x2018, 0x2019, 0x201A, 0x2032: out += "'"; continue
            case 0x201C, 0x201D, 0x201E, 0x2033: out += "\""; continue
            case 0x2010...0x2015, 0x2212: out += "-"; continue
            case 0x2026: out += "..."; continue
            case 0xA0, 0x2000...0x200A, 0x202F: out += " "; continue
            default: break
            }
            guard let name = properties.name else { out += "_"; continue }
            var letter: String?
            for (prefix, upper) in [("LATIN SMALL LETTER ", false), ("LATIN CAPITAL LETTER ", true), ("LATIN SMALL LIGATURE ", false), ("LATIN CAPITAL LIGATURE ", true)] where name.hasPrefix(prefix) {
                let rest = String(name.dropFirst(prefix.count))
                if let word = spelled[rest] ?? spelled.first(where: { rest.hasPrefix($0.key + " ") })?.value {
                    letter = upper ? word.uppercased() : word
                } else if prefix.contains("LIGATURE"), rest.count <= 3 {
                    letter = upper ? rest : rest.lowercased()
                } else if let first = rest.first, rest.count == 1 || rest.dropFirst().hasPrefix(" WITH ") {
                    letter = upper ? String(first) : String(first).lowercased()
                }
            }
            out += letter ?? "_"
        }
        return out
    }

    // MARK: - Matching names

    /// The values the template's fields take in `name` (a path's last components, as many as
    /// the template has), or nil when it does not match. Number fields (`TRACKNUMBER`,
    /// `DISCNUMBER`, their totals, `{KEY:0N}`) match digits only; `{_}` matches anything and is
    /// dropped; other fields match the shortest text that lets the rest match.
    /// A section matches its text or nothing (`{?{TRACKNUMBER} - }{TITLE}` matches `Title` too,
    /// giving no track number).
    public func match(_ name: String) -> [(key: String, value: String)]? {
        var keys: [String] = []
        let pattern = "^" + Self.matchPattern(parts, keys: &keys) + "$"
        guard let regex = try? Regex(pattern), let found = try? regex.wholeMatch(in: name) else { return nil }
        var result: [(key: String, value: String)] = []
        for (index, key) in keys.enumerated() where key != "_" {
            // (A field of a section that matched nothing has no range.)
            guard let range = found.output[index + 1].range else { continue }
            result.append((key, String(name[range]).trimmingCharacters(" ")))
        }
        return result
    }

    static func matchPattern(_ parts: [Part], keys: inout [String]) -> String {
        var pattern = ""
        for part in parts {
            switch part {
            case .literal(let text):
                pattern += text.map { "\\^$.|?*+()[]{}/".contains($0) ? "\\\($0)" : String($0) }.joined()
            case .field(let field):
                let numeric = field.width != nil || Self.pairKeys.contains(field.key) || MetadataKey.trackTotal.rawValue == field.key
                    || MetadataKey.discTotal.rawValue == field.key
                pattern += numeric ? "([0-9]+)" : "([^/]+?)"
                keys.append(field.key)
            case .section(let inner):
                pattern += "(?:" + matchPattern(inner, keys: &keys) + ")?"
            }
        }
        return pattern
    }

    /// How many path components the template spans (`{ARTIST}/{ALBUM}/{TITLE}`: 3).
    /// (The folders of a section are not counted: a name matched with one would be a guess,
    /// and `from-name` refuses such a pattern, `sectionsHoldFolders`.)
    public var componentCount: Int {
        1 + parts.reduce(0) { count, part in
            if case .literal(let text) = part { return count + text.filter { $0 == "/" }.count }
            return count
        }
    }

    /// True when a section holds a `/`: a name it may be missing from spans a number of
    /// folders no one can tell.
    public var sectionsHoldFolders: Bool { Self.holdsFolder(parts, inSection: false) }

    static func holdsFolder(_ parts: [Part], inSection: Bool) -> Bool {
        parts.contains { part in
            switch part {
            case .literal(let text): inSection && text.contains("/")
            case .field: false
            case .section(let inner): holdsFolder(inner, inSection: true)
            }
        }
    }

    /// `song.mp3` → (`song`, `mp3`); a name without a dot (or only a leading one) has no extension.
    public static func splitExtension(_ name: String) -> (name: String, ext: String) {
        guard let dot = name.lastIndex(of: "."), dot > name.startIndex else { return (name, "") }
        return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    }
}
