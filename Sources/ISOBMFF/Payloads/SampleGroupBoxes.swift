import MediaBytes

/// Sample tables beside the main ones (ISO/IEC 14496-12): `sgpd` (sample group descriptions,
/// section 8.9.3, the entries of the common grouping types decoded: `roll`, `prol`, `rap `,
/// `sync`, `tele`, `seig` from ISO/IEC 23001-7), `sbgp` (sample to group, 8.9.2), `sdtp`
/// (independent and disposable samples, 8.6.4, the flags of each sample named), `cslg`
/// (composition to decode, 8.6.1.4) and `subs` (sub-sample information, 8.7.7).
public struct SampleGroupBox: AtomPayload, Hashable {
    public var header: FullBoxHeader
    public var fields: [DescribedField]
    public var entryCount: Int
    public var summary: String
    /// The entries' bytes, decoded when listed (a table of a million samples costs its bytes).
    var entryBytes: [UInt8] = []
    /// What the entries are: the box type (and for `sgpd` the grouping type and the length of
    /// each description).
    var layout: Layout = .none
    /// The file bytes of the entry count and of the entries.
    var countRange: Range<UInt64>?
    var entriesRange: Range<UInt64>?

    enum Layout: Hashable { case none, descriptions(FourCC, defaultLength: UInt32), runs, sampleFlags, subsamples }

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        var list = FieldList(at: reader, recording: context.recordsFieldBytes)
        switch context.atom.type {
        case "sgpd":
            let grouping = try reader.readFourCC()
            list.add("groupingType", .text(grouping.description), reader)
            var defaultLength: UInt32 = 0
            if header.version == 1 {
                defaultLength = try reader.readUInt32()
                list.add("defaultLength", defaultLength, reader)
            }
            if header.version >= 2 { list.add("defaultDescriptionIndex", try reader.readUInt32(), reader) }
            let before = reader.offset
            entryCount = Int(try reader.readUInt32())
            countRange = before..<reader.offset
            layout = .descriptions(grouping, defaultLength: defaultLength)
            entryBytes = reader.readRemainingBytes()
            entriesRange = countRange!.upperBound..<reader.offset
            summary = "\(grouping), \(entryCount) descriptions"
        case "sbgp":
            let grouping = try reader.readFourCC()
            list.add("groupingType", .text(grouping.description), reader)
            if header.version == 1 { list.add("groupingTypeParameter", try reader.readUInt32(), reader) }
            let before = reader.offset
            entryCount = Int(try reader.readUInt32())
            countRange = before..<reader.offset
            var samples = 0
            layout = .runs
            entryBytes = try reader.readBytes(min(entryCount, reader.remaining / 8) * 8)
            entriesRange = countRange!.upperBound..<reader.offset
            var runs = ByteReader(entryBytes)
            while !runs.isAtEnd {
                samples += Int(try runs.readUInt32())
                try runs.skip(4)
            }
            summary = "\(grouping), \(entryCount) runs, \(samples) samples"
        case "sdtp":
            let start = reader.offset
            let bytes = reader.readRemainingBytes()
            entryCount = bytes.count
            entryBytes = bytes
            entriesRange = start..<reader.offset
            layout = .sampleFlags
            let independent = bytes.filter { $0 >> 4 & 3 == 2 }.count
            let disposable = bytes.filter { $0 >> 2 & 3 == 2 }.count
            list.derive("independentSamples", FieldValue(independent))
            list.derive("disposableSamples", FieldValue(disposable))
            summary = "\(bytes.count) samples, \(independent) independent, \(disposable) disposable"
        case "cslg":
            let names = ["compositionToDTSShift", "leastDecodeToDisplayDelta", "greatestDecodeToDisplayDelta", "compositionStartTime", "compositionEndTime"]
            for name in names { list.add(name, FieldValue(header.version == 0 ? Int64(try reader.readInt32()) : try reader.readInt64()), reader) }
            entryCount = 0
            summary = list.fields.prefix(3).map { "\($0.name)=\($0.value.summaryText)" }.joined(separator: " ")
        default:  // subs
            let before = reader.offset
            entryCount = Int(try reader.readUInt32())
            countRange = before..<reader.offset
            var subsamples = 0
            var walk = reader
            for _ in 0..<min(entryCount, walk.remaining / 6) {
                try walk.skip(4)
                let count = Int(try walk.readUInt16())
                try walk.skip(count * (header.version == 1 ? 10 : 8))
                subsamples += count
            }
            layout = .subsamples
            entryBytes = reader.readRemainingBytes()
            entriesRange = countRange!.upperBound..<reader.offset
            summary = "\(entryCount) samples, \(subsamples) sub-samples"
        }
        list.addRest(&reader)
        fields = list.fields
    }

    /// One entry of the table, read from its bytes.
    func entry(_ reader: inout ByteReader) throws -> FieldValue {
        switch layout {
        case .none: return .absent
        case .descriptions(let grouping, let defaultLength):
            // Version 1 gives each description's length; otherwise it is the grouping type's
            // (the rest of the box for a type this reader does not know).
            let length = header.version == 1 ? (defaultLength != 0 ? Int(defaultLength) : Int(try reader.readUInt32()))
                : Self.entryLength(grouping, &reader) ?? reader.remaining
            var entry = try reader.readSubReader(min(length, reader.remaining))
            return Self.entry(grouping, &entry)
        case .runs:
            return .record([DescribedField("sampleCount", try reader.readUInt32()), DescribedField("groupDescriptionIndex", try reader.readUInt32())])
        case .sampleFlags:
            let byte = try reader.readUInt8()
            return .record([DescribedField("isLeading", byte >> 6), DescribedField("dependsOn", byte >> 4 & 3),
                            DescribedField("isDependedOn", byte >> 2 & 3), DescribedField("hasRedundancy", byte & 3)])
        case .subsamples:
            let delta = try reader.readUInt32()
            let count = Int(try reader.readUInt16())
            var sizes: [FieldValue] = []
            for _ in 0..<count {
                let size = header.version == 1 ? UInt64(try reader.readUInt32()) : UInt64(try reader.readUInt16())
                let priority = try reader.readUInt8(), discardable = try reader.readUInt8(), parameters = try reader.readUInt32()
                sizes.append(.record([DescribedField("size", size), DescribedField("priority", priority), DescribedField("discardable", discardable != 0),
                                      DescribedField("codecParameters", parameters)]))
            }
            return .record([DescribedField("sampleDelta", delta), DescribedField("subsamples", .list(sizes))])
        }
    }

    /// The length of a version-0 description of a grouping type whose entries have a fixed size.
    static func entryLength(_ grouping: FourCC, _ reader: inout ByteReader) -> Int? {
        switch grouping {
        case "roll", "prol": 2
        case "rap ", "sync", "tele": 1
        case "seig":
            // reserved, pattern, isProtected, IV size, KID (16), then a constant IV's size and bytes.
            if let head = try? reader.peekBytes(min(reader.remaining, 21)), head.count == 21, head[2] == 1, head[3] == 0 { 21 + Int(head[20]) } else { 20 }
        default: nil
        }
    }

    /// A description's fields, by grouping type; bytes for the others (and for one cut short).
    static func entry(_ grouping: FourCC, _ reader: inout ByteReader) -> FieldValue {
        let start = reader
        if let decoded = try? decodedEntry(grouping, &reader) { return .record(decoded) }
        reader = start
        return .bytes(reader.readRemainingBytes())
    }

    static func decodedEntry(_ grouping: FourCC, _ reader: inout ByteReader) throws -> [DescribedField]? {
        switch grouping {
        case "roll", "prol": return [DescribedField("rollDistance", try reader.readInt16())]
        case "rap ":
            let byte = try reader.readUInt8()
            return [DescribedField("numLeadingSamplesKnown", byte >> 7 != 0), DescribedField("numLeadingSamples", byte & 0x7F)]
        case "sync": return [DescribedField("nalUnitType", try reader.readUInt8() & 0x3F)]
        case "tele": return [DescribedField("levelIndependentlyDecodable", try reader.readUInt8() >> 7 != 0)]
        case "seig":
            _ = try reader.readUInt8()
            let pattern = try reader.readUInt8(), isProtected = try reader.readUInt8(), ivSize = try reader.readUInt8()
            var fields = [DescribedField("cryptByteBlock", pattern >> 4), DescribedField("skipByteBlock", pattern & 0x0F),
                          DescribedField("isProtected", isProtected), DescribedField("perSampleIVSize", ivSize),
                          DescribedField("kid", ProtectionBox.uuid(try reader.readBytes(16)))]
            if isProtected == 1 && ivSize == 0 {
                fields.append(DescribedField("constantIV", .bytes(try reader.readBytes(Int(try reader.readUInt8())))))
            }
            return fields
        default: return nil
        }
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        header.fields + fields + (layout == .none ? [] : options.tableFields(count: entryCount, bytes: entryBytes, countRange: countRange,
                                                                            entriesRange: entriesRange) { try entry(&$0) })
    }
}

/// The runs of one `sbgp` (section 8.9.2): which description of its grouping type each sample
/// has, looked up by sample index (0: none).
struct SampleGroupRuns: Sendable {
    let groupingType: FourCC
    /// The first sample (0-based, counted from the table's first) of each run, and its index.
    private let starts: [Int]
    private let indexes: [UInt32]

    /// The runs of `sbgp`, or nil when it does not decode.
    init?(_ sbgp: Atom, tree: AtomTree) {
        guard let bytes = try? tree.fieldBytes(of: sbgp) else { return nil }
        var reader = ByteReader(bytes, baseOffset: sbgp.payloadOffset)
        guard let box = try? SampleGroupBox(from: &reader, context: AtomDecodingContext(atom: sbgp, parent: "stbl")),
              let type = box.fields.first(where: { $0.name == "groupingType" }).flatMap({ field -> FourCC? in
                  if case .text(let text) = field.value { return FourCC(latin1: text) } else { return nil }
              }) else { return nil }
        groupingType = type
        var starts: [Int] = [], indexes: [UInt32] = []
        var runs = ByteReader(box.entryBytes)
        var next = 0
        while let count = try? runs.readUInt32(), let index = try? runs.readUInt32() {
            starts.append(next)
            indexes.append(index)
            next += Int(count)
        }
        starts.append(next)
        self.starts = starts
        self.indexes = indexes
    }

    /// The description index of sample `sample` (0-based), 0 when no run covers it.
    func index(of sample: Int) -> UInt32 {
        guard let last = starts.last, sample >= 0, sample < last, !indexes.isEmpty else { return 0 }
        var low = 0, high = indexes.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= sample { low = mid } else { high = mid - 1 }
        }
        return indexes[low]
    }

    /// `roll:1` for the groups of the runs in `runs` that sample `sample` belongs to; an index
    /// above 0x10000 names a description of the fragment's own `sgpd` (`seig:1 here`).
    static func membership(of sample: Int, in runs: [SampleGroupRuns]) -> [String] {
        runs.compactMap { run in
            let index = run.index(of: sample)
            guard index != 0 else { return nil }
            return index > 0x10000 ? "\(run.groupingType):\(index - 0x10000) here" : "\(run.groupingType):\(index)"
        }
    }
}
