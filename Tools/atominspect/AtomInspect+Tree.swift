import ArgumentParser
import ISOBMFF
import MediaMetadata
import MediaToolSupport

extension AtomInspect {
    struct Tree: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tree",
            abstract: "Print the atom tree: one line per atom, or one JSON document."
        )

        @OptionGroup var options: FileOptions

        @Flag(help: "Print one JSON document instead of text.")
        var json = false

        @Option(help: "Show only the subtree at this path, like moov/trak[1]/mdia.")
        var path: String?

        @Option(help: "Show at most this many levels (1 = the top level only).")
        var depth: Int?

        @Flag(help: "List every table entry (sample sizes, chunk offsets...) instead of the first 32.")
        var allEntries = false

        func validate() throws {
            if let depth, depth < 1 { throw ValidationError("--depth must be at least 1") }
        }

        func run() throws {
            let tree = loadTree(options.file, strict: options.strict)
            var root: AtomPath?
            if let path { root = requireAtom(path, in: tree, file: options.file).1 }
            let inspector = AtomInspector(tree: tree, options: allEntries ? .complete : .default)
            let (atoms, decodeDiagnostics) = inspector.inspect(root: root, maxDepth: depth)
            let diagnostics = tree.diagnostics + decodeDiagnostics
            if json {
                let document = AtomTreeRendering.json(
                    path: options.file, format: MediaFormat.detect(tree.source), fileSize: tree.fileSize,
                    atoms: atoms, diagnostics: diagnostics)
                print(document.serialized())
            } else {
                print(AtomTreeRendering.text(atoms), terminator: "")
                if tree.trailingSize > 0 && root == nil {
                    print("(\(tree.trailingSize) bytes at the end form no atom)")
                }
                for diagnostic in diagnostics {
                    StandardError.write("atominspect: \(options.file): " + AtomTreeRendering.line(diagnostic) + "\n")
                }
            }
        }
    }
}
