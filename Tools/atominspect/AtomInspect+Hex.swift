import ArgumentParser
import MediaToolSupport

extension AtomInspect {
    struct Hex: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "hex",
            abstract: "Hex-dump one atom, chunk, tag or frame, header included."
        )

        @OptionGroup var options: FileOptions

        @Option(help: "What to dump, like moov/udta/meta/ilst/©nam or ID3v2/TIT2.")
        var path: String

        @Option(help: "Dump at most this many bytes; 0 dumps all.")
        var limit: Int = 4096

        func validate() throws {
            if limit < 0 { throw ValidationError("--limit must not be negative") }
        }

        func run() throws {
            let file = open(options)
            let node = requireNode(path, in: file)
            let count = limit == 0 ? node.size : min(node.size, UInt64(limit))
            var offset = node.offset
            let end = node.offset + count
            while offset < end {
                let piece = Int(min(end - offset, 1 << 16))
                let bytes: [UInt8]
                do { bytes = try file.source.read(at: offset, count: piece) } catch {
                    fail(error.description, path: options.file, code: ExitStatus.ioError)
                }
                for line in HexDump.lines(bytes, startingAt: offset) { print(line) }
                offset += UInt64(piece)
            }
            if count < node.size {
                print("... \(node.size - count) more bytes (use --limit 0 for all)")
            }
        }
    }
}
