import ArgumentParser
import ISOBMFF
import MediaMetadata
import MediaToolSupport

extension AtomInspect {
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Validate structure: sizes, chunk offsets, sample tables, one moov; tags and chunks of \(MediaFormat.names { $0.structure != .atoms }); with --profile, what a kind of player needs.",
            discussion: """
                Prints 'FILE: ok' or the findings, one per line, and with several files a summary on standard error. Exit 0 when every \
                file is sound, 1 when one has findings, 66-74 when one cannot be read (the worst code wins).

                --profile adds the rules of a kind of player or delivery to an ISO-BMFF file's check: apple (QuickTime, Music, Apple \
                devices), web (browsers), hls (HTTP Live Streaming fMP4), cmaf (CMAF tracks), heif (HEIF/AVIF images), or all. Each \
                finding names its rule in brackets, why it matters to a player and the specification it comes from; --list-rules \
                prints every rule.
                """
        )

        @Argument(help: "The media files (folders with --recursive).")
        var files: [String] = []

        @Flag(name: .shortAndLong, help: "Walk folders: check every media file under them.")
        var recursive = false

        @Flag(help: "Print only the files with findings or errors.")
        var quiet = false

        @Option(help: "Files checked at once (default: the number of processors); the output is a serial run's.")
        var jobs: Int?

        @Option(name: .long, help: ArgumentHelp("Also hold ISO-BMFF files to a profile's rules (repeatable).", valueName: "apple|web|hls|cmaf|heif|all"))
        var profile: [String] = []

        @Flag(help: "Print the rules of the profiles (of every profile without --profile) and exit.")
        var listRules = false

        /// The profiles asked for, `all` standing for every one.
        var profiles: [ConformanceProfile] {
            profile.contains("all") ? ConformanceProfile.allCases : profile.compactMap(ConformanceProfile.init(rawValue:))
        }

        func validate() throws {
            for name in profile where name != "all" && ConformanceProfile(rawValue: name) == nil {
                throw ValidationError("unknown profile '\(name)'; the profiles are " + (ConformanceProfile.allCases.map(\.rawValue) + ["all"]).joined(separator: ", "))
            }
            if listRules { return }
            if files.isEmpty { throw ValidationError("name at least one file") }
            if let jobs, jobs < 1 { throw ValidationError("--jobs is at least 1") }
        }

        /// What checking one file came to.
        enum Outcome: Sendable {
            case unreadable(message: String, status: Int32)
            case checked(findings: [String])
        }

        func run() throws {
            if listRules {
                for rule in ConformanceRule.rules(of: profile.isEmpty ? ConformanceProfile.allCases : profiles) {
                    print("\(rule.id) (\(rule.severity.rawValue); \(rule.profiles.map(\.rawValue).joined(separator: ", ")))")
                    print("  \(rule.why).")
                    print("  Source: \(rule.source).")
                }
                return
            }
            let profiles = self.profiles
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
                return .checked(findings: file.findings(profiles: profiles).map(\.description))
            }, emit: { index, outcome in
                let path = paths[index]
                switch outcome {
                case .unreadable(let message, let status):
                    // One line each, whatever a name or a finding holds (`TerminalText`).
                    StandardError.write("atominspect: \(message.escapingControls)\n")
                    worst = max(worst, status)
                    counts.unreadable += 1
                case .checked(let findings) where findings.isEmpty:
                    counts.ok += 1
                    if !quiet { print("\(path.escapingControls): ok") }
                case .checked(let findings):
                    counts.problems += 1
                    print("\(path.escapingControls): \(findings.count) problem\(findings.count == 1 ? "" : "s")")
                    for finding in findings { print("  " + finding.escapingControls) }
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
