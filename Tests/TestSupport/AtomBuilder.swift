import MediaBytes
import Synchronization

/// Builds atom bytes for tests, so malformed inputs are made in code, next to the test that
/// needs them.
public enum AtomBuilder {
    /// An atom with a 32-bit size computed from its payload.
    public static func atom(_ type: FourCC, _ payload: [UInt8] = []) -> [UInt8] {
        var writer = ByteWriter()
        writer.writeUInt32(UInt32(8 + payload.count))
        writer.writeFourCC(type)
        writer.writeBytes(payload)
        return writer.bytes
    }

    /// An atom whose payload is its children, concatenated.
    public static func container(_ type: FourCC, _ children: [UInt8]...) -> [UInt8] {
        atom(type, children.flatMap { $0 })
    }

    /// An atom with a 64-bit size header (`size == 1` and `largesize`).
    public static func atom64(_ type: FourCC, _ payload: [UInt8] = []) -> [UInt8] {
        var writer = ByteWriter()
        writer.writeUInt32(1)
        writer.writeFourCC(type)
        writer.writeUInt64(UInt64(16 + payload.count))
        writer.writeBytes(payload)
        return writer.bytes
    }

    /// An atom header declaring `size` whatever the payload really is.
    public static func rawAtom(size: UInt32, _ type: FourCC, _ payload: [UInt8] = []) -> [UInt8] {
        var writer = ByteWriter()
        writer.writeUInt32(size)
        writer.writeFourCC(type)
        writer.writeBytes(payload)
        return writer.bytes
    }

    /// Version and flags of a full box, then `rest`.
    public static func fullBox(_ type: FourCC, version: UInt8 = 0, flags: UInt32 = 0, _ rest: [UInt8] = []) -> [UInt8] {
        atom(type, [version] + be(UInt64(flags), width: 3) + rest)
    }

    /// A minimal `ftyp`.
    public static func ftyp(_ major: FourCC = "M4A ", compatible: [FourCC] = ["M4A ", "isom"]) -> [UInt8] {
        atom("ftyp", major.bytes + be(0, width: 4) + compatible.flatMap(\.bytes))
    }

    /// Big-endian bytes of `value`.
    public static func be(_ value: UInt64, width: Int) -> [UInt8] {
        var writer = ByteWriter()
        writer.writeUInt(value, width: width)
        return writer.bytes
    }

    /// Bytes of a string, UTF-8.
    public static func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }
}

/// A byte source that records every read, to check what parsing costs and touches.
public final class RecordingByteSource: ByteSource {
    private let base: any ByteSource
    private let ranges = Mutex<[Range<UInt64>]>([])

    public init(_ base: any ByteSource) { self.base = base }

    public var size: UInt64 { base.size }

    /// The ranges read so far, in order.
    public var reads: [Range<UInt64>] { ranges.withLock { $0 } }

    public func read(at offset: UInt64, count: Int) throws(ByteSourceError) -> [UInt8] {
        ranges.withLock { $0.append(offset..<offset + UInt64(count)) }
        return try base.read(at: offset, count: count)
    }
}
