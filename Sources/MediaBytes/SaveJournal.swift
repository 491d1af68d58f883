#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The record an in-place save leaves beside the file while it writes into it, so that a save
/// cut short (a kill, a crash, a power loss, a file-size limit) is undone the next time the file
/// is opened: `.NAME.save-journal` in the file's folder.
///
/// `FileReplacement.patch` writes it, with the bytes each written range held before and will
/// hold after, and the file's old and new length, and flushes it to disk before the first byte
/// of the file changes; it removes it once the save is verified, or undone after a failure.
/// `FileByteSource(path:)` (every read of a file in this package) finds a journal left behind
/// and settles the file before reading it (`recover(_:)`):
///
/// - the journal is incomplete or damaged (its checksum fails): the save stopped before it
///   wrote a byte of the file, so the journal is removed;
/// - the file holds every new byte at its new length: the save was complete; the journal is
///   removed and the file kept;
/// - the file holds, byte for byte, old or new bytes in every range and a length between the
///   two (a write cut short): the old bytes and length are put back, flushed, and the journal
///   removed, so the file is the original again;
/// - the path names another file now (replaced since, by another program): the journal is
///   removed;
/// - anything else (the file was changed in place by another program since): the file is not
///   touched and opening it fails, naming the journal to look at.
///
/// A reader that may not write the file (another user, a read-only mount) or read the journal
/// settles nothing: it reads the file as it is, and the journal waits for one who may. A
/// process editing the file holds its lock, and an open meanwhile leaves its journal alone.
///
/// Layout: `MMSAVEJ1`, the file's device and inode, old and new length (64-bit, big-endian),
/// the number of ranges (32-bit), then per range its offset, its new length, its old length
/// (64-bit each), the old bytes and the new bytes; last the CRC-32 of all that. A file cut
/// shorter keeps its cut tail as a range with no new bytes.
struct SaveJournal: Equatable {
    struct Range: Equatable {
        var offset: UInt64
        /// The bytes before the save (shorter than `new` where the range passed the old end;
        /// the whole cut tail, with `new` empty, when the file was cut shorter).
        var old: [UInt8]
        var new: [UInt8]
    }

    var device: UInt64
    var inode: UInt64
    var oldSize: UInt64
    var newSize: UInt64
    var ranges: [Range]

    static let magic = Array("MMSAVEJ1".utf8)

    /// Where the journal of a save of `path` is: beside it, named after it.
    static func path(for path: String) -> String {
        let (folder, name) = PathBytes.split(path)
        return folder + "." + name + ".save-journal"
    }

    func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 48 + ranges.reduce(0) { $0 + 24 + $1.old.count + $1.new.count })
        writer.write(Self.magic)
        for value in [device, inode, oldSize, newSize] { writer.writeUInt64(value) }
        writer.writeUInt32(UInt32(ranges.count))
        for range in ranges {
            writer.writeUInt64(range.offset)
            writer.writeUInt64(UInt64(range.new.count))
            writer.writeUInt64(UInt64(range.old.count))
            writer.write(range.old)
            writer.write(range.new)
        }
        writer.writeUInt32(CRC32.checksum(writer.bytes))
        return writer.bytes
    }

    /// The journal in `bytes`, or nil when they are not a whole journal (cut short while it
    /// was written, or damaged).
    init?(decoding bytes: [UInt8]) {
        guard bytes.count >= 48, Array(bytes.prefix(8)) == Self.magic,
            CRC32.checksum(bytes[..<(bytes.count - 4)]) == bytes.suffix(4).reduce(0, { $0 << 8 | UInt32($1) })
        else { return nil }
        var reader = ByteReader(bytes, range: 8..<bytes.count - 4)
        do {
            device = try reader.readUInt64()
            inode = try reader.readUInt64()
            oldSize = try reader.readUInt64()
            newSize = try reader.readUInt64()
            let count = try reader.readUInt32()
            try reader.require(entries: count, of: 24)
            ranges = []
            for _ in 0..<count {
                let offset = try reader.readUInt64()
                let length = try reader.readUInt64()
                let existing = try reader.readUInt64()
                guard existing <= UInt64(reader.remaining), length <= UInt64(reader.remaining) - existing else { return nil }
                let old = try reader.readBytes(Int(existing))
                ranges.append(Range(offset: offset, old: old, new: try reader.readBytes(Int(length))))
            }
            guard reader.isAtEnd else { return nil }
        } catch {
            return nil
        }
    }

    init(device: UInt64, inode: UInt64, oldSize: UInt64, newSize: UInt64, ranges: [Range]) {
        self.device = device
        self.inode = inode
        self.oldSize = oldSize
        self.newSize = newSize
        self.ranges = ranges
    }

    // MARK: - Saves in progress

    /// The files this process is saving in place, by device and inode: their journals are
    /// live, and an open of the file meanwhile (the save's own read-back) leaves them alone.
    private static let live = Mutex<Set<[UInt64]>>([])

    /// Writes the journal at `journalPath` and flushes it and its folder to disk; until
    /// `finish` the save is live (an open of the file by this process leaves the journal
    /// alone). A journal already there is refused: another save of the file is under way, or
    /// one was cut short and the file has not been opened since.
    /// The journal gets the file's permission bits (`mode`), so whoever may read the file may
    /// read its journal and settle it.
    func write(to journalPath: String, reportedAs path: String, mode: mode_t) throws(FileWriteError) {
        JournalFreeFolders.forget(PathBytes.split(journalPath).folder)
        let fd = injectedFailure(.createJournal) ? -1 : SystemPath.open(journalPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode & 0o666)
        guard fd >= 0 else {
            if Glibc_errno() == EEXIST {
                throw FileWriteError(path: path, reason: "a save journal is already beside it (\(journalPath)): another save is under way, or one was cut short; open the file again to settle it")
            }
            throw .errno(path, "cannot create the save journal beside it (\(journalPath)), which a save in place needs so that a crash can be undone")
        }
        do throws(FileWriteError) {
            defer { _ = systemClose(fd) }
            try FileByteSink.writeAll(fd, encoded()[...], path: journalPath, at: 0)
            guard !injectedFailure(.flush), fsync(fd) == 0 else { throw FileWriteError.errno(path, "cannot flush its save journal to disk") }
        } catch {
            if !injectedFailure(.removeJournal) { SystemPath.unlink(journalPath) }
            throw error
        }
        Self.flushDirectory(of: journalPath)
        Self.live.withLock { _ = $0.insert([device, inode]) }
    }

    /// Ends the save: the journal is removed when `keep` is false (the file is the original or
    /// the verified result), and kept for the next open to settle otherwise.
    func finish(at journalPath: String, keep: Bool) {
        if !keep { Self.remove(journalPath) }
        Self.live.withLock { _ = $0.remove([device, inode]) }
    }

    private static func remove(_ journalPath: String) {
        guard !injectedFailure(.removeJournal) else { return }
        SystemPath.unlink(journalPath)
    }

    static func flushDirectory(of path: String) {
        let folder = PathBytes.split(path).folder
        let fd = SystemPath.open(folder.isEmpty ? "." : folder, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            _ = fsync(fd)
            _ = systemClose(fd)
        }
    }

    // MARK: - Recovery

    /// What `recover` did.
    enum Outcome: Equatable {
        /// No journal (the usual case), or one of a save this process is making.
        case none
        /// The journal was incomplete: the save had not begun writing the file.
        case discardedIncomplete
        /// The journal was of a file the path no longer names (replaced since): removed.
        case discardedStale
        /// The file held the whole save: kept.
        case keptComplete
        /// The file held part of the save: the old bytes were put back.
        case rolledBack
    }

    /// Settles a save of `path` that was cut short, as the type's documentation says. Costs one
    /// `access` call when there is no journal, none in a folder a walk found without journals
    /// (`JournalFreeFolders`).
    @discardableResult
    static func recover(_ path: String) throws(ByteSourceError) -> Outcome {
        if JournalFreeFolders.contains(PathBytes.split(path).folder) { return .none }
        var journalPath = Self.path(for: path)
        if SystemPath.access(journalPath, F_OK) != 0 {
            // A journal is beside the file a link names, not beside the link.
            var info = stat()
            guard SystemPath.lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return .none }
            journalPath = Self.path(for: FileReplacement.resolvedPath(path))
            guard SystemPath.access(journalPath, F_OK) == 0 else { return .none }
        }
        let lock: FileLock
        do { lock = try FileLock(path) } catch {
            // Another process holds the file: its save is under way; it removes its journal.
            if error.isHeldElsewhere { return .none }
            throw ByteSourceError(.io, path: path, reason: "a save of it was cut short and cannot be settled: \(error.reason)")
        }
        do {
            let outcome = try settle(path, journalPath: journalPath)
            _ = consume lock
            return outcome
        } catch {
            _ = consume lock
            throw error
        }
    }

    /// `recover` once the file is locked.
    private static func settle(_ path: String, journalPath: String) throws(ByteSourceError) -> Outcome {
        guard SystemPath.access(journalPath, F_OK) == 0 else { return .none }  // settled meanwhile
        // A reader that may not write the file (another user, a read-only mount) cannot settle
        // it: it reads the file as it is, and the next open by someone who may settles it.
        var fd = SystemPath.open(path, O_RDWR | O_CLOEXEC)
        var writable = true
        if fd < 0, errno == EACCES || errno == EPERM || errno == EROFS {
            fd = SystemPath.open(path, O_RDONLY | O_CLOEXEC)
            writable = false
        }
        guard fd >= 0 else {
            throw ByteSourceError(.io, path: path, reason: "a save of it was cut short (\(journalPath)) and it cannot be opened to undo that: \(String(cString: strerror(errno)))")
        }
        defer { _ = systemClose(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ByteSourceError(.io, path: path, reason: "cannot inspect: \(String(cString: strerror(errno)))") }
        if live.withLock({ $0.contains([UInt64(info.st_dev), UInt64(info.st_ino)]) }) { return .none }
        guard let bytes = readWhole(journalPath) else { return .none }  // not ours to read
        guard let journal = SaveJournal(decoding: bytes) else {
            // Cut short while the journal was written: the file was not written yet.
            SystemPath.unlink(journalPath)
            return .discardedIncomplete
        }
        let unmatched = ByteSourceError(
            .io, path: path,
            reason: "a save of it was cut short, and the file has changed since in a way its journal does not explain; the file was left as it is: compare it with \(journalPath), then remove that")
        guard journal.device == UInt64(info.st_dev), journal.inode == UInt64(info.st_ino) else {
            // The file it was written for is gone: another program replaced it since.
            SystemPath.unlink(journalPath)
            return .discardedStale
        }
        let size = UInt64(info.st_size)
        guard size >= min(journal.oldSize, journal.newSize), size <= max(journal.oldSize, journal.newSize) else { throw unmatched }
        var complete = size == journal.newSize
        for range in journal.ranges {
            guard let current = try? readRange(fd, offset: range.offset, count: range.new.count, size: size) else { throw unmatched }
            for (index, byte) in current.enumerated() {
                let new = range.new[index]
                if byte == new { continue }
                complete = false
                // An old byte, or a byte past the old end that a cut-short write left as a hole.
                let old: UInt8? = index < range.old.count ? range.old[index] : (range.offset + UInt64(index) >= journal.oldSize ? 0 : nil)
                guard byte == old else { throw unmatched }
            }
            if current.count < range.new.count { complete = false }
        }
        if complete {
            SystemPath.unlink(journalPath)
            return .keptComplete
        }
        guard writable else { return .none }
        do {
            for range in journal.ranges where !range.old.isEmpty {
                try FileByteSink.writeAll(fd, range.old[...], path: path, at: range.offset)
            }
            guard ftruncate(fd, off_t(journal.oldSize)) == 0, fsync(fd) == 0 else { throw FileWriteError.errno(path, "cannot restore its length") }
        } catch {
            throw ByteSourceError(.io, path: path, reason: "a save of it was cut short, and putting the old bytes back failed (\(error)); the journal \(journalPath) is kept for the next try")
        }
        SystemPath.unlink(journalPath)
        return .rolledBack
    }

    private static func readWhole(_ path: String) -> [UInt8]? {
        let fd = SystemPath.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)  // a FIFO is not waited for
        guard fd >= 0 else { return nil }
        defer { _ = systemClose(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return try? readRange(fd, offset: 0, count: Int(info.st_size), size: UInt64(info.st_size))
    }

    /// Up to `count` bytes at `offset`, fewer where the file (of `size` bytes) ends first.
    private static func readRange(_ fd: Int32, offset: UInt64, count: Int, size: UInt64) throws -> [UInt8] {
        guard offset < size else { return [] }
        let wanted = Int(min(UInt64(count), size - offset))
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: wanted) { buffer, initialized in
            while initialized < wanted {
                let result = pread(fd, buffer.baseAddress! + initialized, wanted - initialized, off_t(offset) + off_t(initialized))
                if result < 0 && errno == EINTR { continue }
                guard result > 0 else { failed = true; break }
                initialized += result
            }
        }
        if failed { throw FileWriteError.errno("", "read failed") }
        return bytes
    }
}

/// Folders a walk over a library listed whole and found without a save journal or a symbolic
/// link (`MediaFileList` notes them): opening a file in one skips the look for a journal
/// beside it (`SaveJournal`), two of the six system calls a read of a small file costs
/// (`tagedit show -r` over 1000 files: 2.5 ms of 28-40).
///
/// A journal left by a save cut short before the walk is in its folder's listing, so that
/// folder is not noted and its files are settled as they are opened. What the walk cannot see
/// is a save another program begins after the listing: while it runs it holds the file's lock
/// and a reader racing it may see its bytes half written, as it may anywhere; if it is cut
/// short, its journal stays, and a save here refuses to replace or patch a file with a
/// journal beside it (`FileReplacement`), so a torn file is never written back as the new
/// one. This process forgets a folder where it writes a journal itself.
public enum JournalFreeFolders {
    private static let folders = Mutex<Set<String>>([])

    /// Whether an entry of a folder's listing keeps the folder from being noted: a save
    /// journal (`.NAME.save-journal`), or a symbolic link (its file's journal is beside the
    /// file it names, in another folder).
    public static func disqualifies(name: String, isLink: Bool) -> Bool {
        isLink || (name.hasPrefix(".") && name.hasSuffix(".save-journal"))
    }

    /// Notes that `folder` (as `PathBytes.split` gives it: ending in `/`) was listed whole and
    /// nothing in it disqualified it.
    public static func note(_ folder: String) {
        _ = folders.withLock { $0.insert(folder) }
    }

    /// Forgets `folder`: a journal is written there now.
    static func forget(_ folder: String) {
        _ = folders.withLock { $0.remove(folder) }
    }

    static func contains(_ folder: String) -> Bool {
        folders.withLock { $0.contains(folder) }
    }
}
