/// A byte source that reads the start and the end of another once, up front, and serves reads
/// inside them from memory: for formats whose metadata sits at the ends of a file (ID3 tags,
/// ID3v1, APE), two system calls instead of one per field.
public struct PrefetchedByteSource: ByteSource {
    private let base: any ByteSource
    private let head: [UInt8]
    private let tail: [UInt8]
    private let tailStart: UInt64

    /// Reads the first `head` and the last `tail` bytes of `base` (fewer when it is shorter).
    public init(_ base: any ByteSource, head: Int, tail: Int) throws(ByteSourceError) {
        self.base = base
        self.head = try base.readAvailable(at: 0, upTo: head)
        let tailCount = min(UInt64(tail), base.size - UInt64(self.head.count))
        tailStart = base.size - tailCount
        self.tail = try base.read(at: tailStart, count: Int(tailCount))
    }

    public var size: UInt64 { base.size }

    public func checkUnchanged() throws(ByteSourceError) { try base.checkUnchanged() }

    /// How many bytes from the start are held in memory.
    public var headCount: Int { head.count }

    /// The bytes at `offset` without a copy when the prefetched start holds them; otherwise read.
    public func slice(at offset: UInt64, count: Int) throws(ByteSourceError) -> ArraySlice<UInt8> {
        try checkRange(offset: offset, count: count)
        let end = offset + UInt64(count)
        if end <= UInt64(head.count) { return head[Int(offset)..<Int(end)] }
        return try read(at: offset, count: count)[...]
    }

    public func read(at offset: UInt64, count: Int) throws(ByteSourceError) -> [UInt8] {
        try checkRange(offset: offset, count: count)
        let end = offset + UInt64(count)
        if end <= UInt64(head.count) { return Array(head[Int(offset)..<Int(end)]) }
        if offset >= tailStart { return Array(tail[Int(offset - tailStart)..<Int(end - tailStart)]) }
        return try base.read(at: offset, count: count)
    }
}
