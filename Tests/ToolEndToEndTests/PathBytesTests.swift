import Foundation
import TestSupport
import Testing

/// The file named is the file edited: a name whose bytes are not UTF-8 reaches `open` as the
/// same bytes, from the command line and from a folder walk, and is printed escaped.
///
/// Before 2026-11-27 such an argument was decoded with U+FFFD in place of the byte:
/// `tagedit set $'song\xff.m4a' TITLE=x` exited 0 and edited `song\uFFFD.m4a`, and `set -r`
/// edited that file twice and never the other.
@Suite struct PathBytesEndToEndTests {
    /// Runs `script` in `/bin/sh` in `directory`, with `$T` and `$A` the two tools; names with
    /// bytes that are not UTF-8 are written with printf (the arguments of a test's child
    /// process are Swift strings).
    func shell(_ script: String, in directory: String) async throws -> ToolRunner.Result {
        try await ToolRunner.runProgram("/bin/sh", ["-c", "cd '\(directory)' && T='\(ToolRunner.productsDirectory)/tagedit' && A='\(ToolRunner.productsDirectory)/atominspect' && " + script])
    }

    /// A folder with `song<FF>.m4a` (a Latin-1 byte) and, with `neighbour`, `song<U+FFFD>.m4a`
    /// next to it, both copies of one fixture.
    func folder(neighbour: Bool) async throws -> String {
        let directory = try TemporaryFile.makeDirectory()
        let fixture = TestFixtures.path("aac-itunes-tags-cover.m4a")
        let made = try await shell("cp '\(fixture)' \"$(printf 'song\\377.m4a')\"" + (neighbour ? " && cp '\(fixture)' \"$(printf 'song\\357\\277\\275.m4a')\"" : ""), in: directory)
        #expect(made.status == 0, "\(made.standardError)")
        return directory
    }

    static let latin1 = "\"$(printf 'song\\377.m4a')\""
    static let replacement = "\"$(printf 'song\\357\\277\\275.m4a')\""

    @Test func theNamedFileIsEditedAndItsNeighbourIsNot() async throws {
        let directory = try await folder(neighbour: true)
        let neighbour = try TemporaryFile.read(directory + "/song\u{FFFD}.m4a")
        let set = try await shell("$T set \(Self.latin1) TITLE=Bytes", in: directory)
        #expect(set.status == 0, "\(set.standardError)")
        #expect(try TemporaryFile.read(directory + "/song\u{FFFD}.m4a") == neighbour, "the other file was edited")
        let got = try await shell("$T get \(Self.latin1) TITLE && $T get \(Self.replacement) TITLE", in: directory)
        #expect(got.standardOutput == "Bytes\nFixture Title\n")
    }

    @Test func aNameThatIsNotUTF8IsFoundWithoutANeighbour() async throws {
        let directory = try await folder(neighbour: false)
        let result = try await shell("$T set \(Self.latin1) TITLE=Alone && $T get \(Self.latin1) TITLE && $A check \(Self.latin1)", in: directory)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "Alone\nsong\\xff.m4a: ok\n")
    }

    @Test func aWalkEditsEachFileOnceAndPrintsItsNameEscaped() async throws {
        let directory = try await folder(neighbour: true)
        let result = try await shell("$T set -r . ALBUM=Walked -v && $T get -r . ALBUM && $T show --json \(Self.latin1)", in: directory)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("2 files changed"), "\(result.standardError)")
        #expect(result.standardOutput.contains("./song\\xff.m4a: Walked\n"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("./song\u{FFFD}.m4a: Walked\n"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("\"path\": \"song\\\\xff.m4a\""), "\(result.standardOutput)")
    }

    @Test func aMissingNameIsReportedEscaped() async throws {
        let directory = try TemporaryFile.makeDirectory()
        let result = try await shell("$T get \"$(printf 'gone\\376.m4a')\" TITLE", in: directory)
        #expect(result.status == 66)
        #expect(result.standardError.contains("gone\\xfe.m4a: no such file"), "\(result.standardError)")
    }
}
