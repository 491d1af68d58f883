import MediaBytes

/// A QuickTime user-data text item such as `©nam` in `moov/udta` (QuickTime File Format,
/// "User data text strings and language codes"): one or more strings, each a 16-bit length,
/// a 16-bit language code and the text.
public struct UserDataTextAtom: AtomPayload, Hashable {
    public struct Entry: Sendable, Hashable {
        public var language: String
        public var text: String
    }

    public var entries: [Entry]
    /// `©xyz`: the first string read as an ISO 6709 point (latitude, longitude, altitude).
    public var location: ISO6709Point?

    /// The file bytes of the strings, and of zero padding after them.
    var stringsRange: Range<UInt64>?
    var paddingRange: Range<UInt64>?

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        entries = []
        let start = reader.offset
        while reader.remaining >= 4 {
            let length = try reader.readUInt16()
            let language = try reader.readUInt16()
            let text = try reader.readBytes(Int(length))
            // Text under a Macintosh language code is Mac OS Roman (`UserDataItem.LocalizedText`).
            entries.append(Entry(language: LanguageCode.decode(language), text: UserDataItem.LocalizedText(decoding: text, languageCode: language).text))
        }
        if reader.offset > start { stringsRange = start..<reader.offset }
        let padding = reader.offset
        guard reader.remaining == 0 || reader.readRemainingBytes().allSatisfy({ $0 == 0 }) else {
            throw AtomError(.invalidPayload, offset: context.atom.offset, message: "user-data text item ends with bytes that form no string")
        }
        if reader.offset > padding { paddingRange = padding..<reader.offset }
        if context.atom.type == "\u{A9}xyz", let text = entries.first?.text { location = ISO6709Point(text) }
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        var table = options.tableFields(entries) { .record([DescribedField("language", $0.language), DescribedField("text", $0.text)]) }
        if let index = table.firstIndex(where: { $0.name == "entries" }) { table[index].range = stringsRange }
        if let paddingRange { table.append(DescribedField("padding", .text("\(paddingRange.count) bytes"), range: paddingRange)) }
        return table
            + (location.map { point in
                [DescribedField("latitude", point.latitude), DescribedField("longitude", point.longitude)]
                    + (point.altitude.map { [DescribedField("altitude", $0)] } ?? [])
            } ?? [])
    }

    public var summary: String {
        if let location { return location.description }
        return entries.map { "\($0.language) \(FieldValue.text($0.text).summaryText)" }.joined(separator: "; ")
    }
}

/// A point as ISO 6709 writes it in QuickTime's `©xyz` and the `com.apple.quicktime.location.ISO6709`
/// key: latitude and longitude (each degrees, degrees and minutes, or degrees, minutes and
/// seconds, by how many digits come before the point), an optional altitude in metres, then
/// `/` (a coordinate reference system may come before it).
public struct ISO6709Point: Sendable, Hashable, CustomStringConvertible {
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double?

    /// Nil when `text` is not such a point (or a coordinate is out of range).
    public init?(_ text: String) {
        var parts: [Substring] = []
        var rest = Substring(text)
        while let sign = rest.first, sign == "+" || sign == "-" {
            let body = rest.dropFirst()
            let end = body.firstIndex { !($0.isASCII && ($0.isNumber || $0 == ".")) } ?? body.endIndex
            guard end > body.startIndex else { return nil }
            parts.append(rest[rest.startIndex..<end])
            rest = rest[end...]
            if parts.count == 3 { break }
        }
        guard parts.count >= 2, rest.isEmpty || rest.hasPrefix("/") || rest.hasPrefix("CRS") else { return nil }
        guard let latitude = Self.degrees(parts[0], degreeDigits: 2), abs(latitude) <= 90,
              let longitude = Self.degrees(parts[1], degreeDigits: 3), abs(longitude) <= 180 else { return nil }
        self.latitude = latitude
        self.longitude = longitude
        altitude = parts.count == 3 ? Double(parts[2]) : nil
    }

    /// `±DD[MM[SS]][.fraction]` (for longitude `±DDD...`) in decimal degrees.
    static func degrees(_ part: Substring, degreeDigits: Int) -> Double? {
        let negative = part.first == "-"
        let digits = part.dropFirst()
        let whole = digits.prefix { $0 != "." }
        let fraction = Double("0" + digits.dropFirst(whole.count)) ?? 0
        guard whole.count >= degreeDigits, (whole.count - degreeDigits) % 2 == 0, whole.count - degreeDigits <= 4,
              let wholeValue = Int(whole) else { return nil }
        let value: Double
        switch whole.count - degreeDigits {
        case 0: value = Double(wholeValue) + fraction
        case 2: value = Double(wholeValue / 100) + (Double(wholeValue % 100) + fraction) / 60
        default: value = Double(wholeValue / 10_000) + Double(wholeValue / 100 % 100) / 60 + (Double(wholeValue % 100) + fraction) / 3600
        }
        return negative ? -value : value
    }

    public var description: String {
        "latitude \(latitude), longitude \(longitude)" + (altitude.map { ", altitude \($0) m" } ?? "")
    }
}
