import ArgumentParser
import ISOBMFF
import MediaToolSupport

extension AtomInspect {
    struct Hex: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Hex-dump one atom, header included."
        )

        @OptionGroup var options: FileOptions

        @Option(help: "The atom to dump, like moov/udta/meta/ilst/©nam.")
        var path: String

        @Option(help: "Dump at most this many bytes; 0 dumps all.")
        var limit: Int = 4096

        func validate() throws {
            if limit < 0 { throw ValidationError("--limit must not be negative") }
        }

        func run() throws {
            let tree = loadTree(options.file, strict: options.strict)
            let (atom, _) = requireAtom(path, in: tree, file: options.file)
            let count = limit == 0 ? atom.size : min(atom.size, UInt64(limit))
            var offset = atom.offset
            let end = atom.offset + count
            while offset < end {
                let piece = Int(min(end - offset, 1 << 16))
                let bytes: ArraySlice<UInt8>
                do { bytes = try tree.bytes(at: offset, count: piece) } catch {
                    fail(error.description, path: options.file, code: ExitStatus.unreadable)
                }
                for line in HexDump.lines(bytes, startingAt: offset) { print(line) }
                offset += UInt64(piece)
            }
            if count < atom.size {
                print("... \(atom.size - count) more bytes (use --limit 0 for all)")
            }
        }
    }
}
