#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// When the folder entries of renames go to disk: the one flush a rewrite pays after its own
/// file's, put off to the end of a batch.
///
/// A rewrite writes the new file beside the old, flushes it to disk (`fsync`), renames it over
/// the old and then flushes the folder, so that the rename itself survives a power cut. Alone
/// (the default) the folder is flushed at once. In a batch (`batch(_:)`: `tagedit set -r`
/// over a library), each folder a rename was made in is flushed once, when the batch ends,
/// instead of once per file; this halves the flushes of a batch of rewrites.
///
/// Why every guarantee still holds: each new file's bytes are on disk before its rename (that
/// flush is not put off), and a rename replaces a name in one step, so after a power cut
/// during the batch a file whose rename had not reached the disk still has its old name on its
/// old bytes (the old file is only released with the rename), and one whose rename had is the
/// whole new file: each file is the old or the new, never a mix and never lost. What the batch
/// gives up is only when a rename is durable: at the end of the batch, not at the end of its
/// file. A process killed mid-batch loses nothing either way (the system keeps what it was
/// given); `KilledSaveTests` kills batches and checks every file.
public enum FolderFlush {
    private struct State {
        var depth = 0
        var pending: Set<String> = []
    }

    private static let state = Mutex(State())

    /// Runs `body` as a batch: the folders of the renames made in it are flushed once each, as
    /// it ends (thrown or returned). Batches nest: the outermost flushes. A batch is the
    /// process's: while one runs, the folder flush of every rewrite (on any thread) waits for
    /// its end.
    public static func batch<Result>(_ body: () throws -> Result) rethrows -> Result {
        state.withLock { $0.depth += 1 }
        defer {
            let folders = state.withLock { state -> [String] in
                state.depth -= 1
                guard state.depth == 0 else { return [] }
                defer { state.pending = [] }
                return state.pending.sorted()
            }
            for folder in folders { flush(folder) }
        }
        return try body()
    }

    /// A rename was made in `folder` (empty: the working folder): flushed now, or at the end
    /// of the batch under way.
    public static func renamed(in folder: String) {
        let deferred = state.withLock { state -> Bool in
            guard state.depth > 0 else { return false }
            state.pending.insert(folder)
            return true
        }
        if !deferred { flush(folder) }
    }

    /// Flushes `folder` now, batch or not: for a file that must be on disk before anything
    /// else changes (an edit's backup, before the file it saves is written).
    public static func flushNow(_ folder: String) { flush(folder) }

    private static func flush(_ folder: String) {
        let descriptor = SystemPath.open(folder.isEmpty ? "." : folder, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        _ = close(descriptor)
    }
}
