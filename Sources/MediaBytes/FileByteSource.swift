#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only byte source over a regular file, read with positional reads (`pread`).
///
/// Opening reads the file's first 64 KiB (or the whole file when it is smaller, or fewer bytes
/// when the caller knows the format needs fewer: `init(path:headLength:)`) in one call, so
/// the many small reads of a header walk cost no system call; every read beyond that is one
/// positional read of the bytes requested, so the cost of looking at a file is proportional to
/// the bytes looked at, not to the file's size.
public final class FileByteSource: ByteSource {
    /// The path the file was opened with.
    public let path: String
    public let size: UInt64
    let descriptor: Int32
    /// The modification time when the file was opened, to notice a later write.
    private let modified: (seconds: Int, nanoseconds: Int)
    /// The file's first bytes as they were when it was opened (at most `headLength`).
    private let head: [UInt8]
    /// How much of the start of a file is read when it is opened: a tag or `moov` of a typical
    /// music file, and every atom header before it, in one system call.
    public static let headLength = 64 * 1024

    /// Opens `path` for reading, its first `headLength` bytes read at once.
    ///
    /// A save in place that was cut short (its journal is still beside the file) is settled
    /// first, so the file read is the original or the whole result, never a mix (`SaveJournal`).
    ///
    /// - Throws: `ByteSourceError` with code `.notFound`, `.isDirectory`, `.permissionDenied`,
    ///   `.notRegularFile` or `.io`, naming the path.
    public init(path: String, headLength: Int = FileByteSource.headLength) throws(ByteSourceError) {
        self.path = path
        try SaveJournal.recover(path)
        // Without O_NONBLOCK, opening a FIFO no program writes to waits forever (before the
        // check below could refuse it); for a regular file the flag changes nothing.
        let fd = SystemPath.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw Self.error(errno: errno, path: path, action: "cannot open") }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw Self.error(errno: code, path: path, action: "cannot inspect")
        }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else {
            close(fd)
            if kind == S_IFDIR {
                throw ByteSourceError(.isDirectory, path: path, reason: "is a directory, not a media file")
            }
            throw ByteSourceError(.notRegularFile, path: path, reason: "is not a regular file")
        }
        descriptor = fd
        size = UInt64(info.st_size)
        modified = Self.modificationTime(info)
        var failure: ByteSourceError?
        head = [UInt8](unsafeUninitializedCapacity: Int(min(size, UInt64(max(headLength, 0))))) { buffer, initialized in
            // A file that shrank since fstat keeps what it still has; reads past that fail later.
            while initialized < buffer.count {
                let result = pread(fd, buffer.baseAddress! + initialized, buffer.count - initialized, off_t(initialized))
                if result > 0 {
                    initialized += result
                } else if result == 0 {
                    break
                } else if errno != EINTR {
                    failure = Self.error(errno: errno, path: path, action: "read failed", offset: UInt64(initialized))
                    break
                }
            }
        }
        if let failure {
            close(fd)
            throw failure
        }
    }

    deinit { close(descriptor) }

    public var headCount: Int { head.count }

    public var identity: ObjectIdentifier? { ObjectIdentifier(self) }

    private static func modificationTime(_ info: stat) -> (seconds: Int, nanoseconds: Int) {
        #if canImport(Darwin)
        (Int(info.st_mtimespec.tv_sec), Int(info.st_mtimespec.tv_nsec))
        #else
        (Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec))
        #endif
    }

    /// Throws when the file is no longer as it was when opened: its size or modification time
    /// differs (something wrote to it since), or `path` now names another file (it was
    /// replaced, by a rename or a delete and re-create).
    public func checkUnchanged() throws(ByteSourceError) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw ByteSourceError(.io, path: path, reason: "cannot inspect: \(String(cString: strerror(errno)))")
        }
        guard UInt64(info.st_size) == size, Self.modificationTime(info) == modified else {
            throw ByteSourceError(.io, path: path, reason: "the file changed since it was read; read it again")
        }
        var current = stat()
        guard SystemPath.stat(path, &current) == 0, isFile(current) else {
            throw ByteSourceError(.io, path: path, reason: "the file was replaced or removed since it was read; read it again")
        }
    }

    /// True when `info` describes the file this source reads (same device and inode).
    /// True when `other` was opened on the same file (device and inode) as it was when this
    /// one was opened (same size and modification time): a range of either reads the same
    /// bytes, while neither notices a change (`checkUnchanged`).
    public func isSameVersion(as other: FileByteSource) -> Bool {
        if other === self { return true }
        var info = stat()
        return fstat(other.descriptor, &info) == 0 && isFile(info) && other.size == size && other.modified == modified
    }

    func isFile(_ info: stat) -> Bool {
        var own = stat()
        return fstat(descriptor, &own) == 0 && own.st_dev == info.st_dev && own.st_ino == info.st_ino
    }

    public func slice(at offset: UInt64, count: Int) throws(ByteSourceError) -> ArraySlice<UInt8> {
        try checkRange(offset: offset, count: count)
        if offset + UInt64(count) <= UInt64(head.count) { return head[Int(offset)..<Int(offset) + count] }
        return try read(at: offset, count: count)[...]
    }

    public func read(at offset: UInt64, count: Int) throws(ByteSourceError) -> [UInt8] {
        try checkRange(offset: offset, count: count)
        guard count > 0 else { return [] }
        if offset + UInt64(count) <= UInt64(head.count) { return Array(head[Int(offset)..<Int(offset) + count]) }
        var failure: ByteSourceError?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            do {
                try fill(UnsafeMutableRawBufferPointer(buffer), at: offset)
                initialized = count
            } catch let error as ByteSourceError {
                failure = error
                initialized = 0
            } catch {
                initialized = 0
            }
        }
        if let failure { throw failure }
        return bytes
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(ByteSourceError) {
        try checkRange(offset: offset, count: buffer.count)
        if offset + UInt64(buffer.count) <= UInt64(head.count) {
            head.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[Int(offset)..<Int(offset) + buffer.count])) }
            return
        }
        try fill(buffer, at: offset)
    }

    private func fill(_ buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(ByteSourceError) {
        let count = buffer.count
        var done = 0
        while done < count {
            let result = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
            if result > 0 {
                done += result
            } else if result == 0 {
                throw ByteSourceError(.io, path: path, offset: offset + UInt64(done), reason: "file ended early (it shrank while being read?)")
            } else if errno != EINTR {
                throw Self.error(errno: errno, path: path, action: "read failed", offset: offset + UInt64(done))
            }
        }
    }

    private static func error(errno code: Int32, path: String, action: String, offset: UInt64? = nil)
        -> ByteSourceError
    {
        let message = String(cString: strerror(code))
        switch code {
        case ENOENT, ENOTDIR:
            return ByteSourceError(.notFound, path: path, reason: "no such file")
        case EACCES, EPERM:
            return ByteSourceError(.permissionDenied, path: path, reason: "\(action): permission denied")
        case EISDIR:
            return ByteSourceError(.isDirectory, path: path, reason: "is a directory, not a media file")
        default:
            return ByteSourceError(.io, path: path, offset: offset, reason: "\(action): \(message)")
        }
    }
}
