import Foundation

/// Runs the package's built command-line tools, for end-to-end tests.
public enum ToolRunner {
    public struct Result: Sendable {
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
    public static func run(_ tool: String, _ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: productsDirectory + "/" + tool)
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read before waiting so a large output cannot fill the pipe and block the tool.
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, standardOutput: String(decoding: outData, as: UTF8.self),
                      standardError: String(decoding: errData, as: UTF8.self))
    }
}
