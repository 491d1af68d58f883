import Foundation
import ISOBMFF
import MediaBytes
import TestSupport
import Testing

/// Sweeps ../shared/corpus (real files from other projects' test suites, many broken on
/// purpose) when it is there, as it is in CI. The project's own tests never depend on it.
enum Corpus {
    static let directory = TestFixtures.corpusDirectory
    static let isAvailable = FileManager.default.fileExists(atPath: directory + "/MANIFEST.md")

    static let atomExtensions: Set<String> = ["m4a", "m4b", "m4v", "mp4", "mov", "3gp", "3g2", "heic", "heif", "m4p"]

    /// Every media file of the corpus, relative to its folder.
    static var files: [String] {
        guard isAvailable, let enumerator = FileManager.default.enumerator(atPath: directory) else { return [] }
        var files: [String] = []
        while let path = enumerator.nextObject() as? String {
            let ext = (path as NSString).pathExtension.lowercased()
            guard !path.hasPrefix("oracles"), !["md", "txt", "json", ""].contains(ext),
                !(path as NSString).lastPathComponent.uppercased().hasPrefix("LICENSE")
            else { continue }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: directory + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files.append(path)
            }
        }
        return files.sorted()
    }

    /// The independent box walk of `oracles/atom-trees.txt`: per file, (depth, type, offset, size).
    static func oracleTrees() throws -> [String: [(depth: Int, type: String, offset: UInt64, size: UInt64)]] {
        let text = try String(contentsOfFile: directory + "/oracles/atom-trees.txt", encoding: .utf8)
        var trees: [String: [(Int, String, UInt64, UInt64)]] = [:]
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("=== ") {
                let rest = line.dropFirst(4)
                current = rest.range(of: " (", options: .backwards).map { String(rest[..<$0.lowerBound]) }
                continue
            }
            guard let file = current, let at = line.range(of: " @"), let sizeRange = line.range(of: " size=") else { continue }
            let indent = line.prefix { $0 == " " }.count
            let type = String(line[line.index(line.startIndex, offsetBy: indent)..<at.lowerBound])
            guard let offset = UInt64(line[at.upperBound..<sizeRange.lowerBound]) else { continue }
            let sizeText = line[sizeRange.upperBound...].prefix { $0.isNumber }
            guard let size = UInt64(sizeText) else { continue }
            trees[file, default: []].append((indent / 2, type, offset, size))
        }
        return trees
    }
}


@Suite(.enabled(if: Corpus.isAvailable, "../shared/corpus is not beside the project"))
struct CorpusTests {
    @Test func everyFileGivesATreeOrAClearErrorQuickly() throws {
        var parsed = 0
        for file in Corpus.files {
            let path = Corpus.directory + "/" + file
            let start = threadCPUSeconds()
            do {
                let tree = try AtomTree(contentsOf: path)
                _ = AtomInspector(tree: tree).inspect()
                _ = AtomStructureCheck.findings(in: tree)
                parsed += 1
            } catch let error as AtomError {
                #expect(error.code == .notISOBMFF || error.code == .io, "\(file): \(error)")
                #expect(!error.message.isEmpty)
            }
            // A hang guard, not a benchmark: CPU time of this thread (other tests running in
            // parallel do not count), with room for a debug build on a loaded 2-core machine,
            // where the largest file takes about one second.
            #expect(threadCPUSeconds() - start < 10, "\(file) hangs (over 10 s of CPU)")
        }
        #expect(parsed >= 70)
    }

    @Test func atomBasedFilesAreAllRecognised() throws {
        for file in Corpus.files where Corpus.atomExtensions.contains((file as NSString).pathExtension.lowercased()) {
            #expect(throws: Never.self, "\(file)") { try AtomTree(contentsOf: Corpus.directory + "/" + file) }
        }
    }

    @Test func everyParsedFileRoundTripsByteForByte() throws {
        for file in Corpus.files {
            let path = Corpus.directory + "/" + file
            guard let tree = try? AtomTree(contentsOf: path) else { continue }
            let bytes = try AtomSerializer.bytes(of: tree)
            #expect(bytes == (try TemporaryFile.read(path)), "\(file)")
        }
    }

    @Test func offsetsAndSizesAgreeWithAnIndependentBoxWalk() throws {
        let oracle = try Corpus.oracleTrees()
        #expect(oracle.count >= 70)
        for (file, entries) in oracle {
            let tree = try AtomTree(contentsOf: Corpus.directory + "/" + file)
            // Ours by (offset, depth): a container and its first child share an offset only
            // when the container is empty of fields, so depth tells them apart.
            var ours: [String: Atom] = [:]
            tree.walk { atom, _, depth in
                ours["\(atom.offset)/\(depth)"] = atom
                return true
            }
            for entry in entries where entry.offset < tree.fileSize {
                guard let atom = ours["\(entry.offset)/\(entry.depth)"] else {
                    Issue.record("\(file): the box walk has \(entry.type) @\(entry.offset) at depth \(entry.depth), we do not")
                    continue
                }
                let size = atom.isTruncated ? atom.header.declaredSize : atom.size
                #expect(size == entry.size, "\(file): \(entry.type) @\(entry.offset)")
                let type = atom.type.isPrintable ? atom.type.description : atom.type.bytes.map { String($0, radix: 16).leftPad(2) }.joined()
                #expect(type == entry.type, "\(file): @\(entry.offset)")
            }
        }
    }
}

@Suite(.enabled(if: Corpus.isAvailable, "../shared/corpus is not beside the project"))
struct CorpusMetadataRoundTripTests {
    /// Every MP4-family corpus file reads its metadata without a crash; every one whose
    /// structure is clean survives a metadata round trip (one changed title) with its media
    /// bytes identical; the others are refused with a reason and an offset.
    @Test func everyCleanFileSurvivesATitleChangeWithItsMediaIntact() throws {
        let directory = try TemporaryFile.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var written = 0
        var refused = 0
        for name in Corpus.files where Corpus.atomExtensions.contains((name as NSString).pathExtension.lowercased()) {
            let source = Corpus.directory + "/" + name
            guard let tree = try? AtomTree(contentsOf: source) else { continue }
            let file: MovieFile
            do {
                file = try MovieFile(tree: tree, path: source)
            } catch {
                continue
            }
            var edited = file
            edited.metadata.movie.setItem(MetadataItem(type: "©nam", values: [.text("Corpus round trip")]))
            let output = directory + "/out." + (name as NSString).pathExtension
            do {
                _ = try edited.write(to: output)
            } catch let error as AtomError where error.code == .notWritable {
                refused += 1
                #expect(!error.message.isEmpty, "\(name)")
                continue
            } catch {
                Issue.record("\(name): \(error)")
                continue
            }
            written += 1
            let result = try MovieFile(path: output)
            #expect(result.metadata.movie.item("©nam")?.texts == ["Corpus round trip"], "\(name)")
            #expect(result.metadata.tracks == file.metadata.tracks, "\(name)")
            #expect(try mediaPayloads(output) == mediaPayloads(source), "\(name)")
            #expect(try structureFindings(output).count <= structureFindings(source).count, "\(name)")
        }
        #expect(written > 20)
        print("corpus metadata round trip: \(written) written, \(refused) refused as not fully understood")
    }
}
