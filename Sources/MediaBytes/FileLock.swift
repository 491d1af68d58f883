#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Why a file could not be locked.
public struct FileLockError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    /// True when another process holds the lock (otherwise the file could not be opened).
    public var isHeldElsewhere: Bool
    /// The process holding the lock, when the system says (Linux `/proc/locks`).
    public var holder: Int32?
    public var reason: String

    public var description: String { "\(path): \(reason)" }
}

/// An exclusive advisory lock on a file (BSD `flock`), held from `init` until the value is
/// dropped, so two editors never interleave their read-edit-write of the same file.
///
/// `flock` locks belong to the open file, not the process, so other descriptors the editor
/// opens and closes on the same file do not release it (POSIX `fcntl` locks would be). The
/// lock is taken on the file a symbolic link points to. A save that renames a new file over the
/// old one leaves the lock on the old file; `init` therefore checks, once locked, that the path
/// still names the file it locked, and starts again when it does not.
public struct FileLock: ~Copyable {
    /// The file locked, by device and inode.
    private let key: FileKey

    struct FileKey: Hashable {
        var device: UInt64
        var inode: UInt64
        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    /// The locks this process holds: descriptor, the thread that holds it, and how many
    /// `FileLock` values share it. A second lock taken by the same thread on a file it has
    /// locked shares the first (`flock` on another descriptor would wait for ourselves):
    /// `tagedit` locks a file from reading to saving, and the save inside takes the lock
    /// again. Another thread is refused as another process would be, so two threads never
    /// edit one file at once.
    private static let held = Mutex<[FileKey: (descriptor: Int32, thread: UInt, count: Int)]>([:])

    /// The calling thread, as a number.
    private static var currentThread: UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }

    /// Locks `path` without waiting.
    ///
    /// - Throws: `FileLockError` naming the process that holds the lock when another one does
    ///   (its PID where the system tells), or why the file could not be opened.
    public init(_ path: String) throws(FileLockError) {
        for _ in 0..<8 {
            // O_NONBLOCK: a FIFO without a writer is not waited for (the reader refuses it).
            let fd = SystemPath.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else {
                throw FileLockError(path: path, isHeldElsewhere: false, holder: nil, reason: "cannot open to lock it: \(String(cString: strerror(errno)))")
            }
            var opened = stat()
            guard fstat(fd, &opened) == 0 else {
                let reason = String(cString: strerror(errno))
                _ = close(fd)
                throw FileLockError(path: path, isHeldElsewhere: false, holder: nil, reason: "cannot lock: \(reason)")
            }
            let key = FileKey(opened)
            let thread = Self.currentThread
            let shared = Self.held.withLock { held -> Bool? in
                guard let entry = held[key] else { return false }
                guard entry.thread == thread else { return nil }
                held[key] = (entry.descriptor, entry.thread, entry.count + 1)
                return true
            }
            if shared == nil {
                _ = close(fd)
                throw FileLockError(path: path, isHeldElsewhere: true, holder: getpid(),
                                    reason: "is being edited by another thread of this process (the same file named twice in one run?); try again when it has finished")
            }
            if shared == true {
                _ = close(fd)
                self.key = key
                return
            }
            if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                let code = errno
                let holder = Self.holder(of: opened)
                _ = close(fd)
                if code == EWOULDBLOCK {
                    let who = holder.map { "process \($0)" } ?? "another process"
                    throw FileLockError(path: path, isHeldElsewhere: true, holder: holder, reason: "is being edited by \(who), which holds its lock; try again when it has finished")
                }
                throw FileLockError(path: path, isHeldElsewhere: false, holder: nil, reason: "cannot lock: \(String(cString: strerror(code)))")
            }
            // Still the file the path names (not replaced by a save that finished meanwhile)?
            var current = stat()
            if SystemPath.stat(path, &current) == 0, FileKey(current) == key {
                Self.held.withLock { $0[key] = (fd, thread, 1) }
                self.key = key
                return
            }
            _ = close(fd)
        }
        throw FileLockError(path: path, isHeldElsewhere: true, holder: nil, reason: "kept being replaced while it was being locked")
    }

    deinit {
        let key = self.key
        let release = Self.held.withLock { held -> Int32? in
            guard let entry = held[key] else { return nil }
            if entry.count > 1 {
                held[key] = (entry.descriptor, entry.thread, entry.count - 1)
                return nil
            }
            held[key] = nil
            return entry.descriptor
        }
        if let descriptor = release {
            _ = flock(descriptor, LOCK_UN)
            _ = close(descriptor)
        }
    }

    /// The process holding a lock on the file `info` describes, from `/proc/locks` (Linux);
    /// nil elsewhere or when it is not listed.
    static func holder(of info: stat) -> Int32? {
        #if os(Linux)
        guard let file = fopen("/proc/locks", "r") else { return nil }
        defer { fclose(file) }
        let device = UInt64(info.st_dev)
        let major = (device >> 8) & 0xFFF | (device >> 32) & ~UInt64(0xFFF)
        let minor = device & 0xFF | (device >> 12) & ~UInt64(0xFF)
        let wanted = String(major, radix: 16).leftPadded(2) + ":" + String(minor, radix: 16).leftPadded(2) + ":" + String(info.st_ino)
        var line = [CChar](repeating: 0, count: 512)
        while fgets(&line, Int32(line.count), file) != nil {
            let fields = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: " ", omittingEmptySubsequences: true)
            // "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF" (a "->" marks a waiter).
            guard fields.count >= 6, fields[1] == "FLOCK", let index = fields.firstIndex(where: { $0 == wanted }), index >= 1,
                let pid = Int32(fields[index - 1])
            else { continue }
            return pid
        }
        return nil
        #else
        return nil
        #endif
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
