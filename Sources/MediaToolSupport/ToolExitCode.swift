/// The exit codes of both tools, from this one table: the same failure gives the same number
/// from `atominspect` and `tagedit` (the BSD `sysexits.h` numbers where one fits), and both
/// `--help`s, the man pages and the README print this table.
public enum ToolExitCode: Int32, CaseIterable, Sendable {
    case success = 0
    /// `get` found no value, `check` found problems, `diff` found differences.
    case findings = 1
    /// A bad option or argument.
    case usage = 64
    /// Input the command cannot use: an unknown key, a bad value, a key the format cannot
    /// hold, a name `from-name` cannot match, a `--path` that names nothing.
    case badInput = 65
    /// A file that does not exist.
    case notFound = 66
    /// A file of a format the tools do not read, or a folder without `-r`.
    case unsupportedFormat = 67
    /// A damaged file: unreadable, refused for writing because not fully understood, or
    /// (`atominspect --strict`) any anomaly.
    case malformed = 68
    /// `browse` without a terminal on standard input and output.
    case unavailable = 69
    /// A read-only file or folder, no permission, or a target that exists (and is not replaced).
    case permissionDenied = 73
    /// An I/O error, or a written file that failed verification (the original was kept).
    case ioError = 74
    /// Another program is editing the file (it holds the file's lock); try again.
    case locked = 75

    /// The meaning, as the tables print it.
    public var meaning: String {
        switch self {
        case .success: "success (`check`: every file is sound)"
        case .findings: "`get` found no value; `check` found problems; `diff` found differences"
        case .usage: "usage error (a bad option or argument; `--output` with several files, or naming the input or a folder)"
        case .badInput: "unknown key, bad value (`TRACKNUMBER=abc`), a key the format cannot hold, a name `from-name` cannot match, a `--path` that names nothing"
        case .notFound: "file not found"
        case .unsupportedFormat: "unsupported format (not one the tools read, or a form of it they do not write), or a folder without `-r`"
        case .malformed: "damaged file: unreadable, refused for writing because not fully understood, or any anomaly with `atominspect --strict`"
        case .unavailable: "`browse` without a terminal on standard input and output"
        case .permissionDenied: "read-only file or folder, or no permission; a target that exists and is not replaced (`rename`, `picture extract`, `--output`)"
        case .ioError: "I/O error, or the written file failed verification (the original was kept)"
        case .locked: "another program is editing the file (it holds the file's lock); try again"
        }
    }

    /// The table as one paragraph, for `--help`: `0 success; 1 ...; 64 ...`.
    public static var helpText: String {
        "Exit codes (the same in atominspect and tagedit): "
            + allCases.map { "\($0.rawValue) \($0.meaning.replacingOccurrences(of: "`", with: ""))" }.joined(separator: "; ")
            + ". With several files the code is the worst met (tagedit: the first failure's), after every file was processed."
    }

    /// The table in Markdown, as the README and the DocC catalog give it.
    public static var markdownTable: String {
        "| code | meaning |\n|---:|---|\n" + allCases.map { "| \($0.rawValue) | \($0.meaning) |" }.joined(separator: "\n") + "\n"
    }
}

private extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
