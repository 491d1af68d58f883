import MediaBytes

/// The boxes of encrypted media: `schm` (scheme type, ISO/IEC 14496-12 section 8.12.5), `tenc`
/// (track encryption, ISO/IEC 23001-7 section 8.2), `senc` (sample encryption, 23001-7 section
/// 7.2: each sample's IV and subsample map), `saiz` and `saio` (sample auxiliary information
/// sizes and offsets, 14496-12 sections 8.7.8 and 8.7.9), and `pssh` (protection system
/// specific header, 23001-7 section 8.1, known systems named).
public struct ProtectionBox: AtomPayload, Hashable {
    public var header: FullBoxHeader
    public var fields: [DescribedField]
    public var summary: String
    /// The per-sample entries (`senc` samples, `saiz` sizes, `saio` offsets, `pssh` key IDs),
    /// kept as their bytes and decoded when listed.
    var entries: Entries

    /// How the entries are laid out in `bytes`.
    struct Entries: Hashable {
        enum Layout: Hashable { case none, samples(ivSize: Int, subsamples: Bool), sizes, offsets(width: Int), keyIDs }
        var layout: Layout = .none
        var count = 0
        var bytes: [UInt8] = []
        /// The file bytes of the entries, and of their count when no field above holds it.
        var range: Range<UInt64>?
        var countRange: Range<UInt64>?
    }

    /// The DRM systems' IDs (from the DASH-IF registry of content protection identifiers).
    static let systems: [String: String] = [
        "edef8ba979d64acea3c827dcd51d21ed": "Widevine", "9a04f07998404286ab92e65be0885f95": "PlayReady",
        "94ce86fb07ff4f43adb893d2fa968ca2": "FairPlay", "1077efecc0b24d02ace33c1e52e2fb4b": "W3C Common (clear key)",
        "5e629af538da4063897797ffbd9902d4": "Marlin", "adb41c242dbf4a6d958b4457c0d27b95": "Nagra",
        "f239e769efa348509c16a903c6932efb": "Adobe Primetime", "3d5e6d359b9a41e8b843dd3c6e72c42c": "ChinaDRM",
    ]

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        try self.init(from: &reader, type: context.atom.type, piff: false, context: context)
    }

    /// A box of `type`'s layout; `piff`: its Microsoft PIFF 1.1 form, a `uuid` box (`tenc`
    /// with an algorithm ID, `senc` that can override the track's IV size and key ID).
    init(from reader: inout ByteReader, type: FourCC, piff: Bool, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        entries = Entries()
        var list = FieldList(at: reader, recording: context.recordsFieldBytes)
        switch type {
        case "tenc" where piff:
            let algorithm = try reader.readUInt24()
            list.add("defaultAlgorithmID", algorithm, reader)
            list.derive("algorithm", .text(Self.piffAlgorithm(algorithm)))
            let ivSize = try reader.readUInt8()
            list.add("defaultIVSize", ivSize, reader)
            let kid = try reader.readBytes(16)
            list.add("defaultKID", Self.uuid(kid), reader)
            summary = "\(Self.piffAlgorithm(algorithm)), IV \(ivSize) bytes, KID \(Self.uuid(kid))"
        case "schm":
            let scheme = try reader.readFourCC()
            list.add("schemeType", .text(scheme.description), reader)
            let version = try reader.readUInt32()
            list.add("schemeVersion", "\(version >> 16).\(version & 0xFFFF)", reader)
            if header.flags & 1 != 0 { list.add("schemeURI", reader.readCString(), reader) }
            summary = "scheme \(scheme) \(version >> 16).\(version & 0xFFFF)"
        case "tenc":
            _ = try reader.readUInt8()
            let pattern = try reader.readUInt8()
            if header.version > 0 {
                list.add("defaultCryptByteBlock", pattern >> 4, reader)
                list.add("defaultSkipByteBlock", pattern & 0x0F, reader)
            }
            let isProtected = try reader.readUInt8()
            list.add("defaultIsProtected", isProtected, reader)
            let ivSize = try reader.readUInt8()
            list.add("defaultPerSampleIVSize", ivSize, reader)
            let kid = try reader.readBytes(16)
            list.add("defaultKID", Self.uuid(kid), reader)
            if isProtected == 1 && ivSize == 0 {
                let size = Int(try reader.readUInt8())
                list.add("defaultConstantIV", .bytes(try reader.readBytes(size)), reader)
            }
            summary = (isProtected == 1 ? "protected" : "clear") + ", IV \(ivSize) bytes, KID \(Self.uuid(kid))"
        case "senc":
            var known = context.perSampleIVSize
            if piff, header.flags & 1 != 0 {
                let algorithm = try reader.readUInt24()
                list.add("algorithmID", algorithm, reader)
                list.derive("algorithm", .text(Self.piffAlgorithm(algorithm)))
                let ivSize = try reader.readUInt8()
                list.add("ivSize", ivSize, reader)
                list.add("kid", Self.uuid(try reader.readBytes(16)), reader)
                known = Int(ivSize)
            }
            let count = Int(try reader.readUInt32())
            list.add("sampleCount", count, reader)
            let subsamples = header.flags & 2 != 0
            list.derive("subsampleEncryption", .boolean(subsamples))
            // The IV size is the track's `tenc`'s; without one in the file, the size that makes
            // the box's length come out exactly (said so). The samples are walked to check, and
            // decoded only when listed.
            let chosen = (known.map { [$0] } ?? [8, 16, 0]).first { ivSize in
                var attempt = reader
                return (try? Self.skipSamples(&attempt, count: count, ivSize: ivSize, subsamples: subsamples)) != nil && attempt.isAtEnd
            }
            if let ivSize = chosen {
                list.derive("perSampleIVSize", FieldValue(ivSize))
                if known == nil { list.derive("ivSizeFrom", .text("the box's length (no tenc found)")) }
                let start = reader.offset
                entries = Entries(layout: ivSize == 0 && !subsamples ? .none : .samples(ivSize: ivSize, subsamples: subsamples), count: count,
                                  bytes: reader.readRemainingBytes(), range: start..<reader.offset)
                summary = "\(count) samples, IV \(ivSize) bytes" + (subsamples ? ", subsamples" : "")
            } else {
                let rest = reader.remaining
                try reader.skip(rest)
                list.add("undecoded", rest, reader)
                summary = "\(count) samples (" + (known.map { "an IV size of \($0), as the track's tenc says, does not fit the box" } ?? "no IV size fits the box") + ")"
            }
        case "saiz":
            if header.flags & 1 != 0 {
                list.add("auxInfoType", .text(try reader.readFourCC().description), reader)
                list.add("auxInfoTypeParameter", try reader.readUInt32(), reader)
            }
            let defaultSize = try reader.readUInt8()
            list.add("defaultSampleInfoSize", defaultSize, reader)
            let count = Int(try reader.readUInt32())
            list.add("sampleCount", count, reader)
            if defaultSize == 0 {
                let start = reader.offset
                entries = Entries(layout: .sizes, count: count, bytes: reader.readRemainingBytes(), range: start..<reader.offset)
            }
            summary = "\(count) samples, " + (defaultSize == 0 ? "sizes listed" : "\(defaultSize) bytes each")
        case "saio":
            if header.flags & 1 != 0 {
                list.add("auxInfoType", .text(try reader.readFourCC().description), reader)
                list.add("auxInfoTypeParameter", try reader.readUInt32(), reader)
            }
            let before = reader.offset
            let count = Int(try reader.readUInt32())
            let start = reader.offset
            entries = Entries(layout: .offsets(width: header.version == 0 ? 4 : 8), count: count, bytes: reader.readRemainingBytes(),
                              range: start..<reader.offset, countRange: before..<start)
            summary = "\(count) offsets"
        default:  // pssh
            let system = Self.hex(try reader.readBytes(16))
            list.add("systemID", Self.uuid(system), reader)
            list.derive("system", .text(Self.systems[system] ?? "unknown"))
            if header.version > 0 {
                let count = Int(try reader.readUInt32())
                list.add("kidCount", count, reader)
                let start = reader.offset
                let kids = try reader.readBytes(min(count, reader.remaining / 16) * 16)
                entries = Entries(layout: .keyIDs, count: count, bytes: kids, range: start..<reader.offset)
            }
            let size = try reader.readUInt32()
            list.add("dataSize", size, reader)
            if size > 0, Int(size) <= reader.remaining {
                try reader.skip(Int(size))
                list.add("data", .text("\(size) bytes"), reader)
            }
            summary = (Self.systems[system] ?? "system \(Self.uuid(system))") + ", \(size) bytes of data"
        }
        list.addRest(&reader)
        fields = list.fields
    }

    /// Walks `count` samples of a `senc` box without keeping them; throws where they do not fit.
    static func skipSamples(_ reader: inout ByteReader, count: Int, ivSize: Int, subsamples: Bool) throws {
        // Each sample takes at least this many bytes: a count the box cannot hold is refused
        // before the walk.
        let perSample = ivSize + (subsamples ? 2 : 0)
        guard perSample > 0 else { return }
        guard count <= reader.remaining / perSample else { throw ByteReaderError(offset: reader.offset, needed: count * perSample, available: reader.remaining) }
        for _ in 0..<count {
            try reader.skip(ivSize)
            if subsamples { try reader.skip(6 * Int(try reader.readUInt16())) }
        }
    }

    /// One `senc` sample: its IV and subsample map.
    static func sample(_ reader: inout ByteReader, ivSize: Int, subsamples: Bool) throws -> FieldValue {
        var record = [DescribedField("iv", .bytes(try reader.readBytes(ivSize)))]
        if subsamples {
            let pieces = Int(try reader.readUInt16())
            var map: [FieldValue] = []
            for _ in 0..<pieces {
                map.append(.record([DescribedField("clear", try reader.readUInt16()), DescribedField("protected", try reader.readUInt32())]))
            }
            record.append(DescribedField("subsamples", .list(map)))
        }
        return .record(record)
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.hexString }

    /// PIFF 1.1's AlgorithmID: 0 clear, 1 AES-CTR 128, 2 AES-CBC 128.
    static func piffAlgorithm(_ id: UInt32) -> String {
        switch id {
        case 0: "not encrypted"
        case 1: "AES-CTR 128"
        case 2: "AES-CBC 128"
        default: "algorithm \(id)"
        }
    }

    /// 16 bytes as a UUID (`edef8ba9-79d6-4ace-a3c8-27dcd51d21ed`).
    static func uuid(_ bytes: [UInt8]) -> String { uuid(bytes.hexString) }

    static func uuid(_ hex: String) -> String {
        guard hex.count == 32 else { return hex }
        let h = Array(hex)
        return String(h[0..<8]) + "-" + String(h[8..<12]) + "-" + String(h[12..<16]) + "-" + String(h[16..<20]) + "-" + String(h[20..<32])
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        let table: [DescribedField]
        switch entries.layout {
        case .none: table = []
        case .samples(let ivSize, let subsamples):
            table = options.tableFields(count: entries.count, bytes: entries.bytes, countRange: entries.countRange, entriesRange: entries.range) {
                try Self.sample(&$0, ivSize: ivSize, subsamples: subsamples)
            }
        case .sizes:
            table = options.tableFields(count: entries.count, bytes: entries.bytes, countRange: entries.countRange, entriesRange: entries.range) {
                FieldValue(try $0.readUInt8())
            }
        case .offsets(let width):
            table = options.tableFields(count: entries.count, bytes: entries.bytes, countRange: entries.countRange, entriesRange: entries.range) {
                FieldValue(try $0.readUInt(width: width))
            }
        case .keyIDs:
            table = options.tableFields(count: entries.count, bytes: entries.bytes, countRange: entries.countRange, entriesRange: entries.range) {
                .text(Self.uuid(try $0.readBytes(16)))
            }
        }
        return header.fields + fields + table
    }
}

/// The samples of a `senc` box (ISO/IEC 23001-7 section 7.2) looked up by sample: each one's
/// IV and subsamples read from the box's bytes when asked for. Without subsamples a sample is
/// found by arithmetic; with them a walk from the nearest of the offsets kept every 1024
/// samples (a track of a million samples keeps a thousand offsets, not a million records).
struct SampleEncryptionIndex: Sendable {
    private let ivSize: Int
    private let subsamples: Bool
    private let count: Int
    private let bytes: [UInt8]
    private let checkpoints: [Int]
    static let checkpointInterval = 1024

    /// The samples of `senc`, read with the track's IV size (nil: the size its length allows);
    /// nil when the box does not decode.
    init?(_ senc: Atom, tree: AtomTree, perSampleIVSize: Int?, parent: FourCC) {
        guard let payload = try? tree.fieldBytes(of: senc) else { return nil }
        var reader = ByteReader(payload, baseOffset: senc.payloadOffset)
        let context = AtomDecodingContext(atom: senc, parent: parent, perSampleIVSize: perSampleIVSize)
        guard let box = try? ProtectionBox(from: &reader, type: "senc", piff: false, context: context),
              case .samples(let ivSize, let subsamples) = box.entries.layout else { return nil }
        self.ivSize = ivSize
        self.subsamples = subsamples
        count = box.entries.count
        bytes = box.entries.bytes
        var checkpoints: [Int] = []
        if subsamples {
            var walk = ByteReader(bytes)
            for index in 0..<count {
                if index % Self.checkpointInterval == 0 { checkpoints.append(bytes.count - walk.remaining) }
                guard (try? ProtectionBox.skipSamples(&walk, count: 1, ivSize: ivSize, subsamples: true)) != nil else { break }
            }
        }
        self.checkpoints = checkpoints
    }

    /// Sample `index`'s (0-based) IV and subsamples (clear and protected bytes), or nil.
    func sample(_ index: Int) -> (iv: [UInt8], subsamples: [(clear: UInt64, protected: UInt64)]?)? {
        guard index >= 0, index < count else { return nil }
        var reader = ByteReader(bytes)
        if subsamples {
            let checkpoint = index / Self.checkpointInterval
            guard checkpoint < checkpoints.count, (try? reader.skip(checkpoints[checkpoint])) != nil else { return nil }
            for _ in checkpoint * Self.checkpointInterval..<index {
                guard (try? ProtectionBox.skipSamples(&reader, count: 1, ivSize: ivSize, subsamples: true)) != nil else { return nil }
            }
        } else {
            guard (try? reader.skip(index * ivSize)) != nil else { return nil }
        }
        guard let iv = try? reader.readBytes(ivSize) else { return nil }
        guard subsamples else { return (iv, nil) }
        guard let pieces = try? reader.readUInt16() else { return (iv, nil) }
        var map: [(clear: UInt64, protected: UInt64)] = []
        for _ in 0..<pieces {
            guard let clear = try? reader.readUInt16(), let protected = try? reader.readUInt32() else { break }
            map.append((UInt64(clear), UInt64(protected)))
        }
        return (iv, map)
    }
}
