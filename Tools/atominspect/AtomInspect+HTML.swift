import ArgumentParser
import MediaBytes
import MediaToolSupport

extension AtomInspect {
    struct HTML: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "html",
            abstract: "Write one self-contained HTML page of the file's structure: tree, fields, search, and the bytes of every node but media payloads."
        )

        @OptionGroup var options: FileOptions

        @Option(name: [.short, .long], help: "The page to write ('-' for standard output).")
        var output: String

        func run() throws {
            refuseOutput(output, input: options.file, writing: "writing the page")
            let file = open(options)
            let page = InspectionHTML.page(file, title: options.file)
            do {
                try FileReplacement.create(output, bytes: Array(page.utf8))
            } catch let error as FileWriteError {
                fail(error.reason, path: output, code: ExitStatus.code(for: error))
            } catch {
                fail("\(error)", path: output, code: ExitStatus.ioError)
            }
        }
    }
}
