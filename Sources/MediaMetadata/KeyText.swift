/// Keys and identifiers are parsed scalar by scalar, never character by character: a
/// description may start with a combining mark (`COMMENT:` followed by U+0655 is one
/// `Character`, `":\u{655}"`), and the colon before it must still separate the key from its
/// description, or `remove COMMENT` would leave that comment and `set` would drop the mark.
extension StringProtocol {
    /// Whether the text starts with `prefix`, compared scalar by scalar.
    public func hasKeyPrefix(_ prefix: some StringProtocol) -> Bool {
        unicodeScalars.starts(with: prefix.unicodeScalars)
    }

    /// The text before and after its first `:` (found scalar by scalar), or nil without one.
    public var keyParts: (base: String, qualifier: String)? {
        guard let colon = unicodeScalars.firstIndex(of: ":") else { return nil }
        return (String(String.UnicodeScalarView(unicodeScalars[..<colon])),
                String(String.UnicodeScalarView(unicodeScalars[unicodeScalars.index(after: colon)...])))
    }

    /// Whether the text holds a `:` scalar (a described key, `COMMENT:NOTE`).
    public var hasKeyQualifier: Bool { unicodeScalars.contains(":") }
}
