import MediaMetadata

/// File names made from tag values (`tagedit rename`): one path component per value, safe on
/// Linux, macOS and Windows file systems and on the SMB and FAT volumes music libraries live on.
public enum FileNaming {
    /// Characters replaced by `_`: the path separators, the ones Windows and FAT reject, and
    /// control characters.
    /// (Unicode scalars, not characters: a `/` followed by a combining mark is one character
    /// and still a path separator to the file system.)
    static let rejected: Set<Unicode.Scalar> = ["/", "\\", ":", "*", "?", "\"", "<", ">", "|"]
    /// A component longer than this many UTF-8 bytes is cut (most file systems allow 255).
    public static let maximumComponentBytes = 240

    /// `text` as one path component: rejected characters become `_`, leading dots and trailing
    /// dots and spaces go (Windows drops them; a leading dot hides a file), and the result is cut
    /// to `maximumComponentBytes` on a character boundary. Never empty: `_` stands for nothing.
    public static func component(_ text: String) -> String {
        var result = String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            rejected.contains(scalar) || scalar.value < 0x20 || scalar.value == 0x7F ? "_" : scalar
        }))
        while result.first == "." || result.first == " " { result.removeFirst() }
        while result.last == "." || result.last == " " { result.removeLast() }
        if result.utf8.count > maximumComponentBytes {
            var cut = ""
            for character in result {
                guard cut.utf8.count + String(character).utf8.count <= maximumComponentBytes else { break }
                cut.append(character)
            }
            result = cut
            while result.last == "." || result.last == " " { result.removeLast() }
        }
        return result.isEmpty ? "_" : result
    }

    /// The relative path a rename pattern gives `file`, without extension: the pattern rendered
    /// with its values made safe (a `/` in a value does not make a folder), then split at the
    /// pattern's own `/`s into components. A key the file has no value for, without a fallback
    /// and outside a section, refuses the file (no `- Title.mp3` for a file without a track
    /// number): `{KEY|}` leaves the value out on purpose, `{?{KEY} - }` the section with it.
    /// Empty components (a key left out between two slashes) become `_`.
    public static func relativePath(_ template: String, for file: MediaFile) throws(MetadataError) -> String {
        let parsed: TagTemplate
        do { parsed = try TagTemplate(template) } catch {
            throw MetadataError(.badValue, path: file.path, message: error.description)
        }
        var missing: [String] = []
        let rendered = try parsed.render(file, missing: &missing) { value in
            String(String.UnicodeScalarView(value.unicodeScalars.map { rejected.contains($0) ? "_" : $0 }))
        }
        if let key = missing.first {
            let keys = Array(Set(missing)).sorted()
            throw MetadataError(.badValue, path: file.path,
                                message: "has no \(keys.joined(separator: ", ")): not renamed, so that no name lacks it (give a fallback, {\(key)|none} or {\(key)|{OTHERKEY}}, write {\(key)|} to leave it out, or put it in a section, {?{\(key)} - }, to leave the section out)")
        }
        return rendered.unicodeScalars.split(separator: "/", omittingEmptySubsequences: false)
            .map { component(String(String.UnicodeScalarView($0))) }.joined(separator: "/")
    }
}
