#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CPU seconds used by the calling thread: a hang guard that other tests running in parallel
/// on a small machine do not disturb (never a benchmark).
public func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

extension String {
    /// The string with zeros in front up to `width` characters.
    public func leftPad(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
