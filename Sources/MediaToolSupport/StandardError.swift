import MediaBytes

// `stdout` is C's global stream; `print` writes to it from the main thread too.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// Writes to standard error, unbuffered.
public enum StandardError {
    public static func write(_ text: String) {
        // A path's bytes that are not UTF-8 are shown as \xHH (PathBytes).
        var bytes = Array(PathBytes.display(text).utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var done = 0
            while done < buffer.count {
                let result = systemWrite(2, buffer.baseAddress! + done, buffer.count - done)
                if result <= 0 { break }
                done += result
            }
        }
    }
}

/// Writes to standard output through the C stream that `print` also writes to, so the two keep
/// their order; bytes go in as they are (no String, no UTF-8 validation).
public enum StandardOutput {
    public static func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { _ = fwrite($0.baseAddress, 1, $0.count, stdout) }
    }

    /// Writes bytes another writer holds (valid during the call).
    public static func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        _ = fwrite(bytes.baseAddress, 1, bytes.count, stdout)
    }

    /// Prints `text` and `terminator` as `Swift.print` does, with a path's bytes that are not
    /// UTF-8 (kept by `PathBytes` so that the file named is the file opened) shown as `\xHH`.
    /// Both tools' `print` is this.
    public static func print(_ text: String, terminator: String = "\n") {
        Swift.print(PathBytes.display(text), terminator: terminator)
    }

    /// Writes a literal (no array made for it).
    public static func write(_ text: StaticString) {
        text.withUTF8Buffer { _ = fwrite($0.baseAddress, 1, $0.count, stdout) }
    }

    /// Gives standard output a 64 KiB buffer when it is not a terminal (a file, a pipe), so a
    /// listing of many files goes out in large writes: the C library's buffer is the file's
    /// block size, 4 KiB for a pipe or `/dev/null`, and `show --json` over 1000 files made
    /// 865 writes of it (3.5 MB). A terminal keeps its line buffering. Call it before anything
    /// is written. (glibc takes the size only with a buffer: given none, it keeps the block
    /// size.)
    public static func bufferBulkOutput() {
        guard isatty(1) == 0 else { return }
        setLargeBuffer()
    }

    /// A 64 KiB buffer of its own for `stdout`, which lives as long as the process (one per
    /// call: the tools call this once, and once more after `redirect`).
    private static func setLargeBuffer() {
        let size = 1 << 16
        setvbuf(stdout, UnsafeMutablePointer<CChar>.allocate(capacity: size), _IOFBF, size)
    }

    /// Writes out what standard output holds buffered; false when that fails (a full disk).
    public static func flush() -> Bool {
        fflush(stdout) == 0 && ferror(stdout) == 0
    }

    /// Flushes standard output, a file it was redirected to, to disk, first giving it the
    /// `permissions` bits when given; false when that fails.
    public static func sync(permissions: mode_t? = nil) -> Bool {
        guard flush() else { return false }
        let descriptor = fileno(stdout)
        if let permissions, fchmod(descriptor, permissions) != 0 { return false }
        return fsync(descriptor) == 0
    }

    /// Sends standard output (and `print`) to the file at `path`, created or truncated (with
    /// `exclusive`, only created: false when something is at `path` already), with a 64 KiB
    /// buffer (reopening the stream drops the one it had); false when it cannot be opened.
    public static func redirect(to path: String, exclusive: Bool = false) -> Bool {
        guard SystemPath.freopen(path, exclusive ? "wx" : "w", stdout) != nil else { return false }
        setLargeBuffer()
        return true
    }
}

/// Reads standard input.
public enum StandardInput {
    /// Every byte of the file at `path` (a pipe or `/dev/stdin` too), its name taken as bytes
    /// (`SystemPath`); nil when it cannot be opened or read.
    public static func readFile(_ path: String) -> [UInt8]? {
        let fd = SystemPath.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return readAll(from: fd)
    }

    /// Every byte until the end of standard input (or of `descriptor`); nil when reading fails.
    public static func readAll(from descriptor: Int32 = 0) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
        }
    }
}
