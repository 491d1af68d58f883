#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file-system step of a save, as `FileFaultInjector` counts and fails them.
public enum FileOperation: String, Sendable, CaseIterable {
    /// Creating the temporary file beside the original (`mkstemps`).
    case createTemporary
    /// Opening the original for an in-place write.
    case openForPatch
    /// Reading the bytes an in-place write is about to replace (kept to undo it).
    case readBack
    /// One `write`/`pwrite` call.
    case write
    /// Reading back a piece of a kernel copy into a new file, to compare it with its source.
    case compareCopy
    /// Setting a file's length (`ftruncate`).
    case truncate
    /// Flushing a file to disk (`fsync`).
    case flush
    /// Closing the temporary file.
    case close
    /// Renaming the temporary file over the original.
    case rename
    /// Creating the journal of an in-place save beside the file.
    case createJournal
    /// Removing that journal when the save is over.
    case removeJournal
}

/// Makes chosen file-system steps of a save fail as the system would (the call is not made, and
/// `errno` is set), so tests can prove that a failure at any step leaves the original file
/// untouched or completely replaced. Saves consult `FileFaultInjector.current`, a task-local
/// value: bind it around a save with `FileFaultInjector.$current.withValue(injector) { ... }`.
/// Without a binding (always, outside tests) every step runs normally.
///
/// An injector is meant for one save at a time on one thread; it records every step it sees.
public final class FileFaultInjector: @unchecked Sendable {
    @TaskLocal public static var current: FileFaultInjector?

    /// The step (by index into `operations`) from which to fail, or nil to fail nothing.
    public let failureIndex: Int?
    /// The error the failing steps report (`EIO`, `ENOSPC`...).
    public let error: Int32
    /// When true, every step from `failureIndex` on fails (a disk that stays full or broken);
    /// otherwise only that one step does.
    public let persistent: Bool
    /// When true, the save stops at `failureIndex` as a killed process would: a write there
    /// writes the first half of its bytes before it fails, and every step after it fails too
    /// (so nothing is undone or cleaned up on disk, and a removal does not happen). What is
    /// left is what a kill at that instant leaves for the next open to settle.
    public let crashes: Bool
    /// The steps seen so far, in order.
    public private(set) var operations: [FileOperation] = []

    public init(failingAt index: Int? = nil, error: Int32 = EIO, persistent: Bool = false) {
        failureIndex = index
        self.error = error
        self.persistent = persistent
        crashes = false
    }

    /// An injector that stops the save at step `index` as a kill would (see `crashes`).
    public init(crashingAt index: Int) {
        failureIndex = index
        error = EIO
        persistent = true
        crashes = true
    }

    /// True when the step being failed is the crash itself (a write there is torn).
    var isCrashingNow: Bool { crashes && operations.count - 1 == failureIndex }

    /// Counts `operation` and says whether it is to fail.
    func fails(_ operation: FileOperation) -> Bool {
        let index = operations.count
        operations.append(operation)
        guard let failureIndex, index == failureIndex || (persistent && index > failureIndex) else { return false }
        errno = error
        return true
    }
}

/// True when fault injection fails `operation` (with `errno` set); false, at the cost of one
/// task-local lookup, in normal use.
@inline(__always) func injectedFailure(_ operation: FileOperation) -> Bool {
    FileFaultInjector.current?.fails(operation) ?? false
}
