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
    /// Whether each kernel copy is read back through `descriptor` (open for reading too) and
    /// compared with its source while the next piece is copied.
    private let readsBackCopies: Bool
    /// The file this one replaces (`FileReplacement.replace`): a copy from it drops its
    /// cached pages once each piece compared equal.
    private let replacedFile: stat?
    /// Bytes written so far: where the next write lands.
    private var position: UInt64 = 0
    /// The kernel copies read back equal to their source: the byte comparison a save's
    /// verification can skip.
    public private(set) var checkedCopies = CheckedCopies()

    /// Creates (or truncates) the file at `path`; `-` means standard output.
    public init(path: String, permissions: mode_t = 0o644) throws(FileWriteError) {
        self.path = path
        if path == "-" {
            descriptor = 1
            ownsDescriptor = false
            readsBackCopies = false
            replacedFile = nil
            return
        }
        let fd = SystemPath.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, permissions)
        guard fd >= 0 else { throw .errno(path, "cannot create") }
        descriptor = fd
        ownsDescriptor = true
        readsBackCopies = false
        replacedFile = nil
    }

    /// A sink writing through `descriptor` (a device, a FIFO, an inherited stream) in order,
    /// with no read-back; `close` closes it when `owned`.
    init(path: String, writingThrough descriptor: Int32, owned: Bool) {
        self.path = path
        self.descriptor = descriptor
        ownsDescriptor = owned
        readsBackCopies = false
        replacedFile = nil
    }

    /// A sink owning `descriptor`, a new file open for reading and writing: its kernel copies
    /// are read back and compared with their source (`checkedCopies`). When the source is
    /// `replacing` (the file, by device and inode, that the new one will replace), each
    /// compared piece of it is dropped from the page cache (`POSIX_FADV_DONTNEED`), on the
    /// thread that compares, while the next piece is copied.
    ///
    /// A replaced file's cached pages serve nobody once it is replaced, yet they stay until it
    /// is closed, and then the closing process pays for dropping them (for 1 GiB, about 60 of
    /// the 180 ms that closing it took on this project's benchmark machine). Meanwhile the copy
    /// needs as many new pages, which the kernel takes from what is free, and can take from
    /// the pages just dropped instead: a 1 GiB rewrite's copy went from 0.38-2.1 s to a steady
    /// 0.36-0.38 s there (interleaved runs). A failed save leaves the original as it was, less
    /// its cache.
    init(path: String, readableDescriptor descriptor: Int32, replacing replacedFile: stat?) {
        self.path = path
        self.descriptor = descriptor
        ownsDescriptor = true
        readsBackCopies = true
        self.replacedFile = replacedFile
    }

    public mutating func write(_ bytes: [UInt8]) throws { try write(bytes[...]) }

    public mutating func write(_ bytes: ArraySlice<UInt8>) throws {
        try Self.writeAll(descriptor, bytes, path: path)
        position += UInt64(bytes.count)
    }

    /// Copies file to file in the kernel when `source` is a file (`copy_file_range`: no copy
    /// through this process, and a shared extent where the file system has reflinks); through
    /// a buffer otherwise, or where the kernel cannot (another file system, an old kernel).
    public mutating func write(from source: any ByteSource, at offset: UInt64, count: UInt64) throws {
        guard count > 0 else { return }
        var done: UInt64 = 0
        if let file = source as? FileByteSource {
            try file.checkRange(offset: offset, count: Int(clamping: count))
            done = try copyInKernel(from: file, at: offset, count: count)
        }
        if done < count { try writeThroughBuffer(from: source, at: offset + done, count: count - done) }
    }

    /// The pieces a kernel copy goes in: with `readsBackCopies`, each piece is read back while
    /// the next one is copied.
    static let copyPiece: UInt64 = 8 << 20

    /// Copies `count` bytes of `file` from `offset` in the kernel, in pieces of `copyPiece`.
    /// With `readsBackCopies`, another thread follows the copy piece by piece: it reads back
    /// what has been copied and compares it with the source while the kernel copies the next
    /// piece, so the comparison costs little wall time on a machine with two cores. The copy
    /// is recorded in `checkedCopies`; a difference throws. Returns the bytes copied: fewer
    /// than `count` when the kernel cannot copy (the caller goes on through a buffer).
    ///
    /// Not done: asking the kernel to start each piece's writeback as soon as it is copied
    /// (`sync_file_range`). It took a 440 MB rewrite from about 0.35 to 0.25 s while the disk
    /// kept up, but when the disk fell behind (a 1 GiB rewrite on an ext4 mounted with
    /// `discard`, right after other large writes and deletions) it paced the copy at the
    /// disk's speed in small pieces: the median of five rewrites went from 1.7 s to 2.9 s
    /// (3.6 s with the call on the copying thread), where `cp` then `sync` took 1.7-2.0 s.
    /// Tried again with the copy aligned and reusing the original's pages: 0.72-1.00 s against
    /// 0.99-1.16 s on a calm disk, 2.2 s against 1.4 s once in three under a concurrent write.
    private mutating func copyInKernel(from file: FileByteSource, at offset: UInt64, count: UInt64) throws -> UInt64 {
        let start = position
        let check = readsBackCopies ? CopyCheck(source: file.descriptor, at: offset, copy: descriptor, at: start, bufferSize: Int(min(count, CopyCheck.bufferSize)), releasingSource: replacedFile.map(file.isFile) ?? false) : nil
        // A copy of one piece is compared on this thread once copied; a longer one on another
        // thread while it is copied.
        let reader = count > Self.copyPiece ? check.flatMap { check in JoinableThread(stackSize: 64 << 10) { check.follow() } } : nil
        // No return while the reader reads the descriptors: the caller may close them.
        defer {
            check?.finish()
            reader?.join()
        }
        var done: UInt64 = 0
        var from = off_t(offset)
        var refused = false
        while done < count && !refused && check?.failure == nil {
            let pieceStart = done
            let pieceEnd = min(count, done + Self.copyPiece)
            while done < pieceEnd {
                let result = injectedFailure(.write) ? -1 : kernelCopy(file.descriptor, &from, descriptor, nil, Int(pieceEnd - done), 0)
                if result > 0 {
                    done += UInt64(result)
                    continue
                }
                let code = Glibc_errno()
                if result < 0 && code == EINTR { continue }
                // Nothing copied this round: the rest goes through a buffer (EXDEV, ENOSYS,
                // EOPNOTSUPP, EINVAL on file systems that cannot, EBADF for an output opened to
                // append; a short source fails there).
                guard result == 0 || [EXDEV, ENOSYS, EOPNOTSUPP, EINVAL, EBADF].contains(code) else {
                    throw FileWriteError.errno(path, "copy failed")
                }
                refused = true
                break
            }
            guard done > pieceStart else { break }
            position += done - pieceStart
            if let check, injectedFailure(.compareCopy) {
                check.fail("cannot read the copy back: \(String(cString: strerror(Glibc_errno())))")
            }
            check?.copied(upTo: done, compareHere: reader == nil)
        }
        guard let check else { return done }
        check.finish()
        reader?.join()
        if let failure = check.failure { throw FileWriteError(path: path, reason: "verification failed: \(failure); the original is unchanged") }
        checkedCopies.add(from: file, at: offset, to: start, count: done)
        return done
    }

    static func writeAll(_ descriptor: Int32, _ bytes: ArraySlice<UInt8>, path: String, at offset: UInt64? = nil) throws(FileWriteError) {
        var failure: FileWriteError?
        bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                var result: Int
                if injectedFailure(.write) {
                    // A simulated kill in the middle of this write: its first half reaches the file.
                    if FileFaultInjector.current?.isCrashingNow == true, let offset, done == 0 {
                        _ = systemPwrite(descriptor, buffer.baseAddress!, buffer.count / 2, off_t(offset))
                    }
                    result = -1
                } else {
                    result = offset.map { systemPwrite(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t($0) + off_t(done)) }
                        ?? systemWrite(descriptor, buffer.baseAddress! + done, buffer.count - done)
                }
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
    ///
    /// A file under `concurrentFlushSize` is flushed on this thread before `work`: a thread
    /// (and the memory arena it gets) costs more than reading back a small file takes (a
    /// batch growing 1000 MP3s of 45 KB spent a thread on each).
    public func close<T>(flushingWhile work: () throws -> T) throws -> T {
        guard ownsDescriptor else { return try work() }
        let status = FlushStatus()
        let descriptor = self.descriptor
        let flush: @Sendable () -> Void = { status.error = Self.flush(descriptor) }
        var flusher: JoinableThread?
        var info = stat()
        if injectedFailure(.flush) {
            status.error = Glibc_errno()
        } else if fstat(descriptor, &info) == 0, info.st_size < Self.concurrentFlushSize {
            flush()
        } else {
            flusher = JoinableThread(stackSize: 64 << 10, flush)
            if flusher == nil { flush() }
        }
        let result = Result { try work() }
        flusher?.join()
        try closeAfterFlush(failedWith: status.error)
        return try result.get()
    }

    /// The size from which `close(flushingWhile:)` flushes on another thread.
    static let concurrentFlushSize = off_t(4 << 20)

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

    /// Reads back what a kernel copy has written so far and compares it with its source,
    /// through two buffers allocated once: on another thread (`follow`, woken as each piece is
    /// copied, until `finish`) or on the copying thread. `failure` is read after the reading
    /// thread is joined.
    final class CopyCheck: @unchecked Sendable {
        static let bufferSize: UInt64 = 4 << 20
        let source: Int32, sourceOffset: UInt64
        let copy: Int32, copyOffset: UInt64
        let bufferSize: Int
        let buffers: UnsafeMutableRawPointer
        /// Drop the source's compared bytes from the page cache.
        let releasesSource: Bool
        /// Guarded by `lock`: bytes copied so far, whether the copy is over, what went wrong.
        private var copiedCount: UInt64 = 0
        private var finished = false
        private var problem: String?
        private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let wake = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        /// Bytes compared so far (touched by one thread at a time).
        private var comparedCount: UInt64 = 0

        init(source: Int32, at sourceOffset: UInt64, copy: Int32, at copyOffset: UInt64, bufferSize: Int, releasingSource: Bool) {
            self.source = source
            self.sourceOffset = sourceOffset
            self.copy = copy
            self.copyOffset = copyOffset
            self.bufferSize = bufferSize
            releasesSource = releasingSource
            buffers = .allocate(byteCount: 2 * bufferSize, alignment: 64)
            pthread_mutex_init(lock, nil)
            pthread_cond_init(wake, nil)
        }

        deinit {
            buffers.deallocate()
            pthread_cond_destroy(wake)
            pthread_mutex_destroy(lock)
            lock.deallocate()
            wake.deallocate()
        }

        private func locked<T>(_ body: () -> T) -> T {
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            return body()
        }

        /// What went wrong (a difference, a failed read), for the error message; nil while
        /// every byte compared equal.
        var failure: String? { locked { problem } }

        /// Says that the first `count` bytes are copied; compares them here when no other
        /// thread follows the copy.
        func copied(upTo count: UInt64, compareHere: Bool) {
            locked {
                copiedCount = count
                pthread_cond_signal(wake)
            }
            if compareHere { compare(upTo: count) }
        }

        /// Says that the copy is over (or abandoned): the following thread stops once it has
        /// compared what was copied.
        func finish() {
            locked {
                finished = true
                pthread_cond_signal(wake)
            }
        }

        /// The following thread's loop: waits for copied bytes, compares them, until `finish`.
        func follow() {
            while true {
                let (target, over) = locked { () -> (UInt64, Bool) in
                    while copiedCount == comparedCount && !finished { pthread_cond_wait(wake, lock) }
                    return (copiedCount, finished)
                }
                compare(upTo: target)
                if failure != nil || (over && comparedCount == target) { return }
            }
        }

        /// Compares the bytes from `comparedCount` up to `count`.
        private func compare(upTo count: UInt64) {
            guard failure == nil else { return }
            let mine = buffers, theirs = buffers + bufferSize
            let first = comparedCount
            while comparedCount < count {
                let done = comparedCount
                let piece = Int(min(UInt64(bufferSize), count - done))
                if let problem = Self.readFully(source, mine, piece, sourceOffset + done, what: "the source")
                    ?? Self.readFully(copy, theirs, piece, copyOffset + done, what: "the copy") {
                    fail(problem)
                    return
                }
                if memcmp(mine, theirs, piece) != 0 {
                    let a = mine.assumingMemoryBound(to: UInt8.self), b = theirs.assumingMemoryBound(to: UInt8.self)
                    let index = UInt64((0..<piece).first { a[$0] != b[$0] } ?? 0)
                    fail("byte \(copyOffset + done + index) of the copy, read back, differs from byte \(sourceOffset + done + index) of the original it was copied from")
                    return
                }
                comparedCount += UInt64(piece)
            }
            #if os(Linux)
            if releasesSource && comparedCount > first {
                // The kernel drops whole folios only (up to 2 MiB on x86-64): one that straddles
                // the end stays until the next call, which reaches back over it.
                let start = first > FileByteSink.copyPiece ? first - FileByteSink.copyPiece : 0
                _ = posix_fadvise(source, off_t(sourceOffset + start), off_t(comparedCount - start), POSIX_FADV_DONTNEED)
            }
            #endif
        }

        /// Records the first thing that went wrong; the comparing stops there.
        func fail(_ description: String) {
            locked { if problem == nil { problem = description } }
        }

        /// Reads `count` bytes at `offset` into `buffer`; a description of the failure, or nil.
        private static func readFully(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, _ offset: UInt64, what: String) -> String? {
            var done = 0
            while done < count {
                let result = systemPread(descriptor, buffer + done, count - done, off_t(offset) + off_t(done))
                if result > 0 {
                    done += result
                } else if result < 0 && Glibc_errno() == EINTR {
                    continue
                } else {
                    return result == 0 ? "\(what) ends at byte \(offset + UInt64(done)), before the bytes copied"
                        : "cannot read \(what) back at byte \(offset + UInt64(done)): \(String(cString: strerror(Glibc_errno())))"
                }
            }
            return nil
        }
    }

    /// True when both paths name the same existing file (same device and inode).
    public static func isSameFile(_ a: String, _ b: String) -> Bool {
        var first = stat()
        var second = stat()
        guard SystemPath.stat(a, &first) == 0, SystemPath.stat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }
}

@inline(__always) func Glibc_errno() -> Int32 { errno }

#if canImport(Glibc)
@inline(__always) public func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { Glibc.write(fd, buffer, count) }
@inline(__always) func systemPwrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int, _ offset: off_t) -> Int { Glibc.pwrite(fd, buffer, count, offset) }
@inline(__always) func systemPread(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, _ offset: off_t) -> Int { Glibc.pread(fd, buffer, count, offset) }
@inline(__always) func systemClose(_ fd: Int32) -> Int32 { Glibc.close(fd) }
#elseif canImport(Musl)
@inline(__always) public func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { Musl.write(fd, buffer, count) }
@inline(__always) func systemPwrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int, _ offset: off_t) -> Int { Musl.pwrite(fd, buffer, count, offset) }
@inline(__always) func systemPread(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, _ offset: off_t) -> Int { Musl.pread(fd, buffer, count, offset) }
@inline(__always) func systemClose(_ fd: Int32) -> Int32 { Musl.close(fd) }
#else
@inline(__always) public func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { Darwin.write(fd, buffer, count) }
@inline(__always) func systemPwrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int, _ offset: off_t) -> Int { Darwin.pwrite(fd, buffer, count, offset) }
@inline(__always) func systemPread(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, _ offset: off_t) -> Int { Darwin.pread(fd, buffer, count, offset) }
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
