import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MediaToolSupport

extension AtomInspect {
    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "diff",
            abstract: "Compare the structure of two files: atoms, chunks, tags and frames added, removed, resized or moved, and decoded fields that differ.",
            discussion: "Exit 0 when the files are the same, 1 when they differ, 66-74 when one cannot be read (as elsewhere). On a terminal, the comparison of large payloads shows its progress on standard error."
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
            let progress = DiffProgress(total: max(a.source.size, b.source.size))
            let diff = InspectionDiff(a, b, structureOnly: structureOnly, progress: progress.map { shown in { shown.report($0) } })
            progress?.finish()
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

/// The bytes a long comparison has read, on one line of standard error rewritten in place, when
/// standard error is a terminal and the comparison has run half a second (a pipe or a log gets
/// nothing).
final class DiffProgress {
    let total: UInt64
    let started = ContinuousClock.now
    var shown = false
    var lastShown = ContinuousClock.now

    init?(total: UInt64) {
        guard isatty(2) == 1, total >= InspectionDiff.progressStep else { return nil }
        self.total = total
    }

    func report(_ compared: UInt64) {
        let now = ContinuousClock.now
        guard now - started > .milliseconds(500), !shown || now - lastShown > .milliseconds(200) else { return }
        shown = true
        lastShown = now
        let percent = min(100, compared * 100 / max(total, 1))
        StandardError.write("\rcomparing bytes: \(Self.gibibytes(compared)) of \(Self.gibibytes(total)) GiB (\(percent)%)")
    }

    func finish() {
        if shown { StandardError.write("\r\u{1B}[K") }
    }

    static func gibibytes(_ bytes: UInt64) -> String {
        let tenths = bytes * 10 / (1 << 30)
        return "\(tenths / 10).\(tenths % 10)"
    }
}
