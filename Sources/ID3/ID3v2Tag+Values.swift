/// Typed readings of text frames whose values have a syntax: dates (id3v2.4.0-structure
/// section 4 timestamps; v2.3 `TYER`/`TDAT`/`TIME`) and `n/m` positions (`TRCK`, `TPOS`).
extension ID3v2Tag {
    /// The recording date as ISO 8601 text: `TDRC` in v2.4; in v2.3 and v2.2, `TYER` with
    /// `TDAT` (DDMM) and `TIME` (HHMM) joined into one date (when the year is four digits,
    /// as an ISO 8601 date needs and TagLib requires; otherwise the year alone).
    public var recordingDate: String? {
        if let value = frames("TDRC").first?.textValues?.first, !value.isEmpty { return value }
        guard let year = frames("TYER").first?.textValues?.first, !year.isEmpty else { return nil }
        var date = year
        if year.count == 4, year.allSatisfy(\.isNumber), let dayMonth = frames("TDAT").first?.textValues?.first, dayMonth.count == 4, dayMonth.allSatisfy(\.isNumber) {
            date += "-\(dayMonth.suffix(2))-\(dayMonth.prefix(2))"
            if let time = frames("TIME").first?.textValues?.first, time.count == 4, time.allSatisfy(\.isNumber) {
                date += "T\(time.prefix(2)):\(time.suffix(2))"
            }
        }
        return date
    }

    /// The original release date: `TDOR` in v2.4, `TORY` (a year) before.
    public var originalReleaseDate: String? {
        frames("TDOR").first?.textValues?.first ?? frames("TORY").first?.textValues?.first
    }

    /// The frames that hold the recording date `date` (ISO 8601) in a tag of `version`: `TDRC`
    /// in v2.4; `TYER`, `TDAT` and `TIME` in v2.3 and v2.2, with notes on what v2.3 cannot hold.
    public static func recordingDateFrames(_ date: String, version: UInt8, encoding: ID3TextEncoding = .latin1) -> (frames: [ID3Frame], notes: [String]) {
        let frame = ID3Frame(id: "TDRC", content: .text(encoding: encoding, values: [date]))
        guard version < 4 else { return ([frame], []) }
        // v2.3 has no time zone: a trailing `Z` or offset is left out of TIME.
        var plain = date
        if let zone = plain.firstIndex(where: { $0 == "Z" || $0 == "+" }) ?? (plain.count > 10 ? plain.lastIndex(of: "-").flatMap { $0 > plain.index(plain.startIndex, offsetBy: 10) ? $0 : nil } : nil) {
            plain = String(plain[..<zone])
        }
        var notes: [String] = []
        if plain != date { notes.append("TDRC: the time zone of \(date) is dropped in v2.3") }
        let frames = ID3VersionConversion.toV23([ID3Frame(id: "TDRC", content: .text(encoding: encoding, values: [plain]))], notes: &notes)
        return (frames, notes)
    }

    /// `frames` of a tag of `version` converted for a tag of `target` (3 or 4): the date
    /// frames joined or split, the involved-people lists renamed, frames the target version
    /// lacks dropped with a note (id3v2.4.0-changes).
    public static func convertFrames(_ frames: [ID3Frame], from version: UInt8, to target: UInt8) -> (frames: [ID3Frame], notes: [String]) {
        var notes: [String] = []
        let converted = ID3VersionConversion.convert(frames, from: version == 2 ? 3 : version, to: target, notes: &notes)
        return (converted, notes)
    }

    /// Reads an `n/m` position such as `TRCK` `3/12`: either part may be missing (`3`, `/12`).
    public static func position(_ text: String) -> (index: Int?, total: Int?) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        func number(_ part: Substring?) -> Int? { part.flatMap { Int($0.trimmingSpaces) } }
        return (number(parts.first), parts.count > 1 ? number(parts[1]) : nil)
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
