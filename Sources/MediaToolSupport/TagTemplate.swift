import MediaMetadata

/// A text made of literal parts and tag fields: `{ARTIST} - {TITLE}`, used by `show --format`,
/// `rename` (rendering) and `from-name` (matching).
///
/// A field is `{KEY}`, `{KEY:0N}` (a number zero-padded to N digits) or `{KEY|default}` (the
/// text used when the file has no value; without one, a missing key is empty). KEY is anything
/// `tagedit get` accepts (uniform keys, `TRACKTOTAL`, identifiers), or one of the file fields
/// `path`, `filename` (with extension), `basename` (without) and `ext`. `TRACKNUMBER` and
/// `DISCNUMBER` give their number without the total (`3`, not `3/12`); `{{` and `}}` are
/// literal braces.
public struct TagTemplate: Sendable, Hashable {
    public struct Field: Sendable, Hashable {
        public var key: String
        /// Zero-pad numbers to this many digits.
        public var width: Int?
        public var fallback: String?

        public init(key: String, width: Int? = nil, fallback: String? = nil) {
            self.key = key
            self.width = width
            self.fallback = fallback
        }
    }

    public enum Part: Sendable, Hashable {
        case literal(String)
        case field(Field)
    }

    public let parts: [Part]

    public struct SyntaxError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The file fields a template can name beside tag keys.
    public static let fileFields: Set<String> = ["path", "filename", "basename", "ext"]
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
            guard let close = text[next...].firstIndex(of: "}") else {
                throw SyntaxError(description: "unclosed \"{\" in the pattern \"\(text)\"")
            }
            if !literal.isEmpty { parts.append(.literal(literal)); literal = "" }
            parts.append(.field(try Self.field(String(text[next..<close]), in: text)))
            index = text.index(after: close)
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        self.parts = parts
    }

    private static func field(_ body: String, in text: String) throws(SyntaxError) -> Field {
        var body = Substring(body)
        var fallback: String?
        if let bar = body.firstIndex(of: "|") {
            fallback = String(body[body.index(after: bar)...])
            body = body[..<bar]
        }
        var width: Int?
        if let colon = body.lastIndex(of: ":"), body.index(after: colon) < body.endIndex,
            body[body.index(after: colon)...].allSatisfy({ $0.isASCII && $0.isNumber })
        {
            let digits = body[body.index(after: colon)...]
            guard let parsed = Int(digits), parsed <= 32 else {
                throw SyntaxError(description: "{\(body)}: pad to at most 32 digits")
            }
            width = parsed
            body = body[..<colon]
        }
        let key = String(body).trimmingCharacters(" ")
        guard !key.isEmpty else { throw SyntaxError(description: "an empty field {} in the pattern \"\(text)\"") }
        // File fields are lower case in the documentation and match in any case, like keys.
        return Field(key: fileFields.contains(key.lowercased()) ? key.lowercased() : key.uppercased(), width: width, fallback: fallback)
    }

    /// The fields the template names.
    public var fields: [Field] {
        parts.compactMap { if case .field(let field) = $0 { field } else { nil } }
    }

    /// The text for `file`, each field's value passed through `escape` (file names replace
    /// characters there).
    public func render(_ file: MediaFile, escape: (String) -> String = { $0 }) throws(MetadataError) -> String {
        var out = ""
        for part in parts {
            switch part {
            case .literal(let text): out += text
            case .field(let field): out += escape(try value(of: field, in: file))
            }
        }
        return out
    }

    /// `show --format`: the text for `file` as one line (line breaks in values written `\n`).
    public func line(_ file: MediaFile) throws(MetadataError) -> String {
        try render(file).replacingNewlines + "\n"
    }

    /// One field's text for `file`: its first value (several joined with "; "), padded, or the
    /// fallback.
    public func value(of field: Field, in file: MediaFile) throws(MetadataError) -> String {
        var text: String
        switch field.key {
        case "path": text = file.path
        case "filename": text = PathNames.lastComponent(file.path)
        case "basename": text = Self.splitExtension(PathNames.lastComponent(file.path)).name
        case "ext": text = Self.splitExtension(PathNames.lastComponent(file.path)).ext
        default:
            let values = try file.values(field.key) ?? []
            text = values.joined(separator: "; ")
            if Self.pairKeys.contains(field.key), let first = values.first {
                text = String(first.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)[0]).trimmingCharacters(" ")
            }
        }
        if text.isEmpty { return field.fallback ?? "" }
        if let width = field.width, let number = Int(text), number >= 0 {
            let digits = String(number)
            text = String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return text
    }

    // MARK: - Matching names

    /// The values the template's fields take in `name` (a path's last components, as many as
    /// the template has), or nil when it does not match. Number fields (`TRACKNUMBER`,
    /// `DISCNUMBER`, their totals, `{KEY:0N}`) match digits only; `{_}` matches anything and is
    /// dropped; other fields match the shortest text that lets the rest match.
    public func match(_ name: String) -> [(key: String, value: String)]? {
        var pattern = "^"
        var keys: [String] = []
        for part in parts {
            switch part {
            case .literal(let text):
                pattern += text.map { "\\^$.|?*+()[]{}/".contains($0) ? "\\\($0)" : String($0) }.joined()
            case .field(let field):
                let numeric = field.width != nil || Self.pairKeys.contains(field.key) || MetadataKey.trackTotal.rawValue == field.key
                    || MetadataKey.discTotal.rawValue == field.key
                pattern += numeric ? "([0-9]+)" : "([^/]+?)"
                keys.append(field.key)
            }
        }
        pattern += "$"
        guard let regex = try? Regex(pattern), let found = try? regex.wholeMatch(in: name) else { return nil }
        var result: [(key: String, value: String)] = []
        for (index, key) in keys.enumerated() where key != "_" {
            guard let range = found.output[index + 1].range else { return nil }
            result.append((key, String(name[range]).trimmingCharacters(" ")))
        }
        return result
    }

    /// How many path components the template spans (`{ARTIST}/{ALBUM}/{TITLE}`: 3).
    public var componentCount: Int {
        1 + parts.reduce(0) { count, part in
            if case .literal(let text) = part { return count + text.filter { $0 == "/" }.count }
            return count
        }
    }

    /// `song.mp3` → (`song`, `mp3`); a name without a dot (or only a leading one) has no extension.
    public static func splitExtension(_ name: String) -> (name: String, ext: String) {
        guard let dot = name.lastIndex(of: "."), dot > name.startIndex else { return (name, "") }
        return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    }
}
