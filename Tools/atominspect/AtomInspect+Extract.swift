import ArgumentParser
import ISOBMFF
import MediaBytes
import MediaToolSupport

extension AtomInspect {
    struct Extract: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write one atom's bytes (header included) to a file."
        )

        @OptionGroup var options: FileOptions

        @Option(help: "The atom to extract, like moov/udta.")
        var path: String

        @Option(name: [.short, .long], help: "The file to write ('-' for standard output).")
        var output: String

        @Flag(help: "Write the payload only, without the atom header.")
        var payloadOnly = false

        func run() throws {
            let tree = loadTree(options.file, strict: options.strict)
            let (atom, _) = requireAtom(path, in: tree, file: options.file)
            if FileSink.isSameFile(output, options.file) {
                fail("--output names the input file; extracting would destroy it", path: output, code: ExitCode.validationFailure)
            }
            let start = payloadOnly ? atom.payloadOffset : atom.offset
            do {
                var sink = try FileSink(path: output)
                try tree.source.copy(from: start, count: atom.endOffset - start, to: &sink)
                try sink.close()
            } catch let error as FileSink.Failure {
                fail(error.message, path: output, code: ExitStatus.unreadable)
            } catch {
                fail("\(error)", path: options.file, code: ExitStatus.unreadable)
            }
        }
    }
}
