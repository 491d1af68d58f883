import ArgumentParser
import MediaToolSupport

extension AtomInspect {
    struct Tree: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tree",
            abstract: "Print the structure: one line per atom, chunk, tag or frame, or one JSON document."
        )

        @OptionGroup var options: FileOptions

        @Flag(help: "Print one JSON document instead of text.")
        var json = false

        @Option(help: "Show only the subtree at this path, like moov/trak[1]/mdia or ID3v2/APIC[1].")
        var path: String?

        @Option(help: "Show at most this many levels (1 = the top level only).")
        var depth: Int?

        @Flag(help: "List every table entry (sample sizes, chunk offsets...) instead of the first 32.")
        var allEntries = false

        func validate() throws {
            if let depth, depth < 1 { throw ValidationError("--depth must be at least 1") }
        }

        func run() throws {
            let file = open(options, fieldOptions: allEntries ? .complete : .default)
            var nodes = file.nodes
            if let path { nodes = [requireNode(path, in: file)] }
            if json {
                InspectionRendering.writeJSON(
                    path: options.file, format: file.formatName, fileSize: file.source.size, nodes: nodes, maxDepth: depth,
                    diagnostics: file.diagnostics, bytes: StandardOutput.write)
            } else {
                var diagnostics = file.diagnostics
                InspectionRendering.writeText(nodes, maxDepth: depth, diagnostics: &diagnostics) { print($0, terminator: "") }
                if file.trailingBytes > 0 && path == nil {
                    print("(\(file.trailingBytes) bytes at the end form no atom)")
                }
                for diagnostic in diagnostics {
                    StandardError.write("atominspect: \(options.file): " + diagnostic.description + "\n")
                }
            }
        }
    }
}
