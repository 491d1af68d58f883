#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import ArgumentParser
import ISOBMFF
import MediaBytes
import MediaMetadata
import MediaToolSupport

@main
struct AtomInspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "atominspect",
        abstract: "Show the atom structure of MP4, M4A, M4B, M4V, MOV, 3GP and HEIF files.",
        discussion: """
            Exit codes: 0 success; 1 'check' found problems; 2 the file cannot be read (missing, \
            a directory, no permission, I/O error); 3 not an ISO-BMFF/QuickTime file; 4 malformed \
            (with --strict); 5 --path names no atom; 64 usage error.
            """,
        subcommands: [Tree.self, Hex.self, Extract.self, Check.self],
        defaultSubcommand: Tree.self
    )

    static func main() {
        // Output piped into `head` should end the tool quietly, not kill it with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            exit(withError: error)
        }
    }
}

/// Options shared by the subcommands that read one file.
struct FileOptions: ParsableArguments {
    @Argument(help: "The media file.")
    var file: String

    @Flag(help: "Treat any anomaly as an error (exit 4) instead of reading past it.")
    var strict = false
}

/// Exit codes documented in the README.
enum ExitStatus {
    static let findings = ExitCode(1)
    static let unreadable = ExitCode(2)
    static let notISOBMFF = ExitCode(3)
    static let malformed = ExitCode(4)
    static let noSuchAtom = ExitCode(5)
}

/// Why a file could not be read, with the exit code it calls for.
struct ToolFailure: Error {
    var message: String
    var code: ExitCode
}

/// Reads a file's tree, or says why not in one line naming the file (and, where it applies,
/// the byte offset and atom path).
func openTree(_ path: String, strict: Bool) -> Result<AtomTree, ToolFailure> {
    let source: FileByteSource
    do {
        source = try FileByteSource(path: path)
    } catch {
        return .failure(ToolFailure(message: error.description, code: ExitStatus.unreadable))
    }
    do {
        return .success(try AtomTree(source: source, options: strict ? .strict : .lenient))
    } catch let error where error.code == .notISOBMFF {
        var message = error.message
        if let format = MediaFormat.detect(source), !format.isAtomBased {
            message += " (it looks like \(format.rawValue.uppercased()))"
        }
        return .failure(ToolFailure(message: "\(path): \(message)", code: ExitStatus.notISOBMFF))
    } catch let error where error.code == .io {
        return .failure(ToolFailure(message: "\(path): \(error.description)", code: ExitStatus.unreadable))
    } catch {
        return .failure(ToolFailure(message: "\(path): malformed \(error.description)", code: ExitStatus.malformed))
    }
}

/// Reads a file's tree, or prints why not on standard error and exits with the matching code.
func loadTree(_ path: String, strict: Bool) -> AtomTree {
    switch openTree(path, strict: strict) {
    case .success(let tree): return tree
    case .failure(let failure): fail(failure.message, path: nil, code: failure.code)
    }
}

/// Finds the atom at `path` or exits with status 5.
func requireAtom(_ text: String, in tree: AtomTree, file: String) -> (Atom, AtomPath) {
    guard let path = AtomPath(parsing: text), !path.isRoot else {
        fail("'\(text)' is not an atom path (write it like moov/trak[1]/mdia/hdlr)", path: nil, code: ExitCode.validationFailure)
    }
    guard let atom = tree.atom(at: path) else {
        fail("no atom at path '\(text)'", path: file, code: ExitStatus.noSuchAtom)
    }
    return (atom, path)
}

func fail(_ message: String, path: String?, code: ExitCode) -> Never {
    StandardError.write("atominspect: " + (path.map { "\($0): " } ?? "") + message + "\n")
    AtomInspect.exit(withError: code)
}
