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
            let file = open(options)
            if output != "-", MediaFileList.isDirectory(output) {
                fail("--output names a folder; name a file in it", path: output, code: ExitCode.validationFailure)
            }
            if FileByteSink.isSameFile(output, options.file) {
                fail("--output names the input file; writing the page would destroy it", path: output, code: ExitCode.validationFailure)
            }
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
