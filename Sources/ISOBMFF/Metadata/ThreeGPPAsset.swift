import MediaBytes

/// A 3GPP asset information box in `udta` (3GPP TS 26.244 section 8: `titl`, `auth`, `perf`,
/// `gnre`, `dscp`, `cprt`, `albm`, `yrrc`, `rtng`, `clsf`, `kywd`, `loci`): a full box with a
/// packed ISO 639-2/T language and a string (UTF-8, or UTF-16 with a byte order mark), plus the
/// type's own fields.
public struct ThreeGPPAsset: Sendable, Hashable {
    /// The asset types this reader knows.
    public static let types: Set<FourCC> = ["titl", "auth", "perf", "gnre", "dscp", "cprt", "albm", "yrrc", "rtng", "clsf", "kywd", "loci"]

    /// A place (`loci`).
    public struct Location: Sendable, Hashable {
        public var name: String
        /// 0 shooting location, 1 real location, 2 fictional location.
        public var role: UInt8
        /// Degrees, as 16.16 fixed-point numbers in the box.
        public var longitude: Double
        public var latitude: Double
        /// Metres.
        public var altitude: Double
        public var astronomicalBody: String
        public var notes: String

        public init(name: String, role: UInt8 = 0, longitude: Double, latitude: Double, altitude: Double = 0, astronomicalBody: String = "earth", notes: String = "") {
            self.name = name
            self.role = role
            self.longitude = longitude
            self.latitude = latitude
            self.altitude = altitude
            self.astronomicalBody = astronomicalBody
            self.notes = notes
        }
    }

    public var type: FourCC
    public var version: UInt8 = 0
    public var flags: UInt32 = 0
    /// Packed ISO 639-2/T language (0 for `yrrc`, which has none).
    public var languageCode: UInt16
    /// The string (title, author, genre... the rating or classification info, the keyword
    /// list joined by nothing: see `keywords`).
    public var text: String
    /// The string was UTF-16 in the box, and is written back as UTF-16.
    public var usesUTF16 = false
    /// `albm`: the optional track number.
    public var trackNumber: UInt8?
    /// `yrrc`: the recording year.
    public var year: UInt16?
    /// `rtng`: rating entity and criteria; `clsf`: classification entity (in `entity`) and table.
    public var entity: FourCC?
    public var criteria: FourCC?
    public var classificationTable: UInt16?
    /// `kywd`: the keywords.
    public var keywords: [String]?
    /// `loci`: the location.
    public var location: Location?

    /// The language as a three-letter code.
    public var language: String { LanguageCode.decode(languageCode) }

    /// A text asset (`titl auth perf gnre dscp cprt albm`).
    public init(type: FourCC, text: String, language: String = "und") {
        self.type = type
        self.text = text
        languageCode = LanguageCode.pack(language) ?? LanguageCode.pack("und")!
    }

    /// A recording year (`yrrc`).
    public init(year: UInt16) {
        type = "yrrc"
        text = ""
        languageCode = 0
        self.year = year
    }

    init(type: FourCC, payload: ArraySlice<UInt8>) throws(ByteReaderError) {
        self.type = type
        var reader = ByteReader(payload)
        version = try reader.readUInt8()
        flags = try reader.readUInt24()
        text = ""
        languageCode = 0
        switch type {
        case "yrrc":
            year = try reader.readUInt16()
            return
        case "rtng":
            entity = try reader.readFourCC()
            criteria = try reader.readFourCC()
        case "clsf":
            entity = try reader.readFourCC()
            classificationTable = try reader.readUInt16()
        default:
            break
        }
        languageCode = try reader.readUInt16() & 0x7FFF
        switch type {
        case "kywd":
            let count = try reader.readUInt8()
            var words: [String] = []
            for _ in 0..<count {
                let size = try reader.readUInt8()
                var word = ByteReader(try reader.readBytes(Int(size)))
                words.append(Self.readString(&word, utf16: &usesUTF16))
            }
            keywords = words
        case "loci":
            let name = Self.readString(&reader, utf16: &usesUTF16)
            let role = try reader.readUInt8()
            let longitude = Double(try reader.readInt32()) / 65536
            let latitude = Double(try reader.readInt32()) / 65536
            let altitude = Double(try reader.readInt32()) / 65536
            var ignored = false
            let body = Self.readString(&reader, utf16: &ignored)
            let notes = Self.readString(&reader, utf16: &ignored)
            location = Location(name: name, role: role, longitude: longitude, latitude: latitude, altitude: altitude, astronomicalBody: body, notes: notes)
        default:
            text = Self.readString(&reader, utf16: &usesUTF16)
            if type == "albm", reader.remaining >= 1 { trackNumber = try reader.readUInt8() }
        }
    }

    /// The box payload (after the atom header).
    public var encoded: [UInt8] {
        var writer = ByteWriter(capacity: 64)
        writer.writeUInt8(version)
        writer.writeUInt24(flags)
        switch type {
        case "yrrc":
            writer.writeUInt16(year ?? 0)
            return writer.bytes
        case "rtng":
            writer.writeFourCC(entity ?? "    ")
            writer.writeFourCC(criteria ?? "    ")
        case "clsf":
            writer.writeFourCC(entity ?? "    ")
            writer.writeUInt16(classificationTable ?? 0)
        default:
            break
        }
        writer.writeUInt16(languageCode & 0x7FFF)
        switch type {
        case "kywd":
            let words = (keywords ?? []).prefix(255)
            writer.writeUInt8(UInt8(words.count))
            for word in words {
                let bytes = Array(encodeString(word).prefix(255))
                writer.writeUInt8(UInt8(bytes.count))
                writer.writeBytes(bytes)
            }
        case "loci":
            let location = location ?? Location(name: "", longitude: 0, latitude: 0)
            writer.writeBytes(encodeString(location.name))
            writer.writeUInt8(location.role)
            for value in [location.longitude, location.latitude, location.altitude] {
                writer.writeUInt32(UInt32(bitPattern: Int32(clamping: Int64((value * 65536).rounded()))))
            }
            writer.writeBytes(Array(location.astronomicalBody.utf8) + [0])
            writer.writeBytes(Array(location.notes.utf8) + [0])
        default:
            writer.writeBytes(encodeString(text))
            if type == "albm", let trackNumber { writer.writeUInt8(trackNumber) }
        }
        return writer.bytes
    }

    private func encodeString(_ string: String) -> [UInt8] {
        guard usesUTF16 else { return Array(string.utf8) + [0] }
        var bytes: [UInt8] = [0xFE, 0xFF]
        for unit in string.utf16 { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        return bytes + [0, 0]
    }

    /// A null-terminated string: UTF-16 when it opens with a byte order mark, else UTF-8. A
    /// missing terminator ends the string at the end of the data.
    private static func readString(_ reader: inout ByteReader, utf16: inout Bool) -> String {
        let rest = (try? reader.peekBytes(reader.remaining)) ?? []
        if rest.count >= 2, (rest[rest.startIndex] == 0xFE && rest[rest.startIndex + 1] == 0xFF) || (rest[rest.startIndex] == 0xFF && rest[rest.startIndex + 1] == 0xFE) {
            utf16 = true
            let bigEndian = rest[rest.startIndex] == 0xFE
            var units: [UInt16] = []
            var i = rest.startIndex + 2
            while i + 1 < rest.endIndex {
                let unit = bigEndian ? UInt16(rest[i]) << 8 | UInt16(rest[i + 1]) : UInt16(rest[i + 1]) << 8 | UInt16(rest[i])
                i += 2
                if unit == 0 { break }
                units.append(unit)
            }
            try? reader.skip(min(i, rest.endIndex) - rest.startIndex)
            return String(decoding: units, as: UTF16.self)
        }
        let end = rest.firstIndex(of: 0) ?? rest.endIndex
        try? reader.skip(min(end + 1, rest.endIndex) - rest.startIndex)
        return String(decoding: rest[rest.startIndex..<end], as: UTF8.self)
    }
}
