import ArgumentParser
import InspectionBrowser
import MediaToolSupport

extension AtomInspect {
    struct Browse: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "browse",
            abstract: "Browse a file in the terminal: the tree, the selected node's fields and its bytes side by side.",
            discussion: """
                Needs a terminal on standard input and output (use 'atominspect tree' in scripts). \
                Press ? inside for the keys.
                """
        )

        @OptionGroup var options: FileOptions

        @Argument(help: "A second file to compare with: ] and [ step through the differences.")
        var other: String?

        func run() throws {
            guard Terminal.isInteractive else {
                fail("browse needs a terminal on standard input and output; use 'atominspect tree \(options.file)' instead",
                     path: nil, code: ExitStatus.noTerminal)
            }
            let file = open(options)
            let (width, height) = Terminal.size()
            let strict = options.strict
            let second = other.map { open(FileOptions(file: $0, strict: strict)) }
            var browser = Browser(file: file, comparedTo: second, width: width, height: height, useColor: Terminal.allowsColor)
            let options = self.options
            Terminal.run(&browser) {
                Result { () throws(InspectionFailure) in try FileInspection.open(options.file, strict: options.strict) }.mapError { $0 as any Error }
            }
        }
    }
}
