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
}
