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
}
