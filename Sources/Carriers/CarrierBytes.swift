import MediaBytes

/// Positional reads of a file's bytes for the readers and writers of every carrier format (MPEG
/// and ADTS streams, IFF chunks, FLAC blocks, Ogg pages): a failure of the source becomes a
/// `CarrierError` at the offset read.
enum CarrierBytes {
    /// Up to `count` bytes at `offset` (fewer where the source ends), as an array of their own.
    static func read(_ source: any ByteSource, at offset: UInt64, count: Int) throws(CarrierError) -> [UInt8] {
        Array(try slice(source, at: offset, count: count))
    }

    /// `read` as a slice, in place where the source holds the bytes already (the prefetched
    /// start and end of the file): indexed as the source's storage, not from 0.
    static func slice(_ source: any ByteSource, at offset: UInt64, count: Int) throws(CarrierError) -> ArraySlice<UInt8> {
        do {
            return try source.sliceAvailable(at: offset, upTo: count)
        } catch {
            throw CarrierError(.io, offset: offset, message: error.description)
        }
    }
}
