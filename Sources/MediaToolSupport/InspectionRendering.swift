import MediaBytes
/// The text and JSON views of `atominspect`, rendered from inspection nodes. Both walk the nodes
/// they print and gather the problems met decoding them (children's before their parent's), so
/// a view shows the diagnostics of what it decoded.
public enum InspectionRendering {
    /// One line per node, indented two spaces per level: `type @offset size=N [(notes)]  summary`,
    /// down to `maxDepth` levels (1 = these nodes only; nil = all). Each line goes to `write` as
    /// it is made, and a long list is produced a page at a time, so the view of a million atoms
    /// holds one page of them.
    public static func writeText(_ nodes: [InspectionNode], maxDepth: Int? = nil, diagnostics: inout [Diagnostic], to write: (String) -> Void) {
        var buffer = ""
        func visit(_ nodes: [InspectionNode], depth: Int) {
            InspectionNode.forEachListed(nodes) { node in
                let details = node.brief
                var line = String(repeating: "  ", count: depth) + node.displayType + " @\(node.offset) size=\(node.size)"
                for note in node.notes { line += " (\(note))" }
                if !details.summary.isEmpty { line += "  " + details.summary }
                buffer += line
                buffer += "\n"
                if buffer.utf8.count >= 1 << 16 {
                    write(buffer)
                    buffer = ""
                }
                if maxDepth.map({ depth + 1 < $0 }) ?? true { visit(node.children, depth: depth + 1) }
                diagnostics.appendNew(details.diagnostics)
            }
        }
        visit(nodes, depth: 0)
        if !buffer.isEmpty { write(buffer) }
    }

    /// The text view as one string.
    public static func text(_ nodes: [InspectionNode], maxDepth: Int? = nil, diagnostics: inout [Diagnostic]) -> String {
        var out = ""
        writeText(nodes, maxDepth: maxDepth, diagnostics: &diagnostics) { out += $0 }
        return out
    }

    /// The text view alone.
    public static func text(_ nodes: [InspectionNode], maxDepth: Int? = nil) -> String {
        var ignored: [Diagnostic] = []
        return text(nodes, maxDepth: maxDepth, diagnostics: &ignored)
    }

    /// Writes the pinned document to `write` as it is made, every level streamed (a node's
    /// members, then its children one by one, a long list a page at a time), in pieces of
    /// about 64 KiB: a file of a million atoms never has its document, or its nodes, in memory
    /// at once. The text is the same as `json(...).serialized()` and a line break.
    /// `diagnostics` (the file's own) come first in the document's list, then those met
    /// decoding the nodes.
    public static func writeJSON(path: String, format: String?, fileSize: UInt64, nodes: [InspectionNode], maxDepth: Int? = nil,
                                 diagnostics: [Diagnostic], to write: (String) -> Void) {
        writeJSON(path: path, format: format, fileSize: fileSize, nodes: nodes, maxDepth: maxDepth, diagnostics: diagnostics,
                  bytes: { write(String(decoding: $0, as: UTF8.self)) })
    }

    /// The same document handed over as UTF-8 (standard output takes it as it is: no string is
    /// made of each piece).
    public static func writeJSON(path: String, format: String?, fileSize: UInt64, nodes: [InspectionNode], maxDepth: Int? = nil,
                                 diagnostics: [Diagnostic], bytes write: (UnsafeBufferPointer<UInt8>) -> Void) {
        var diagnostics = diagnostics
        var writer = JSONWriter(indentLevel: 0, capacity: 1 << 17)
        func flush(_ writer: inout JSONWriter) { writer.drain(write) }
        writer.beginObject()
        writer.key("path")
        writer.string(PathBytes.display(path))
        writer.key("format")
        writer.string(format)
        writer.key("fileSize")
        writer.uint(fileSize)
        writer.key("atoms")
        writeList(nodes, maxDepth: maxDepth, into: &writer, diagnostics: &diagnostics, flush: flush)
        writer.key("diagnostics")
        writer.value(.array(diagnostics.map(\.json)))
        writer.endObject()
        flush(&writer)
        var newline: UInt8 = 0x0A
        withUnsafePointer(to: &newline) { write(UnsafeBufferPointer(start: $0, count: 1)) }
    }

    /// A JSON array of nodes and their children, written into `writer` (handed to `flush`
    /// whenever it holds 64 KiB).
    static func writeList(_ nodes: [InspectionNode], maxDepth: Int?, into writer: inout JSONWriter, diagnostics: inout [Diagnostic],
                          flush: (inout JSONWriter) -> Void) {
        writer.beginArray()
        var page = nodes
        while true {
            var more: InspectionNode?
            for node in page {
                if node.kind == .more {
                    more = node
                    continue
                }
                let details = node.details
                writer.beginObject()
                for (key, value) in jsonMembers(node, details: details) {
                    writer.key(string: key)
                    writer.value(value)
                }
                writer.key("children")
                if maxDepth.map({ $0 > 1 }) ?? true {
                    writeList(node.children, maxDepth: maxDepth.map { $0 - 1 }, into: &writer, diagnostics: &diagnostics, flush: flush)
                } else {
                    writer.beginArray()
                    writer.endArray()
                }
                writer.endObject()
                diagnostics.appendNew(details.diagnostics)
                if writer.pendingCount >= 1 << 16 { flush(&writer) }
            }
            guard let next = more else { break }
            page = []
            page = next.children
        }
        writer.endArray()
    }

    /// A node's JSON members before `children`.
    static func jsonMembers(_ node: InspectionNode, details: InspectionDetails) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [
            ("type", .string(node.type)), ("offset", .uint(node.offset)), ("size", .uint(node.size)),
            ("headerSize", .int(Int64(node.headerSize))), ("path", .string(node.path)),
        ]
        members += node.extra
        members.append(("fields", .object(details.fields.map { ($0.name, $0.value) })))
        return members
    }

    /// The pinned document: `{"path", "format", "fileSize", "atoms", "diagnostics"}`.
    public static func json(path: String, format: String?, fileSize: UInt64, nodes: [InspectionNode], maxDepth: Int? = nil,
                            diagnostics: [Diagnostic]) -> JSONValue {
        var diagnostics = diagnostics
        var atoms: [JSONValue] = []
        InspectionNode.forEachListed(nodes) { atoms.append(json($0, maxDepth: maxDepth, diagnostics: &diagnostics)) }
        return .object([
            ("path", .string(PathBytes.display(path))),
            ("format", format.map { .string($0) } ?? .null),
            ("fileSize", .uint(fileSize)),
            ("atoms", .array(atoms)),
            ("diagnostics", .array(diagnostics.map(\.json))),
        ])
    }

    /// One node and its children down to `maxDepth` levels, adding the diagnostics met.
    public static func json(_ node: InspectionNode, maxDepth: Int? = nil, diagnostics: inout [Diagnostic]) -> JSONValue {
        let details = node.details
        var members = jsonMembers(node, details: details)
        var children: [JSONValue] = []
        if maxDepth.map({ $0 > 1 }) ?? true {
            InspectionNode.forEachListed(node.children) { children.append(json($0, maxDepth: maxDepth.map { $0 - 1 }, diagnostics: &diagnostics)) }
        }
        members.append(("children", .array(children)))
        diagnostics.appendNew(details.diagnostics)
        return .object(members)
    }

    /// One node and its children, without their diagnostics.
    public static func json(_ node: InspectionNode, maxDepth: Int? = nil) -> JSONValue {
        var ignored: [Diagnostic] = []
        return json(node, maxDepth: maxDepth, diagnostics: &ignored)
    }
}
