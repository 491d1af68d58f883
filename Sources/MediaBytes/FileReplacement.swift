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
    /// original), is flushed to disk and checked by `verify` (given the temporary path; the
    /// check runs while the flush does, and both must succeed), gets the
    /// original's permission bits (and owner, where allowed), and is then renamed over the
    /// original, which is atomic. A symbolic link at `path` is followed: its target is
    /// replaced. On any failure the temporary file is removed and the original is untouched.
    /// What `write` copies in the kernel from the file being replaced is dropped from the page
    /// cache as it is read back (see `FileByteSink`).
    ///
    /// The new file keeps the original's owner and group (where the process may set them:
    /// root, or a group of its own), permission bits, and extended attributes (`user.*` desktop
    /// tags, security labels, ACLs, as far as the process may set each). Returns what it could
    /// not keep, in words for a save's notes (empty when it kept everything).
    @discardableResult
    public static func replace(
        _ path: String, write: (inout FileByteSink) throws -> Void, verify: (String) throws -> Void
    ) throws -> [String] {
        let target = resolvedPath(path)
        var info = stat()
        guard SystemPath.stat(target, &info) == 0 else { throw FileWriteError.errno(path, "cannot inspect") }
        // A journal beside it now is of another program's save, begun after this one read the
        // file (opening settles one left before): its bytes may be half written, so they are
        // not written back as the new file.
        let journalPath = SaveJournal.path(for: target)
        if SystemPath.access(journalPath, F_OK) == 0 {
            throw FileWriteError(path: path, reason: "a save journal is beside it (\(journalPath)): another program's save of it began after it was read, and is under way or was cut short; open the file again to settle it")
        }
        return try writeBeside(target, reportedAs: path, permissions: info, replacing: true, write: write, verify: verify)
    }

    /// Writes what `write` produces to the output `path`, as `OutputTarget` says: a regular
    /// file (or none) the same way as `replace`, as a temporary file beside it, flushed,
    /// verified by `verify` (given the temporary path), then renamed into place; a device, a
    /// FIFO or one of the process's own streams written through, in order and unverified (what
    /// was written there cannot be read back). Nothing is ever renamed over a device, a FIFO
    /// or a link; a dangling link, a directory, a socket or a block device is refused.
    public static func create(
        _ path: String, write: (inout FileByteSink) throws -> Void, verify: (String) throws -> Void
    ) throws {
        switch try OutputTarget.resolve(path) {
        case .file(let target, let existing):
            var info = stat()
            let permissions = existing && SystemPath.stat(target, &info) == 0 ? info : nil
            try writeBeside(target, reportedAs: path, permissions: permissions, replacing: false, write: write, verify: verify)
        case .stream(let device):
            let fd = SystemPath.open(device, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw FileWriteError.errno(path, "cannot open for writing") }
            var sink = FileByteSink(path: path, writingThrough: fd, owned: true)
            do { try write(&sink) } catch {
                _ = systemClose(fd)
                throw error
            }
            try sink.close()
        case .descriptor(let descriptor):
            var sink = FileByteSink(path: path, writingThrough: descriptor, owned: false)
            try write(&sink)
        }
    }

    /// Writes `bytes` to the output `path` as `create` does, a regular file verified to hold them.
    public static func create(_ path: String, bytes: [UInt8]) throws {
        try create(path, contents: SplicedBytes(bytes))
    }

    /// Writes the `count` bytes of `source` at `offset` to the output `path` as `create` does,
    /// a regular file verified to hold them.
    public static func create(_ path: String, copying count: UInt64, from source: any ByteSource, at offset: UInt64) throws {
        try create(path, contents: SplicedBytes(from: source, at: offset, count: Int(clamping: count)))
    }

    /// Writes `contents` to the output `path` as `create` does (its ranges of files copied in
    /// the kernel), a regular file verified to hold them, compared a chunk at a time.
    public static func create(_ path: String, contents: SplicedBytes) throws {
        var checked = CheckedCopies()
        try create(path, write: { sink in
            try contents.write(to: &sink)
            checked = sink.checkedCopies
        }, verify: { temporary in
            let written = try FileByteSource(path: temporary)
            guard written.size == UInt64(contents.count), try contents.firstDifference(from: written, at: 0, skipping: checked) == nil else {
                throw FileWriteError(path: path, reason: "the file written does not read back as written")
            }
        })
    }

    /// Writes the output `path` as a copy of `source` that `edit` changes where it is first (a
    /// save whose writer edits a file in place). The copy is made as a temporary file (beside
    /// `path` when it names a regular file or nothing, in the temporary folder when it names a
    /// device, a FIFO or a stream), verified, handed to `edit` by its path, then renamed over
    /// `path` or written through to it. A failure removes the copy and leaves `path` as it was.
    public static func create(_ path: String, editing source: FileByteSource, edit: (String) throws -> Void) throws {
        var checked = CheckedCopies()
        let copy: (inout FileByteSink) throws -> Void = { sink in
            try source.copy(from: 0, count: source.size, to: &sink)
            checked = sink.checkedCopies
        }
        let verifyCopy: (String) throws -> Void = { temporary in
            let written = try FileByteSource(path: temporary)
            guard written.size == source.size, try source.hasSameBytes(at: 0, as: written, at: 0, count: source.size, skipping: checked) else {
                throw FileWriteError(path: path, reason: "the copy of \(source.path) differs from it")
            }
        }
        let target = try OutputTarget.resolve(path)
        if case .file(let file, let existing) = target {
            var info = stat()
            let permissions = existing && SystemPath.stat(file, &info) == 0 ? info : nil
            try writeBeside(file, reportedAs: path, permissions: permissions, replacing: false, write: copy, verify: { temporary in
                try verifyCopy(temporary)
                try edit(temporary)
            })
            return
        }
        // Made in the temporary folder, then written through.
        let folder = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var scratch = ""
        let name = source.path.split(separator: "/").last.map(String.init) ?? "output"
        try writeBeside(folder + "/" + name, reportedAs: path, permissions: nil, replacing: false, write: copy, verify: { temporary in
            try verifyCopy(temporary)
            try edit(temporary)
            scratch = temporary
        }, keep: true)
        defer { SystemPath.unlink(scratch) }
        let edited = try FileByteSource(path: scratch)
        try create(path, write: { try edited.copy(from: 0, count: edited.size, to: &$0) }, verify: { _ in })
    }

    /// Writes `target` as a temporary file beside it, verified, then renamed over it; with
    /// `keep`, the verified temporary file is left where it is instead (the caller removes it).
    /// Returns what of the replaced file's owner, group and attributes could not be kept.
    @discardableResult
    private static func writeBeside(
        _ target: String, reportedAs path: String, permissions info: stat?, replacing: Bool, write: (inout FileByteSink) throws -> Void,
        verify: (String) throws -> Void, keep: Bool = false
    ) throws -> [String] {
        let (folder, name) = PathBytes.split(target)
        var template = PathBytes.bytes("\(folder).\(name).XXXXXX.partial").map { CChar(bitPattern: $0) } + [0]
        let fd = injectedFailure(.createTemporary) ? -1 : template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 8) }
        guard fd >= 0 else { throw FileWriteError.errno(path, "cannot create a temporary file beside it") }
        let temporary = PathBytes.string(template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
        var sink = FileByteSink(path: temporary, readableDescriptor: fd, replacing: replacing ? info : nil)
        var closed = false  // set once `close` owns the descriptor (it closes it, failing or not)
        var notLost: [String] = []  // what of the original's ownership and attributes was not kept
        do {
            try write(&sink)
            if let info {
                // Owner first: changing it clears set-user-ID and set-group-ID bits.
                if fchown(fd, info.st_uid, info.st_gid) != 0 {
                    // Only root may give a file away; a group of our own may still be kept.
                    _ = fchown(fd, UInt32.max, info.st_gid)
                    var own = stat()
                    if fstat(fd, &own) == 0 {
                        if own.st_uid != info.st_uid { notLost.append("its owner (user \(info.st_uid); now user \(own.st_uid): only root may keep another user's file theirs)") }
                        if own.st_gid != info.st_gid { notLost.append("its group (group \(info.st_gid); now group \(own.st_gid))") }
                    }
                }
                _ = fchmod(fd, info.st_mode & 0o7777)
                if replacing { notLost += ExtendedAttributes.copy(from: target, to: fd) }
            } else {
                let mask = umask(0)
                umask(mask)
                _ = fchmod(fd, 0o666 & ~mask)
            }
            closed = true
            // The verification reads the new file while it is flushed to disk.
            try sink.close(flushingWhile: { try verify(temporary) })
            if keep { return [] }
            guard !injectedFailure(.rename), SystemPath.rename(temporary, target) == 0 else { throw FileWriteError.errno(path, "cannot rename the new file over it") }
        } catch {
            if !closed { _ = systemClose(fd) }
            SystemPath.unlink(temporary)
            throw error
        }
        // Make the rename itself durable (at the end of a batch: `FolderFlush`).
        FolderFlush.renamed(in: folder)
        return notLost.isEmpty ? [] : ["the rewrite could not keep " + notLost.joined(separator: "; ")]
    }

    /// Ranges closer together than this are written as one span (the bytes between them
    /// re-written unchanged), so that a typical in-place edit is a single `pwrite`.
    static let coalescingLimit: UInt64 = 1 << 20

    /// Overwrites ranges of the existing file at `path` in place, optionally sets its length
    /// (extending or truncating it), flushes it to disk, and runs `verify` on the result.
    ///
    /// The bytes about to be replaced are read first and kept. If a write, the length change,
    /// the flush or `verify` fails, they are written back (and the old length restored) before
    /// the error is thrown, so a failed patch leaves the file as it was. Ranges within
    /// `coalescingLimit` of each other go out as one write. With `original` (the file as it was
    /// read), the patch is refused when the file at `path` is no longer that file (replaced,
    /// or written to since).
    ///
    /// A save cut short where no error can be caught (a kill, a crash, a power loss, a file-size
    /// limit) is undone the next time the file is opened: before the first byte of the file
    /// changes, the old and new bytes of every range and both lengths are written to a journal
    /// beside it and flushed to disk (`SaveJournal`), and `FileByteSource(path:)` settles a
    /// file whose journal is still there. The journal is removed once the save is verified or
    /// undone. If undoing a failure fails too (a disk that has gone bad), the error says that
    /// the file may be damaged and the journal is kept for the next open.
    public static func patch(
        _ path: String, ranges: [(offset: UInt64, bytes: [UInt8])], newSize: UInt64? = nil,
        expecting original: FileByteSource? = nil, verify: (String) throws -> Void = { _ in }
    ) throws {
        // The journal goes beside the file a link names, where `FileByteSource` looks for it.
        let target = resolvedPath(path)
        let fd = injectedFailure(.openForPatch) ? -1 : SystemPath.open(target, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw FileWriteError.errno(path, "cannot open for writing") }
        defer { _ = systemClose(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileWriteError.errno(path, "cannot inspect") }
        if let original {
            try original.checkUnchanged()
            guard original.isFile(info) else {
                throw FileWriteError(path: path, reason: "the file was replaced since it was read; read it again")
            }
        }
        // The lock of the editor (shared when this thread holds it already): a reader that
        // finds the journal while this save runs leaves it alone.
        let lock: FileLock?
        do { lock = try FileLock(target) } catch {
            // Another process editing it: its reads would take this save's journal for one cut
            // short. Unopenable: the write below says why.
            if error.isHeldElsewhere { throw FileWriteError(path: path, reason: error.reason) }
            lock = nil
        }
        do {
            try patchLocked(fd, info: info, path: path, target: target, ranges: ranges, newSize: newSize, verify: verify)
        } catch {
            _ = consume lock
            throw error
        }
        _ = consume lock
    }

    private static func patchLocked(
        _ fd: Int32, info: stat, path: String, target: String, ranges: [(offset: UInt64, bytes: [UInt8])], newSize: UInt64?,
        verify: (String) throws -> Void
    ) throws {
        let oldSize = UInt64(info.st_size)
        // Each span's current bytes: the base of what is written, and what a failure puts back.
        var journal = SaveJournal(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), oldSize: oldSize, newSize: newSize ?? oldSize, ranges: [])
        for span in spans(of: ranges) {
            let old = try readExisting(fd, path: path, range: span, size: oldSize)
            var bytes = old + [UInt8](repeating: 0, count: Int(span.count) - old.count)
            for range in ranges where !range.bytes.isEmpty && span.contains(range.offset) {
                let start = Int(range.offset - span.lowerBound)
                bytes.replaceSubrange(start..<start + range.bytes.count, with: range.bytes)
            }
            journal.ranges.append(SaveJournal.Range(offset: span.lowerBound, old: old, new: bytes))
        }
        // A file cut shorter loses its tail: the journal keeps it, to be put back.
        if let newSize, newSize < oldSize {
            let tail = try readExisting(fd, path: path, range: newSize..<oldSize, size: oldSize)
            journal.ranges.append(SaveJournal.Range(offset: newSize, old: tail, new: []))
        }
        let journalPath = SaveJournal.path(for: target)
        try journal.write(to: journalPath, reportedAs: path, mode: info.st_mode)
        var undone = true
        defer { journal.finish(at: journalPath, keep: !undone) }
        do {
            for range in journal.ranges { try FileByteSink.writeAll(fd, range.new[...], path: path, at: range.offset) }
            if let newSize, newSize != oldSize {
                guard !injectedFailure(.truncate), ftruncate(fd, off_t(newSize)) == 0 else { throw FileWriteError.errno(path, "cannot set its length") }
            }
            guard !injectedFailure(.flush), fsync(fd) == 0 else { throw FileWriteError.errno(path, "flush to disk failed") }
            try verify(path)
        } catch {
            do {
                for range in journal.ranges { try FileByteSink.writeAll(fd, range.old[...], path: path, at: range.offset) }
                guard !injectedFailure(.truncate), ftruncate(fd, off_t(oldSize)) == 0 else { throw FileWriteError.errno(path, "cannot set its length") }
                guard !injectedFailure(.flush), fsync(fd) == 0 else { throw FileWriteError.errno(path, "flush to disk failed") }
            } catch let undo as FileWriteError {
                undone = false
                throw FileWriteError(
                    path: path,
                    reason: "\(error); writing the old bytes back failed too (\(undo.reason)): the file may be damaged until it is opened again, which puts the old bytes back from \(journalPath)")
            }
            throw error
        }
    }

    /// The file regions `ranges` cover, in file order, with neighbours less than
    /// `coalescingLimit` apart merged into one region.
    private static func spans(of ranges: [(offset: UInt64, bytes: [UInt8])]) -> [Range<UInt64>] {
        var spans: [Range<UInt64>] = []
        for range in ranges.filter({ !$0.bytes.isEmpty }).sorted(by: { $0.offset < $1.offset }) {
            let region = range.offset..<range.offset + UInt64(range.bytes.count)
            if let last = spans.last, region.lowerBound <= last.upperBound + coalescingLimit {
                spans[spans.count - 1] = last.lowerBound..<max(last.upperBound, region.upperBound)
            } else {
                spans.append(region)
            }
        }
        return spans
    }

    /// The bytes of `range` that exist in the file (up to its current `size`).
    private static func readExisting(_ fd: Int32, path: String, range: Range<UInt64>, size: UInt64) throws(FileWriteError) -> [UInt8] {
        let end = min(range.upperBound, size)
        guard end > range.lowerBound else { return [] }
        let count = Int(end - range.lowerBound)
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                let result = injectedFailure(.readBack) ? -1 : pread(fd, buffer.baseAddress! + done, count - done, off_t(range.lowerBound) + off_t(done))
                if result < 0 && errno == EINTR { continue }
                guard result > 0 else { failed = true; break }
                done += result
            }
            initialized = done
        }
        if failed { throw .errno(path, "cannot read the bytes it is about to replace") }
        return bytes
    }

    /// `path` with symbolic links resolved, or `path` itself when that fails.
    public static func resolvedPath(_ path: String) -> String {
        SystemPath.realpath(path) ?? path
    }
}
