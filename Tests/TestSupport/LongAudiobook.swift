import Foundation

/// Real audiobooks made by ffmpeg, too large to commit: two hours of AAC (a ten-second piece
/// encoded once, repeated by stream copy), 40 chapters of three minutes in both forms ffmpeg's
/// `ipod` muxer writes (a QuickTime chapter track and Nero `chpl`), and a title. Their `moov`
/// is about 1.26 MB, over the 1 MiB that the atom parser reads whole, so their sample tables
/// are read from the file when something needs them: the path most real audiobooks and long
/// movies take, and that no committed fixture does.
///
/// Each layout is made once per test process (about two seconds) into the temporary folder;
/// tests copy it (`copy(_:)`) before writing. ffmpeg is Debian's, which `.ci/run` installs.
public enum LongAudiobook: String, CaseIterable, Sendable, CustomStringConvertible {
    /// `ftyp`, `mdat`, then `moov`: ffmpeg's default layout.
    case movieLast = "long-moov-last.m4b"
    /// `moov` before `mdat` (`-movflags +faststart`).
    case movieFirst = "long-moov-first.m4b"
    /// `moov` last and no chapters at all (`-map_chapters -1`).
    case withoutChapters = "long-no-chapters.m4b"

    public var description: String { rawValue }

    /// The number of chapters of `movieLast` and `movieFirst`, each `chapterSeconds` long.
    public static let chapterCount = 40
    public static let chapterSeconds = 180
    public static let title = "A Long Book"
    public static var chapterTitles: [String] { (1...chapterCount).map { "Chapter \($0)" } }

    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: OtherReaders.ffmpeg) }

    /// The audiobook in this layout, made on first use; throws where ffmpeg is missing (or failed:
    /// the error says why).
    public var path: String {
        get throws {
            let made = Self.made
            if let path = made.paths[self] { return path }
            throw OtherReaders.ReaderFailure(reader: "ffmpeg", message: made.failure ?? "not made")
        }
    }

    /// A fresh copy to write to.
    public func copy() throws -> String {
        let copy = try TemporaryFile.makeDirectory() + "/" + rawValue
        try FileManager.default.copyItem(atPath: try path, toPath: copy)
        return copy
    }

    private static let made: (paths: [LongAudiobook: String], failure: String?) = {
        do {
            let directory = try TemporaryFile.makeDirectory()
            var lines = [";FFMETADATA1", "title=\(title)"]
            for index in 0..<chapterCount {
                lines += ["[CHAPTER]", "TIMEBASE=1/1000", "START=\(index * chapterSeconds * 1000)",
                          "END=\((index + 1) * chapterSeconds * 1000)", "title=Chapter \(index + 1)"]
            }
            let metadata = directory + "/chapters.ffmeta"
            try (lines.joined(separator: "\n") + "\n").write(toFile: metadata, atomically: true, encoding: .utf8)
            let piece = directory + "/piece.aac"
            try ffmpeg(["-f", "lavfi", "-i", "sine=frequency=220:duration=10", "-c:a", "aac", "-b:a", "32k", "-f", "adts", piece])
            let repeats = String(chapterCount * chapterSeconds / 10 - 1)
            var paths: [LongAudiobook: String] = [:]
            for book in allCases {
                let path = directory + "/" + book.rawValue
                var arguments = ["-stream_loop", repeats, "-i", piece, "-i", metadata, "-map", "0:a", "-map_metadata", "1", "-c", "copy"]
                switch book {
                case .movieLast: arguments += ["-map_chapters", "1"]
                case .movieFirst: arguments += ["-map_chapters", "1", "-movflags", "+faststart"]
                case .withoutChapters: arguments += ["-map_chapters", "-1"]
                }
                try ffmpeg(arguments + ["-f", "ipod", path])
                paths[book] = path
            }
            return (paths, nil)
        } catch {
            return ([:], "\(error)")
        }
    }()

    /// Runs ffmpeg quietly, overwriting its outputs; throws with its message when it fails.
    public static func ffmpeg(_ arguments: [String]) throws {
        let result = try ChildProcess.run(OtherReaders.ffmpeg, ["-v", "error", "-nostdin", "-y"] + arguments, timeout: 120)
        guard result.status == 0 else {
            throw OtherReaders.ReaderFailure(reader: "ffmpeg", message: String(decoding: result.standardError, as: UTF8.self))
        }
    }

    /// The MD5 of the audio packets as stored (ffmpeg's `md5` muxer over a stream copy: no
    /// decoding, so two hours take well under a second).
    public static func packetChecksum(_ path: String) async throws -> String {
        let result = try await ToolRunner.runProgram(OtherReaders.ffmpeg, ["-v", "error", "-nostdin", "-i", path, "-map", "0:a", "-c", "copy", "-f", "md5", "-"])
        guard result.status == 0 else { throw OtherReaders.ReaderFailure(reader: "ffmpeg", message: result.standardError) }
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
