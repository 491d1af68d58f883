#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

import MediaBytes

/// Writes to standard error.
public enum StandardError {
    public static func write(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var done = 0
            while done < buffer.count {
                let result = Glibc_write(2, buffer.baseAddress! + done, buffer.count - done)
                if result <= 0 { break }
                done += result
            }
        }
    }
}

/// A byte sink writing to a new file (created or truncated), or to standard output for `-`.
public struct FileSink: ByteSink {
    public struct Failure: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    private let descriptor: Int32
    private let ownsDescriptor: Bool

    public init(path: String) throws(Failure) {
        if path == "-" {
            descriptor = 1
            ownsDescriptor = false
            return
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(message: "cannot create: \(String(cString: strerror(errno)))") }
        descriptor = fd
        ownsDescriptor = true
    }

    public mutating func write(_ bytes: [UInt8]) throws { try write(bytes[...]) }

    public mutating func write(_ bytes: ArraySlice<UInt8>) throws {
        try bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let result = Glibc_write(descriptor, buffer.baseAddress! + done, buffer.count - done)
                if result < 0 {
                    if errno == EINTR { continue }
                    throw Failure(message: "write failed: \(String(cString: strerror(errno)))")
                }
                done += result
            }
        }
    }

    /// True when both paths name the same existing file (same device and inode).
    public static func isSameFile(_ a: String, _ b: String) -> Bool {
        var first = stat()
        var second = stat()
        guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    /// Flushes to disk and closes the file.
    public func close() throws {
        guard ownsDescriptor else { return }
        if fsync(descriptor) != 0 && errno != EINVAL {
            throw Failure(message: "flush failed: \(String(cString: strerror(errno)))")
        }
        if Glibc_close(descriptor) != 0 { throw Failure(message: "close failed: \(String(cString: strerror(errno)))") }
    }
}

#if canImport(Glibc)
@inline(__always) private func Glibc_write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { Glibc.write(fd, buffer, count) }
@inline(__always) private func Glibc_close(_ fd: Int32) -> Int32 { Glibc.close(fd) }
#elseif canImport(Musl)
@inline(__always) private func Glibc_write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { Musl.write(fd, buffer, count) }
@inline(__always) private func Glibc_close(_ fd: Int32) -> Int32 { Musl.close(fd) }
#else
@inline(__always) private func Glibc_write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { Darwin.write(fd, buffer, count) }
@inline(__always) private func Glibc_close(_ fd: Int32) -> Int32 { Darwin.close(fd) }
#endif
