import Foundation

/// Temporary files for tests that need a real path. Fixtures are never written to: tests that
/// write copy them here first. Everything goes under one folder per test process, removed when
/// the process exits, so that no run leaves folders behind.
public enum TemporaryFile {
    /// The folder of this process's temporary files.
    static let root: String = {
        let path = NSTemporaryDirectory() + "media-metadata-tests-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: TemporaryFile.root) }
        return path
    }()

    /// Writes `bytes` to a new file in a fresh temporary directory and returns its path.
    public static func write(_ bytes: [UInt8], name: String = "file.bin") throws -> String {
        let directory = try makeDirectory()
        let path = directory + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A new empty directory under this process's folder.
    public static func makeDirectory() throws -> String {
        let path = root + "/" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The bytes of a file.
    public static func read(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
