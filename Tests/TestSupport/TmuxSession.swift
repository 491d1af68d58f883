import Foundation

/// A program running in a detached `tmux` session of a fixed size, driven as a person would:
/// keys sent with `send-keys`, the screen read with `capture-pane`.
public final class TmuxSession {
    public let name: String
    public let marker: String

    /// The path of `tmux`, or nil when it is not installed.
    public static var tmux: String? {
        ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts `command` (a shell command line) in a new session; after it exits the pane prints
    /// `<marker>=<status>` and stays open, so tests can read the exit status and the screen left
    /// behind. `environment` is set for the command (`NO_COLOR=1`, `TERM=...`).
    public init(_ command: String, width: Int = 100, height: Int = 30, environment: [String: String] = [:]) throws {
        name = "mm-test-\(getpid())-\(UUID().uuidString.prefix(8))"
        marker = "STATUS"
        let exports = environment.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        let script = "\(exports.isEmpty ? "" : "env \(exports) ")\(command); echo \(marker)=$?; sleep 600"
        // The first session starts the tmux server, which would inherit a pipe and keep it open.
        try Self.run(["new-session", "-d", "-s", name, "-x", String(width), "-y", String(height), script], output: false)
    }

    deinit { try? Self.run(["kill-session", "-t", name], output: false) }

    /// Sends keys as `tmux send-keys` names them (`j`, `Enter`, `C-o`, `Escape`), or literal text.
    public func send(_ keys: String..., literal: Bool = false) throws {
        try Self.run(["send-keys", "-t", name] + (literal ? ["-l"] : []) + keys, output: false)
    }

    /// The visible screen, one string per line.
    public func screen() throws -> [String] {
        let text = try Self.run(["capture-pane", "-p", "-t", name])
        return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Waits until `condition` holds for the screen (polling), and returns that screen; after
    /// `timeout` seconds returns the last screen read.
    @discardableResult
    public func waitFor(timeout: Double = 10, _ condition: ([String]) -> Bool) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var last = try screen()
        while !condition(last) && Date() < deadline {
            usleep(50_000)
            last = try screen()
        }
        return last
    }

    /// Waits for text anywhere on the screen.
    @discardableResult
    public func waitFor(_ text: String, timeout: Double = 10) throws -> [String] {
        try waitFor(timeout: timeout) { $0.contains { $0.contains(text) } }
    }

    /// The exit status printed after the program ended, if it has.
    public func exitStatus() throws -> Int32? {
        for line in try screen() where line.hasPrefix(marker + "=") { return Int32(line.dropFirst(marker.count + 1)) }
        return nil
    }

    @discardableResult
    static func run(_ arguments: [String], output: Bool = true) throws -> String {
        guard let tmux else { throw CocoaError(.fileNoSuchFile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tmux)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = output ? pipe : FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output ? pipe.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
