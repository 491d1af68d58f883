import MediaBytes

/// The boxes of encrypted media: `schm` (scheme type, ISO/IEC 14496-12 section 8.12.5), `tenc`
/// (track encryption, ISO/IEC 23001-7 section 8.2), `senc` (sample encryption, 23001-7 section
/// 7.2: each sample's IV and subsample map), `saiz` and `saio` (sample auxiliary information
/// sizes and offsets, 14496-12 sections 8.7.8 and 8.7.9), and `pssh` (protection system
/// specific header, 23001-7 section 8.1, known systems named).
public struct ProtectionBox: AtomPayload, Hashable {
    public var header: FullBoxHeader
    public var fields: [DescribedField]
    /// The per-sample entries (`senc` samples, `saiz` sizes, `saio` offsets, `pssh` key IDs).
    public var entries: [FieldValue]
    public var summary: String

    /// The DRM systems' IDs (from the DASH-IF registry of content protection identifiers).
    static let systems: [String: String] = [
        "edef8ba979d64acea3c827dcd51d21ed": "Widevine", "9a04f07998404286ab92e65be0885f95": "PlayReady",
        "94ce86fb07ff4f43adb893d2fa968ca2": "FairPlay", "1077efecc0b24d02ace33c1e52e2fb4b": "W3C Common (clear key)",
        "5e629af538da4063897797ffbd9902d4": "Marlin", "adb41c242dbf4a6d958b4457c0d27b95": "Nagra",
        "f239e769efa348509c16a903c6932efb": "Adobe Primetime", "3d5e6d359b9a41e8b843dd3c6e72c42c": "ChinaDRM",
    ]

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        entries = []
        switch context.atom.type {
        case "schm":
            let scheme = try reader.readFourCC(), version = try reader.readUInt32()
            fields = [DescribedField("schemeType", scheme), DescribedField("schemeVersion", "\(version >> 16).\(version & 0xFFFF)")]
            if header.flags & 1 != 0 { fields.append(DescribedField("schemeURI", reader.readCString())) }
            summary = "scheme \(scheme) \(version >> 16).\(version & 0xFFFF)"
        case "tenc":
            _ = try reader.readUInt8()
            let pattern = try reader.readUInt8()
            let isProtected = try reader.readUInt8(), ivSize = try reader.readUInt8()
            let kid = try reader.readBytes(16)
            fields = []
            if header.version > 0 { fields += [DescribedField("defaultCryptByteBlock", pattern >> 4), DescribedField("defaultSkipByteBlock", pattern & 0x0F)] }
            fields += [DescribedField("defaultIsProtected", isProtected), DescribedField("defaultPerSampleIVSize", ivSize),
                       DescribedField("defaultKID", Self.uuid(kid))]
            if isProtected == 1 && ivSize == 0 {
                let size = Int(try reader.readUInt8())
                fields.append(DescribedField("defaultConstantIV", .bytes(try reader.readBytes(size))))
            }
            summary = (isProtected == 1 ? "protected" : "clear") + ", IV \(ivSize) bytes, KID \(Self.uuid(kid))"
        case "senc":
            let count = Int(try reader.readUInt32())
            let subsamples = header.flags & 2 != 0
            // The IV size is the track's `tenc`'s; without one in the file, the size that makes
            // the box's length come out exactly (said so).
            let start = reader
            var chosen: (Int, [FieldValue])?
            let known = context.perSampleIVSize
            for ivSize in known.map({ [$0] }) ?? [8, 16, 0] {
                var attempt = start
                if let samples = try? Self.samples(&attempt, count: count, ivSize: ivSize, subsamples: subsamples), attempt.isAtEnd {
                    chosen = (ivSize, samples)
                    break
                }
            }
            fields = [DescribedField("sampleCount", count), DescribedField("subsampleEncryption", subsamples)]
            if let (ivSize, samples) = chosen {
                fields.append(DescribedField("perSampleIVSize", ivSize))
                if known == nil { fields.append(DescribedField("ivSizeFrom", "the box's length (no tenc found)")) }
                entries = samples
                reader = start
                try reader.skip(reader.remaining)
                summary = "\(count) samples, IV \(ivSize) bytes" + (subsamples ? ", subsamples" : "")
            } else {
                fields.append(DescribedField("undecoded", reader.remaining))
                summary = "\(count) samples (" + (known.map { "an IV size of \($0), as the track's tenc says, does not fit the box" } ?? "no IV size fits the box") + ")"
            }
        case "saiz":
            fields = []
            if header.flags & 1 != 0 { fields += [DescribedField("auxInfoType", try reader.readFourCC()), DescribedField("auxInfoTypeParameter", try reader.readUInt32())] }
            let defaultSize = try reader.readUInt8()
            let count = Int(try reader.readUInt32())
            fields += [DescribedField("defaultSampleInfoSize", defaultSize), DescribedField("sampleCount", count)]
            if defaultSize == 0 { entries = try reader.readBytes(min(count, reader.remaining)).map { FieldValue($0) } }
            summary = "\(count) samples, " + (defaultSize == 0 ? "sizes listed" : "\(defaultSize) bytes each")
        case "saio":
            fields = []
            if header.flags & 1 != 0 { fields += [DescribedField("auxInfoType", try reader.readFourCC()), DescribedField("auxInfoTypeParameter", try reader.readUInt32())] }
            let count = Int(try reader.readUInt32())
            fields.append(DescribedField("entryCount", count))
            let width = header.version == 0 ? 4 : 8
            for _ in 0..<min(count, reader.remaining / width) { entries.append(FieldValue(try reader.readUInt(width: width))) }
            summary = "\(count) offsets"
        default:  // pssh
            let system = Self.hex(try reader.readBytes(16))
            fields = [DescribedField("systemID", Self.uuid(system)), DescribedField("system", Self.systems[system] ?? "unknown")]
            if header.version > 0 {
                let count = Int(try reader.readUInt32())
                for _ in 0..<min(count, reader.remaining / 16) { entries.append(.text(Self.uuid(try reader.readBytes(16)))) }
                fields.append(DescribedField("kidCount", count))
            }
            let size = try reader.readUInt32()
            fields.append(DescribedField("dataSize", size))
            summary = (Self.systems[system] ?? "system \(Self.uuid(system))") + ", \(size) bytes of data"
        }
    }

    static func samples(_ reader: inout ByteReader, count: Int, ivSize: Int, subsamples: Bool) throws -> [FieldValue] {
        var samples: [FieldValue] = []
        // Each sample takes at least this many bytes: a count the box cannot hold is refused
        // before anything is made of it.
        let perSample = ivSize + (subsamples ? 2 : 0)
        guard perSample > 0 else { return [] }
        guard count <= reader.remaining / perSample else { throw ByteReaderError(offset: reader.offset, needed: count * perSample, available: reader.remaining) }
        for _ in 0..<count {
            var record = [DescribedField("iv", .bytes(try reader.readBytes(ivSize)))]
            if subsamples {
                let pieces = Int(try reader.readUInt16())
                var map: [FieldValue] = []
                for _ in 0..<pieces {
                    map.append(.record([DescribedField("clear", try reader.readUInt16()), DescribedField("protected", try reader.readUInt32())]))
                }
                record.append(DescribedField("subsamples", .list(map)))
            }
            samples.append(.record(record))
        }
        return samples
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.hexString }

    /// 16 bytes as a UUID (`edef8ba9-79d6-4ace-a3c8-27dcd51d21ed`).
    static func uuid(_ bytes: [UInt8]) -> String { uuid(bytes.hexString) }

    static func uuid(_ hex: String) -> String {
        guard hex.count == 32 else { return hex }
        let h = Array(hex)
        return String(h[0..<8]) + "-" + String(h[8..<12]) + "-" + String(h[12..<16]) + "-" + String(h[16..<20]) + "-" + String(h[20..<32])
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        header.fields + fields + (entries.isEmpty ? [] : options.tableFields(entries) { $0 })
    }
}
