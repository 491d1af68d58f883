#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's extended attributes (Linux `xattr`): what a rewrite carries from the file it
/// replaces to the new one, so that desktop tags (`user.xdg.tags`), security labels
/// (`security.selinux`) and ACLs (`system.posix_acl_access`) survive a save that renames a new
/// file over the old.
enum ExtendedAttributes {
    /// Copies every extended attribute of the file at `path` to the open file `descriptor`;
    /// returns, in words, each one that could not be set (the process may not: a `trusted.*`
    /// attribute without root, an ACL of a file it does not own), empty when all were.
    static func copy(from path: String, to descriptor: Int32) -> [String] {
        #if os(Linux)
        var failures: [String] = []
        for name in names(of: path) {
            let value = PathBytes.withCString(path) { file in name.withCString { attribute -> [UInt8]? in
                let size = getxattr(file, attribute, nil, 0)
                guard size >= 0 else { return nil }
                var bytes = [UInt8](repeating: 0, count: size)
                let read = bytes.withUnsafeMutableBytes { getxattr(file, attribute, $0.baseAddress, size) }
                return read == size ? bytes : nil
            } }
            guard let value else {
                failures.append("extended attribute \(name) (cannot be read: \(String(cString: strerror(errno))))")
                continue
            }
            let set = name.withCString { attribute in value.withUnsafeBytes { fsetxattr(descriptor, attribute, $0.baseAddress, value.count, 0) } }
            if set != 0 { failures.append("extended attribute \(name) (\(String(cString: strerror(errno))))") }
        }
        return failures
        #else
        return []
        #endif
    }

    /// The names of the extended attributes of the file at `path` (empty when it has none or
    /// the file system keeps none).
    static func names(of path: String) -> [String] {
        #if os(Linux)
        return PathBytes.withCString(path) { file in
            let size = listxattr(file, nil, 0)
            guard size > 0 else { return [] }
            var buffer = [CChar](repeating: 0, count: size)
            let count = listxattr(file, &buffer, size)
            guard count > 0 else { return [] }
            return buffer[0..<count].split(separator: 0).map { String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        }
        #else
        return []
        #endif
    }
}

// `<sys/xattr.h>` (glibc 2.3, musl), which Swift's Glibc module does not declare; bound by the
// linker, as `copy_file_range` is (see FileByteSink.swift): integers and pointers only.
#if os(Linux)
@_silgen_name("listxattr")
private func listxattr(_ path: UnsafePointer<CChar>, _ list: UnsafeMutablePointer<CChar>?, _ size: Int) -> Int
@_silgen_name("getxattr")
private func getxattr(_ path: UnsafePointer<CChar>, _ name: UnsafePointer<CChar>, _ value: UnsafeMutableRawPointer?, _ size: Int) -> Int
@_silgen_name("fsetxattr")
private func fsetxattr(_ descriptor: Int32, _ name: UnsafePointer<CChar>, _ value: UnsafeRawPointer?, _ size: Int, _ flags: Int32) -> Int32
#endif
