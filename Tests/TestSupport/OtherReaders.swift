import Foundation

/// The other programs that read what this package writes: ffprobe (ffmpeg), exiftool and
/// mutagen, from Debian's `ffmpeg`, `libimage-exiftool-perl` and `python3-mutagen`, which
/// `.ci/run` installs. Tests that use them run wherever they are installed and are required
/// in CI (`CI` set), so a missing install step fails there instead of skipping.
public enum OtherReaders {
    public static let ffprobe = "/usr/bin/ffprobe"
    public static let exiftool = "/usr/bin/exiftool"
    public static let python = "/usr/bin/python3"

    public static let isRequired = ProcessInfo.processInfo.environment["CI"] != nil
    public static var hasFFprobe: Bool { FileManager.default.isExecutableFile(atPath: ffprobe) }
    public static var hasExiftool: Bool { FileManager.default.isExecutableFile(atPath: exiftool) }
    public static var hasMutagen: Bool { FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/mutagen") }
    /// All three are there (or CI requires them).
    public static var areAvailable: Bool { isRequired || (hasFFprobe && hasExiftool && hasMutagen) }

    /// The container-level tags ffprobe reports (`format.tags`), keys lowercased.
    public static func ffprobeTags(_ path: String) async throws -> [String: String] {
        let result = try await ToolRunner.runProgram(ffprobe, ["-v", "error", "-show_entries", "format_tags", "-of", "json", path])
        guard result.status == 0, let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any] else {
            throw ReaderFailure(reader: "ffprobe", message: result.standardError)
        }
        let tags = (object["format"] as? [String: Any])?["tags"] as? [String: String] ?? [:]
        return Dictionary(tags.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// The streams ffprobe reports (`-show_streams`), each as its JSON object (numbers as
    /// ffprobe prints them, mostly strings).
    public static func ffprobeStreams(_ path: String) async throws -> [[String: Any]] {
        let result = try await ToolRunner.runProgram(ffprobe, ["-v", "error", "-show_streams", "-of", "json", path])
        guard result.status == 0, let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any] else {
            throw ReaderFailure(reader: "ffprobe", message: result.standardError)
        }
        return object["streams"] as? [[String: Any]] ?? []
    }

    /// One packet as ffprobe reports it (`-show_packets`): decode and presentation times and
    /// duration in the stream's time base, size, byte position, and whether it is a key frame.
    public struct Packet: Sendable, Equatable {
        public var dts: Int64?
        public var pts: Int64?
        public var duration: Int64?
        public var size: Int
        public var position: UInt64?
        public var isKey: Bool
    }

    /// The packets of stream `index` (`-select_streams`), in file order.
    public static func ffprobePackets(_ path: String, stream index: Int) async throws -> [Packet] {
        let result = try await ToolRunner.runProgram(ffprobe, ["-v", "error", "-select_streams", String(index), "-show_entries",
                                                               "packet=dts,pts,duration,size,pos,flags", "-of", "csv=p=0", path])
        guard result.status == 0 else { throw ReaderFailure(reader: "ffprobe", message: result.standardError) }
        // The columns come in ffprobe's own order: pts, dts, duration, size, pos, flags.
        return result.standardOutput.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 6, let size = Int(fields[3]) else { return nil }
            return Packet(dts: Int64(fields[1]), pts: Int64(fields[0]), duration: Int64(fields[2]), size: size, position: UInt64(fields[4]),
                          isKey: fields[5].hasPrefix("K"))
        }
    }

    /// The duration in seconds ffprobe reports for the file (`format.duration`).
    public static func ffprobeDuration(_ path: String) async throws -> Double {
        let result = try await ToolRunner.runProgram(ffprobe, ["-v", "error", "-show_entries", "format=duration", "-of", "default=noprint_wrappers=1:nokey=1", path])
        guard result.status == 0, let duration = Double(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ReaderFailure(reader: "ffprobe", message: result.standardError)
        }
        return duration
    }

    /// The chapters ffprobe reports (`-show_chapters`): start and end in seconds, and title.
    public static func ffprobeChapters(_ path: String) async throws -> [(start: Double, end: Double, title: String)] {
        let result = try await ToolRunner.runProgram(ffprobe, ["-v", "error", "-show_chapters", "-of", "json", path])
        guard result.status == 0, let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any] else {
            throw ReaderFailure(reader: "ffprobe", message: result.standardError)
        }
        return (object["chapters"] as? [[String: Any]] ?? []).map { chapter in
            (Double(chapter["start_time"] as? String ?? "") ?? -1, Double(chapter["end_time"] as? String ?? "") ?? -1,
             (chapter["tags"] as? [String: String])?["title"] ?? "")
        }
    }

    /// What exiftool reports for `tags` (its tag names, such as `Title`), by tag name; a tag
    /// it does not find is absent.
    public static func exiftoolTags(_ path: String, _ tags: [String]) async throws -> [String: String] {
        let result = try await ToolRunner.runProgram(exiftool, ["-json", "-charset", "UTF8"] + tags.map { "-" + $0 } + [path])
        guard let list = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]], let first = list.first else {
            throw ReaderFailure(reader: "exiftool", message: result.standardError)
        }
        var values: [String: String] = [:]
        for (key, value) in first where key != "SourceFile" { values[key] = "\(value)" }
        return values
    }

    /// The tags mutagen reads (`mutagen.File(path)`), each key with its values as text.
    public static func mutagenTags(_ path: String) async throws -> [String: [String]] {
        let script = """
            import json, sys, mutagen
            f = mutagen.File(sys.argv[1])
            out = {}
            for key, value in (f.tags.items() if f is not None and f.tags is not None else []):
                values = value if isinstance(value, list) else [value]
                out[str(key)] = [str(v) for v in (getattr(value, 'text', None) or values)]
            print(json.dumps(out))
            """
        let result = try await ToolRunner.runProgram(python, ["-c", script, path])
        guard result.status == 0, let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: [String]] else {
            throw ReaderFailure(reader: "mutagen", message: result.standardError)
        }
        return object
    }

    public static let ffmpeg = "/usr/bin/ffmpeg"

    /// FLAC's own tools (Debian `flac`): `metaflac` lists blocks and tags, `flac -t` decodes
    /// and checks every frame against STREAMINFO's MD5.
    public static let metaflac = "/usr/bin/metaflac"
    public static let flac = "/usr/bin/flac"
    public static var hasFLACTools: Bool { FileManager.default.isExecutableFile(atPath: metaflac) && FileManager.default.isExecutableFile(atPath: flac) }

    /// The values of `name` (every field of that name) as `metaflac --show-tag` prints them.
    public static func metaflacTag(_ path: String, _ name: String) async throws -> [String] {
        let result = try await ToolRunner.runProgram(metaflac, ["--show-tag=" + name, path])
        guard result.status == 0 else { throw ReaderFailure(reader: "metaflac", message: result.standardError) }
        return result.standardOutput.split(separator: "\n").compactMap { line in
            line.firstIndex(of: "=").map { String(line[line.index(after: $0)...]) }
        }
    }

    /// The block types `metaflac --list` reports, in order (`STREAMINFO`, `PADDING`...).
    public static func metaflacBlocks(_ path: String) async throws -> [String] {
        let result = try await ToolRunner.runProgram(metaflac, ["--list", path])
        guard result.status == 0 else { throw ReaderFailure(reader: "metaflac", message: result.standardError) }
        // Each block: "METADATA block #n", then "  type: N (NAME)" (a picture's own "type:" comes later).
        let lines = result.standardOutput.split(separator: "\n")
        return lines.indices.compactMap { index in
            guard lines[index].hasPrefix("METADATA block #"), index + 1 < lines.count else { return nil }
            let line = lines[index + 1]
            guard let open = line.firstIndex(of: "("), let close = line.lastIndex(of: ")") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }

    /// True when `flac -t` decodes every frame and the audio matches STREAMINFO's MD5.
    public static func flacTestPasses(_ path: String) async throws -> Bool {
        try await ToolRunner.runProgram(flac, ["-t", "-s", path]).status == 0
    }

    /// The Ogg tools (Debian `vorbis-tools`, `opus-tools`): `vorbiscomment -l` lists an Ogg
    /// Vorbis file's comment, `opusinfo` an Opus file's, `ogginfo` checks every page.
    public static let vorbiscomment = "/usr/bin/vorbiscomment"
    public static let opusinfo = "/usr/bin/opusinfo"
    public static let ogginfo = "/usr/bin/ogginfo"
    public static var hasOggTools: Bool { [vorbiscomment, opusinfo, ogginfo].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) } }

    /// The `NAME=value` fields `vorbiscomment -l` prints, in order.
    public static func vorbiscommentFields(_ path: String) async throws -> [String] {
        let result = try await ToolRunner.runProgram(vorbiscomment, ["-l", path])
        guard result.status == 0 else { throw ReaderFailure(reader: "vorbiscomment", message: result.standardError) }
        return result.standardOutput.split(separator: "\n").map(String.init)
    }

    /// The `NAME=value` fields `opusinfo` lists under "User comments section follows...".
    public static func opusinfoFields(_ path: String) async throws -> [String] {
        let result = try await ToolRunner.runProgram(opusinfo, [path])
        guard result.status == 0 else { throw ReaderFailure(reader: "opusinfo", message: result.standardError) }
        return result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("\t") && $0.contains("=") }.map { String($0.dropFirst()) }
    }

    /// The warnings and errors `ogginfo` reports (holes, bad CRCs, sequence gaps); empty for a
    /// sound file.
    public static func ogginfoProblems(_ path: String) async throws -> [String] {
        let result = try await ToolRunner.runProgram(ogginfo, [path])
        return (result.standardOutput + result.standardError).split(separator: "\n").filter { $0.hasPrefix("WARNING") || $0.hasPrefix("ERROR") }.map(String.init)
    }

    /// The tags ffprobe reports on the first audio stream (where an Ogg file's comment goes),
    /// keys lowercased.
    public static func ffprobeStreamTags(_ path: String) async throws -> [String: String] {
        let streams = try await ffprobeStreams(path)
        let tags = streams.first { $0["codec_type"] as? String == "audio" }?["tags"] as? [String: String] ?? [:]
        return Dictionary(tags.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// The MD5 of the decoded streams `map` selects (`0`: every stream, `0:a`: the audio), from
    /// ffmpeg's `md5` muxer.
    public static func decodeChecksum(_ path: String, map: String = "0") async throws -> String {
        let result = try await ToolRunner.runProgram(ffmpeg, ["-v", "error", "-nostdin", "-i", path, "-map", map, "-f", "md5", "-"])
        guard result.status == 0 else { throw ReaderFailure(reader: "ffmpeg", message: result.standardError) }
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The chapters mutagen reads: Nero `chpl` of an MP4 (`MP4.chapters`: start in seconds and
    /// title), or the ID3 `CHAP` frames (start in seconds, title) and `CTOC` frames (element
    /// ID, top-level flag, ordered flag, children).
    public static func mutagenChapters(_ path: String) async throws -> (chapters: [(start: Double, title: String)], tables: [(id: String, topLevel: Bool, ordered: Bool, children: [String])]) {
        let script = """
            import json, sys, mutagen, mutagen.mp4, mutagen.id3
            try:
                f = mutagen.File(sys.argv[1])
            except mutagen.MutagenError:
                # mutagen takes a short ADTS stream for MP3 and fails; its ID3 reader reads the tag.
                f = None
            chapters, tables = [], []
            if isinstance(f, mutagen.mp4.MP4):
                chapters = [[c.start, c.title] for c in (f.chapters or [])]
            else:
                tags = f.tags if f is not None else mutagen.id3.ID3(sys.argv[1])
                if tags is not None:
                    chapters = [[c.start_time / 1000.0, str(c.sub_frames['TIT2'].text[0]) if 'TIT2' in c.sub_frames else ''] for c in tags.getall('CHAP')]
                    tables = [[t.element_id, bool(t.flags & 2), bool(t.flags & 1), list(t.child_element_ids)] for t in tags.getall('CTOC')]
            print(json.dumps({'chapters': chapters, 'tables': tables}))
            """
        let result = try await ToolRunner.runProgram(python, ["-c", script, path])
        guard result.status == 0, let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: [[Any]]] else {
            throw ReaderFailure(reader: "mutagen", message: result.standardError)
        }
        let chapters = (object["chapters"] ?? []).map { (start: ($0[0] as? Double) ?? Double(($0[0] as? Int) ?? -1), title: ($0[1] as? String) ?? "") }
        let tables = (object["tables"] ?? []).map { (id: ($0[0] as? String) ?? "", topLevel: ($0[1] as? Bool) ?? false, ordered: ($0[2] as? Bool) ?? false, children: ($0[3] as? [String]) ?? []) }
        return (chapters, tables)
    }

    public struct ReaderFailure: Error, CustomStringConvertible {
        public var reader: String
        public var message: String
        public var description: String { "\(reader) failed: \(message)" }
    }
}
