#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Carriers
import ID3
import ISOBMFF
import MediaBytes
import MediaMetadata
import MediaToolSupport
import TagLibOracle

/// A property a fuzz target found broken: the input parsed, but what the code did with it was
/// wrong (a save that does not read back, a failed save that changed the file). Crashes and
/// hangs are found by the fuzzer itself; this is the third kind of finding.
public struct FuzzFinding: Error, CustomStringConvertible {
    public var description: String
}

/// The fuzz targets. Each takes any bytes, must never crash or hang on them, and throws
/// `FuzzFinding` when a property fails. `mediafuzz` runs them under libFuzzer; the test suite
/// replays the seeds and every finding through the same functions.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// The atom parser: lenient and strict trees, every known payload decoded, the structural
    /// check, and the movie metadata.
    case atoms
    /// The ID3v2 tag parser (whole tags, every version and flag) and the ID3v1 reader.
    case id3Tag = "id3-tag"
    /// The ID3v2 frame parser: the input is one frame (header and body), wrapped in a valid
    /// tag header of the version its first byte selects, parsed and re-serialized.
    case id3Frame = "id3-frame"
    /// The metadata reader for MP4/MOV/3GP (`MediaFile`: tags, items, pictures, chapters).
    case readMP4 = "read-mp4"
    /// The metadata reader for MP3 and ADTS AAC.
    case readMPEG = "read-mpeg"
    /// The metadata reader for AIFF and WAV.
    case readIFF = "read-iff"
    /// The metadata reader for FLAC (metadata blocks, Vorbis comment, picture headers), and
    /// its inspection nodes.
    case readFLAC = "read-flac"
    /// The metadata reader for Ogg Vorbis, Opus, FLAC in Ogg and Speex (pages, header
    /// packets, the comment and its picture fields), and `check`'s walk over every page.
    case readOgg = "read-ogg"
    /// The transport stream reader (PAT, PMT, PES reassembly, timed ID3 events) and its
    /// inspection nodes.
    case readTS = "read-ts"
    /// The write path: open, set a title and a custom key, save (in place when it fits, always
    /// rewritten, or into a new file), re-open; the result must read back what was written and
    /// keep the rest, and a refused save must leave the file untouched.
    case write
    /// This package against TagLib (the system library, the tests' oracle): a file both read
    /// must give the same property map, but for the differences judged and documented
    /// (`TagLibPropertyMap.differences`, the rules `TagLibPropertyMapTests` holds the fixtures
    /// and the corpus to). MP4, MP3, AIFF and WAV (FLAC and Ogg have their own comparisons).
    case taglib

    /// The fixture extensions that seed this target's corpus.
    public var seedExtensions: Set<String> {
        switch self {
        case .atoms, .readMP4: ["m4a", "m4b", "mp4", "mov", "3gp", "heic", "heif"]
        case .id3Tag, .id3Frame, .readMPEG: ["mp3", "aac"]
        case .readIFF: ["aif", "aiff", "aifc", "wav"]
        case .readFLAC: ["flac"]
        case .readOgg: ["ogg", "oga", "opus", "spx"]
        case .readTS: ["ts"]
        case .write: ["m4a", "m4b", "mp4", "mov", "3gp", "mp3", "aac", "aif", "aiff", "wav", "flac", "ogg", "oga", "opus", "spx"]
        case .taglib: ["m4a", "m4b", "mp4", "mp3", "aif", "aiff", "wav"]
        }
    }

    /// The seed inputs this target starts from, made from media files (the fixtures): whole
    /// files for the file-level targets, the leading ID3v2 tags and ID3v1 tags for `id3-tag`,
    /// and each frame of those tags (with its version selector) for `id3-frame`.
    public func seeds(from paths: [String]) -> [[UInt8]] {
        var seeds: [[UInt8]] = []
        for path in paths.sorted() where seedExtensions.contains(path.split(separator: ".").last.map { $0.lowercased() } ?? "") {
            guard let source = try? FileByteSource(path: path), let bytes = try? Array(source.read(at: 0, count: Int(source.size))) else { continue }
            switch self {
            case .id3Tag, .id3Frame:
                guard let stream = try? MPEGStreamFile(source: MemoryByteSource(bytes)) else { continue }
                for tag in stream.leadingTags + [stream.appendedTag].compactMap({ $0 }) {
                    let end = Int(min(tag.offset + tag.totalSize, UInt64(bytes.count)))
                    if self == .id3Tag {
                        seeds.append(Array(bytes[Int(tag.offset)..<end]))
                        continue
                    }
                    for frame in tag.frames where !tag.isUnsynchronised || tag.majorVersion == 4 {
                        let start = Int(frame.offset), stop = min(end, start + frame.storedSize)
                        if start < stop { seeds.append([tag.majorVersion - 2] + bytes[start..<stop]) }
                    }
                }
                if self == .id3Tag, stream.id3v1 != nil { seeds.append(Array(bytes.suffix(128))) }
            case .readTS:
                // The whole stream, and its first eight packets (PAT, PMT and the first events).
                seeds.append(bytes)
                if bytes.count > 188 * 8 { seeds.append(Array(bytes.prefix(188 * 8))) }
            default:
                seeds.append(bytes)
            }
        }
        return seeds
    }

    /// Runs the target on one input.
    public func run(_ bytes: [UInt8]) throws(FuzzFinding) {
        switch self {
        case .atoms: Self.parseAtoms(bytes)
        case .id3Tag: Self.parseID3Tag(bytes)
        case .id3Frame: try Self.parseID3Frame(bytes)
        case .readMP4: Self.read(bytes, formats: [.mp4, .mov, .threeGP, .heif])
        case .readMPEG: Self.read(bytes, formats: [.mp3, .aac])
        case .readIFF: Self.read(bytes, formats: [.aiff, .wav])
        case .readFLAC: Self.read(bytes, formats: [.flac])
        case .readOgg: Self.read(bytes, formats: [.ogg])
        case .readTS: Self.readTransportStream(bytes)
        case .write: try Self.writeAndReadBack(bytes)
        case .taglib: try Self.compareWithTagLib(bytes)
        }
    }

    // MARK: - Parsers

    static func parseAtoms(_ bytes: [UInt8]) {
        let source = MemoryByteSource(bytes)
        _ = try? AtomTree(source: source, options: .strict)
        guard let tree = try? AtomTree(source: source) else { return }
        _ = AtomInspector(tree: tree).inspect()
        _ = AtomStructureCheck.findings(in: tree)
        _ = ConformanceRule.findings(in: tree, profiles: ConformanceProfile.allCases)
        for track in TimedMetadataTrack.read(tree) { _ = track.samples.count }
        if let metadata = try? MovieMetadata(tree: tree) {
            for scope in [metadata.movie] + metadata.tracks {
                _ = scope.itemList?.map(\.texts)
                _ = scope.quickTimeMetadata?.count
                _ = scope.userData.count
            }
        }
    }

    static func readTransportStream(_ bytes: [UInt8]) {
        guard let file = try? TransportStreamFile(source: MemoryByteSource(bytes)) else { return }
        for event in file.events { if let tag = event.tag { touch(tag) } }
        func visit(_ nodes: [InspectionNode]) {
            for node in nodes {
                _ = node.details
                visit(node.children)
            }
        }
        visit(InspectionNode.nodes(of: file.structure))
    }

    static func parseID3Tag(_ bytes: [UInt8]) {
        if let tag = try? ID3v2Tag(parsing: bytes) {
            touch(tag)
            _ = try? tag.serialized(version: 3)
            _ = try? tag.serialized(version: 4)
        }
        if bytes.count >= 128 { _ = ID3v1Tag(bytes.suffix(128)) }
    }

    static func parseID3Frame(_ bytes: [UInt8]) throws(FuzzFinding) {
        guard let selector = bytes.first else { return }
        let version: UInt8 = [2, 3, 4][Int(selector) % 3]
        let frame = bytes.dropFirst()
        let size = min(frame.count, 0x0FFF_FFFF)
        var tag: [UInt8] = Array("ID3".utf8) + [version, 0, 0]
        tag += [UInt8(size >> 21 & 0x7F), UInt8(size >> 14 & 0x7F), UInt8(size >> 7 & 0x7F), UInt8(size & 0x7F)]
        tag += frame.prefix(size)
        guard let parsed = try? ID3v2Tag(parsing: tag) else { return }
        touch(parsed)
        // What was read must serialize, and the serialization must parse again.
        for target: UInt8 in [3, 4] {
            guard let written = try? parsed.serialized(version: target, padding: 0) else { continue }
            do {
                _ = try ID3v2Tag(parsing: written.bytes)
            } catch {
                throw FuzzFinding(description: "a v2.\(version) frame serialized as v2.\(target) does not parse again: \(error)")
            }
        }
    }

    /// Reads every view of a tag, as the tools do.
    private static func touch(_ tag: ID3v2Tag) {
        _ = tag.recordingDate
        _ = tag.originalReleaseDate
        for frame in tag.frames { _ = frame.textValues }
    }

    // MARK: - Files

    /// A private scratch directory for inputs that go through the file API (on tmpfs where
    /// there is one, so the fuzzer's many saves do not touch a disk), removed at exit.
    private static let scratch: String = {
        var template = Array(((access("/dev/shm", W_OK) == 0) ? "/dev/shm" : "/tmp").utf8CString.dropLast()) + Array("/mediafuzz.XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            fatalError("cannot create a scratch directory")
        }
        atexit { FuzzTarget.removeScratch() }
        return String(cString: made)
    }()

    private static func removeScratch() {
        guard let directory = opendir(scratch) else { return }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { unlink(scratch + "/" + name) }
        }
        closedir(directory)
        rmdir(scratch)
    }

    /// A file of the scratch directory for the calling thread: the test suite runs the targets
    /// in parallel, and two of them writing one `input.mp3` would read each other's inputs.
    private static func scratchPath(_ name: String, format: MediaFormat) -> String {
        "\(scratch)/\(name)-\(pthread_self()).\(format.rawValue)"
    }

    private static func scratchFile(_ bytes: [UInt8], format: MediaFormat) -> String {
        let path = scratchPath("input", format: format)
        var sink = try! FileByteSink(path: path)
        try! sink.write(bytes)
        try! sink.close()
        return path
    }

    static func read(_ bytes: [UInt8], formats: Set<MediaFormat>) {
        guard let format = MediaFormat.detect(MemoryByteSource(bytes)), formats.contains(format) else { return }
        let path = scratchFile(bytes, format: format)
        if let file = try? MediaFile(path: path) {
            _ = file.tags
            _ = file.items
            _ = try? file.pictures
            _ = file.chapters
            _ = try? file.nativeItems()
            var document = JSONWriter(indentLevel: 1)
            _ = try? TagReport.writeExportDocument(file, to: &document)
            _ = try? TagReport.text(file, native: true)
        }
        _ = try? FileInspection.open(path).findings()
    }

    static let title = "Fuzzed title \u{2713}"

    /// The three ways a save can go, picked by the input's length so the fuzzer reaches each:
    /// in place when the change fits, always rewritten, or into a new file.
    enum SaveWay: CaseIterable { case inPlaceAllowed, rewrite, output }

    static func writeAndReadBack(_ bytes: [UInt8]) throws(FuzzFinding) {
        guard let format = MediaFormat.detect(MemoryByteSource(bytes)), format != .heif else { return }
        let path = scratchFile(bytes, format: format)
        let output = scratchPath("output", format: format)
        unlink(output)
        guard var file = try? MediaFile(path: path) else { return }
        let before = file.tags
        do {
            try file.set("TITLE", [title])
            try file.set("FUZZKEY", ["1"])
        } catch {
            return
        }
        let way = SaveWay.allCases[bytes.count % SaveWay.allCases.count]
        let written = way == .output ? output : path
        do {
            try file.save(MediaFile.SaveOptions(output: way == .output ? output : nil, allowInPlace: way == .inPlaceAllowed))
        } catch {
            // A refused or failed save must leave the file as it was, and make no output.
            guard let after = try? readAll(path), after == bytes else {
                throw FuzzFinding(description: "a failed save (\(error)) changed the file")
            }
            guard access(output, F_OK) != 0 else { throw FuzzFinding(description: "a failed save (\(error)) left an output file") }
            return
        }
        if way == .output, (try? readAll(path)) != bytes {
            throw FuzzFinding(description: "saving to a new file changed the source")
        }
        let reread: MediaFile
        do { reread = try MediaFile(path: written) } catch {
            throw FuzzFinding(description: "the saved file does not open again (\(way)): \(error)")
        }
        var expected = before
        expected["TITLE"] = [title]
        expected["FUZZKEY"] = ["1"]
        let after = reread.tags
        guard after == expected else {
            let differing = Set(expected.keys).union(after.keys).filter { expected[$0] != after[$0] }.sorted()
            throw FuzzFinding(description: "the saved file reads back differently (\(way)) for \(differing.map { "\($0): \(expected[$0] ?? []) -> \(after[$0] ?? [])" })")
        }
    }

    /// The formats `taglib` compares: those `TagLibPropertyMap` has rules for.
    static let comparedWithTagLib: Set<MediaFormat> = [.mp4, .mp3, .aiff, .wav]

    static func compareWithTagLib(_ bytes: [UInt8]) throws(FuzzFinding) {
        guard let format = MediaFormat.detect(MemoryByteSource(bytes)), comparedWithTagLib.contains(format) else { return }
        let path = scratchFile(bytes, format: format)
        guard let problems = TagLibPropertyMap.differences(path), !problems.isEmpty else { return }
        throw FuzzFinding(description: "TagLib reads another property map: \(problems.joined(separator: "; "))")
    }

    private static func readAll(_ path: String) throws -> [UInt8] {
        let source = try FileByteSource(path: path)
        return Array(try source.read(at: 0, count: Int(source.size)))
    }
}
