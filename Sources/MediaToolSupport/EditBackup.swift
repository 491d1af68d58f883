#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import MediaBytes
import MediaMetadata

/// `--backup DIR`: before a writing command changes a file, its export document (every native
/// item and picture, as `export` writes it, naming the file by its absolute path, links
/// resolved) is written
/// into DIR, flushed to disk, as `DIR/<absolute path with / as %2F>.json`. `tagedit import
/// --paths DIR/*.json` puts every file of the batch back as it was.
///
/// A backup already in DIR for the same file is kept: it holds an earlier state, the one an
/// undo of several runs into the same DIR should go back to.
public enum EditBackup {
    /// Writes the backup of `file` into `folder`; returns a note when one was already there
    /// (and kept), nil otherwise.
    public static func write(_ file: MediaFile, into folder: String) throws(MetadataError) -> String? {
        // From the root, links resolved: the file the undo puts back, wherever it is run from.
        let absolute = FileReplacement.resolvedPath(file.path)
        let target = PathNames.appending(name(for: absolute), to: folder)
        var info = stat()
        if SystemPath.lstat(target, &info) == 0 {
            return "a backup of it is already in \(folder) (an earlier state, kept): \(target)"
        }
        if let failure = PathNames.createFolders(folder) {
            throw MetadataError(.permissionDenied, path: folder, message: "cannot create the backup folder: \(failure)")
        }
        var writer = JSONWriter(indentLevel: 0, capacity: 4096)
        try TagReport.writeExportDocument(file, path: absolute, to: &writer)
        do {
            try writer.encoded().create(target)
            // On disk, name and all, before the file it saves changes, even in a batch (whose
            // own renames wait for its end: FolderFlush).
            FolderFlush.flushNow(PathNames.deletingLastComponent(target))
        } catch let error as FileWriteError {
            throw MetadataError(error.isPermissionProblem ? .permissionDenied : .io, path: target, message: "cannot write the backup: \(error.reason)")
        } catch {
            throw MetadataError(.io, path: target, message: "cannot write the backup: \(error)")
        }
        return nil
    }

    /// The backup's file name: the absolute path with `%` as `%25` and `/` as `%2F`, `.json`
    /// after it; a name longer than a file system takes keeps its end and a hash of the whole.
    static func name(for absolute: String) -> String {
        // Byte by byte, so that a name that is not UTF-8 stays the same bytes.
        var name: [UInt8] = []
        for byte in PathBytes.bytes(absolute) {
            switch byte {
            case UInt8(ascii: "%"): name += Array("%25".utf8)
            case UInt8(ascii: "/"): name += Array("%2F".utf8)
            default: name.append(byte)
            }
        }
        if name.count > 200 {
            // FNV-1a of the whole path keeps two long paths with one end apart; the end is cut
            // at a UTF-8 character's start.
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in PathBytes.bytes(absolute) { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
            var tail = Array(name.suffix(150))
            while let first = tail.first, first & 0xC0 == 0x80 { tail.removeFirst() }
            name = Array(String(hash, radix: 16).utf8) + Array("-".utf8) + tail
        }
        return PathBytes.string(name + Array(".json".utf8))
    }
}
