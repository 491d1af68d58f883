import ID3
import MediaBytes

extension IFFChunkFile {
    /// Writes `tag` into the `ID3 ` (AIFF) or `id3 ` (WAV) chunk of the file at `path`,
    /// replacing the existing ID3 chunk or adding one at the end. Every other chunk is kept
    /// byte for byte and the form size is updated.
    ///
    /// When the new tag fits the old chunk it is written in place (padded to the chunk's size);
    /// otherwise the file is written anew beside the original, read back and compared (the tag,
    /// and every other chunk's bytes), then renamed over it with its permissions.
    ///
    /// - Throws: `ID3Error` `.notWritable` when the chunk structure is damaged (a truncated
    ///   chunk, bytes that are not chunks), `.verificationFailed`, `.io`; the original is then
    ///   left as it was.
    @discardableResult
    public static func save(_ tag: ID3v2Tag, to path: String, options: CarrierSaveOptions = CarrierSaveOptions()) throws -> CarrierSaveOutcome {
        let source = try CarrierSaving.open(path, options: options)
        let file = try IFFChunkFile(source: source)
        if let problem = file.diagnostics.first(where: { $0.severity != .note }) {
            throw CarrierError(.notWritable, offset: problem.offset, message: "\(path): \(problem.message); not writing to a file that is not understood")
        }
        let littleEndian = file.kind == .wav
        let old = file.root.children.first { $0.id == "ID3 " || $0.id == "id3 " }
        let version = options.version ?? file.id3Tag.map { $0.majorVersion == 2 ? 4 : $0.majorVersion } ?? 4
        var serialization = try tag.serialized(version: version, padding: 0)
        let expected = try ID3v2Tag(parsing: serialization.bytes).frames

        if options.allowInPlace, let old, UInt64(serialization.bytes.count) <= old.dataSize {
            serialization = try tag.serialized(version: version, padding: Int(old.dataSize) - serialization.bytes.count)
            let written = [old.dataOffset..<old.dataOffset + UInt64(serialization.bytes.count)]
            if options.dryRun { return CarrierSaveOutcome(method: .inPlace, notes: serialization.notes, ranges: written) }
            try CarrierSaving.patch(path, ranges: [(old.dataOffset, serialization.bytes)], newSize: nil, original: source) { written in
                guard try IFFChunkFile(source: written).id3Tag?.frames == expected else {
                    throw CarrierError(.verificationFailed, message: "\(path): the tag written in place does not read back as intended; the old bytes were put back")
                }
            }
            return CarrierSaveOutcome(method: .inPlace, notes: serialization.notes, ranges: written)
        }

        serialization = try tag.serialized(version: version, padding: options.padding)
        let id: FourCC = old?.id ?? (littleEndian ? "id3 " : "ID3 ")
        var chunk = id.bytes + size(UInt32(serialization.bytes.count), littleEndian: littleEndian) + serialization.bytes
        if serialization.bytes.count % 2 == 1 { chunk.append(0) }
        let kept = file.root.children.filter { $0.offset != old?.offset }
        // A last chunk of odd size may lack its pad byte at the end of the file.
        func extent(_ chunk: IFFChunk) -> UInt64 { min(chunk.totalSize, source.size - chunk.offset) }
        let insertAt = old.map { old in kept.firstIndex { $0.offset > old.offset } ?? kept.count } ?? kept.count
        let formSize = 4 + kept.reduce(UInt64(chunk.count)) { $0 + $1.totalSize }
        guard formSize <= UInt64(UInt32.max) else {
            throw CarrierError(.notWritable, message: "\(path): the file would pass the 4 GiB a \(file.root.id) chunk can hold")
        }
        let rootEnd = 8 + file.root.dataSize
        let trailing = rootEnd..<source.size
        let header = file.root.id.bytes + size(UInt32(formSize), littleEndian: littleEndian) + (file.root.formType?.bytes ?? [])
        let newSize = 8 + formSize + UInt64(trailing.count)
        if options.dryRun { return CarrierSaveOutcome(method: .rewritten, notes: serialization.notes, ranges: [0..<newSize]) }
        do {
            try FileReplacement.replace(path, write: { sink in
                try sink.write(header)
                for (index, child) in kept.enumerated() {
                    if index == insertAt { try sink.write(chunk) }
                    try source.copy(from: child.offset, count: extent(child), to: &sink)
                    if extent(child) < child.totalSize { try sink.write([0]) }  // the missing pad byte
                }
                if insertAt == kept.count { try sink.write(chunk) }
                if !trailing.isEmpty { try source.copy(from: trailing.lowerBound, count: UInt64(trailing.count), to: &sink) }
            }, verify: { temporary in
                let written = try FileByteSource(path: temporary)
                let reread = try IFFChunkFile(source: written)
                guard reread.id3Tag?.frames == expected, reread.diagnostics.isEmpty else {
                    throw CarrierError(.verificationFailed, message: "\(path): the written file does not read back as intended; the original is unchanged")
                }
                let rereadKept = reread.root.children.filter { $0.id != id }
                guard rereadKept.map(\.id) == kept.map(\.id) else {
                    throw CarrierError(.verificationFailed, message: "\(path): the written chunks differ from the original's; the original is unchanged")
                }
                for (original, copy) in zip(kept, rereadKept) {
                    try CarrierSaving.compare(source, original.offset..<original.offset + extent(original), written, at: copy.offset, path: path)
                }
                try source.checkUnchanged()
            })
        } catch let error as CarrierError {
            throw error
        } catch {
            throw CarrierError(.io, message: "\(error)")
        }
        return CarrierSaveOutcome(method: .rewritten, notes: serialization.notes, ranges: [0..<newSize])
    }

    private static func size(_ value: UInt32, littleEndian: Bool) -> [UInt8] {
        littleEndian
            ? [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
            : [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
