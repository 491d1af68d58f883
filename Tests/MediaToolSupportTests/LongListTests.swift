import ISOBMFF
import MediaBytes
import MediaToolSupport
import TestSupport
import Testing

/// Lists longer than a page: the model makes `InspectionNode.pageSize` nodes at a time and a
/// `.more` node for the rest; the text tree and JSON list every node, paths find any of them,
/// and the HTML page holds at most `InspectionHTML.maxNodes` and says so.
@Suite struct LongListTests {
    typealias A = AtomBuilder

    /// A movie followed by `count` `free` atoms, each holding its index (4 bytes).
    static func movieWithFreeAtoms(_ count: Int) throws -> String {
        let bytes = MovieBuilder().build() + (0..<count).flatMap { A.atom("free", A.be(UInt64($0), width: 4)) }
        return try TemporaryFile.write(bytes, name: "many-atoms.m4a")
    }

    @Test func aLongListIsMadeAPageAtATime() throws {
        let count = 2 * InspectionNode.pageSize + 100
        let file = try FileInspection.open(try Self.movieWithFreeAtoms(count))
        let top = file.nodes
        // The movie's own atoms, then free atoms up to a page, then the rest behind `.more`.
        #expect(top.count == InspectionNode.pageSize + 1)
        let more = try #require(top.last)
        #expect(more.kind == .more)
        let firstHidden = top.count - 1
        #expect(more.offset == file.nodes[firstHidden - 1].range.upperBound, "the .more node starts where the page ends")
        #expect(more.range.upperBound == file.source.size, "and spans the rest of the list")
        let second = more.children
        #expect(second.count == InspectionNode.pageSize + 1)
        #expect(second.last?.kind == .more)
        #expect(second.first?.offset == more.offset)
        var listed = 0
        InspectionNode.forEachListed(top) { node in
            #expect(node.kind != .more)
            listed += 1
        }
        let movieAtoms = top.prefix { $0.type != "free" }.count
        #expect(listed == movieAtoms + count)
    }

    @Test func pathsFindNodesBeyondTheFirstPage() throws {
        let count = 3 * InspectionNode.pageSize
        let file = try FileInspection.open(try Self.movieWithFreeAtoms(count))
        for index in [0, InspectionNode.pageSize + 7, count - 1] {
            let node = try #require(file.node(at: "free[\(index)]"), "free[\(index)]")
            #expect(node.path == "free[\(index)]")
            // Each free atom holds its index.
            let payload = Array(try file.source.read(at: node.payloadRange.lowerBound, count: 4))
            #expect(payload.reduce(0) { $0 << 8 | Int($1) } == index)
        }
        #expect(file.node(at: "free[\(count)]") == nil)
        // The offset look-up goes through the pages too.
        let last = try #require(file.node(at: "free[\(count - 1)]"))
        #expect(file.nodes(containing: last.offset + 9).last?.path == "free[\(count - 1)]")
    }

    @Test func textAndJSONListEveryNode() throws {
        let count = InspectionNode.pageSize + 10
        let file = try FileInspection.open(try Self.movieWithFreeAtoms(count))
        let text = InspectionRendering.text(file.nodes)
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("free ") }.count == count)
        #expect(!text.contains("…"))
        var written = ""
        InspectionRendering.writeJSON(path: file.path, format: file.formatName, fileSize: file.source.size, nodes: file.nodes,
                                      diagnostics: file.diagnostics) { written += $0 }
        let document = InspectionRendering.json(path: file.path, format: file.formatName, fileSize: file.source.size,
                                                nodes: file.nodes, diagnostics: file.diagnostics)
        #expect(written == document.serialized() + "\n", "the streamed document is the pinned one")
        guard case .object(let members) = document, case .array(let atoms)? = members.first(where: { $0.0 == "atoms" })?.1 else {
            Issue.record("no atoms array")
            return
        }
        #expect(atoms.filter { $0["type"] == .string("free") }.count == count)
        #expect(atoms.allSatisfy { $0["type"] != .string("…") })
    }

    @Test func theHTMLPageHoldsAtMostItsLimitAndSaysSo() throws {
        let count = InspectionHTML.maxNodes + 500
        let file = try FileInspection.open(try Self.movieWithFreeAtoms(count))
        let page = InspectionHTML.page(file, title: "many")
        #expect(page.contains("\"listingLimit\":\(InspectionHTML.maxNodes)"))
        // Full up to the limit: every node but the movie's few and the `.more` nodes is a free atom.
        let listed = page.components(separatedBy: "\"type\":\"free\"").count - 1
        #expect(listed <= InspectionHTML.maxNodes && listed >= InspectionHTML.maxNodes - 50, "\(listed) free atoms on the page")
        #expect(page.utf8.count < 32 << 20)
        // A short file's page is whole and says nothing of a limit.
        let short = InspectionHTML.page(try FileInspection.open(try Self.movieWithFreeAtoms(10)), title: "few")
        #expect(!short.contains("\"listingLimit\":"))
    }
    /// Listings with a limit of nodes: the text and JSON show that many, and each list cut
    /// ends in one node of type `…` that counts the siblings left out, so every list's length
    /// can still be told.
    /// The nodes a listing of everything shows, at every depth.
    static func countAll(_ nodes: [InspectionNode]) -> Int {
        var all = 0
        InspectionNode.forEachListed(nodes) { all += 1 + countAll($0.children) }
        return all
    }

    @Test func aListingStopsAtItsLimitAndCountsWhatItLeftOut() throws {
        let count = 2 * InspectionNode.pageSize + 100
        let file = try FileInspection.open(try Self.movieWithFreeAtoms(count))
        let all = Self.countAll(file.nodes)
        for limit in [1, 5, InspectionNode.pageSize - 1, InspectionNode.pageSize + 3, all - 1] {
            // The text: `limit` lines of nodes, and a line for the rest of each list cut.
            var diagnostics: [Diagnostic] = []
            var bytes: [UInt8] = []
            InspectionRendering.writeText(file.nodes, maxNodes: limit, diagnostics: &diagnostics) { bytes += $0 }
            let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
            let listedLines = lines.filter { !$0.drop { $0 == " " }.hasPrefix("… ") }
            #expect(listedLines.count == limit, "limit \(limit)")
            let note = try #require(diagnostics.last)
            #expect(note.code == "listingCut" && note.severity == .note)
            #expect(note.message.contains("\(limit) nodes"))

            // JSON: the same nodes in the same order; every list either whole or ending in a
            // node of type `…` whose count makes up the list's length.
            var json = ""
            InspectionRendering.writeJSON(path: file.path, format: file.formatName, fileSize: file.source.size, nodes: file.nodes,
                                          maxNodes: limit, diagnostics: file.diagnostics) { json += String(decoding: $0, as: UTF8.self) }
            let document = try JSONValue.parse(json)
            var listed: [String] = []
            func length(_ nodes: [InspectionNode]) -> Int {
                var n = 0
                InspectionNode.forEachListed(nodes) { _ in n += 1 }
                return n
            }
            func walk(_ value: JSONValue?, expected: Int, under path: String) {
                guard case .array(let items)? = value else {
                    Issue.record("no list under \(path)")
                    return
                }
                var shown = 0
                for item in items {
                    if item["type"] == .string("…") {
                        #expect(item["fields"]?["notListed"] == .bool(true))
                        #expect(item == items.last, "a node for those left out ends its list")
                        if case .int(let more)? = item["fields"]?["more"] { shown += Int(more) }
                        continue
                    }
                    shown += 1
                    guard case .string(let path)? = item["path"], case .string(let type)? = item["type"], case .int(let offset)? = item["offset"],
                        let node = file.node(at: path)
                    else {
                        Issue.record("a listed node without a path that finds it")
                        continue
                    }
                    listed.append("\(type) @\(offset) ")
                    walk(item["children"], expected: length(node.children), under: path)
                }
                #expect(shown == expected, "limit \(limit): the list under '\(path)' is whole or counted")
            }
            walk(document["atoms"], expected: length(file.nodes), under: "")
            #expect(listed.count == limit)
            #expect(zip(listedLines, listed).allSatisfy { $0.drop { $0 == " " }.hasPrefix($1) }, "text and JSON list the same nodes")
            guard case .array(let notes)? = document["diagnostics"] else {
                Issue.record("no diagnostics")
                continue
            }
            #expect(notes.last?["code"] == .string("listingCut"))
        }
    }

    @Test func aListingWithinItsLimitIsWhole() throws {
        let count = InspectionNode.pageSize + 10
        let file = try FileInspection.open(try Self.movieWithFreeAtoms(count))
        let all = Self.countAll(file.nodes)
        for limit in [all, all + 1, nil] {
            var diagnostics: [Diagnostic] = []
            var bytes: [UInt8] = []
            InspectionRendering.writeText(file.nodes, maxNodes: limit, diagnostics: &diagnostics) { bytes += $0 }
            #expect(String(decoding: bytes, as: UTF8.self) == InspectionRendering.text(file.nodes))
            #expect(!diagnostics.contains { $0.code == "listingCut" })
        }
    }
}
