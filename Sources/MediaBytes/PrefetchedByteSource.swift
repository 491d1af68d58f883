/// A byte source that reads the start and the end of another once, up front, and serves reads
/// inside them from memory: for formats whose metadata sits at the ends of a file (ID3 tags,
/// ID3v1, APE), two system calls instead of one per field.
public struct PrefetchedByteSource: ByteSource {
    private let base: any ByteSource
    /// The first bytes: a view of what `base` holds already (a file's head, read when it was
    /// opened) where it holds them, not a copy.
    private let head: ArraySlice<UInt8>
    private let tail: [UInt8]
    private let tailStart: UInt64

    /// Reads the first `head` and the last `tail` bytes of `base` (fewer when it is shorter).
    /// When `base` holds a head of its own (a file's, read as it was opened for a format that
    /// needs less: `FileByteSource.init(path:headLength:)`), that head is taken as it is, not
    /// read again.
    public init(_ base: any ByteSource, head: Int, tail: Int) throws(ByteSourceError) {
        self.base = base
        let held = base.headCount
        self.head = try base.slice(at: 0, count: Int(min(UInt64(max(held > 0 ? held : head, 0)), base.size)))
        let tailCount = min(UInt64(tail), base.size - UInt64(self.head.count))
        tailStart = base.size - tailCount
        self.tail = try base.read(at: tailStart, count: Int(tailCount))
    }

    public var size: UInt64 { base.size }

    /// Its base's: the bytes it holds are the base's, at the same offsets.
    public var identity: ObjectIdentifier? { base.identity }

    public func checkUnchanged() throws(ByteSourceError) { try base.checkUnchanged() }

    /// How many bytes from the start are held in memory.
    public var headCount: Int { head.count }

    /// The bytes at `offset` without a copy when the prefetched start holds them; otherwise read.
    public func slice(at offset: UInt64, count: Int) throws(ByteSourceError) -> ArraySlice<UInt8> {
        try checkRange(offset: offset, count: count)
        let end = offset + UInt64(count)
        if end <= UInt64(head.count) { return head[head.startIndex + Int(offset)..<head.startIndex + Int(end)] }
        return try read(at: offset, count: count)[...]
    }

    public func read(at offset: UInt64, count: Int) throws(ByteSourceError) -> [UInt8] {
        try checkRange(offset: offset, count: count)
        let end = offset + UInt64(count)
        if end <= UInt64(head.count) { return Array(head[head.startIndex + Int(offset)..<head.startIndex + Int(end)]) }
        if offset >= tailStart { return Array(tail[Int(offset - tailStart)..<Int(end - tailStart)]) }
        // A read that runs into the prefetched end reads only the bytes before it.
        if end > tailStart { return try base.read(at: offset, count: Int(tailStart - offset)) + tail[..<Int(end - tailStart)] }
        return try base.read(at: offset, count: count)
    }
}
