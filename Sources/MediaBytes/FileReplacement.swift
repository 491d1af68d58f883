#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The two ways a save reaches the disk without ever leaving a half-written file in place of
/// the original.
public enum FileReplacement {
    /// Replaces the file at `path` with what `write` produces.
    ///
    /// The new content goes to a temporary file in the same directory (`.NAME.XXXXXX.partial`,
    /// so a crash leaves a clearly named leftover beside the original, never a damaged
    /// original), is flushed to disk, checked by `verify` (given the temporary path), gets the
    /// original's permission bits (and owner, where allowed), and is then renamed over the
    /// original, which is atomic. A symbolic link at `path` is followed: its target is
    /// replaced. On any failure the temporary file is removed and the original is untouched.
    public static func replace(
        _ path: String, write: (inout FileByteSink) throws -> Void, verify: (String) throws -> Void
    ) throws {
        let target = resolvedPath(path)
        var info = stat()
        guard stat(target, &info) == 0 else { throw FileWriteError.errno(path, "cannot inspect") }
        try writeBeside(target, reportedAs: path, permissions: info, write: write, verify: verify)
    }

    /// Creates (or replaces) the file at `path` with what `write` produces, the same way:
    /// a temporary file beside it, flushed, verified, then renamed into place.
    public static func create(
        _ path: String, write: (inout FileByteSink) throws -> Void, verify: (String) throws -> Void
    ) throws {
        var info = stat()
        let existing = stat(resolvedPath(path), &info) == 0
        try writeBeside(existing ? resolvedPath(path) : path, reportedAs: path, permissions: existing ? info : nil, write: write, verify: verify)
    }

    private static func writeBeside(
        _ target: String, reportedAs path: String, permissions info: stat?, write: (inout FileByteSink) throws -> Void,
        verify: (String) throws -> Void
    ) throws {
        let slash = target.lastIndex(of: "/")
        let directory = slash.map { String(target[..<$0]) } ?? "."
        let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
        var template = Array("\(directory.isEmpty ? "" : directory)/.\(name).XXXXXX.partial".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 8) }
        guard fd >= 0 else { throw FileWriteError.errno(path, "cannot create a temporary file beside it") }
        let temporary = String(cString: template)
        var sink = FileByteSink(path: temporary, descriptor: fd)
        var closed = false
        do {
            try write(&sink)
            if let info {
                // Owner first: changing it clears set-user-ID and set-group-ID bits.
                _ = fchown(fd, info.st_uid, info.st_gid)  // only root may; a failure keeps our ownership
                _ = fchmod(fd, info.st_mode & 0o7777)
            } else {
                let mask = umask(0)
                umask(mask)
                _ = fchmod(fd, 0o666 & ~mask)
            }
            closed = true
            try sink.close()
            try verify(temporary)
            guard rename(temporary, target) == 0 else { throw FileWriteError.errno(path, "cannot rename the new file over it") }
        } catch {
            if !closed { _ = systemClose(fd) }
            unlink(temporary)
            throw error
        }
        // Make the rename itself durable.
        let directoryFD = open(directory.isEmpty ? "/" : directory, O_RDONLY | O_CLOEXEC)
        if directoryFD >= 0 {
            _ = fsync(directoryFD)
            _ = systemClose(directoryFD)
        }
    }

    /// Overwrites `bytes` at `offset` inside the existing file at `path` (which must be long
    /// enough) and flushes it to disk. Used when a new tag fits in the old one's space.
    public static func patch(_ path: String, at offset: UInt64, with bytes: [UInt8]) throws(FileWriteError) {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .errno(path, "cannot open for writing") }
        defer { _ = systemClose(fd) }
        try FileByteSink.writeAll(fd, bytes[...], path: path, at: offset)
        guard fsync(fd) == 0 else { throw .errno(path, "flush to disk failed") }
    }

    /// Overwrites several ranges of the existing file at `path`, optionally sets its length
    /// (extending or truncating it), and flushes it to disk once.
    public static func patch(_ path: String, ranges: [(offset: UInt64, bytes: [UInt8])], newSize: UInt64? = nil) throws(FileWriteError) {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .errno(path, "cannot open for writing") }
        defer { _ = systemClose(fd) }
        for range in ranges where !range.bytes.isEmpty {
            try FileByteSink.writeAll(fd, range.bytes[...], path: path, at: range.offset)
        }
        if let newSize {
            guard ftruncate(fd, off_t(newSize)) == 0 else { throw .errno(path, "cannot set its length") }
        }
        guard fsync(fd) == 0 else { throw .errno(path, "flush to disk failed") }
    }

    /// `path` with symbolic links resolved, or `path` itself when that fails.
    public static func resolvedPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
