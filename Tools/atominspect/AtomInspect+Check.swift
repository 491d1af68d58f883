import ArgumentParser
import ISOBMFF
import MediaToolSupport

extension AtomInspect {
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate structure: sizes, chunk offsets, sample tables, one moov.",
            discussion: "Prints 'FILE: ok' or the findings, one per line. Exit 0 when every file is sound, 1 otherwise."
        )

        @Argument(help: "The media files.")
        var files: [String]

        func validate() throws {
            if files.isEmpty { throw ValidationError("name at least one file") }
        }

        func run() throws {
            var worst: Int32 = 0
            for file in files {
                let tree: AtomTree
                switch openTree(file, strict: false) {
                case .success(let opened):
                    tree = opened
                case .failure(let failure):
                    StandardError.write("atominspect: \(failure.message)\n")
                    worst = max(worst, failure.code.rawValue)
                    continue
                }
                let findings = AtomStructureCheck.findings(in: tree).filter { $0.severity >= .warning }
                if findings.isEmpty {
                    print("\(file): ok")
                } else {
                    print("\(file): \(findings.count) problem\(findings.count == 1 ? "" : "s")")
                    for finding in findings { print("  " + AtomTreeRendering.line(finding)) }
                    worst = max(worst, ExitStatus.findings.rawValue)
                }
            }
            if worst != 0 { throw ExitCode(worst) }
        }
    }
}
