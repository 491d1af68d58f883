/// A destination for bytes written in order: a buffer in memory, or (in the writing layers) a file.
public protocol ByteSink {
    /// Appends `bytes`.
    mutating func write(_ bytes: [UInt8]) throws
    /// Appends `bytes`.
    mutating func write(_ bytes: ArraySlice<UInt8>) throws
}

extension ByteWriter: ByteSink {
    public mutating func write(_ bytes: [UInt8]) { writeBytes(bytes) }
    public mutating func write(_ bytes: ArraySlice<UInt8>) { writeBytes(bytes) }
}

extension ByteSource {
    /// Copies `count` bytes starting at `offset` into `sink`, in pieces of at most `chunkSize`
    /// bytes, so copying a large media payload never holds it in memory at once.
    public func copy<Sink: ByteSink>(
        from offset: UInt64, count: UInt64, to sink: inout Sink, chunkSize: Int = 1 << 20
    ) throws {
        var done: UInt64 = 0
        while done < count {
            let piece = Int(min(UInt64(chunkSize), count - done))
            try sink.write(try read(at: offset + done, count: piece))
            done += UInt64(piece)
        }
    }
}
