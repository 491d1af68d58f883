import ID3

/// What a uniform key's values are; it decides how they are checked and converted between
/// formats. Values are always exchanged as text in TagLib's formats.
public enum MetadataValueKind: String, Sendable, CaseIterable {
    /// Free text.
    case text
    /// A whole number written in decimal (`BPM`).
    case integer
    /// An index with an optional total: `3` or `3/12` (`TRACKNUMBER`, `DISCNUMBER`).
    case pair
    /// `1` or `0` (`COMPILATION`); `true`/`false`/`yes`/`no` are accepted when setting.
    case boolean
    /// An ISO 8601 date or a prefix of one: `2024`, `2024-05`, `2024-05-17`, `2024-05-17T08:30`.
    case date
    /// An embedded image (handled by the picture commands, not as text).
    case picture
    /// Bytes, exchanged as text only where the format stores text (an identifier, a URL).
    case binary
}

/// The conversions between a uniform value and the native forms; each is named after what it
/// converts, and every one that loses or changes something says so in a note.
enum MetadataValueConversion {
    /// Checks `value` against `kind` and returns it in canonical form (`03/12` becomes `3/12`,
    /// `true` becomes `1`).
    static func canonical(_ value: String, kind: MetadataValueKind, key: String) throws(MetadataError) -> String {
        func bad(_ expected: String) -> MetadataError {
            MetadataError(.badValue, message: "\(key)=\(value): \(expected)")
        }
        switch kind {
        case .text, .binary:
            return value
        case .integer:
            guard let number = Int(value.trimmingCharacters(" ")) else { throw bad("expected a whole number") }
            return String(number)
        case .pair:
            guard let pair = pair(value) else {
                // Digits that only fail by size get the range, not a lesson in the form.
                let numbers = value.split(separator: "/", omittingEmptySubsequences: false).map { String($0).trimmingCharacters(" ") }
                if numbers.count <= 2, numbers.allSatisfy({ $0.allSatisfy { "0"..."9" ~= $0 } }), numbers.contains(where: { !$0.isEmpty }) {
                    throw bad("a number and a total are each 0 to 65535 (MP4 stores them in 16 bits)")
                }
                throw bad("expected a number, or a number and a total as n/m")
            }
            // `/5`, a total without its number, stays so: a format that keeps the two apart
            // (Vorbis comments) writes no number, one that cannot (ID3) refuses it.
            if value.trimmingCharacters(" ").hasPrefix("/") { return "/\(pair.total)" }
            return render(pair)
        case .boolean:
            guard let flag = boolean(value) else { throw bad("expected 1 or 0 (or true/false, yes/no)") }
            return flag ? "1" : "0"
        case .date:
            guard isDate(value) else { throw bad("expected an ISO 8601 date: yyyy, yyyy-MM, yyyy-MM-dd, yyyy-MM-ddTHH:mm[:ss]") }
            return value
        case .picture:
            throw MetadataError(.badValue, message: "\(key) holds pictures, not text: add a picture instead")
        }
    }

    /// `n`, `n/m` or `/m` (either part may be empty but not both), numbers up to 65535.
    static func pair(_ text: String) -> (index: Int, total: Int)? {
        let parts = text.trimmingCharacters(" ").split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        func number(_ part: Substring) -> Int?? {
            let trimmed = String(part).trimmingCharacters(" ")
            if trimmed.isEmpty { return .some(nil) }
            guard let value = Int(trimmed), (0...65535).contains(value) else { return nil }
            return .some(value)
        }
        guard let first = parts.first, let index = number(first) else { return nil }
        var total: Int? = nil
        if parts.count == 2 {
            guard let parsed = number(parts[1]) else { return nil }
            total = parsed
        }
        guard index != nil || total != nil else { return nil }
        return (index ?? 0, total ?? 0)
    }

    /// TagLib's rendering of an index/total pair: `3/12`, or `3` when the total is 0.
    static func render(_ pair: (index: Int, total: Int)) -> String {
        pair.total > 0 ? "\(pair.index)/\(pair.total)" : "\(pair.index)"
    }

    static func boolean(_ text: String) -> Bool? {
        switch text.trimmingCharacters(" ").lowercased() {
        case "1", "true", "yes": true
        case "0", "false", "no": false
        default: nil
        }
    }

    /// True for `yyyy`, `yyyy-MM`, `yyyy-MM-dd`, `yyyy-MM-ddTHH`, `yyyy-MM-ddTHH:mm`,
    /// `yyyy-MM-ddTHH:mm:ss` (ID3v2.4's timestamp subset of ISO 8601), with fractions of a
    /// second and, after a time, a zone (`Z`, `+02:00`, `-0500`) as iTunes and QuickTime write
    /// them; months, days, hours, minutes and seconds must be in range.
    static func isDate(_ text: String) -> Bool {
        var chars = Array(text)
        if chars.count > 13 {
            if chars.last == "Z" {
                chars.removeLast()
            } else if let sign = chars.lastIndex(where: { $0 == "+" || $0 == "-" }), sign > 10 {
                let zone = String(chars[(sign + 1)...]).filter { $0 != ":" }
                guard zone.count == 4, zone.allSatisfy(\.isASCII), zone.allSatisfy(\.isNumber) else { return false }
                chars.removeSubrange(sign...)
            }
            if chars.count > 19, chars[19] == "." {
                guard chars.count > 20, chars[20...].allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
                chars.removeSubrange(19...)
            }
        }
        let pattern = Array("dddd-dd-ddTdd:dd:dd")
        guard [4, 7, 10, 13, 16, 19].contains(chars.count) else { return false }
        for (c, p) in zip(chars, pattern) {
            if p == "d" { guard c.isASCII, c.isNumber else { return false } } else if c != p { return false }
        }
        func field(_ start: Int) -> Int? { chars.count >= start + 2 ? Int(String(chars[start..<start + 2])) : nil }
        if let month = field(5), !(1...12).contains(month) { return false }
        if let day = field(8), !(1...31).contains(day) { return false }
        if let hour = field(11), !(0...23).contains(hour) { return false }
        if let minute = field(14), !(0...59).contains(minute) { return false }
        if let second = field(17), !(0...60).contains(second) { return false }
        return true
    }

    /// The year of a date, for formats that hold only a year (3GPP `yrrc`).
    static func year(_ date: String) -> Int? { Int(date.prefix(4)) }

    /// The genre name of an iTunes `gnre` value (the ID3v1 index plus one).
    static func genre(iTunesCode code: Int64) -> String? { ID3Genres.name(Int(code) - 1) }

}

extension String {
    /// The text without `character` at either end (`"  7 "` → `"7"` for a space).
    public func trimmingCharacters(_ character: Character) -> String {
        var text = Substring(self)
        while text.first == character { text.removeFirst() }
        while text.last == character { text.removeLast() }
        return String(text)
    }
}
