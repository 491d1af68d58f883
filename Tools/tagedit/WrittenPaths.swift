import MediaBytes
import Synchronization

/// Paths a run has written, shared by the threads of a run.
final class WrittenPaths: @unchecked Sendable {
    private let paths = Mutex<Set<String>>([])

    /// Adds `path`; false when it was there already.
    func insert(_ path: String) -> Bool {
        paths.withLock { $0.insert(path).inserted }
    }
}
