#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What an output path names, and so how a new file is written there: every output of both
/// tools (`--output`, `-o`, extracted pictures) and `FileReplacement.create` go through this
/// one decision, so nothing is ever renamed over what the save did not create.
///
/// | the path names | written |
/// |---|---|
/// | nothing, or a regular file | as a temporary file beside it, flushed and verified, renamed over it (atomic; an existing file's permission bits are kept) |
/// | a read-only regular file, or one with other names (hard links) | refused: renaming over it would replace what its owner protected, or leave its other names with the old bytes |
/// | a symbolic link to one of those | the same, at the link's target; the link stays |
/// | a character device or a FIFO (`/dev/null`, a named pipe, a terminal) | through: opened for writing and written in order; nothing is created, renamed or verified |
/// | `-`, `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N` | through the process's own descriptor (an output redirected with `>>` is appended to, not replaced) |
/// | a symbolic link to nothing | refused: a new file is not created through it |
/// | a directory, a socket, a block device (a disk) | refused |
public enum OutputTarget: Equatable, Sendable {
    /// A regular file or nothing: the file to create or replace (links resolved), with the
    /// existing file's status when there is one.
    case file(String, existing: Bool)
    /// A character device or a FIFO, written through.
    case stream(String)
    /// One of this process's open descriptors, written through.
    case descriptor(Int32)

    /// Where writing to `path` goes.
    ///
    /// - Throws: `FileWriteError` for a dangling link, a directory, a socket or a block device,
    ///   and for a regular file that is read-only (no write permission bit, or not writable by
    ///   this process) or has other hard links.
    public static func resolve(_ path: String) throws(FileWriteError) -> OutputTarget {
        if let descriptor = ownDescriptor(path) { return .descriptor(descriptor) }
        var info = stat()
        guard SystemPath.lstat(path, &info) == 0 else { return .file(path, existing: false) }
        var target = path
        if info.st_mode & S_IFMT == S_IFLNK {
            let destination = linkDestination(path)
            if let descriptor = destination.flatMap(ownDescriptor) { return .descriptor(descriptor) }
            guard SystemPath.stat(path, &info) == 0 else {
                throw FileWriteError(
                    path: path,
                    reason: "is a symbolic link to \(destination.map { "'\($0)'" } ?? "a missing file"), which does not exist; a new file is not created through a link (name the target, or remove the link)")
            }
            target = FileReplacement.resolvedPath(path)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            if info.st_mode & 0o222 == 0 || SystemPath.access(target, W_OK) != 0 {
                throw FileWriteError(path: path, reason: "is read-only; not replaced (make it writable, or name another file)", errorNumber: EACCES)
            }
            if info.st_nlink > 1 {
                throw FileWriteError(
                    path: path,
                    reason: "has \(info.st_nlink) names (hard links); replacing it would leave the others with the old contents, so it is not replaced (remove it first, or name another file)",
                    errorNumber: EEXIST)
            }
            return .file(target, existing: true)
        case S_IFCHR, S_IFIFO: return .stream(target)
        case S_IFDIR: throw FileWriteError(path: path, reason: "is a directory; name a file in it")
        case S_IFBLK: throw FileWriteError(path: path, reason: "is a block device (a disk); not written")
        case S_IFSOCK: throw FileWriteError(path: path, reason: "is a socket; not written")
        default: throw FileWriteError(path: path, reason: "is not a regular file, a device or a FIFO; not written")
        }
    }

    /// The descriptor `path` names without a file system look-up: `-`, the standard streams
    /// and `/dev/fd/N` or `/proc/self/fd/N`.
    static func ownDescriptor(_ path: String) -> Int32? {
        switch path {
        case "-", "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                if let number = Int32(path.dropFirst(prefix.count)), number >= 0 { return number }
            }
            return nil
        }
    }

    /// Where the link at `path` points, made absolute against its folder.
    private static func linkDestination(_ path: String) -> String? {
        guard let destination = SystemPath.readlink(path) else { return nil }
        guard !destination.hasPrefix("/"), let slash = path.lastIndex(of: "/") else { return destination }
        return String(path[...slash]) + destination
    }
}
