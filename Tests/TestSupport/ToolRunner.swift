import Foundation

/// Runs the package's built command-line tools, for end-to-end tests.
public enum ToolRunner {
    public struct Result: Sendable {
        /// The exit status, or 128 + the signal number when the tool was killed by a signal
        /// (so a crash never looks like one of the tool's own exit codes).
        public var status: Int32
        public var standardOutput: String
        public var standardError: String
    }

    /// The folder holding the built products: the test binary sits beside the tools.
    public static var productsDirectory: String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var url = URL(fileURLWithPath: executable).deletingLastPathComponent()
        // On Darwin the test binary sits inside a .xctest bundle.
        while url.pathExtension == "xctest" || url.lastPathComponent == "MacOS" || url.lastPathComponent == "Contents" {
            url.deleteLastPathComponent()
        }
        return url.path
    }

    /// Runs `tool` with `arguments`, waiting for it to exit.
    public static func run(_ tool: String, _ arguments: [String]) async throws -> Result {
        try await runProgram(productsDirectory + "/" + tool, arguments)
    }

    /// Runs the program at the absolute path `program` (a system tool such as ffmpeg).
    public static func runProgram(_ program: String, _ arguments: [String]) async throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Drain both pipes at once so neither can fill up and block the tool.
        let errorReader = Task.detached { error.fileHandleForReading.readDataToEndOfFile() }
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = await errorReader.value
        process.waitUntilExit()
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return Result(status: status, standardOutput: String(decoding: outData, as: UTF8.self),
                      standardError: String(decoding: errData, as: UTF8.self))
    }

    /// What `measure` saw of one run.
    public struct Measurement: Sendable {
        /// The exit status, or 128 + the signal number.
        public var status: Int32
        public var seconds: Double
        /// The run's peak resident memory (the child's own `ru_maxrss`, from `wait4`).
        public var peakMemoryKiB: Int
        /// The start of what it wrote on standard error.
        public var standardError: String
    }

    /// Runs `tool` with `arguments` (standard output discarded) and measures its wall time and
    /// peak resident memory. Spawned and reaped here, not by Foundation's `Process`, so that
    /// `wait4` reports this child's resources alone.
    public static func measure(_ tool: String, _ arguments: [String]) throws -> Measurement {
        let program = productsDirectory + "/" + tool
        let errorFile = NSTemporaryDirectory() + "measure-" + UUID().uuidString
        defer { unlink(errorFile) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let started = Date()
        let spawned = posix_spawn(&pid, program, &actions, nil, argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let seconds = Date().timeIntervalSince(started)
        // WIFSIGNALED / WTERMSIG / WEXITSTATUS, spelled out (they are macros).
        let signal = status & 0x7F
        let code = signal != 0 ? 128 + signal : (status >> 8) & 0xFF
        let errorText = (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? ""
        return Measurement(status: code, seconds: seconds, peakMemoryKiB: Int(usage.ru_maxrss), standardError: String(errorText.prefix(500)))
    }
}
