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

    /// Runs the program at the absolute path `program` (a system tool such as ffmpeg). A program
    /// still running after `timeout` seconds is killed (its status is then 128 + 9).
    public static func runProgram(_ program: String, _ arguments: [String], environment: [String: String] = [:],
                                  timeout: Double = 600) async throws -> Result {
        let result = try ChildProcess.run(program, arguments, environment: environment, timeout: timeout)
        var error = String(decoding: result.standardError, as: UTF8.self)
        if result.timedOut { error += "\n[killed after \(Int(timeout)) s]" }
        return Result(status: result.status, standardOutput: String(decoding: result.standardOutput, as: UTF8.self),
                      standardError: error)
    }

    /// What `measure` saw of one run.
    public struct Measurement: Sendable {
        /// The exit status, or 128 + the signal number.
        public var status: Int32
        public var seconds: Double
        /// The tool's peak resident memory, as GNU time reports it.
        public var peakMemoryKiB: Int
        /// The start of what it wrote on standard error.
        public var standardError: String
    }

    /// Runs `tool` with `arguments` (standard output discarded) under GNU time (`/usr/bin/time`,
    /// Debian's `time`), which reports its wall time and peak resident memory. A small
    /// launcher is needed: Linux counts the memory of the process a program was started from
    /// into the program's own peak (`ru_maxrss` keeps the pre-exec image), and the test
    /// process is large.
    /// `directory` holds the tool (by default the build's products: a release build's folder
    /// measures what users run).
    public static func measure(_ tool: String, _ arguments: [String], in directory: String? = nil) throws -> Measurement {
        let report = NSTemporaryDirectory() + "measure-" + UUID().uuidString
        defer { unlink(report) }
        let run = try ChildProcess.run("/usr/bin/time", ["-o", report, "-f", "%e %M", (directory ?? productsDirectory) + "/" + tool] + arguments,
                                    keepStandardOutput: false)
        // time exits with the tool's status, or 128 + the signal that ended it.
        let status = run.status
        let errorData = run.standardError
        let last = (try String(contentsOfFile: report, encoding: .utf8)).split(separator: "\n").last.map(String.init) ?? ""
        let fields = last.split(separator: " ")
        guard fields.count == 2, let seconds = Double(fields[0]), let peak = Int(fields[1]) else {
            throw POSIXError(.EIO)
        }
        return Measurement(status: status, seconds: seconds, peakMemoryKiB: peak, standardError: String(decoding: errorData.prefix(500), as: UTF8.self))
    }
}
