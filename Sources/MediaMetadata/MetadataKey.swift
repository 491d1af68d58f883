/// A uniform key of the key table (TagLib's property names), usable wherever `MediaFile` takes
/// a key string: `file.values(.title)`, `file.set(.trackNumber, ["4/12"])`. Open: any key of
/// the table (or a custom key) is `MetadataKey("MOOD")`; the constants below are the common
/// ones, each a row of `MetadataKeyTable` (a test checks that).
public struct MetadataKey: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }
    public init(_ key: String) { self.init(rawValue: key) }
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    public var description: String { rawValue }

    public static let title: MetadataKey = "TITLE"
    public static let artist: MetadataKey = "ARTIST"
    public static let album: MetadataKey = "ALBUM"
    public static let albumArtist: MetadataKey = "ALBUMARTIST"
    public static let trackNumber: MetadataKey = "TRACKNUMBER"
    public static let discNumber: MetadataKey = "DISCNUMBER"
    public static let date: MetadataKey = "DATE"
    public static let genre: MetadataKey = "GENRE"
    public static let comment: MetadataKey = "COMMENT"
    public static let composer: MetadataKey = "COMPOSER"
    public static let lyrics: MetadataKey = "LYRICS"
    public static let bpm: MetadataKey = "BPM"
    public static let compilation: MetadataKey = "COMPILATION"
    public static let copyright: MetadataKey = "COPYRIGHT"
    public static let grouping: MetadataKey = "GROUPING"
    public static let encodedBy: MetadataKey = "ENCODEDBY"
    /// The `m` of `TRACKNUMBER` `n/m`, read and set as a key of its own (TagLib's and Vorbis
    /// comments' `TRACKTOTAL`; `TOTALTRACKS` is accepted too). Not listed in `tags`, which
    /// has it inside `TRACKNUMBER`.
    public static let trackTotal: MetadataKey = "TRACKTOTAL"
    /// The `m` of `DISCNUMBER` `n/m` (`DISCTOTAL`; `TOTALDISCS` is accepted too).
    public static let discTotal: MetadataKey = "DISCTOTAL"

    /// True for `TRACKTOTAL`, `DISCTOTAL` and their other spellings: set after the number
    /// they belong to when several keys are set at once.
    public static func isTotal(_ key: String) -> Bool { totals[key.uppercased()] != nil }

    /// The keys that are half of a number pair, with the pair's key.
    static let totals: [String: MetadataKey] = [
        "TRACKTOTAL": .trackNumber, "TOTALTRACKS": .trackNumber, "DISCTOTAL": .discNumber, "TOTALDISCS": .discNumber,
    ]

    /// The constants above, in table order.
    public static let common: [MetadataKey] = [
        .title, .artist, .album, .albumArtist, .date, .trackNumber, .discNumber, .genre, .comment, .composer, .lyrics, .bpm,
        .compilation, .copyright, .encodedBy, .grouping,
    ]
}

extension MediaFile {
    /// The values of `key`; nil when the file has none.
    public func values(_ key: MetadataKey) throws(MetadataError) -> [String]? { try values(key.rawValue) }

    /// Replaces the values of `key` (an empty list removes it).
    public mutating func set(_ key: MetadataKey, _ values: [String]) throws(MetadataError) { try set(key.rawValue, values) }

    /// Removes `key`; false when the file did not have it.
    @discardableResult
    public mutating func remove(_ key: MetadataKey) throws(MetadataError) -> Bool { try remove(key.rawValue) }

    // MARK: - Typed properties

    /// The first value of `key`, or nil.
    private func first(_ key: MetadataKey) -> String? { tags[key.rawValue]?.first }

    /// Sets `key` to `value` (nil removes it). A property setter cannot throw: a value the file
    /// cannot hold is kept as the edit's error, and `save()` throws it.
    private mutating func assign(_ key: MetadataKey, _ value: String?) {
        do {
            try set(key, value.map { [$0] } ?? [])
            deferredErrors[key.rawValue] = nil
        } catch {
            deferredErrors[key.rawValue] = error
        }
    }

    /// The values of a total key (`TRACKTOTAL`): the `m` of its pair; nil for other keys
    /// (`.some(nil)` when the file has no total).
    func totalValues(_ key: String) -> [String]?? {
        guard let pairKey = MetadataKey.totals[key.uppercased()] else { return nil }
        return .some(pair(pairKey).total.map { [String($0)] })
    }

    /// Sets a total key (`TRACKTOTAL=12`; no value removes the total and keeps the number);
    /// false for other keys.
    mutating func setTotal(_ key: String, _ values: [String]) throws(MetadataError) -> Bool {
        guard let pairKey = MetadataKey.totals[key.uppercased()] else { return false }
        let values = values.filter { !$0.isEmpty }
        var total: Int?
        if let value = values.first {
            guard values.count == 1, let number = Int(value.trimmingCharacters(" ")), number >= 0 else {
                throw MetadataError(.badValue, path: path, message: "\(key.uppercased()) takes one whole number, not \(values.map { "\"\($0)\"" }.joined(separator: ", "))")
            }
            total = number
        }
        let current = pair(pairKey)
        switch (current.number, total) {
        case (nil, nil): try set(pairKey.rawValue, [])
        case (let number?, nil): try set(pairKey.rawValue, ["\(number)/"])  // `n/`: the number alone
        case (let number?, let total?): try set(pairKey.rawValue, ["\(number)/\(total)"])
        case (nil, let total?): try set(pairKey.rawValue, ["/\(total)"])
        }
        return true
    }

    /// `TRACKNUMBER=4` (a number without a total) on a file whose track number has a total
    /// keeps that total (`4/12`), as `TRACKTOTAL` is a key of its own; `TRACKNUMBER=4/` gives
    /// the number alone. Nil when `values` are to be set as they are.
    /// `target` is the key as `set` resolved it.
    func keepingTotal(_ target: KeyTarget, _ values: [String]) -> [String]? {
        let values = values.filter { !$0.isEmpty }
        // (The key first: a long title is not searched for a `/` it cannot use.)
        // (Only a number keeps the total: `abc` is refused as typed, not as `abc/12`.)
        guard values.count == 1, case .uniform(let row) = target, row.kind == .pair, !values[0].utf8.contains(UInt8(ascii: "/")),
              Int(values[0].trimmingCharacters(" ")) != nil, let total = pair(MetadataKey(rawValue: row.key)).total else { return nil }
        return [values[0].trimmingCharacters(" ") + "/\(total)"]
    }

    /// `n/m` of a number-pair key, as numbers.
    private func pair(_ key: MetadataKey) -> (number: Int?, total: Int?) {
        guard let text = first(key) else {
            // A total without its number (a Vorbis `TRACKTOTAL` field alone) reads as its own key.
            let total = MetadataKey.totals.lazy.filter { $0.value == key }.compactMap { self.first(MetadataKey(rawValue: $0.key)) }.first
            return (nil, total.flatMap { Int($0.trimmingCharacters(" ")) })
        }
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        return (Int(String(parts[0]).trimmingCharacters(" ")), parts.count > 1 ? Int(String(parts[1]).trimmingCharacters(" ")) : nil)
    }

    private mutating func setPair(_ key: MetadataKey, number: Int?, total: Int?) {
        switch (number, total) {
        case (nil, nil): assign(key, nil)
        case (let n?, nil): assign(key, "\(n)/")  // `n/`: the number alone (`n` would keep a total)
        case (let n?, let t?): assign(key, "\(n)/\(t)")
        case (nil, let t?): assign(key, "/\(t)")  // a total alone: refused where it cannot stand alone (ID3)
        }
    }

    public var title: String? { get { first(.title) } set { assign(.title, newValue) } }
    public var artist: String? { get { first(.artist) } set { assign(.artist, newValue) } }
    public var album: String? { get { first(.album) } set { assign(.album, newValue) } }
    public var albumArtist: String? { get { first(.albumArtist) } set { assign(.albumArtist, newValue) } }
    /// The date as stored (`2024`, `2024-05-17`...).
    public var date: String? { get { first(.date) } set { assign(.date, newValue) } }
    public var genre: String? { get { first(.genre) } set { assign(.genre, newValue) } }
    public var comment: String? { get { first(.comment) } set { assign(.comment, newValue) } }
    /// The track number (the `n` of `TRACKNUMBER` `n/m`); setting it keeps the total.
    public var trackNumber: Int? { get { pair(.trackNumber).number } set { setPair(.trackNumber, number: newValue, total: pair(.trackNumber).total) } }
    /// The number of tracks (the `m` of `TRACKNUMBER` `n/m`); setting it keeps the number.
    public var trackTotal: Int? { get { pair(.trackNumber).total } set { setPair(.trackNumber, number: pair(.trackNumber).number, total: newValue) } }
    /// The disc number (the `n` of `DISCNUMBER` `n/m`); setting it keeps the total.
    public var discNumber: Int? { get { pair(.discNumber).number } set { setPair(.discNumber, number: newValue, total: pair(.discNumber).total) } }
    /// The number of discs (the `m` of `DISCNUMBER` `n/m`); setting it keeps the number.
    public var discTotal: Int? { get { pair(.discNumber).total } set { setPair(.discNumber, number: pair(.discNumber).number, total: newValue) } }
    /// True when the file is part of a compilation (iTunes `cpil`, ID3 `TCMP`).
    public var compilation: Bool? {
        get { first(.compilation).flatMap(MetadataValueConversion.boolean) }
        set { assign(.compilation, newValue.map { $0 ? "1" : "0" }) }
    }
}
