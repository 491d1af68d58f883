import Foundation

/// Temporary files for tests that need a real path. Fixtures are never written to: tests that
/// write copy them here first.
public enum TemporaryFile {
    /// Writes `bytes` to a new file in a fresh temporary directory and returns its path.
    public static func write(_ bytes: [UInt8], name: String = "file.bin") throws -> String {
        let directory = try makeDirectory()
        let path = directory + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A new empty directory under the system temporary directory.
    public static func makeDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "media-metadata-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The bytes of a file.
    public static func read(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
