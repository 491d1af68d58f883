import Glibc
import MediaToolSupport
import Synchronization
import Testing

/// The batch runner: work really spreads over threads, results come back in order, and the
/// calling thread takes part.
@Suite struct OrderedParallelTests {
    @Test func spreadsWorkOverThreadsAndEmitsInIndexOrder() {
        let threads = Mutex<Set<UInt>>([])
        var emitted: [Int] = []
        var results: [Int] = []
        let caller = UInt(pthread_self())
        OrderedParallel.run(count: 300, jobs: 4, work: { index -> Int in
            threads.withLock { _ = $0.insert(UInt(pthread_self())) }
            // Uneven work, so later indexes often finish first.
            usleep(UInt32(index % 7 == 0 ? 2000 : 100))
            return index * index
        }, emit: { index, result in
            emitted.append(index)
            results.append(result)
        })
        #expect(emitted == Array(0..<300))
        #expect(results == (0..<300).map { $0 * $0 })
        let used = threads.withLock { $0 }
        #expect(used.count > 1)
        #expect(used.contains(caller))
    }

    @Test func oneJobIsAPlainLoopOnTheCallingThread() {
        let threads = Mutex<Set<UInt>>([])
        var emitted: [Int] = []
        OrderedParallel.run(count: 20, jobs: 1, work: { index -> Int in
            threads.withLock { _ = $0.insert(UInt(pthread_self())) }
            return index
        }, emit: { index, _ in emitted.append(index) })
        #expect(emitted == Array(0..<20))
        #expect(threads.withLock { $0 } == [UInt(pthread_self())])
    }

    @Test func noJobCountMeansTheProcessorsAndKeepsTheOrder() {
        let threads = Mutex<Set<UInt>>([])
        var emitted: [Int] = []
        OrderedParallel.run(count: 50, jobs: nil, work: { index -> Int in
            threads.withLock { _ = $0.insert(UInt(pthread_self())) }
            usleep(1000)
            return index * 2
        }, emit: { index, result in
            #expect(result == index * 2)
            emitted.append(index)
        })
        #expect(emitted == Array(0..<50))
        // With more than one processor the work spreads over more than one thread; with one, it
        // stays on the calling thread.
        let used = threads.withLock { $0.count }
        #expect(OrderedParallel.defaultJobs > 1 ? used > 1 : used == 1, "\(used) threads for \(OrderedParallel.defaultJobs) processors")
    }

    @Test func oneItemRunsOnTheCallingThreadWhateverTheJobs() {
        let threads = Mutex<Set<UInt>>([])
        for jobs in [nil, 1, 8] as [Int?] {
            OrderedParallel.run(count: 1, jobs: jobs, work: { _ in threads.withLock { _ = $0.insert(UInt(pthread_self())) } }, emit: { _, _ in })
        }
        #expect(threads.withLock { $0 } == [UInt(pthread_self())])
    }
}
