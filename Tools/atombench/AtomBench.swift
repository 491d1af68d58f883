#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import Carriers
import ID3
import ISOBMFF
import InspectionBrowser
import MediaBytes
import MediaToolSupport
import TestSupport

/// Benchmarks for the atom layer. Run through `Tools/benchmark.sh`, which builds in release
/// mode and prepares the files; each subcommand prints one result line.
///
///     atombench parse FILE...          CPU per file to parse the tree, and reads per file
///     atombench iofloor FILE...        CPU per file to open, read the first 64 KiB and close
///     atombench bigfile FILE           wall time and peak memory to parse one (large) file
///     atombench table N                time to decode stsz and stco tables of N entries
///     atombench id3 FILE...            CPU per file to read the ID3 tags (and stream header) of MP3s
///     atombench metadata FILE...       CPU per file to read all MP4 metadata (tree + every area)
///     atombench save FILE N            wall time of N title changes saved in place (flush included)
///     atombench grow FILE [N]          wall time of one save that adds N (3000) characters to the title
///     atombench largemovie PATH        writes a 5 GiB sparse movie of a million samples (for browse)
///     atombench browse FILE            the browser's first screen, then keypresses scrolling the first track's samples
///     atombench search FILE TEXT       the browser's search: the first node holding TEXT, then a text no node holds
///     atombench sha256 [MIB]           SHA-256 speed (the tools' picture digests) over MIB (256) MiB in memory
@main
enum AtomBench {
    static func main() throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let command = arguments.first else {
            print("usage: atombench parse|iofloor|bigfile|table ...")
            exit(64)
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "parse": try parse(rest)
        case "iofloor": try ioFloor(rest)
        case "bigfile": try bigFile(rest[0])
        case "table": try table(Int(rest.first ?? "1000000") ?? 1_000_000)
        case "id3": try id3(rest)
        case "metadata": try metadata(rest)
        case "save": try save(rest[0], iterations: Int(rest.count > 1 ? rest[1] : "20") ?? 20)
        case "grow": try grow(rest[0], by: Int(rest.count > 1 ? rest[1] : "3000") ?? 3000)
        case "largemovie": try LargeMovieBuilder.write(to: rest[0], sampleCount: 1_000_000, mediaSize: 5 << 30)
        case "browse": try browse(rest[0])
        case "search": try search(rest[0], rest[1])
        case "sha256": sha256(mebibytes: Int(rest.first ?? "256") ?? 256)
        default:
            print("unknown benchmark \(command)")
            exit(64)
        }
    }

    /// SHA-256 over a buffer in memory, fed a MiB at a time as a picture is: best of three.
    static func sha256(mebibytes: Int) {
        var random = SplitMix64(seed: 1)
        let chunk = (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &random) }
        var fastest = Double.infinity
        var digest: [UInt8] = []
        for _ in 0..<3 {
            let start = wallSeconds()
            var hash = SHA256()
            for _ in 0..<mebibytes { chunk.withUnsafeBytes { hash.update($0) } }
            digest = hash.finalize()
            fastest = min(fastest, wallSeconds() - start)
        }
        let rate = Int((Double(mebibytes << 20) / fastest / 1e6).rounded())
        print("sha256: \(mebibytes) MiB in \(Int((fastest * 1000).rounded())) ms: \(rate) MB/s (digest \(digest.prefix(4).map { String($0, radix: 16) }.joined())...)")
    }

    #if os(Linux)
    static let rusageSelf = __rusage_who_t(RUSAGE_SELF.rawValue)
    #else
    static let rusageSelf = RUSAGE_SELF
    #endif

    /// User plus system CPU time of this process, in seconds.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(rusageSelf, &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// Peak resident memory of this process, in MiB.
    static func peakMiB() -> Double {
        var usage = rusage()
        getrusage(rusageSelf, &usage)
        return Double(usage.ru_maxrss) / 1024
    }

    static func wallSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Reads every file with `read` (after warming up on the first 20): the best CPU time per
    /// file over three rounds, and the reads per file through a counting source.
    static func measure(_ files: [String], _ read: (any ByteSource) throws -> Void) throws -> (microseconds: Double, reads: Double) {
        for file in files.prefix(20) { try read(try FileByteSource(path: file)) }
        var best = Double.infinity
        for _ in 0..<3 {
            let start = cpuSeconds()
            for file in files { try read(try FileByteSource(path: file)) }
            best = min(best, cpuSeconds() - start)
        }
        var reads = 0
        for file in files {
            let source = CountingByteSource(try FileByteSource(path: file))
            try read(source)
            reads += source.count
        }
        return (best / Double(files.count) * 1e6, Double(reads) / Double(files.count))
    }

    static func parse(_ files: [String]) throws {
        let (microseconds, reads) = try measure(files) { source in _ = try AtomTree(source: source) }
        print("parse: \(files.count) files, \(format(microseconds)) us CPU per file (best of 3), \(format(reads)) reads per file")
    }

    static func id3(_ files: [String]) throws {
        let (microseconds, reads) = try measure(files) { source in _ = try MPEGStreamFile(source: source).primaryTag }
        let frames = try MPEGStreamFile(source: FileByteSource(path: files[0])).primaryTag?.frames.count ?? 0
        print("id3: \(files.count) files, \(format(microseconds)) us CPU per file (best of 3), \(format(reads)) reads per file, \(frames) frames per tag")
    }

    static func metadata(_ files: [String]) throws {
        let (microseconds, reads) = try measure(files) { source in _ = try MovieFile(tree: try AtomTree(source: source)) }
        let items = try MovieFile(path: files[0]).metadata.movie.itemList?.count ?? 0
        print("metadata: \(files.count) files, \(format(microseconds)) us CPU per file (best of 3), \(format(reads)) reads per file, \(items) items per file")
    }

    /// Alternates the title between two values of the same length, saving each time.
    static func save(_ path: String, iterations: Int) throws {
        var times: [Double] = []
        var strategy = MovieWriteStrategy.unchanged
        var written: UInt64 = 0
        for i in 0..<iterations {
            var file = try MovieFile(path: path)
            file.metadata.movie.setItem(MetadataItem(type: "©nam", values: [.text(i % 2 == 0 ? "Benchmark Title A" : "Benchmark Title B")]))
            let start = wallSeconds()
            let plan = try file.save()
            times.append(wallSeconds() - start)
            strategy = plan.strategy
            written = plan.bytesWritten
        }
        times.sort()
        print("save: \(iterations) saves, median \(format(times[times.count / 2] * 1000)) ms, min \(format(times[0] * 1000)) ms wall (flush included), strategy \(strategy), \(written) bytes written")
    }

    /// One save that adds `count` characters to the title.
    static func grow(_ path: String, by count: Int) throws {
        var file = try MovieFile(path: path)
        let title = (file.metadata.movie.item("©nam")?.texts.first ?? "") + String(repeating: "g", count: count)
        file.metadata.movie.setItem(MetadataItem(type: "©nam", values: [.text(title)]))
        let start = wallSeconds()
        let plan = try file.save()
        print("grow: \(format((wallSeconds() - start) * 1000)) ms wall, strategy \(plan.strategy), padding left \(plan.padding) bytes, file \(plan.newFileSize >> 20) MiB")
    }

    static func ioFloor(_ files: [String]) throws {
        for file in files.prefix(20) { _ = try FileByteSource(path: file).readAvailable(at: 0, upTo: 65536) }
        var best = Double.infinity
        for _ in 0..<3 {
            let start = cpuSeconds()
            for file in files { _ = try FileByteSource(path: file).readAvailable(at: 0, upTo: 65536) }
            best = min(best, cpuSeconds() - start)
        }
        print("iofloor: \(files.count) files, \(format(best / Double(files.count) * 1e6)) us CPU per file (open, read 64 KiB, close)")
    }

    static func bigFile(_ path: String) throws {
        let start = wallSeconds()
        let cpu = cpuSeconds()
        let source = CountingByteSource(try FileByteSource(path: path))
        let tree = try AtomTree(source: source)
        let wall = wallSeconds() - start
        let cpuUsed = cpuSeconds() - cpu
        print("bigfile: \(tree.fileSize >> 20) MiB, \(tree.atoms.count) top-level atoms, \(format(wall * 1000)) ms wall, \(format(cpuUsed * 1000)) ms CPU, \(source.count) reads, peak RSS \(format(peakMiB())) MiB")
    }

    static func browse(_ path: String) throws {
        // Cold start as the tool runs it: open the file, lay out and render the first screen.
        let start = wallSeconds()
        var browser = Browser(file: try FileInspection.open(path), width: 120, height: 40)
        let screen = browser.lines()
        let first = wallSeconds() - start
        guard screen.contains(where: { $0.contains("mdat @") }) else { throw BenchError("the first screen shows no mdat") }
        let rss = peakMiB()
        // Open the track's table (decodes the run tables once), then time keypresses.
        for key in Array("/".map(BrowserKey.character)) + "/moov/trak[0]".map(BrowserKey.character) + [.enter, .character("t")] { _ = browser.handle(key) }
        _ = browser.lines()
        var times: [Double] = []
        for i in 0..<400 {
            let key: BrowserKey = i % 100 == 99 ? .control("d") : (i < 200 ? .character("j") : .character("G"))
            let t = wallSeconds()
            _ = browser.handle(key)
            _ = browser.lines()
            times.append(wallSeconds() - t)
        }
        times.sort()
        print("browse: first screen \(format(first * 1000)) ms (peak RSS \(format(rss)) MiB); "
            + "sample-table keypress median \(format(times[times.count / 2] * 1000)) ms, worst \(format(times.last! * 1000)) ms")
    }

    /// The browser's search as a person runs it: from the first node, `/TEXT` to the first
    /// node whose type or values hold it, then `/` a text no node holds (every node of the
    /// file looked at, up to the search's step limit).
    static func search(_ path: String, _ text: String) throws {
        var browser = Browser(file: try FileInspection.open(path), width: 120, height: 40)
        _ = browser.lines()
        func run(_ query: String) -> (seconds: Double, status: String) {
            let start = wallSeconds()
            for key in [BrowserKey.character("/")] + query.map(BrowserKey.character) + [.enter] { _ = browser.handle(key) }
            let seconds = wallSeconds() - start
            return (seconds, browser.lines().last?.trimmingCharacters(in: .whitespaces) ?? "")
        }
        let found = run(text)
        guard found.status.hasPrefix("found") else { throw BenchError("the search for \(text) found nothing: \(found.status)") }
        _ = browser.handle(.character("g"))
        let missing = run("no-such-text-anywhere")
        print("search: '\(text)' \(format(found.seconds * 1000)) ms (\(found.status)); a text no node holds \(format(missing.seconds * 1000)) ms (\(missing.status))")
    }

    struct BenchError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    static func table(_ count: Int) throws {
        var payload = ByteWriter(capacity: 20 + count * 4)
        payload.writeUInt32(0)
        payload.writeUInt32(0)
        payload.writeUInt32(UInt32(count))
        for i in 0..<count { payload.writeUInt32(UInt32(truncatingIfNeeded: i &* 2_654_435_761) & 0xFFFF) }
        for type in ["stsz", "stco"] as [FourCC] {
            var bytes = payload.bytes
            if type == "stco" { bytes.removeSubrange(4..<8) }
            var file = ByteWriter()
            file.writeUInt32(16); file.writeFourCC("ftyp"); file.writeFourCC("isom"); file.writeUInt32(0)
            file.writeUInt32(UInt32(8 + bytes.count)); file.writeFourCC(type); file.writeBytes(bytes)
            let tree = try AtomTree(source: MemoryByteSource(file.bytes))
            let inspector = AtomInspector(tree: tree)
            let context = AtomDecodingContext(atom: tree.atoms[1], parent: "stbl")
            var best = Double.infinity
            for _ in 0..<5 {
                let start = wallSeconds()
                _ = try inspector.decode(context)
                best = min(best, wallSeconds() - start)
            }
            print("table: \(type) with \(count) entries decoded in \(format(best * 1000)) ms (best of 5)")
        }
    }

    static func format(_ value: Double) -> String {
        let scaled = (value * 10).rounded() / 10
        return String(scaled)
    }
}

/// Counts the reads made through it.
final class CountingByteSource: ByteSource, @unchecked Sendable {
    let base: any ByteSource
    var count = 0
    init(_ base: any ByteSource) { self.base = base }
    var size: UInt64 { base.size }
    func read(at offset: UInt64, count: Int) throws(ByteSourceError) -> [UInt8] {
        self.count += 1
        return try base.read(at: offset, count: count)
    }
}
