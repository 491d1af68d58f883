import Foundation
import Carriers
import ID3
import ISOBMFF
import MediaBytes
import MediaMetadata
import TestSupport
import Testing

/// Every fixture and corpus file, cut at every atom, chunk and frame boundary and at a spread of
/// other points, and with bytes flipped and size fields rewritten, reads through every layer
/// (`MediaFile`: atoms, ID3, the key space) to a result or a clear error: no crash, no hang.
/// The time limit is a hang guard, not a speed check (speed is in the benchmarks).
@Suite(.timeLimit(.minutes(10)))
struct DamagedInputTests {
    /// Every format of the table (`MediaFormat.definitions`), so a new row is swept at once.
    static let mediaExtensions: Set<String> = MediaFormat.extensions()

    static var inputs: [String] {
        var paths = ((try? FileManager.default.contentsOfDirectory(atPath: TestFixtures.directory)) ?? []).map { TestFixtures.directory + "/" + $0 }
        if FileManager.default.fileExists(atPath: TestFixtures.corpusDirectory + "/MANIFEST.md"),
            let corpus = try? FileManager.default.subpathsOfDirectory(atPath: TestFixtures.corpusDirectory)
        {
            paths += corpus.filter { !$0.hasPrefix("oracles") }.map { TestFixtures.corpusDirectory + "/" + $0 }
        }
        return paths.filter { mediaExtensions.contains(($0 as NSString).pathExtension.lowercased()) }.sorted()
    }

    /// The offsets where a structure begins in `path`: atoms (every level), IFF chunks, ID3
    /// tags and frames, FLAC blocks, Ogg pages (and their segment counts) and header packets.
    static func boundaries(_ path: String) -> Set<UInt64> {
        var offsets: Set<UInt64> = []
        if let tree = try? AtomTree(contentsOf: path) {
            tree.walk { atom, _, _ in
                offsets.insert(atom.offset)
                offsets.insert(atom.payloadOffset)
                return offsets.count < 400
            }
        }
        if let source = try? FileByteSource(path: path) {
            if let stream = try? MPEGStreamFile(source: source) {
                for tag in stream.leadingTags + [stream.appendedTag].compactMap({ $0 }) {
                    offsets.insert(tag.offset)
                    for frame in tag.frames.prefix(200) { offsets.insert(frame.offset) }
                }
                offsets.insert(stream.audio.lowerBound)
            }
            if let iff = try? IFFChunkFile(source: source) {
                for chunk in iff.root.children.prefix(200) { offsets.insert(chunk.offset); offsets.insert(chunk.dataOffset) }
            }
            if let flac = try? FLACFile(source: source) {
                for block in flac.blocks.prefix(200) { offsets.insert(block.offset); offsets.insert(block.bodyRange.lowerBound) }
            }
            if let ogg = try? OggFile(source: source) {
                for page in ogg.pages.prefix(200) { offsets.insert(page.offset); offsets.insert(page.offset + 26); offsets.insert(page.bodyOffset) }
                for packet in ogg.headerPackets { offsets.insert(packet.offset) }
            }
        }
        return offsets
    }

    /// What reading a damaged file came to.
    enum Outcome: Hashable {
        /// Opened and read through every layer; `problems` diagnostics say what was tolerated.
        case read(problems: Bool)
        /// Refused with a typed error of this code.
        case refused(MetadataError.Code)
    }

    /// The tally of a sweep: each outcome and how often, and the inputs whose outcome broke
    /// the rule (a refusal that is not `malformed` or `unsupportedFormat`, or one whose message
    /// does not say where).
    struct Tally {
        var counts: [Outcome: Int] = [:]
        var broken: [String] = []

        var total: Int { counts.values.reduce(0, +) }
        var summary: String {
            counts.sorted { $0.value > $1.value }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        }
    }

    /// Reads `path` through every layer, as `tagedit show --json` would, and records the
    /// outcome: the tags, items, pictures, chapters and native items of a file that opens (a
    /// picture or native-item error counts as a refusal of that code), or the error it was
    /// refused with. A refusal must be `malformed` (with a message naming a byte offset) or
    /// `unsupportedFormat` (with a message).
    static func readAll(_ path: String, label: String, into tally: inout Tally) {
        let outcome: Outcome
        do throws(MetadataError) {
            let file = try MediaFile(path: path)
            _ = file.tags
            _ = file.items
            _ = file.chapters
            _ = file.chapterLists
            _ = try file.pictures
            _ = try file.nativeItems()
            _ = file.properties
            // Timed metadata (emsg, mebx tracks, the packed-audio timestamp) reads without a crash.
            _ = try? TimedMetadata.read(path: path)
            outcome = .read(problems: file.diagnostics.contains { $0.isProblem })
        } catch {
            outcome = .refused(error.code)
            if error.code != .malformed && error.code != .unsupportedFormat {
                tally.broken.append("\(label): refused as \(error.code): \(error.description)")
            } else if error.message.isEmpty {
                tally.broken.append("\(label): refused without a message")
            } else if error.code == .malformed && !error.description.contains("offset") {
                tally.broken.append("\(label): refused as malformed without a byte offset: \(error.description)")
            }
        }
        tally.counts[outcome, default: 0] += 1
    }

    @Test func truncatedFilesReadToAResultOrAnError() throws {
        let directory = try TemporaryFile.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var tally = Tally()
        var slowest: (seconds: Double, name: String) = (0, "")
        for path in Self.inputs {
            let bytes = try TemporaryFile.read(path)
            guard bytes.count > 16 else { continue }
            let size = UInt64(bytes.count)
            var points = Self.boundaries(path).filter { $0 > 0 && $0 < size }
            for boundary in Array(points) { for delta: Int64 in [-1, 1, 8] { points.insert(UInt64(max(1, min(Int64(size) - 1, Int64(boundary) + delta)))) } }
            for step in 1..<16 { points.insert(size * UInt64(step) / 16) }
            let copy = directory + "/cut." + (path as NSString).pathExtension
            try Data(bytes).write(to: URL(fileURLWithPath: copy))
            let started = Date()
            // Cut from the end: each cut is one truncate of the same copy.
            for point in points.sorted(by: >) {
                guard truncate(copy, off_t(point)) == 0 else { continue }
                Self.readAll(copy, label: "\((path as NSString).lastPathComponent) cut at \(point)", into: &tally)
            }
            let perCut = Date().timeIntervalSince(started) / Double(max(1, points.count))
            if perCut > slowest.seconds { slowest = (perCut, (path as NSString).lastPathComponent) }
        }
        print("truncation sweep: \(tally.total) cuts of \(Self.inputs.count) files (\(tally.summary)); slowest file \(slowest.name) at \(Int(slowest.seconds * 1000)) ms per cut")
        #expect(tally.total > 1000)
        let brokenCount = tally.broken.count
        #expect(brokenCount == 0, "cuts broke the rule:\n\(tally.broken.prefix(20).joined(separator: "\n"))")
        // Both outcomes occur: cut files that still read, and cut files refused.
        #expect(tally.counts.keys.contains { if case .read = $0 { true } else { false } })
        #expect(tally.counts.keys.contains(.refused(.malformed)) || tally.counts.keys.contains(.refused(.unsupportedFormat)))
    }

    @Test func flippedBytesAndRewrittenSizesReadToAResultOrAnError() throws {
        let directory = try TemporaryFile.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var generator = SplitMix64(seed: 0x5EED)
        var tally = Tally()
        for path in Self.inputs {
            let original = try TemporaryFile.read(path)
            guard original.count > 16 else { continue }
            let copy = directory + "/mutated." + (path as NSString).pathExtension
            try Data(original).write(to: URL(fileURLWithPath: copy))
            let fd = open(copy, O_RDWR)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            /// Writes `bytes` at `offset`, reads the file through every layer, and puts the
            /// original bytes back.
            func mutate(_ offset: Int, _ bytes: [UInt8]) {
                _ = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(offset)) }
                Self.readAll(copy, label: "\((path as NSString).lastPathComponent) with \(bytes) at \(offset)", into: &tally)
                _ = original[offset..<offset + bytes.count].withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(offset)) }
            }
            // Size fields of atoms, chunks and frames set to hostile values.
            let sizeFields = Self.boundaries(path).filter { $0 + 4 <= UInt64(original.count) }.sorted().prefix(48)
            for offset in sizeFields {
                for value: UInt32 in [0, 1, 7, 8, 0x7FFF_FFFF, 0xFFFF_FFFF, UInt32(truncatingIfNeeded: generator.next())] {
                    mutate(Int(offset), [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
                }
            }
            // Random single-byte flips, mostly in the first 64 KiB (where the structure is).
            for round in 0..<24 {
                let span = round % 4 == 3 ? original.count : min(original.count, 64 << 10)
                let index = Int(generator.next() % UInt64(span))
                mutate(index, [original[index] ^ UInt8(1 << (generator.next() % 8))])
            }
        }
        print("corruption sweep: \(tally.total) mutated files (\(tally.summary))")
        #expect(tally.total > 1000)
        let brokenCount = tally.broken.count
        #expect(brokenCount == 0, "mutations broke the rule:\n\(tally.broken.prefix(20).joined(separator: "\n"))")
        #expect(tally.counts.keys.contains { if case .read = $0 { true } else { false } })
    }
}
