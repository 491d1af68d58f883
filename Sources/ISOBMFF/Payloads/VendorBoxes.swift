import MediaBytes

/// A `uuid` box (ISO/IEC 14496-12 section 4.2: a box type given as 16 bytes after the header),
/// named by its user type and decoded where the layout is known: Microsoft PIFF 1.1's track
/// encryption, sample encryption and protection system header (the forms `tenc`, `senc` and
/// `pssh` had before ISO/IEC 23001-7), Smooth Streaming's fragment times (`tfxd`, `tfrf`),
/// XMP packets and Google's spherical-video metadata (XML text). Any other user type is named
/// by its UUID and its bytes counted.
public struct UUIDBox: AtomPayload, Hashable {
    /// The 16-byte user type, as a UUID string.
    public var userType: String
    /// What the user type is, or "unknown".
    public var name: String
    /// A PIFF box, decoded as the box it became in ISO/IEC 23001-7.
    var protection: ProtectionBox?
    var decoded: [DescribedField]
    public var summary: String

    enum Known: String {
        case piffTrackEncryption = "8974dbce7be74c5184f97148f9882554"
        case piffSampleEncryption = "a2394f525a9b4f14a2446c427c648df4"
        case piffProtectionHeader = "d08a4f1810f34a82b6c832d8aba183d3"
        case smoothFragmentTime = "6d1d9b0542d544e680e2141daff757b2"
        case smoothNextFragments = "d4807ef2ca3946958e5426cb9e46a79f"
        case xmp = "be7acfcb97a942e89c71999491e3afac"
        case spherical = "ffcc8263f8554a938814587a02521fdd"

        var name: String {
            switch self {
            case .piffTrackEncryption: "PIFF track encryption (tenc)"
            case .piffSampleEncryption: "PIFF sample encryption (senc)"
            case .piffProtectionHeader: "PIFF protection system header (pssh)"
            case .smoothFragmentTime: "Smooth Streaming fragment time (tfxd)"
            case .smoothNextFragments: "Smooth Streaming next fragments (tfrf)"
            case .xmp: "XMP packet"
            case .spherical: "spherical video metadata (Google, RDF/XML)"
            }
        }
    }

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        let bytes = context.atom.header.extendedType ?? []
        userType = ProtectionBox.uuid(bytes)
        let known = Known(rawValue: bytes.hexString)
        name = known?.name ?? "unknown"
        decoded = []
        switch known {
        case .piffTrackEncryption, .piffSampleEncryption, .piffProtectionHeader:
            let type: FourCC = known == .piffTrackEncryption ? "tenc" : known == .piffSampleEncryption ? "senc" : "pssh"
            let box = try ProtectionBox(from: &reader, type: type, piff: true, context: context)
            protection = box
            summary = "PIFF \(type): \(box.summary)"
        case .smoothFragmentTime:
            let header = try FullBoxHeader(from: &reader)
            let wide = header.version == 1
            let time = wide ? try reader.readUInt64() : UInt64(try reader.readUInt32())
            let duration = wide ? try reader.readUInt64() : UInt64(try reader.readUInt32())
            decoded = header.fields + [DescribedField("fragmentAbsoluteTime", time), DescribedField("fragmentDuration", duration)]
            summary = "fragment at \(time), lasting \(duration)"
        case .smoothNextFragments:
            let header = try FullBoxHeader(from: &reader)
            let wide = header.version == 1
            let count = Int(try reader.readUInt8())
            var entries: [FieldValue] = []
            for _ in 0..<count {
                let time = wide ? try reader.readUInt64() : UInt64(try reader.readUInt32())
                let duration = wide ? try reader.readUInt64() : UInt64(try reader.readUInt32())
                entries.append(.record([DescribedField("fragmentAbsoluteTime", time), DescribedField("fragmentDuration", duration)]))
            }
            decoded = header.fields + [DescribedField("fragmentCount", count), DescribedField("fragments", .list(entries))]
            summary = "\(count) next fragments"
        case .xmp, .spherical:
            let text = String(decoding: reader.readRemainingBytes(), as: UTF8.self)
            decoded = [DescribedField(known == .xmp ? "xmp" : "rdf", text)]
            summary = "\(name), \(text.utf8.count) bytes"
        case nil:
            decoded = [DescribedField("data", .text("\(reader.remaining) bytes"))]
            summary = "user type \(userType), \(reader.remaining) bytes"
            try reader.skip(reader.remaining)
        }
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        [DescribedField("userType", userType), DescribedField("userTypeName", name)] + (protection?.fields(options) ?? decoded)
    }
}

/// `Xtra` (in `moov/udta`): the Windows Media attributes Microsoft's tools write into MP4 files
/// (`WM/EncodingTime`, `WM/SharedUserRating`, `WM/MediaClassPrimaryID`...). Each attribute: its
/// size, the length of its name, the name, a count of values, and each value as its size, a
/// type and little-endian bytes (strings in UTF-16, times in 100 ns since 1601, GUIDs in the
/// Windows byte order), as ExifTool's `Microsoft::Xtra` reads them.
public struct XtraBox: AtomPayload, Hashable {
    public struct Attribute: Sendable, Hashable {
        public var name: String
        public var values: [FieldValue]
    }

    public var attributes: [Attribute]
    /// Bytes after the last attribute that form none.
    public var trailing: Int

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        attributes = []
        while reader.remaining >= 8 {
            var probe = reader
            let size = Int(try probe.readUInt32())
            guard size >= 8, size <= reader.remaining else { break }
            var entry = try reader.readSubReader(size)
            try entry.skip(4)
            let nameLength = Int(try entry.readUInt32())
            guard nameLength <= entry.remaining else { break }
            let name = String(decoding: try entry.readBytes(nameLength), as: UTF8.self)
            var values: [FieldValue] = []
            if entry.remaining >= 4 {
                // (A count the attribute's bytes cannot hold stops at its end, not after
                // four billion empty turns.)
                let count = Int(try entry.readUInt32())
                for _ in 0..<count {
                    guard entry.remaining >= 6 else { break }
                    let valueSize = Int(try entry.readUInt32())
                    let type = try entry.readUInt16()
                    guard valueSize >= 6, valueSize - 6 <= entry.remaining else { break }
                    values.append(Self.value(type: type, bytes: try entry.readBytes(valueSize - 6)))
                }
            }
            attributes.append(Attribute(name: name, values: values))
        }
        trailing = reader.remaining
        try reader.skip(reader.remaining)
    }

    /// One value by its type: 8 UTF-16LE text, 19 a 64-bit number, 21 a FILETIME (shown as Unix
    /// seconds beside its ticks), 72 a GUID; other types as their bytes.
    static func value(type: UInt16, bytes: [UInt8]) -> FieldValue {
        func littleEndian(_ slice: ArraySlice<UInt8>) -> UInt64 { slice.reversed().reduce(0) { $0 << 8 | UInt64($1) } }
        switch type {
        case 8:
            var units: [UInt16] = []
            var index = 0
            while index + 1 < bytes.count {
                units.append(UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8)
                index += 2
            }
            while units.last == 0 { units.removeLast() }
            return .text(String(decoding: units, as: UTF16.self))
        case 19 where bytes.count == 8:
            return FieldValue(littleEndian(bytes[...]))
        case 21 where bytes.count == 8:
            let ticks = littleEndian(bytes[...])
            return .record([DescribedField("fileTime", ticks), DescribedField("unixSeconds", Double(ticks) / 10_000_000 - 11_644_473_600)])
        case 72 where bytes.count == 16:
            // Data1, Data2 and Data3 little-endian, Data4 as stored.
            let ordered = Array(bytes[0..<4].reversed()) + Array(bytes[4..<6].reversed()) + Array(bytes[6..<8].reversed()) + Array(bytes[8..<16])
            return .text(ProtectionBox.uuid(ordered).uppercased())
        default:
            return .record([DescribedField("type", type), DescribedField("bytes", .bytes(bytes))])
        }
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        options.tableFields(attributes) { .record([DescribedField("name", $0.name), DescribedField("values", .list($0.values))]) }
            + (trailing > 0 ? [DescribedField("trailingBytes", trailing)] : [])
    }

    public var summary: String {
        "\(attributes.count) attributes" + (attributes.isEmpty ? "" : ": " + attributes.prefix(3).map(\.name).joined(separator: ", ") + (attributes.count > 3 ? "…" : ""))
    }
}
