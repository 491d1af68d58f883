import ArgumentParser
import MediaToolSupport

extension AtomInspect {
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate structure: sizes, chunk offsets, sample tables, one moov; tags and chunks of MP3, AAC, AIFF, WAV.",
            discussion: "Prints 'FILE: ok' or the findings, one per line. Exit 0 when every file is sound, 1 otherwise."
        )

        @Argument(help: "The media files.")
        var files: [String]

        func validate() throws {
            if files.isEmpty { throw ValidationError("name at least one file") }
        }

        func run() throws {
            var worst: Int32 = 0
            for path in files {
                let file: FileInspection
                do {
                    file = try FileInspection.open(path)
                } catch {
                    StandardError.write("atominspect: \(error.message)\n")
                    worst = max(worst, ExitStatus.code(for: error).rawValue)
                    continue
                }
                let findings = file.findings()
                if findings.isEmpty {
                    print("\(path): ok")
                } else {
                    print("\(path): \(findings.count) problem\(findings.count == 1 ? "" : "s")")
                    for finding in findings { print("  " + finding.line) }
                    worst = max(worst, ExitStatus.findings.rawValue)
                }
            }
            if worst != 0 { throw ExitCode(worst) }
        }
    }
}
