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
    /// behind. `environment` is set for the command (`NO_COLOR=1`, `TERM=...`); `NO_COLOR`, which
    /// `swift test` sets for its tests, is removed from what the command inherits. The sessions
    /// run on a tmux server of their own (`-L`, no configuration file), never the user's.
    public init(_ command: String, width: Int = 100, height: Int = 30, environment: [String: String] = [:]) throws {
        name = "mm-test-\(UUID().uuidString.prefix(8))"
        marker = "STATUS"
        let exports = environment.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        let script = "env -u NO_COLOR \(exports) \(command); echo \(marker)=$?; sleep 600"
        try Self.run(["new-session", "-d", "-s", name, "-x", String(width), "-y", String(height), script])
    }

    deinit { _ = try? Self.run(["kill-session", "-t", name]) }

    /// Sends keys as `tmux send-keys` names them (`j`, `Enter`, `C-o`, `Escape`), or literal text.
    public func send(_ keys: String..., literal: Bool = false) throws {
        try Self.run(["send-keys", "-t", name] + (literal ? ["-l"] : []) + keys)
    }

    /// The visible screen, one string per line; with `escapes`, the colours and attributes of
    /// the text are kept as the escape sequences that produce them (`capture-pane -e`).
    public func screen(escapes: Bool = false) throws -> [String] {
        var text = try Self.run(["capture-pane", "-p"] + (escapes ? ["-e"] : []) + ["-t", name])
        if text.hasSuffix("\n") { text.removeLast() }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Resizes the window, as a person dragging the terminal's corner would.
    public func resize(width: Int, height: Int) throws {
        try Self.run(["resize-window", "-t", name, "-x", String(width), "-y", String(height)])
    }

    /// The process ID of the shell running in the pane (the program under test is its child).
    public func paneProcessID() throws -> Int32? {
        Int32(try Self.run(["display-message", "-p", "-t", name, "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The screen never showed what a test waited for.
    public struct WaitTimedOut: Error, CustomStringConvertible {
        public var screen: [String]
        public var description: String { "timed out; the screen was:\n" + screen.joined(separator: "\n") }
    }

    /// Waits until `condition` holds for the screen (polling), and returns that screen; throws
    /// `WaitTimedOut` with the last screen read when it has not held after `timeout` seconds.
    @discardableResult
    public func waitFor(timeout: Double = 10, _ condition: ([String]) -> Bool) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var last = try screen()
        while !condition(last) {
            guard Date() < deadline else { throw WaitTimedOut(screen: last) }
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

    /// The tests' own tmux server: one socket per test process.
    static let socket = "mm-tests-\(getpid())"

    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
        guard let tmux else { throw CocoaError(.fileNoSuchFile) }
        // The first call starts the server, which stays behind as a daemon: ChildProcess, not
        // Foundation's Process, so that neither waits for the server to end.
        let result = try ChildProcess.run(tmux, ["-L", socket, "-f", "/dev/null"] + arguments, timeout: 30)
        return String(decoding: result.standardOutput, as: UTF8.self)
    }
}
