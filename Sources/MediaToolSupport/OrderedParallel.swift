#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import MediaBytes

/// Runs work on several threads and hands the results back in order, so that a batch run
/// prints exactly what a serial run prints: `run(count:jobs:work:emit:)` calls `work(i)` for
/// every index on `jobs` threads (the calling thread is one of them) and `emit(i, result)` on
/// the calling thread in index order, each as soon as it and every result before it are ready.
/// With one job it is a plain loop.
public enum OrderedParallel {
    /// The default number of jobs: the processors this process may use.
    ///
    /// Asked for only when a run has more than one item: finding it out reads the process's
    /// CPU quota (cgroup files). As a command's default value it was worked out several times
    /// per argument parse, about a tenth of a tool's start-up.
    public static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Runs `work` for `count` items on `jobs` threads (nil: `defaultJobs`).
    public static func run<T: Sendable>(count: Int, jobs: Int?, work: @escaping @Sendable (Int) -> T,
                                 progress: (Int) -> Void = { _ in }, emit: (Int, T) -> Void) {
        let jobs = count > 1 ? min(jobs ?? defaultJobs, count, 64) : 1
        guard jobs > 1 else {
            for index in 0..<count {
                progress(index)
                emit(index, work(index))
            }
            return
        }
        let state = State<T>(count: count, window: jobs * 16)
        for _ in 1..<jobs {
            let body: @Sendable () -> Void = {
                while let index = state.take(waiting: true) { state.put(index, work(index)) }
            }
            // Without a thread (the system refused one), the calling thread does that share.
            JoinableThread(body)?.detach()
        }
        // The calling thread works too whenever the next result is not ready, so it seldom
        // sleeps (a wake-up per file costs more than reading a small file's tags).
        for index in 0..<count {
            while true {
                if let (result, done) = state.result(for: index, waiting: false) {
                    progress(done)
                    emit(index, result)
                    break
                }
                if let other = state.take(waiting: false) {
                    state.put(other, work(other))
                } else if let (result, done) = state.result(for: index, waiting: true) {
                    progress(done)
                    emit(index, result)
                    break
                }
            }
        }
    }

    /// The shared queue of indexes and the slots results wait in.
    private final class State<T: Sendable>: @unchecked Sendable {
        private let condition = Condition()
        private var next = 0
        private var done = 0
        private var emitted = 0
        private var slots: [T?]
        private let count: Int
        /// How far the work may run ahead of the output: results waiting to be printed stay
        /// few however slow one early file is, so memory stays flat.
        private let window: Int
        /// The index the emitting thread sleeps on, if it does; workers asleep on the window.
        private var awaited: Int?
        private var blockedWorkers = 0

        init(count: Int, window: Int) {
            self.count = count
            self.window = window
            slots = Array(repeating: nil, count: count)
        }

        /// The next index to work on; nil when none is left (or, without `waiting`, when the
        /// window is full).
        func take(waiting: Bool) -> Int? {
            condition.lock()
            defer { condition.unlock() }
            while next < count && next - emitted >= window {
                guard waiting else { return nil }
                blockedWorkers += 1
                condition.wait()
                blockedWorkers -= 1
            }
            guard next < count else { return nil }
            next += 1
            return next - 1
        }

        func put(_ index: Int, _ result: T) {
            condition.lock()
            slots[index] = result
            done += 1
            if awaited == index { condition.broadcast() }
            condition.unlock()
        }

        /// The result of `index`, taken out (so memory stays flat), and how many are done;
        /// without `waiting`, nil when it is not ready yet.
        func result(for index: Int, waiting: Bool) -> (T, Int)? {
            condition.lock()
            defer { condition.unlock() }
            while slots[index] == nil {
                guard waiting else { return nil }
                awaited = index
                condition.wait()
            }
            awaited = nil
            let result = slots[index]!
            slots[index] = nil
            emitted += 1
            if blockedWorkers > 0 { condition.broadcast() }
            return (result, done)
        }
    }
}

/// A mutex with one condition variable (POSIX), as `NSCondition` offers.
private final class Condition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    func wait() { pthread_cond_wait(condition, mutex) }
    func broadcast() { pthread_cond_broadcast(condition) }
}
