#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import MediaBytes

/// File-name arithmetic on POSIX paths, as `NSString`'s path methods do it, without Foundation
/// (which the tools do not link: it costs every run milliseconds of start-up).
public enum PathNames {
    /// The last component: `a/b.mp3` → `b.mp3`, `a/b/` → `b`, `/` → `/`.
    public static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? (path.hasPrefix("/") ? "/" : path)
    }

    /// The path without its last component: `a/b.mp3` → `a`, `b.mp3` → ``, `/b` → `/`.
    public static func deletingLastComponent(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        var parent = trimmed[..<slash]
        while parent.count > 1 && parent.hasSuffix("/") { parent = parent.dropLast() }
        return parent.isEmpty ? "/" : String(parent)
    }

    /// `component` appended to `path` with one slash between them.
    public static func appending(_ component: String, to path: String) -> String {
        guard !path.isEmpty else { return component }
        return path.hasSuffix("/") ? path + component : path + "/" + component
    }

    /// Whether the file system holding `folder` (or the nearest folder above it that exists)
    /// ignores case in names (APFS and HFS+ by default, exFAT, FAT, NTFS, SMB shares, ext4
    /// folders with casefolding): a name of an entry there with its letters' case swapped is
    /// looked up, and names the same file. False when no name there has a letter to swap.
    public static func ignoresCase(folder: String) -> Bool {
        var folder = folder.isEmpty ? "." : folder
        var info = stat()
        while SystemPath.stat(folder, &info) != 0 {
            let parent = deletingLastComponent(folder)
            if parent == folder || parent.isEmpty { folder = parent.isEmpty ? "." : parent; break }
            folder = parent
        }
        func swapped(_ name: String) -> String? {
            let swapped = String(name.map { $0.isUppercase ? Character($0.lowercased()) : $0.isLowercase ? Character($0.uppercased()) : $0 })
            return swapped == name ? nil : swapped
        }
        func same(_ a: String, _ b: String) -> Bool {
            var x = stat(), y = stat()
            return SystemPath.lstat(a, &x) == 0 && SystemPath.lstat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino
        }
        // The folder's own name, looked up in its parent.
        let name = lastComponent(folder)
        if folder != "/", folder != ".", let other = swapped(name) {
            let parent = deletingLastComponent(folder)
            return same(folder, appending(other, to: parent))
        }
        // Else the first entry in it with a letter.
        guard let directory = SystemPath.opendir(folder) else { return false }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let entryName = PathBytes.name(of: entry)
            if let other = swapped(entryName) { return same(appending(entryName, to: folder), appending(other, to: folder)) }
        }
        return false
    }

    /// Flushes the folder holding `path` to disk, so that a rename into it survives a crash.
    public static func syncFolder(of path: String) {
        FolderFlush.renamed(in: deletingLastComponent(path))
    }

    /// Creates the folder `path` and any missing folders above it; nil on success, else why not.
    public static func createFolders(_ path: String) -> String? {
        guard !path.isEmpty, !MediaFileList.isDirectory(path) else { return nil }
        let parent = deletingLastComponent(path)
        if parent != path, let failure = createFolders(parent) { return failure }
        if SystemPath.mkdir(path, 0o777) != 0 && !(errno == EEXIST && MediaFileList.isDirectory(path)) {
            return String(cString: strerror(errno))
        }
        return nil
    }

    /// Orders names as people count: runs of digits by their value (`2` before `10`), the rest
    /// without regard to case; nil when the two are equal that way.
    public static func naturallyPrecedes(_ a: String, _ b: String) -> Bool? {
        var x = Array(a.lowercased().unicodeScalars)[...], y = Array(b.lowercased().unicodeScalars)[...]
        func isDigit(_ s: Unicode.Scalar) -> Bool { s.value >= 0x30 && s.value <= 0x39 }
        func digits(_ s: inout ArraySlice<Unicode.Scalar>) -> ArraySlice<Unicode.Scalar> {
            let run = s.prefix(while: isDigit)
            s = s.dropFirst(run.count)
            return run.drop { $0 == "0" }
        }
        while let p = x.first, let q = y.first {
            if isDigit(p) && isDigit(q) {
                let m = digits(&x), n = digits(&y)
                if m.count != n.count { return m.count < n.count }
                if let (u, v) = zip(m, n).first(where: { $0 != $1 }) { return u.value < v.value }
                continue
            }
            if p != q { return p.value < q.value }
            x = x.dropFirst()
            y = y.dropFirst()
        }
        if x.isEmpty != y.isEmpty { return x.isEmpty }
        return nil
    }
}
