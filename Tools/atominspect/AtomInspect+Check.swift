import ArgumentParser
import MediaToolSupport

extension AtomInspect {
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Validate structure: sizes, chunk offsets, sample tables, one moov; tags and chunks of MP3, AAC, AIFF, WAV.",
            discussion: "Prints 'FILE: ok' or the findings, one per line, and with several files a summary on standard error. Exit 0 when every file is sound, 1 when one has findings, 2-4 when one cannot be read (the worst code wins)."
        )

        @Argument(help: "The media files (folders with --recursive).")
        var files: [String]

        @Flag(name: .shortAndLong, help: "Walk folders: check every media file under them.")
        var recursive = false

        @Flag(help: "Print only the files with findings or errors.")
        var quiet = false

        func validate() throws {
            if files.isEmpty { throw ValidationError("name at least one file") }
        }

        func run() throws {
            var worst: Int32 = 0
            var counts = (ok: 0, problems: 0, unreadable: 0)
            let paths = MediaFileList.expand(files, recursive: recursive, extensions: MediaFileList.inspectableExtensions)
            for path in paths {
                if !recursive, MediaFileList.isDirectory(path) {
                    StandardError.write("atominspect: \(path): is a directory; add -r (--recursive) to check the media files in it\n")
                    worst = max(worst, ExitStatus.unreadable.rawValue)
                    counts.unreadable += 1
                    continue
                }
                let file: FileInspection
                do {
                    file = try FileInspection.open(path)
                } catch {
                    StandardError.write("atominspect: \(error.message)\n")
                    worst = max(worst, ExitStatus.code(for: error).rawValue)
                    counts.unreadable += 1
                    continue
                }
                let findings = file.findings()
                if findings.isEmpty {
                    counts.ok += 1
                    if !quiet { print("\(path): ok") }
                } else {
                    counts.problems += 1
                    print("\(path): \(findings.count) problem\(findings.count == 1 ? "" : "s")")
                    for finding in findings { print("  " + finding.line) }
                    worst = max(worst, ExitStatus.findings.rawValue)
                }
            }
            if paths.count > 1 || recursive {
                StandardError.write("\(paths.count) \(paths.count == 1 ? "file" : "files") checked: \(counts.ok) sound, \(counts.problems) with problems, \(counts.unreadable) unreadable\n")
            }
            if worst != 0 { throw ExitCode(worst) }
        }
    }
}
