import ArgumentParser
import MediaToolSupport
import ISOBMFF

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

        @Flag(help: "With --json: each node's payloadRange and the file bytes of each field that has its own (fieldRanges: name -> [start, end)).")
        var ranges = false

        @Option(help: ArgumentHelp("List at most this many nodes (0: every node).",
                                   discussion: "The siblings left out are shown as one '…' line (a node of type '…' in JSON) with their count, and a listingCut note says where the listing stopped."))
        var maxNodes = ListingBudget.defaultLimit

        func validate() throws {
            if let depth, depth < 1 { throw ValidationError("--depth must be at least 1") }
            if maxNodes < 0 { throw ValidationError("--max-nodes must be 0 or more") }
            if ranges && !json { throw ValidationError("--ranges goes with --json") }
        }

        func run() throws {
            let file = open(options, fieldOptions: allEntries ? .complete : .default)
            var nodes = file.nodes
            if let path { nodes = [requireNode(path, in: file)] }
            if json {
                InspectionRendering.writeJSON(
                    path: options.file, format: file.formatName, fileSize: file.source.size, nodes: nodes, maxDepth: depth,
                    maxNodes: maxNodes == 0 ? nil : maxNodes, fieldRanges: ranges, diagnostics: file.diagnostics, bytes: StandardOutput.write)
            } else {
                var diagnostics = file.diagnostics
                InspectionRendering.writeText(nodes, maxDepth: depth, maxNodes: maxNodes == 0 ? nil : maxNodes, diagnostics: &diagnostics,
                                              bytes: StandardOutput.write)
                if file.trailingBytes > 0 && path == nil {
                    // Past the atom limit the rest is not read, not found to be no atom.
                    let limited = file.diagnostics.contains { $0.has(AtomError.Code.atomCountLimit) }
                    print(limited ? "(\(file.trailingBytes) bytes at the end not read: past the limit on atoms)"
                                  : "(\(file.trailingBytes) bytes at the end form no atom)")
                }
                for diagnostic in diagnostics {
                    StandardError.write("atominspect: \(options.file.escapingControls): " + diagnostic.description.escapingControls + "\n")
                }
            }
        }
    }
}
