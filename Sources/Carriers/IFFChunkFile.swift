import ID3
import MediaBytes

/// A chunk of an AIFF/AIFF-C file (EA IFF 85, big-endian sizes) or a RIFF WAVE file
/// (little-endian sizes): a four-character ID, a size, data padded to an even length, and for
/// `FORM`/`RIFF`/`LIST` a form type and children.
public struct IFFChunk: Sendable, Hashable {
    public var id: FourCC
    /// File offset of the chunk header.
    public var offset: UInt64
    /// The data size the header declares (in an RF64 file, the `ds64` chunk's 64-bit size
    /// where the header's 32-bit field says -1).
    public var declaredSize: UInt64
    /// The data bytes present (less than declared for a truncated chunk).
    public var dataSize: UInt64
    /// `AIFF`, `AIFC`, `WAVE` or `INFO` for container chunks.
    public var formType: FourCC?
    public var children: [IFFChunk]

    public var dataOffset: UInt64 { offset + 8 }
    /// Header, data and the pad byte.
    public var totalSize: UInt64 { 8 + dataSize + (dataSize % 2) }
}

/// An AIFF or WAV file's chunks and the tags they carry: an `ID3 ` (or `id3 `) chunk holding
/// an ID3v2 tag, and as a second tag source WAV's `LIST`/`INFO` chunk or AIFF's text chunks
/// (`NAME`, `AUTH`, `(c) `, `ANNO`).
public struct IFFChunkFile: Sendable {
    public enum Kind: String, Sendable { case aiff, wav }

    public var kind: Kind
    public var root: IFFChunk
    /// The ID3v2 tag of the `ID3 `/`id3 ` chunk; of several such chunks, their merge.
    public var id3Tag: ID3v2Tag?
    /// Of several ID3 chunks, the frames of the later ones that an earlier one's frame of the
    /// same slot hides (a save leaves them out).
    public var hiddenFrames: [ID3Frame] = []

    /// True for a chunk that holds an ID3v2 tag (`ID3 ` or `id3 `, in AIFF and WAV alike).
    static func isTagChunk(_ chunk: IFFChunk) -> Bool { chunk.id == "ID3 " || chunk.id == "id3 " }

    /// The chunks that hold ID3v2 tags, the one whose frames come first first: in file order,
    /// but in AIFF an `ID3 ` chunk before an `id3 ` one (the name ffmpeg and TagLib write).
    var tagChunks: [IFFChunk] {
        let chunks = root.children.filter(Self.isTagChunk)
        return kind == .aiff ? chunks.filter { $0.id == "ID3 " } + chunks.filter { $0.id != "ID3 " } : chunks
    }
    /// `LIST`/`INFO` entries of a WAV file (`INAM`, `IART`, `IPRD`, `ICMT`, `ICRD`, `IGNR`,
    /// `ITRK`...), or an AIFF file's text chunks (`NAME`, `AUTH`, `(c) `, `ANNO`), in order; nil
    /// when the file has none.
    public var info: RIFFInfoList?
    /// The entries of a further `LIST`/`INFO` chunk left out of `info` because an earlier
    /// list has an entry of the same ID (a save writes one list, without them).
    public var hiddenInfoEntries: [FourCC] = []
    /// The text of each `INFO` entry chunk, hidden ones too, by the chunk's offset (what the
    /// inspector shows beside each chunk).
    var infoTextByOffset: [UInt64: String] = [:]
    /// The `COMM` (AIFF) or `fmt ` (WAV) chunk, decoded.
    public var audioFormat: IFFAudioFormat?
    public var diagnostics: [Diagnostic]
    /// The file's size (a chunk's span as the inspector shows it ends there).
    public var fileSize: UInt64 = 0

    /// Most chunks read from one file.
    public static let maxChunkCount = 10_000
    /// The largest `ID3 ` chunk read: an ID3v2 tag is at most 256 MiB plus its header and footer.
    public static let maxTagChunkSize: UInt64 = (256 << 20) + 20

    public init(source: any ByteSource) throws(CarrierError) {
        let head = try CarrierBytes.read(source, at: 0, count: 12)
        guard head.count == 12 else { throw CarrierError(.unrecognized, message: "file too short for a RIFF or FORM header") }
        let id = FourCC(head[0], head[1], head[2], head[3])
        switch id {
        case "FORM": kind = .aiff
        case "RIFF", "RIFX", "RF64", "BW64": kind = .wav
        default: throw CarrierError(.unrecognized, message: "not an AIFF (FORM) or WAV (RIFF, RF64) file")
        }
        diagnostics = []
        fileSize = source.size
        let littleEndian = id != "FORM" && id != "RIFX"
        let declared = Self.size(head[4..<8], littleEndian: littleEndian)
        let available = source.size - 8
        // RF64 and BW64 (EBU Tech 3306, ITU-R BS.2088): the 64-bit sizes of the file and of
        // its `data` chunk are in the `ds64` chunk that comes first; the 32-bit fields say -1.
        var sizes64: (riff: UInt64, data: UInt64)?
        if id == "RF64" || id == "BW64" {
            let ds64 = try CarrierBytes.read(source, at: 12, count: 8 + 16)
            if ds64.count == 24, FourCC(ds64[0], ds64[1], ds64[2], ds64[3]) == "ds64" {
                func le64(_ at: Int) -> UInt64 { (0..<8).reduce(UInt64(0)) { $0 | UInt64(ds64[at + $1]) << (8 * UInt64($1)) } }
                sizes64 = (le64(8), le64(16))
            } else {
                // (A damaged ID, or a writer that never wrote one: read with the 32-bit sizes, as
                // TagLib and ffmpeg read it.)
                diagnostics.append(Diagnostic(.warning, .malformed, area: id.description, offset: 12,
                                              message: "an \(id) file starts with a 'ds64' chunk; this one does not: read with the 32-bit sizes"))
            }
        }
        var declaredBytes = declared == UInt32.max ? sizes64?.riff ?? UInt64(declared) : UInt64(declared)
        if declared == 0, sizes64 == nil, available > 4 {
            // A file written as a stream, whose writer never came back to fill in the size: its
            // chunks run to the end of the file, as ffmpeg and TagLib read them (-1: below).
            diagnostics.append(Diagnostic(.warning, .malformed, area: id.description, offset: 0,
                                          message: "\(id) declares 0 bytes (a file written as a stream); read as the \(available) bytes to the end of the file"))
            declaredBytes = available
        } else if declared < 4, sizes64 == nil, available > 4 {
            // Too few for its own form type: a damaged size, read as the stream case is (TagLib
            // and ffmpeg read the chunks to the end of the file whatever it says).
            diagnostics.append(Diagnostic(.warning, .malformed, area: id.description, offset: 0,
                                          message: "\(id) declares \(declared) byte\(declared == 1 ? "" : "s"), too few for its form type; read as the \(available) bytes to the end of the file"))
            declaredBytes = available
        }
        if declared == UInt32.max, sizes64 == nil, available > UInt64(UInt32.max) {
            // -1, "unknown" (a stream, or an RF64 whose `ds64` is missing), on a file past 4 GiB:
            // the chunks run to its end (on a smaller file -1 is past the end: read to the end
            // with the warning below).
            diagnostics.append(Diagnostic(.warning, .malformed, area: id.description, offset: 0,
                                          message: "\(id) declares -1 bytes (0xFFFFFFFF, unknown); read as the \(available) bytes to the end of the file"))
            declaredBytes = available
        }
        if declaredBytes < available, declaredBytes >= 4 {
            // Bytes after the declared end (an appended tag, junk, or chunks of a size that was
            // not updated): kept as they are by a save, not read as chunks here; TagLib and
            // ffmpeg read chunks there too.
            diagnostics.append(Diagnostic(.note, .malformed, area: id.description, offset: 8 + declaredBytes,
                                          message: "\(available - declaredBytes) byte\(available - declaredBytes == 1 ? "" : "s") after the end \(id) declares (\(declaredBytes) bytes) are not read as chunks; a save keeps them"))
        }
        if declaredBytes > available {
            diagnostics.append(Diagnostic(.warning, .truncated, area: id.description, offset: 0,
                                             message: "\(id) declares \(declaredBytes) bytes but the file has \(available) after the header"))
        }
        let dataSize = min(declaredBytes, available)
        root = IFFChunk(id: id, offset: 0, declaredSize: declaredBytes, dataSize: dataSize,
                        formType: FourCC(head[8], head[9], head[10], head[11]), children: [])
        var count = 0
        root.children = try Self.chunks(source, from: 12, to: 8 + dataSize, littleEndian: littleEndian, depth: 0,
                                        count: &count, diagnostics: &diagnostics, dataSize64: sizes64?.data)

        // Every ID3 chunk: a file with two reads as their merge, the first's frames first (see
        // `ID3v2Tag.merging`), an AIFF's `ID3 ` before its `id3 ` (ffmpeg reads only `ID3 ` in
        // AIFF, either in WAV).
        var tags: [ID3v2Tag] = []
        var decompressionBudget = ID3v2Tag.maxDecompressedTagSize  // shared by the chunks
        for chunk in tagChunks {
            guard chunk.dataSize <= Self.maxTagChunkSize else {
                diagnostics.append(Diagnostic(.warning, .limit, area: "ID3v2", offset: chunk.offset,
                                                 message: "'\(chunk.id)' chunk of \(chunk.dataSize) bytes is larger than an ID3v2 tag can be; not read"))
                break
            }
            let bytes = try CarrierBytes.read(source, at: chunk.dataOffset, count: Int(chunk.dataSize))
            do {
                let tag = try ID3v2Tag(parsing: bytes[...], at: chunk.dataOffset, decompressionBudget: &decompressionBudget)
                tags.append(tag)
                diagnostics += tag.diagnostics.map { $0.within("ID3v2") }
            } catch {
                diagnostics.append(Diagnostic(.warning, error.code, offset: error.offset, message: error.message).within("ID3v2"))
                break
            }
        }
        if let first = tags.first {
            (id3Tag, hiddenFrames) = first.merging(Array(tags.dropFirst()))
        }
        if let format = root.children.first(where: { $0.id == (kind == .aiff ? "COMM" : "fmt ") }), format.dataSize <= 64 {
            audioFormat = IFFAudioFormat(chunk: format.id, data: try CarrierBytes.read(source, at: format.dataOffset, count: Int(format.dataSize)))
        }
        // AIFF's own text chunks, read as the INFO entries they stand for.
        if kind == .aiff {
            var entries: [RIFFInfoList.Entry] = []
            for chunk in root.children where RIFFInfoList.aiffTextIDs[chunk.id] != nil {
                let bytes = try CarrierBytes.read(source, at: chunk.dataOffset, count: Int(min(chunk.dataSize, 64 << 10)))
                let raw = bytes[..<(bytes.firstIndex(of: 0) ?? bytes.count)]
                // The standard says ASCII; UTF-8 when it decodes (ffmpeg writes it, and this
                // package), else Mac OS Roman, what classic Mac programs wrote (and exiftool reads).
                entries.append(RIFFInfoList.Entry(chunk.id, String(validating: raw, as: UTF8.self) ?? TextDecoding.macRoman(raw)))
            }
            if !entries.isEmpty { info = RIFFInfoList(entries, form: .aiffText) }
        }
        // Several INFO lists read as one (a save writes one): an entry of a later list whose
        // ID an earlier one has is hidden by it, as a later ID3 chunk's frame is.
        var earlierIDs: Set<FourCC> = []
        for list in root.children where list.id == "LIST" && list.formType == "INFO" {
            var entries = info?.entries ?? []
            defer {
                info = RIFFInfoList(entries, form: info?.form ?? .riffInfo)
                earlierIDs.formUnion(entries.map(\.id))
            }
            for entry in list.children {
                // INFO values are short texts; a longer one is read up to 64 KiB.
                let bytes = try CarrierBytes.read(source, at: entry.dataOffset, count: Int(min(entry.dataSize, 64 << 10)))
                let end = bytes.firstIndex(of: 0) ?? bytes.count
                // RIFF INFO text has no declared encoding; UTF-8 when it decodes, else Latin-1.
                let raw = bytes[..<end]
                let text = String(validating: raw, as: UTF8.self) ?? TextDecoding.latin1(raw)
                infoTextByOffset[entry.offset] = text
                if earlierIDs.contains(entry.id) {
                    hiddenInfoEntries.append(entry.id)
                    continue
                }
                entries.append(RIFFInfoList.Entry(entry.id, text))
            }
        }
    }

    static func size(_ bytes: ArraySlice<UInt8>, littleEndian: Bool) -> UInt32 {
        let b = Array(bytes)
        return littleEndian
            ? UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24
            : UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3])
    }

    /// Whether the bytes at `offset` read as a chunk header: a printable ID and a size that
    /// fits in the `room` bytes from there.
    static func isChunkHeader(_ source: any ByteSource, at offset: UInt64, room: UInt64, littleEndian: Bool) throws(CarrierError) -> Bool {
        guard room >= 8 else { return false }
        let header = try CarrierBytes.read(source, at: offset, count: 8)
        guard header.count == 8, FourCC(header[0], header[1], header[2], header[3]).isPrintable else { return false }
        return UInt64(size(header[4..<8], littleEndian: littleEndian)) <= room - 8
    }

    /// The chunks from `start` to `end`. `dataSize64` is an RF64 file's `data` size from its
    /// `ds64` chunk, for a `data` chunk whose 32-bit size says -1.
    private static func chunks(
        _ source: any ByteSource, from start: UInt64, to end: UInt64, littleEndian: Bool, depth: Int, count: inout Int,
        diagnostics: inout [Diagnostic], dataSize64: UInt64? = nil
    ) throws(CarrierError) -> [IFFChunk] {
        let area = littleEndian ? "RIFF" : "FORM"
        var found: [IFFChunk] = []
        var position = start
        while position + 8 <= end {
            count += 1
            guard count <= maxChunkCount else {
                diagnostics.append(Diagnostic(.error, .limit, area: area, offset: position, message: "more than \(maxChunkCount) chunks; the rest is not read"))
                break
            }
            let header = try CarrierBytes.read(source, at: position, count: 12)
            let id = FourCC(header[0], header[1], header[2], header[3])
            let declared = size(header[4..<8], littleEndian: littleEndian)
            guard id.isPrintable else {
                diagnostics.append(Diagnostic(.warning, .malformed, area: area, offset: position,
                                                 message: "bytes at offset \(position) are not a chunk ID; the remaining \(end - position) bytes are not read"))
                break
            }
            if !id.bytes.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) {
                // (IFF and RIFF IDs are ASCII, 0x20-0x7E; TagLib stops at such a chunk, ffmpeg
                // steps over it by its size, as this reader does, and a save carries it over as
                // it is: a note.)
                diagnostics.append(Diagnostic(.note, .malformed, area: area, offset: position,
                                              message: "chunk ID '\(id)' is not four ASCII characters; read as a chunk by its size"))
            }
            let room = end - position - 8
            var dataSize = UInt64(declared)
            var declaredBytes = UInt64(declared)
            if id == "data", declared == UInt32.max, let dataSize64 {
                dataSize = dataSize64
                declaredBytes = dataSize64
            } else if id == "data", littleEndian, depth == 0, declared == 0 || declared == UInt32.max, room > 0,
                      try !Self.isChunkHeader(source, at: position + 8, room: room, littleEndian: littleEndian) {
                // A WAV written as a stream, whose writer never came back to fill in the size:
                // the audio runs to the end of the file, as ffmpeg reads it (unless a chunk
                // follows the header: then the data chunk is really empty).
                diagnostics.append(Diagnostic(.warning, .malformed, area: area, offset: position,
                                              message: "the 'data' chunk declares \(declared == 0 ? "0 bytes" : "-1 bytes (0xFFFFFFFF)") (a WAV written as a stream); read as the \(room) bytes to the end of the file"))
                dataSize = room
                declaredBytes = room
            }
            if dataSize > room {
                diagnostics.append(Diagnostic(.warning, .truncated, area: area, offset: position,
                                                 message: "chunk '\(id)' declares \(declaredBytes) bytes but only \(room) remain"))
                dataSize = room
            }
            var chunk = IFFChunk(id: id, offset: position, declaredSize: declaredBytes, dataSize: dataSize, formType: nil, children: [])
            if id == "LIST", dataSize >= 4, depth < 4, header.count >= 12 {
                chunk.formType = FourCC(header[8], header[9], header[10], header[11])
                chunk.children = try chunks(source, from: position + 12, to: position + 8 + dataSize, littleEndian: littleEndian,
                                            depth: depth + 1, count: &count, diagnostics: &diagnostics)
            }
            found.append(chunk)
            position += chunk.totalSize
        }
        if position < end && end - position < 8 {
            diagnostics.append(Diagnostic(.warning, .padding, area: area, offset: position,
                                             message: "\(end - position) bytes after the last chunk form no chunk"))
        }
        return found
    }
}
