/// A source seen through a set of patches: what a file will read like after some of its
/// ranges are overwritten and its length is changed, without writing anything. Saves verify
/// an in-place edit on this view before touching the file.
public struct PatchedByteSource: ByteSource {
    public let base: any ByteSource
    /// Non-overlapping replacement ranges, sorted by offset.
    public let patches: [(offset: UInt64, bytes: [UInt8])]
    public let size: UInt64

    public init(base: any ByteSource, patches: [(offset: UInt64, bytes: [UInt8])], size: UInt64? = nil) {
        self.base = base
        self.patches = patches.filter { !$0.bytes.isEmpty }.sorted { $0.offset < $1.offset }
        self.size = size ?? base.size
    }

    public func read(at offset: UInt64, count: Int) throws(ByteSourceError) -> [UInt8] {
        try checkRange(offset: offset, count: count)
        var result = [UInt8]()
        result.reserveCapacity(count)
        var position = offset
        let end = offset + UInt64(count)
        for patch in patches where patch.offset + UInt64(patch.bytes.count) > position && patch.offset < end {
            if patch.offset > position {
                result += try readBase(at: position, count: Int(patch.offset - position))
                position = patch.offset
            }
            let from = Int(position - patch.offset)
            let to = Int(min(end, patch.offset + UInt64(patch.bytes.count)) - patch.offset)
            result += patch.bytes[from..<to]
            position = patch.offset + UInt64(to)
        }
        if position < end { result += try readBase(at: position, count: Int(end - position)) }
        return result
    }

    /// Bytes beyond the base's end (a file that grows) read as zeros until patched.
    private func readBase(at offset: UInt64, count: Int) throws(ByteSourceError) -> [UInt8] {
        let available = offset < base.size ? Int(min(UInt64(count), base.size - offset)) : 0
        var bytes = available > 0 ? try base.read(at: offset, count: available) : []
        if available < count { bytes += [UInt8](repeating: 0, count: count - available) }
        return bytes
    }

    public func checkUnchanged() throws(ByteSourceError) { try base.checkUnchanged() }
}
