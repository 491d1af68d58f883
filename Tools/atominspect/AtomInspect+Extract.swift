import ArgumentParser
import MediaBytes
import MediaToolSupport

extension AtomInspect {
    struct Extract: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "extract",
            abstract: "Write the bytes of one atom, chunk, tag or frame (header included) to a file."
        )

        @OptionGroup var options: FileOptions

        @Option(help: "What to extract, like moov/udta or ID3v2/APIC.")
        var path: String

        @Option(name: [.short, .long], help: "The file to write ('-' for standard output).")
        var output: String

        @Flag(help: "Write the payload only, without the header; for an item-list 'data' atom, only its value (a cover becomes the image file).")
        var payloadOnly = false

        func run() throws {
            refuseOutput(output, input: options.file, writing: "extracting")
            let file = open(options)
            let node = requireNode(path, in: file)
            var header = payloadOnly ? UInt64(min(node.headerSize, Int(node.size))) : 0
            // An iTunes item's `data` atom: a type indicator and a locale come before the value.
            if payloadOnly && node.type == "data" && node.path.contains("/ilst/") {
                header = min(header + 8, node.size)
            }
            do {
                try FileReplacement.create(output, copying: node.size - header, from: file.source, at: node.offset + header)
            } catch let error as FileWriteError {
                fail(error.reason, path: output, code: ExitStatus.code(for: error))
            } catch {
                fail("\(error)", path: options.file, code: ExitStatus.ioError)
            }
        }
    }
}
