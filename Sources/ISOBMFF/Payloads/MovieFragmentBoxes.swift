import MediaBytes

/// The small fixed-layout boxes of movie fragments (ISO/IEC 14496-12 section 8.8): `mfhd`
/// (sequence number), `tfdt` (base media decode time), `mehd` (fragment duration), `trex`
/// (track defaults) and `mfro` (size of `mfra`).
public struct FragmentFieldsBox: AtomPayload, Hashable {
    public var header: FullBoxHeader
    public var fields: [DescribedField]

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        let wide = header.version == 1
        var list = FieldList(at: reader, recording: context.recordsFieldBytes)
        switch context.atom.type {
        case "mfhd":
            list.add("sequenceNumber", try reader.readUInt32(), reader)
        case "tfdt":
            list.add("baseMediaDecodeTime", try reader.readUInt(width: wide ? 8 : 4), reader)
        case "mehd":
            list.add("fragmentDuration", try reader.readUInt(width: wide ? 8 : 4), reader)
        case "mfro":
            list.add("mfraSize", try reader.readUInt32(), reader)
        default:  // trex
            for name in ["trackID", "defaultSampleDescriptionIndex", "defaultSampleDuration", "defaultSampleSize", "defaultSampleFlags"] {
                list.add(name, try reader.readUInt32(), reader)
            }
        }
        list.addRest(&reader)
        fields = list.fields
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] { header.fields + fields }
}

/// `tfhd`: a track fragment's track and defaults; optional fields by flag (section 8.8.7).
public struct TrackFragmentHeaderBox: AtomPayload, Hashable {
    public var header: FullBoxHeader
    public var trackID: UInt32
    public var baseDataOffset: UInt64?
    public var sampleDescriptionIndex: UInt32?
    public var defaultSampleDuration: UInt32?
    public var defaultSampleSize: UInt32?
    public var defaultSampleFlags: UInt32?

    /// Where each field's bytes are, by name.
    var ranges: [String: Range<UInt64>] = [:]

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        let flags = header.flags
        var list = FieldList(at: reader, recording: context.recordsFieldBytes)
        trackID = try reader.readUInt32()
        list.note("trackID", reader)
        if flags & 0x01 != 0 { baseDataOffset = try reader.readUInt64(); list.note("baseDataOffset", reader) }
        if flags & 0x02 != 0 { sampleDescriptionIndex = try reader.readUInt32(); list.note("sampleDescriptionIndex", reader) }
        if flags & 0x08 != 0 { defaultSampleDuration = try reader.readUInt32(); list.note("defaultSampleDuration", reader) }
        if flags & 0x10 != 0 { defaultSampleSize = try reader.readUInt32(); list.note("defaultSampleSize", reader) }
        if flags & 0x20 != 0 { defaultSampleFlags = try reader.readUInt32(); list.note("defaultSampleFlags", reader) }
        if !reader.isAtEnd {
            try reader.skip(reader.remaining)
            list.note("trailingBytes", reader)
        }
        ranges = list.ranges
    }

    public var durationIsEmpty: Bool { header.flags & 0x10000 != 0 }
    public var defaultBaseIsMoof: Bool { header.flags & 0x20000 != 0 }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        var fields = header.fields(naming: [0x01: "base-data-offset-present", 0x02: "sample-description-index-present",
                                            0x08: "default-sample-duration-present", 0x10: "default-sample-size-present",
                                            0x20: "default-sample-flags-present", 0x10000: "duration-is-empty", 0x20000: "default-base-is-moof"])
        fields.append(DescribedField("trackID", trackID))
        if let baseDataOffset { fields.append(DescribedField("baseDataOffset", baseDataOffset)) }
        if let sampleDescriptionIndex { fields.append(DescribedField("sampleDescriptionIndex", sampleDescriptionIndex)) }
        if let defaultSampleDuration { fields.append(DescribedField("defaultSampleDuration", defaultSampleDuration)) }
        if let defaultSampleSize { fields.append(DescribedField("defaultSampleSize", defaultSampleSize)) }
        if let defaultSampleFlags { fields.append(DescribedField("defaultSampleFlags", SampleFlags.value(defaultSampleFlags))) }
        fields += [DescribedField("durationIsEmpty", durationIsEmpty), DescribedField("defaultBaseIsMoof", defaultBaseIsMoof)]
        if let range = ranges["trailingBytes"] { fields.append(DescribedField("trailingBytes", range.count)) }
        return FieldList.apply(ranges, to: fields)
    }

    public var summary: String {
        "trackID=\(trackID)" + (baseDataOffset.map { " baseDataOffset=\($0)" } ?? "") + (defaultBaseIsMoof ? " base=moof" : "")
    }
}

/// `trun`: the samples of a track fragment run; per-sample fields by flag (section 8.8.8).
public struct TrackRunBox: AtomPayload, Hashable {
    public struct Sample: Sendable, Hashable {
        public var duration: UInt32?
        public var size: UInt32?
        public var flags: UInt32?
        public var compositionTimeOffset: Int64?

        public init(duration: UInt32? = nil, size: UInt32? = nil, flags: UInt32? = nil, compositionTimeOffset: Int64? = nil) {
            self.duration = duration
            self.size = size
            self.flags = flags
            self.compositionTimeOffset = compositionTimeOffset
        }
    }

    public var header: FullBoxHeader
    public var dataOffset: Int32?
    public var firstSampleFlags: UInt32?
    public var sampleCount: UInt32
    /// Per-sample fields; empty when the flags say every sample uses the defaults.
    public var samples: [Sample]

    /// Where each field's bytes are, by name (`entries`: the per-sample fields).
    var ranges: [String: Range<UInt64>] = [:]

    public init(from reader: inout ByteReader, context: AtomDecodingContext) throws {
        header = try FullBoxHeader(from: &reader)
        let flags = header.flags
        var list = FieldList(at: reader, recording: context.recordsFieldBytes)
        let count = try reader.readUInt32()
        sampleCount = count
        list.note("sampleCount", reader)
        if flags & 0x001 != 0 { dataOffset = try reader.readInt32(); list.note("dataOffset", reader) }
        if flags & 0x004 != 0 { firstSampleFlags = try reader.readUInt32(); list.note("firstSampleFlags", reader) }
        let perSample = [0x100, 0x200, 0x400, 0x800].filter { flags & UInt32($0) != 0 }.count * 4
        samples = []
        defer {
            list.note("entries", reader)
            ranges = list.ranges
        }
        guard perSample > 0 else { return }
        try reader.require(entries: count, of: perSample)
        samples.reserveCapacity(Int(count))
        for _ in 0..<count {
            var sample = Sample()
            if flags & 0x100 != 0 { sample.duration = try reader.readUInt32() }
            if flags & 0x200 != 0 { sample.size = try reader.readUInt32() }
            if flags & 0x400 != 0 { sample.flags = try reader.readUInt32() }
            if flags & 0x800 != 0 {
                let raw = try reader.readUInt32()
                sample.compositionTimeOffset = header.version == 0 ? Int64(raw) : Int64(Int32(bitPattern: raw))
            }
            samples.append(sample)
        }
    }

    public func fields(_ options: AtomFieldOptions) -> [DescribedField] {
        FieldList.apply(ranges, to: listedFields(options))
    }

    private func listedFields(_ options: AtomFieldOptions) -> [DescribedField] {
        var fields = header.fields(naming: [0x001: "data-offset-present", 0x004: "first-sample-flags-present", 0x100: "sample-duration-present",
                                            0x200: "sample-size-present", 0x400: "sample-flags-present", 0x800: "sample-composition-time-offsets-present"])
        fields.append(DescribedField("sampleCount", sampleCount))
        if let dataOffset { fields.append(DescribedField("dataOffset", dataOffset)) }
        if let firstSampleFlags { fields.append(DescribedField("firstSampleFlags", SampleFlags.value(firstSampleFlags))) }
        guard header.flags & 0xF00 != 0 else { return fields }
        return fields + options.tableFields(samples) { sample in
            var record: [DescribedField] = []
            if let v = sample.duration { record.append(DescribedField("duration", v)) }
            if let v = sample.size { record.append(DescribedField("size", v)) }
            if let v = sample.flags { record.append(DescribedField("flags", SampleFlags.value(v))) }
            if let v = sample.compositionTimeOffset { record.append(DescribedField("compositionTimeOffset", v)) }
            return .record(record)
        }
    }

    public var summary: String { "samples=\(sampleCount)" + (dataOffset.map { " dataOffset=\($0)" } ?? "") }
}
