#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import MediaBytes

/// The bytes of a large frame payload (a picture, an encapsulated object), which may still be
/// in the file: reading a tag leaves a large payload unread until `bytes()` asks for it.
public struct ID3Payload: Sendable, Hashable, ExpressibleByArrayLiteral, CustomStringConvertible {
    private enum Storage: Sendable {
        case loaded(ArraySlice<UInt8>)
        case deferred(source: any ByteSource, offset: UInt64, count: Int)
    }

    private let storage: Storage

    public init(_ bytes: ArraySlice<UInt8>) { storage = .loaded(bytes) }
    public init(_ bytes: [UInt8]) { storage = .loaded(bytes[...]) }
    public init(arrayLiteral elements: UInt8...) { storage = .loaded(elements[...]) }

    /// Bytes that stay in `source` until asked for.
    init(deferredFrom source: any ByteSource, offset: UInt64, count: Int) {
        storage = .deferred(source: source, offset: offset, count: count)
    }

    public var count: Int {
        switch storage {
        case .loaded(let bytes): bytes.count
        case .deferred(_, _, let count): count
        }
    }

    /// False while the bytes are still only in the file.
    public var isLoaded: Bool {
        if case .loaded = storage { return true }
        return false
    }

    /// Where the bytes are in the file, while they are deferred.
    public var fileOffset: UInt64? {
        if case .deferred(_, let offset, _) = storage { return offset }
        return nil
    }

    /// The bytes, as a range of the file while they are deferred (nothing read).
    public var contents: SplicedBytes {
        switch storage {
        case .loaded(let bytes): SplicedBytes(bytes)
        case .deferred(let source, let offset, let count): SplicedBytes(from: source, at: offset, count: count)
        }
    }

    /// The bytes, read from the file when they were deferred.
    public func bytes() throws(ID3Error) -> ArraySlice<UInt8> {
        switch storage {
        case .loaded(let bytes):
            return bytes
        case .deferred(let source, let offset, let count):
            do {
                // Checked after the read: a change made during it shows too.
                let bytes = try source.read(at: offset, count: count)
                try source.checkUnchanged()
                return bytes[...]
            } catch {
                throw ID3Error(.io, offset: offset, message: "cannot read a frame payload: \(error.description)")
            }
        }
    }

    /// Equal when the bytes are (deferred bytes are read a chunk at a time to compare; bytes
    /// that cannot be read equal nothing).
    public static func == (lhs: ID3Payload, rhs: ID3Payload) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if case .loaded(let left) = lhs.storage, case .loaded(let right) = rhs.storage {
            // Compared by memcmp (an ArraySlice's `==` goes a byte at a time): a save verifies
            // every picture it wrote against the one it meant to write.
            return left.withUnsafeBytes { a in right.withUnsafeBytes { b in a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 } }
        }
        return lhs.contents == rhs.contents
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(count) }

    public var description: String { "\(count) bytes" + (isLoaded ? "" : " (in the file at \(fileOffset ?? 0))") }
}
