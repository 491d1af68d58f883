#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import MediaBytes
import MediaMetadata

/// The files a command works on: paths as given, folders walked with `--recursive` (both tools
/// use this one walk).
public enum MediaFileList {
    /// The extensions of the files that have tags to edit (`tagedit`'s walks), compared
    /// without regard to case: those of the formats with metadata (`MediaFormat.definitions`).
    public static let mediaExtensions: Set<String> = MediaFormat.extensions(where: \.hasMetadata)
    /// The extensions `atominspect` walks: every format it shows, HEIF images (structure only)
    /// included.
    public static let inspectableExtensions: Set<String> = MediaFormat.extensions()

    /// True when `path` has one of `extensions`.
    public static func hasMediaExtension(_ path: String, among extensions: Set<String> = mediaExtensions) -> Bool {
        guard let dot = path.utf8.lastIndex(of: UInt8(ascii: ".")), !path.utf8[dot...].contains(UInt8(ascii: "/")) else { return false }
        let suffix = path[path.utf8.index(after: dot)...]
        // Lower-case ASCII (nearly every name) is looked up as it is: lower-casing it is the
        // identity, and costs thousands of instructions per file of a large folder.
        if suffix.utf8.allSatisfy({ $0 < 0x80 && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) { return extensions.contains(String(suffix)) }
        return extensions.contains(suffix.lowercased())
    }

    /// True when `argument` reads as a file rather than a key (`tagedit remove FILE... KEY...`):
    /// it exists, or it ends with a media extension.
    public static func looksLikeMediaFile(_ argument: String) -> Bool {
        exists(argument) || hasMediaExtension(argument)
    }

    /// True when `path` names a folder (following a symbolic link).
    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return SystemPath.stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// True when something exists at `path`.
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return SystemPath.stat(path, &info) == 0
    }

    /// Each path as given, except that with `recursive` a folder becomes the media files under
    /// it, sorted by path (without `recursive`, the folder stays, for the command to report).
    /// Symbolic links to folders inside a walk are not followed, so a link loop ends.
    public static func expand(_ paths: [String], recursive: Bool, extensions: Set<String> = mediaExtensions) -> [String] {
        expansion(paths, recursive: recursive, extensions: extensions).paths
    }

    /// Extensions of audio formats people keep beside the ones this package reads (WMA,
    /// Monkey's Audio, WavPack, Musepack, DSD, Matroska audio, TTA): a walk that passes
    /// one says so (`Expansion.skipped`), where other files (covers, cue sheets, logs) pass
    /// unremarked.
    public static let otherAudioExtensions: Set<String> = ["wma", "ape", "wv", "mpc", "dsf", "dff", "mka", "tta"]

    /// What a walk found: the files to work on, and the audio files of formats it does not take.
    public struct Expansion: Sendable {
        public var paths: [String] = []
        /// Files under the walked folders with one of `otherAudioExtensions` (not in the walk's
        /// extensions), sorted.
        public var skipped: [String] = []
    }

    /// `expand`, and the audio files the walks passed over.
    public static func expansion(_ paths: [String], recursive: Bool, extensions: Set<String> = mediaExtensions) -> Expansion {
        var result = Expansion()
        for path in paths {
            if recursive, isDirectory(path) {
                var found: [String] = [], skipped: [String] = []
                walk(path, extensions: extensions, into: &found, skipping: &skipped)
                result.paths += found.sorted()
                result.skipped += skipped.sorted()
            } else {
                result.paths.append(path)
            }
        }
        return result
    }

    /// The skipped files in words: `2 .ogg, 1 .opus`.
    public static func describe(skipped: [String]) -> String {
        var counts: [String: Int] = [:]
        for path in skipped {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            counts[name.split(separator: ".").last.map { "." + $0.lowercased() } ?? "?", default: 0] += 1
        }
        return counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
    }

    private static func walk(_ folder: String, extensions: Set<String>, into found: inout [String], skipping skipped: inout [String]) {
        guard let directory = SystemPath.opendir(folder) else { return }
        defer { closedir(directory) }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        // A folder listed whole without a save journal or a link: its files are opened without
        // a look for a journal beside each (`JournalFreeFolders`).
        var journalFree = true
        defer { if journalFree { JournalFreeFolders.note(prefix) } }
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                // The end of the listing, or a failure part way (then not listed whole).
                if errno != 0 { journalFree = false }
                break
            }
            let name = PathBytes.name(of: entry)
            if name == "." || name == ".." { continue }
            let path = prefix + name
            // The entry's type from the directory itself where the file system gives it (no
            // stat per file); from lstat otherwise.
            var kind = entry.pointee.d_type
            if kind == UInt8(DT_UNKNOWN) {
                var info = stat()
                guard SystemPath.lstat(path, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: kind = UInt8(DT_DIR)
                case S_IFREG: kind = UInt8(DT_REG)
                case S_IFLNK: kind = UInt8(DT_LNK)
                default: continue
                }
            }
            if journalFree, JournalFreeFolders.disqualifies(name: name, isLink: kind == UInt8(DT_LNK)) { journalFree = false }
            switch kind {
            case UInt8(DT_DIR): walk(path, extensions: extensions, into: &found, skipping: &skipped)
            case UInt8(DT_REG), UInt8(DT_LNK):
                if hasMediaExtension(name, among: extensions) {
                    found.append(path)
                } else if hasMediaExtension(name, among: otherAudioExtensions) {
                    skipped.append(path)
                }
            default: continue
            }
        }
    }
}
