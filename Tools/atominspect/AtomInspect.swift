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
        abstract: "Show the structure of \(MediaFormat.Structure.summary).",
        discussion: ToolExitCode.helpText,
        version: ToolVersion.current,
        subcommands: [Tree.self, Browse.self, Diff.self, HTML.self, Hex.self, Extract.self, Check.self],
        defaultSubcommand: Tree.self
    )

    static func main() {
        // Output piped into `head` should end the tool quietly, not kill it with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        HeapTrimming.keepFreedMemory()
        StandardOutput.bufferBulkOutput()
        do {
            // Paths are bytes: arguments that are not UTF-8 are kept (PathBytes), not replaced.
            var command = try parseAsRoot(PathBytes.arguments())
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

    @Flag(help: "Treat any anomaly as an error (exit 68) instead of reading past it.")
    var strict = false

    init() {}

    init(file: String, strict: Bool = false) {
        self.file = file
        self.strict = strict
    }
}

/// The exit codes of both tools (`ToolExitCode`), as ArgumentParser takes them.
enum ExitStatus {
    static let findings = ExitCode(ToolExitCode.findings.rawValue)
    static let malformed = ExitCode(ToolExitCode.malformed.rawValue)
    static let noSuchAtom = ExitCode(ToolExitCode.badInput.rawValue)
    static let noTerminal = ExitCode(ToolExitCode.unavailable.rawValue)
    static let ioError = ExitCode(ToolExitCode.ioError.rawValue)

    /// An output that cannot be written: 73 when the file system refused it (permission, a
    /// read-only or linked target), 74 otherwise.
    static func code(for error: FileWriteError) -> ExitCode {
        ExitCode(error.isPermissionProblem || error.errorNumber == EEXIST ? ToolExitCode.permissionDenied.rawValue : ToolExitCode.ioError.rawValue)
    }

    static func code(for failure: InspectionFailure) -> ExitCode {
        let code: ToolExitCode = switch failure.kind {
        case .notFound: .notFound
        case .permissionDenied: .permissionDenied
        case .unreadable: .ioError
        case .unsupported: .unsupportedFormat
        case .malformed: .malformed
        }
        return ExitCode(code.rawValue)
    }
}

/// Opens a file, or prints why not on standard error and exits with the matching code.
func open(_ options: FileOptions, fieldOptions: AtomFieldOptions = .default) -> FileInspection {
    do {
        return try FileInspection.open(options.file, strict: options.strict, fieldOptions: fieldOptions)
    } catch {
        fail(error.message, path: nil, code: ExitStatus.code(for: error))
    }
}

/// Finds the node at `text` or exits (64 for a malformed path, 65 when nothing is there).
func requireNode(_ text: String, in file: FileInspection) -> InspectionNode {
    guard InspectionPath.parse(text) != nil else {
        fail("'\(text)' is not a path (write it like moov/trak[1]/mdia/hdlr or ID3v2/TXXX[1])", path: nil, code: ExitCode.validationFailure)
    }
    guard let node = file.node(at: text) else {
        fail("no atom, chunk, tag or frame at path '\(text)'", path: file.path, code: ExitStatus.noSuchAtom)
    }
    return node
}

/// `print` for this tool: a path's bytes that are not UTF-8 shown as `\xHH`
/// (`StandardOutput.print`). An unqualified `print` in this module is this one.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    StandardOutput.print(items.map { "\($0)" }.joined(separator: separator), terminator: terminator)
}

/// `--output` naming a folder or the input file is a usage error (64), found before the input
/// is read (`writing`: what would destroy the input, for the message).
func refuseOutput(_ output: String, input: String, writing: String) {
    if output != "-", MediaFileList.isDirectory(output) {
        fail("--output names a folder; name a file in it", path: output, code: ExitCode.validationFailure)
    }
    if FileByteSink.isSameFile(output, input) {
        fail("--output names the input file; \(writing) would destroy it", path: output, code: ExitCode.validationFailure)
    }
}

func fail(_ message: String, path: String?, code: ExitCode) -> Never {
    StandardError.write("atominspect: " + (path.map { "\($0.escapingControls): " } ?? "") + message.escapingControls + "\n")
    AtomInspect.exit(withError: code)
}
