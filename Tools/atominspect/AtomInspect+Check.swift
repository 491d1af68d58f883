import ArgumentParser
import MediaMetadata
import MediaToolSupport

extension AtomInspect {
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Validate structure: sizes, chunk offsets, sample tables, one moov; tags and chunks of \(MediaFormat.names { $0.structure != .atoms }).",
            discussion: "Prints 'FILE: ok' or the findings, one per line, and with several files a summary on standard error. Exit 0 when every file is sound, 1 when one has findings, 2-4 when one cannot be read (the worst code wins)."
        )

        @Argument(help: "The media files (folders with --recursive).")
        var files: [String]

        @Flag(name: .shortAndLong, help: "Walk folders: check every media file under them.")
        var recursive = false

        @Flag(help: "Print only the files with findings or errors.")
        var quiet = false

        @Option(help: "Files checked at once (default: the number of processors); the output is a serial run's.")
        var jobs: Int?

        func validate() throws {
            if files.isEmpty { throw ValidationError("name at least one file") }
            if let jobs, jobs < 1 { throw ValidationError("--jobs is at least 1") }
        }

        /// What checking one file came to.
        enum Outcome: Sendable {
            case unreadable(message: String, status: Int32)
            case checked(findings: [String])
        }

        func run() throws {
            var worst: Int32 = 0
            var counts = (ok: 0, problems: 0, unreadable: 0)
            let paths = MediaFileList.expand(files, recursive: recursive, extensions: MediaFileList.inspectableExtensions)
            let recursive = self.recursive
            OrderedParallel.run(count: paths.count, jobs: jobs, work: { index -> Outcome in
                let path = paths[index]
                if !recursive, MediaFileList.isDirectory(path) {
                    return .unreadable(message: "\(path): is a directory; add -r (--recursive) to check the media files in it", status: ToolExitCode.unsupportedFormat.rawValue)
                }
                let file: FileInspection
                do throws(InspectionFailure) {
                    file = try FileInspection.open(path)
                } catch {
                    return .unreadable(message: error.message, status: ExitStatus.code(for: error).rawValue)
                }
                return .checked(findings: file.findings().map(\.description))
            }, emit: { index, outcome in
                let path = paths[index]
                switch outcome {
                case .unreadable(let message, let status):
                    StandardError.write("atominspect: \(message)\n")
                    worst = max(worst, status)
                    counts.unreadable += 1
                case .checked(let findings) where findings.isEmpty:
                    counts.ok += 1
                    if !quiet { print("\(path): ok") }
                case .checked(let findings):
                    counts.problems += 1
                    print("\(path): \(findings.count) problem\(findings.count == 1 ? "" : "s")")
                    for finding in findings { print("  " + finding) }
                    worst = max(worst, ExitStatus.findings.rawValue)
                }
            })
            if paths.count > 1 || recursive {
                StandardError.write("\(paths.count) \(paths.count == 1 ? "file" : "files") checked: \(counts.ok) sound, \(counts.problems) with problems, \(counts.unreadable) unreadable\n")
            }
            if worst != 0 { throw ExitCode(worst) }
        }
    }
}
