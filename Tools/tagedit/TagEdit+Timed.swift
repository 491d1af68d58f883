import ArgumentParser
import MediaMetadata
import MediaToolSupport

extension TagEdit {
    struct Timed: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "timed",
            abstract: "List timed metadata in time order: ID3 in transport streams and emsg boxes, QuickTime metadata tracks, packed-audio tags.",
            discussion: """
                Times are seconds: a TS packet's PTS (as ffprobe's pts_time), an emsg's \
                presentation time on the segment's timeline, a track sample's time through the \
                edit list, a packed-audio segment's transport stream timestamp. Identifiers and \
                values read as in `show --native`.
                """)
        @Argument(help: "Files (.ts, .m4s, .mp4, .mov, .aac, .mp3...; directories with --recursive).") var files: [String]
        @Flag(help: "Print a JSON array: {\"path\", \"format\", \"events\": [{\"time\", \"duration\", \"source\", \"identifier\", \"key\", \"value\", \"offset\"}], \"diagnostics\"} per file.")
        var json = false
        @Option(help: "Only events at or after this time (seconds).") var from: Double?
        @Option(help: "Only events at or before this time (seconds).") var to: Double?
        @OptionGroup var walking: Walking
        var recursive: Bool { walking.recursive }
        @OptionGroup var reading: ReadingJobs
        var jobs: Int? { reading.jobs }

        /// What a walk picks up: media files, transport streams, and fragmented MP4 segments.
        static let extensions = MediaFileList.mediaExtensions.union(MediaFormat.extensions { $0.structure == .transportStream })
            .union(["m4s", "cmfa", "cmfv", "cmfm"])

        func run() throws {
            let paths = MediaFileList.expand(files, recursive: recursive, extensions: Self.extensions)
            let (json, from, to) = (self.json, self.from, self.to)
            try FileRun.forEach(paths, json: json, jobs: jobs) { path in
                do throws(MetadataError) {
                    let report = try TimedMetadata.read(path: path)
                    let warnings = report.diagnostics.filter(\.isProblem).map { diagnostic in
                        "\(path): \(diagnostic.severity): at byte offset \(diagnostic.offset) (\(diagnostic.place)): \(diagnostic.message)"
                    }
                    return (warnings, .success(json ? .json([TimedReport.json(report, from: from, to: to)]) : .text(TimedReport.text(report, from: from, to: to))))
                } catch {
                    return ([], .failure(error))
                }
            }
        }
    }
}
