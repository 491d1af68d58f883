#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// File paths as the system has them: bytes, not always UTF-8, carried in a `String` without
/// loss, so that the file named is the file opened.
///
/// A path is decoded from its bytes as UTF-8 where it is valid; each byte that is not part of
/// a valid sequence is kept as one of the 128 code points U+10FF80...U+10FFFF (the last of the
/// supplementary private use area), byte 0x80 + n as U+10FF80 + n. The rare valid sequence for
/// one of those code points is kept as its four bytes the same way, so the mapping is one to
/// one: `bytes(string(b)) == b` for every byte string `b`. Every system call of this package
/// that takes a path goes through `SystemPath`, which turns the string back into those bytes;
/// a path that was valid UTF-8 costs one scan for the byte 0xF4 and nothing else.
///
/// Paths are printed with `display`: each kept byte as `\xHH`.
public enum PathBytes {
    private static let base: UInt32 = 0x10FF00

    /// The path whose bytes are `bytes`.
    public static func string<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        if let valid = bytes.withContiguousStorageIfAvailable(validString) { return valid ?? decoding(bytes) }
        if !bytes.contains(0xF4), let valid = String(validating: bytes, as: UTF8.self) { return valid }
        return decoding(bytes)
    }

    /// The path whose bytes are `bytes` (a directory entry's name, an argument): the common
    /// case, valid UTF-8 without the byte 0xF4, found with one `memchr` and one validation.
    public static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        validString(bytes) ?? decoding(bytes)
    }

    /// The name of a directory entry `readdir` returned, decoded as a path is.
    public static func name(of entry: UnsafePointer<dirent>) -> String {
        withUnsafeBytes(of: entry.pointee.d_name) { raw in
            let start = raw.baseAddress!
            let length = strnlen(start.assumingMemoryBound(to: CChar.self), raw.count)
            return string(UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: length))
        }
    }

    /// `bytes` as a string when they are valid UTF-8 without 0xF4 (so no byte is kept as a
    /// private-use scalar); nil otherwise.
    private static func validString(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let start = bytes.baseAddress else { return "" }
        guard memchr(start, 0xF4, bytes.count) == nil else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// `bytes` decoded scalar by scalar, each byte that is not part of a valid sequence (or is
    /// part of one for a code point this mapping uses) kept as its private-use scalar.
    private static func decoding<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        var scalars = String.UnicodeScalarView()
        let array = Array(bytes)
        var index = 0
        while index < array.count {
            if let (scalar, length) = decodeScalar(array, at: index), scalar.value < base + 0x80 || scalar.value > base + 0xFF {
                scalars.append(scalar)
                index += length
            } else {
                scalars.append(Unicode.Scalar(base + UInt32(array[index]))!)
                index += 1
            }
        }
        return String(scalars)
    }

    /// The bytes `path` stands for.
    public static func bytes(_ path: String) -> [UInt8] {
        guard path.utf8.contains(0xF4) else { return Array(path.utf8) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if scalar.value >= base + 0x80 && scalar.value <= base + 0xFF {
                bytes.append(UInt8(scalar.value - base))
            } else {
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        return bytes
    }

    /// Calls `body` with `path` as the NUL-terminated bytes a system call takes.
    public static func withCString<Result>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        guard path.utf8.contains(0xF4) else { return try path.withCString(body) }
        return try (bytes(path) + [0]).withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    /// `path` split after its last `/`: the folder part with its slash (`/music/`, `/`, or ""
    /// for a name alone) and the name. By byte, not by Character: a combining mark after the
    /// slash would hide it from `lastIndex(of: "/")`.
    public static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return ("", path) }
        let after = path.utf8.index(after: slash)
        return (String(path[..<after]), String(path[after...]))
    }

    /// `path` for people: each byte that is not UTF-8 shown as `\xHH`. (Both tools' output
    /// goes through it, messages whole; a listing's line escapes a path's control characters
    /// itself: `String.escapingControls`.)
    public static func display(_ path: String) -> String {
        // Every byte shown as \xHH is a scalar U+10FF80-U+10FFFF, whose UTF-8 starts with 0xF4.
        let marked = path.utf8.withContiguousStorageIfAvailable { buffer in buffer.baseAddress.map { memchr($0, 0xF4, buffer.count) != nil } ?? false } ?? path.utf8.contains(0xF4)
        guard marked else { return path }
        var text = ""
        for scalar in path.unicodeScalars {
            if scalar.value >= base + 0x80 && scalar.value <= base + 0xFF {
                let hex = String(scalar.value - base, radix: 16)
                text += "\\x" + hex
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    /// The program's arguments after its name, each decoded from its bytes as a path is
    /// (`CommandLine.arguments` replaces bytes that are not UTF-8 with U+FFFD, so that a file
    /// whose name has such a byte cannot be named, and two names can become one).
    public static func arguments() -> [String] {
        (1..<Int(CommandLine.argc)).map { index in
            guard let argument = CommandLine.unsafeArgv[index] else { return "" }
            return string(UnsafeBufferPointer(start: UnsafeRawPointer(argument).assumingMemoryBound(to: UInt8.self), count: strlen(argument)))
        }
    }

    /// The scalar of the valid UTF-8 sequence at `index`, and its length; nil when the bytes
    /// there are not one (overlong forms, surrogates and values past U+10FFFF are not).
    private static func decodeScalar(_ bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
        let first = bytes[index]
        if first < 0x80 { return (Unicode.Scalar(first), 1) }
        let length: Int
        var value: UInt32
        switch first {
        case 0xC2...0xDF: length = 2; value = UInt32(first & 0x1F)
        case 0xE0...0xEF: length = 3; value = UInt32(first & 0x0F)
        case 0xF0...0xF4: length = 4; value = UInt32(first & 0x07)
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        let smallest: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard value >= smallest, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}

/// The `stat` structure (a name the `SystemPath` functions of the same name would hide).
public typealias FileStatus = stat

/// The system calls this package makes on paths, taking a path as `PathBytes` carries it.
public enum SystemPath {
    public static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        PathBytes.withCString(path) { systemOpen($0, flags, mode) }
    }

    public static func stat(_ path: String, _ info: inout FileStatus) -> Int32 {
        PathBytes.withCString(path) { systemStat($0, &info) }
    }

    public static func lstat(_ path: String, _ info: inout FileStatus) -> Int32 {
        PathBytes.withCString(path) { systemLstat($0, &info) }
    }

    public static func access(_ path: String, _ mode: Int32) -> Int32 {
        PathBytes.withCString(path) { systemAccess($0, mode) }
    }

    @discardableResult
    public static func unlink(_ path: String) -> Int32 {
        PathBytes.withCString(path) { systemUnlink($0) }
    }

    public static func rename(_ from: String, _ to: String) -> Int32 {
        PathBytes.withCString(from) { a in PathBytes.withCString(to) { b in systemRename(a, b) } }
    }

    public static func link(_ from: String, _ to: String) -> Int32 {
        PathBytes.withCString(from) { a in PathBytes.withCString(to) { b in systemLink(a, b) } }
    }

    public static func mkdir(_ path: String, _ mode: mode_t) -> Int32 {
        PathBytes.withCString(path) { systemMkdir($0, mode) }
    }

    /// Removes the folder at `path` when it is empty (`rmdir(2)`).
    public static func rmdir(_ path: String) -> Int32 {
        PathBytes.withCString(path) { systemRmdir($0) }
    }

    public static func opendir(_ path: String) -> OpaquePointer? {
        PathBytes.withCString(path) { systemOpendir($0) }
    }

    /// `path` with every link and `.`/`..` resolved, or nil.
    public static func realpath(_ path: String) -> String? {
        guard let resolved = PathBytes.withCString(path, { systemRealpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return PathBytes.string(UnsafeBufferPointer(start: UnsafeRawPointer(resolved).assumingMemoryBound(to: UInt8.self), count: strlen(resolved)))
    }

    /// What the link at `path` holds, or nil.
    public static func readlink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = PathBytes.withCString(path) { systemReadlink($0, &buffer, buffer.count - 1) }
        guard count > 0 else { return nil }
        return PathBytes.string(buffer[0..<count].map { UInt8(bitPattern: $0) })
    }

    public static func freopen(_ path: String, _ mode: String, _ stream: UnsafeMutablePointer<FILE>) -> UnsafeMutablePointer<FILE>? {
        PathBytes.withCString(path) { systemFreopen($0, mode, stream) }
    }
}

// The C library's functions under names the members above do not hide.
private func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
private func systemStat(_ path: UnsafePointer<CChar>, _ info: inout FileStatus) -> Int32 { stat(path, &info) }
private func systemLstat(_ path: UnsafePointer<CChar>, _ info: inout FileStatus) -> Int32 { lstat(path, &info) }
private func systemAccess(_ path: UnsafePointer<CChar>, _ mode: Int32) -> Int32 { access(path, mode) }
private func systemUnlink(_ path: UnsafePointer<CChar>) -> Int32 { unlink(path) }
private func systemRename(_ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>) -> Int32 { rename(from, to) }
private func systemLink(_ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>) -> Int32 { link(from, to) }
private func systemMkdir(_ path: UnsafePointer<CChar>, _ mode: mode_t) -> Int32 { mkdir(path, mode) }
private func systemRmdir(_ path: UnsafePointer<CChar>) -> Int32 { rmdir(path) }
private func systemOpendir(_ path: UnsafePointer<CChar>) -> OpaquePointer? { opendir(path) }
private func systemRealpath(_ path: UnsafePointer<CChar>, _ resolved: UnsafeMutablePointer<CChar>?) -> UnsafeMutablePointer<CChar>? { realpath(path, resolved) }
private func systemReadlink(_ path: UnsafePointer<CChar>, _ buffer: UnsafeMutablePointer<CChar>, _ size: Int) -> Int { readlink(path, buffer, size) }
private func systemFreopen(_ path: UnsafePointer<CChar>, _ mode: String, _ stream: UnsafeMutablePointer<FILE>) -> UnsafeMutablePointer<FILE>? { freopen(path, mode, stream) }
