import ArgumentParser
import MediaToolSupport

extension AtomInspect {
    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "diff",
            abstract: "Compare the structure of two files: atoms, chunks, tags and frames added, removed, resized or moved, and decoded fields that differ.",
            discussion: "Exit 0 when the files are the same, 1 when they differ, 2-4 when one cannot be read (as elsewhere)."
        )

        @Argument(help: "The first file (before).")
        var first: String

        @Argument(help: "The second file (after).")
        var second: String

        @Flag(help: "Print one JSON document instead of text.")
        var json = false

        @Flag(help: "Compare structure and metadata only: media payloads (mdat, MP3 and ADTS frames) of the same size are taken as the same, not read.")
        var structureOnly = false

        func run() throws {
            let a = open(FileOptions(file: first))
            let b = open(FileOptions(file: second))
            let diff = InspectionDiff(a, b, structureOnly: structureOnly)
            let uncompared = diff.uncomparedMedia.nodes == 0 ? "" :
                " (media data not compared: \(diff.uncomparedMedia.bytes) bytes in \(diff.uncomparedMedia.nodes) node\(diff.uncomparedMedia.nodes == 1 ? "" : "s"))"
            if json {
                print(diff.json(a: first, b: second).serialized())
            } else if diff.isEmpty {
                print(structureOnly ? "\(first) and \(second) have the same structure and metadata" + uncompared : "\(first) and \(second) have the same structure and bytes")
            } else {
                for line in diff.lines { print(line) }
                let moved = diff.movedMedia
                var summary = "\(diff.changes.count) difference\(diff.changes.count == 1 ? "" : "s")"
                if !moved.isEmpty {
                    let bytes = moved.reduce(UInt64(0)) { $0 + ($1.before?.size ?? 0) }
                    summary += "; media data byte-identical: \(bytes) bytes in \(moved.count) atom\(moved.count == 1 ? "" : "s"), moved"
                }
                if diff.shiftedInside > 0 {
                    summary += "; \(diff.shiftedInside) unchanged node\(diff.shiftedInside == 1 ? "" : "s") inside changed ones shifted with them"
                }
                print(summary + uncompared)
            }
            if !diff.isEmpty { throw ExitStatus.findings }
        }
    }
}
