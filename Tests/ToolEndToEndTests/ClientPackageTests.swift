import Foundation
import TestSupport
import Testing

/// The README's library example, built in a package outside the repository that depends on
/// this one by path and imports `MediaMetadata` alone, then run on a fixture. Required in CI
/// (`CI` set); elsewhere it runs when `CLIENT_PACKAGE_TEST` is set, since it builds the
/// libraries a second time (about two minutes here).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["CI"] != nil || ProcessInfo.processInfo.environment["CLIENT_PACKAGE_TEST"] != nil,
                "builds a client package (set CI or CLIENT_PACKAGE_TEST)"))
struct ClientPackageTests {
    /// The Swift code between the README's client-example markers.
    static func readmeExample() throws -> String {
        let readme = try String(contentsOfFile: TestFixtures.packageRoot + "/README.md", encoding: .utf8)
        let start = try #require(readme.range(of: "<!-- client-example:begin -->\n```swift\n"))
        let end = try #require(readme.range(of: "```\n<!-- client-example:end -->", range: start.upperBound..<readme.endIndex))
        return String(readme[start.upperBound..<end.lowerBound])
    }

    static var swift: String {
        for candidate in ["/opt/swift/usr/bin/swift", "/usr/bin/swift"] where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        return "/usr/bin/env"
    }

    @Test func theReadmeExampleBuildsInAClientPackageAndEditsAFile() async throws {
        let example = try Self.readmeExample()
        #expect(example.hasPrefix("import MediaMetadata\n"))
        #expect(!example.contains("import ISOBMFF") && !example.contains("import MediaBytes"))
        let package = try TemporaryFile.makeDirectory() + "/Retag"
        let repository = TestFixtures.packageRoot
        try FileManager.default.createDirectory(atPath: package + "/Sources/Retag", withIntermediateDirectories: true)
        try """
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
                name: "Retag",
                dependencies: [.package(path: "\(repository)")],
                targets: [
                    .executableTarget(name: "Retag", dependencies: [.product(name: "MediaMetadata", package: "\((repository as NSString).lastPathComponent)")]),
                ]
            )
            """.write(toFile: package + "/Package.swift", atomically: true, encoding: .utf8)
        try example.write(toFile: package + "/Sources/Retag/main.swift", atomically: true, encoding: .utf8)
        let swift = Self.swift
        let build = try await ToolRunner.runProgram(swift, (swift.hasSuffix("env") ? ["swift"] : []) + ["build", "--package-path", package], timeout: 1200)
        #expect(build.status == 0, "\(build.standardOutput)\n\(build.standardError)")
        let fixture = try TemporaryFile.write(TemporaryFile.read(TestFixtures.path("aac-itunes-tags-cover.m4a")), name: "song.m4a")
        let run = try await ToolRunner.runProgram(package + "/.build/debug/Retag", [fixture])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == "Fixture Title 3 aac [\"Electronic\"]\n")
        let edited = try await ToolRunner.run("tagedit", ["show", "--format", "{TITLE}|{GENRE}", fixture])
        #expect(edited.standardOutput == "Retitled|Jazz\n")
        // A damaged file: the typed error's code, offset and message.
        let missing = try await ToolRunner.runProgram(package + "/.build/debug/Retag", ["/nonexistent/song.m4a"])
        #expect(missing.standardOutput.hasPrefix("file not found at byte 0: "))
    }
}
