#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An error from writing or replacing a file.
public struct FileWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String
    /// The system's error number (`errno`) when a system call failed, so that callers can tell
    /// a permission problem (`EACCES`, `EPERM`, `EROFS`) from a full disk without reading text.
    public var errorNumber: Int32?

    public init(path: String, reason: String, errorNumber: Int32? = nil) {
        self.path = path
        self.reason = reason
        self.errorNumber = errorNumber
    }

    public var description: String { "\(path): \(reason)" }

    /// True when the file system refused the write for want of permission or because it is
    /// mounted read-only.
    public var isPermissionProblem: Bool { errorNumber.map { $0 == EACCES || $0 == EPERM || $0 == EROFS } ?? false }

    static func errno(_ path: String, _ action: String) -> FileWriteError {
        let number = Glibc_errno()
        return FileWriteError(path: path, reason: "\(action): \(String(cString: strerror(number)))", errorNumber: number)
    }
}

/// A byte sink writing sequentially to a file descriptor: a new file, or standard output.
public struct FileByteSink: ByteSink {
    public let path: String
    let descriptor: Int32
    private let ownsDescriptor: Bool

    /// Creates (or truncates) the file at `path`; `-` means standard output.
    public init(path: String, permissions: mode_t = 0o644) throws(FileWriteError) {
        self.path = path
        if path == "-" {
            descriptor = 1
            ownsDescriptor = false
            return
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, permissions)
        guard fd >= 0 else { throw .errno(path, "cannot create") }
        descriptor = fd
        ownsDescriptor = true
    }

    init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
        ownsDescriptor = true
    }

    public mutating func write(_ bytes: [UInt8]) throws { try write(bytes[...]) }

    public mutating func write(_ bytes: ArraySlice<UInt8>) throws {
        try Self.writeAll(descriptor, bytes, path: path)
    }

    /// Copies file to file in the kernel when `source` is a file (`copy_file_range`: no copy
    /// through this process, and a shared extent where the file system has reflinks); through
    /// a buffer otherwise, or where the kernel cannot (another file system, an old kernel).
    public mutating func write(from source: any ByteSource, at offset: UInt64, count: UInt64) throws {
        guard count > 0 else { return }
        var done: UInt64 = 0
        if let file = source as? FileByteSource {
            try file.checkRange(offset: offset, count: Int(clamping: count))
            var from = off_t(offset)
            while done < count {
                let result = injectedFailure(.write) ? -1 : kernelCopy(file.descriptor, &from, descriptor, nil, Int(min(count - done, 1 << 30)), 0)
                if result > 0 {
                    done += UInt64(result)
                    continue
                }
                let code = Glibc_errno()
                if result < 0 && code == EINTR { continue }
                // Nothing copied this round: the rest goes through a buffer (EXDEV, ENOSYS,
                // EOPNOTSUPP, EINVAL on file systems that cannot, EBADF for an output opened to
                // append; a short source fails there).
                if result == 0 || [EXDEV, ENOSYS, EOPNOTSUPP, EINVAL, EBADF].contains(code) { break }
                throw FileWriteError.errno(path, "copy failed")
            }
        }
        if done < count { try writeThroughBuffer(from: source, at: offset + done, count: count - done) }
    }

    static func writeAll(_ descriptor: Int32, _ bytes: ArraySlice<UInt8>, path: String, at offset: UInt64? = nil) throws(FileWriteError) {
        var failure: FileWriteError?
        bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let result = injectedFailure(.write) ? -1 : offset.map { systemPwrite(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t($0) + off_t(done)) }
                    ?? systemWrite(descriptor, buffer.baseAddress! + done, buffer.count - done)
                if result < 0 {
                    if Glibc_errno() == EINTR { continue }
                    failure = .errno(path, "write failed")
                    return
                }
                done += result
            }
        }
        if let failure { throw failure }
    }

    /// Flushes the file to disk and closes it.
    public func close() throws(FileWriteError) {
        guard ownsDescriptor else { return }
        try closeAfterFlush(failedWith: injectedFailure(.flush) ? Glibc_errno() : Self.flush(descriptor))
    }

    /// Flushes the file to disk on another thread while `work` runs on this one, then closes
    /// it: a save verifies the new file (reading it back through the page cache) during the
    /// flush instead of after it. Both must succeed; a failed flush is reported first.
    public func close<T>(flushingWhile work: () throws -> T) throws -> T {
        guard ownsDescriptor else { return try work() }
        let status = FlushStatus()
        let descriptor = self.descriptor
        let flush: @Sendable () -> Void = { status.error = Self.flush(descriptor) }
        var flusher: JoinableThread?
        if injectedFailure(.flush) {
            status.error = Glibc_errno()
        } else {
            flusher = JoinableThread(stackSize: 64 << 10, flush)
            if flusher == nil { flush() }
        }
        let result = Result { try work() }
        flusher?.join()
        try closeAfterFlush(failedWith: status.error)
        return try result.get()
    }

    /// `fsync`, as an `errno` (0 when it worked, or when the file cannot be flushed: EINVAL).
    private static func flush(_ descriptor: Int32) -> Int32 {
        fsync(descriptor) == 0 || Glibc_errno() == EINVAL ? 0 : Glibc_errno()
    }

    /// Closes the descriptor and reports the flush's error (`errno`, 0 for none) first, then a
    /// failed close (which can be the first report of a failed write: NFS, quotas).
    private func closeAfterFlush(failedWith flushError: Int32) throws(FileWriteError) {
        let closed = systemClose(descriptor) == 0 && !injectedFailure(.close)
        if flushError != 0 {
            throw FileWriteError(path: path, reason: "flush to disk failed: \(String(cString: strerror(flushError)))", errorNumber: flushError)
        }
        if !closed { throw .errno(path, "closing it failed") }
    }

    /// The `errno` of a flush on another thread (0: none); read after joining it.
    private final class FlushStatus: @unchecked Sendable { var error: Int32 = 0 }

    /// True when both paths name the same existing file (same device and inode).
    public static func isSameFile(_ a: String, _ b: String) -> Bool {
        var first = stat()
        var second = stat()
        guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }
}

@inline(__always) func Glibc_errno() -> Int32 { errno }

#if canImport(Glibc)
@inline(__always) public func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { Glibc.write(fd, buffer, count) }
@inline(__always) func systemPwrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int, _ offset: off_t) -> Int { Glibc.pwrite(fd, buffer, count, offset) }
@inline(__always) func systemClose(_ fd: Int32) -> Int32 { Glibc.close(fd) }
#elseif canImport(Musl)
@inline(__always) public func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { Musl.write(fd, buffer, count) }
@inline(__always) func systemPwrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int, _ offset: off_t) -> Int { Musl.pwrite(fd, buffer, count, offset) }
@inline(__always) func systemClose(_ fd: Int32) -> Int32 { Musl.close(fd) }
#else
@inline(__always) public func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { Darwin.write(fd, buffer, count) }
@inline(__always) func systemPwrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int, _ offset: off_t) -> Int { Darwin.pwrite(fd, buffer, count, offset) }
@inline(__always) func systemClose(_ fd: Int32) -> Int32 { Darwin.close(fd) }
#endif

/// `copy_file_range(2)` (glibc 2.27, musl 1.1.24), which Swift's Glibc module does not
/// declare (it is a GNU extension). Bound by the linker, not looked up with `dlsym` at run
/// time: a statically linked executable (as `Tools/install.sh` builds the tools) has no
/// dynamic symbol table, so the look-up found nothing there and every copy went through a
/// buffer. The cost: the package needs glibc 2.27 (2018) or later to link on Linux, which the
/// distributions Swift 6 toolchains are built for have, except Amazon Linux 2 (glibc 2.26,
/// end of support June 2026). Its arguments are integers and pointers, passed alike by
/// Swift's and C's calling conventions on the platforms Swift supports.
#if os(Linux)
@_silgen_name("copy_file_range")
private func kernelCopy(_ inputFD: Int32, _ inputOffset: UnsafeMutablePointer<off_t>?, _ outputFD: Int32,
                        _ outputOffset: UnsafeMutablePointer<off_t>?, _ count: Int, _ flags: UInt32) -> Int
#else
/// No kernel copy elsewhere: ENOSYS, which sends the copy through a buffer.
private func kernelCopy(_ inputFD: Int32, _ inputOffset: UnsafeMutablePointer<off_t>?, _ outputFD: Int32,
                        _ outputOffset: UnsafeMutablePointer<off_t>?, _ count: Int, _ flags: UInt32) -> Int {
    errno = ENOSYS
    return -1
}
#endif
