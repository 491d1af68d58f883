import MediaBytes
/// The text and JSON views of `atominspect`, rendered from inspection nodes. Both walk the nodes
/// they print and gather the problems met decoding them (children's before their parent's), so
/// a view shows the diagnostics of what it decoded.
public enum InspectionRendering {
    /// One line per node, indented two spaces per level: `type @offset size=N [(notes)]  summary`,
    /// down to `maxDepth` levels (1 = these nodes only; nil = all).
    public static func text(_ nodes: [InspectionNode], maxDepth: Int? = nil, diagnostics: inout [Diagnostic]) -> String {
        var out = ""
        func visit(_ nodes: [InspectionNode], depth: Int) {
            for node in nodes {
                let details = node.details
                out += String(repeating: "  ", count: depth) + node.displayType + " @\(node.offset) size=\(node.size)"
                for note in node.notes { out += " (\(note))" }
                if !details.summary.isEmpty { out += "  " + details.summary }
                out += "\n"
                if maxDepth.map({ depth + 1 < $0 }) ?? true { visit(node.children, depth: depth + 1) }
                diagnostics.appendNew(details.diagnostics)
            }
        }
        visit(nodes, depth: 0)
        return out
    }

    /// The text view alone.
    public static func text(_ nodes: [InspectionNode], maxDepth: Int? = nil) -> String {
        var ignored: [Diagnostic] = []
        return text(nodes, maxDepth: maxDepth, diagnostics: &ignored)
    }

    /// Writes the pinned document to `write` one top-level node at a time, so a file with many
    /// top-level atoms (a long fragmented movie) never has its whole JSON text in memory. The
    /// text is the same as `json(...).serialized()`. `diagnostics` (the file's own) come first in
    /// the document's list, then those met decoding the nodes.
    public static func writeJSON(path: String, format: String?, fileSize: UInt64, nodes: [InspectionNode], maxDepth: Int? = nil,
                                 diagnostics: [Diagnostic], to write: (String) -> Void) {
        var diagnostics = diagnostics
        let head: [(String, JSONValue)] = [
            ("path", .string(PathBytes.display(path))), ("format", format.map { .string($0) } ?? .null), ("fileSize", .uint(fileSize)),
        ]
        write("{\n")
        for (key, value) in head { write("  \"\(key)\": " + value.serialized(indentLevel: 1) + ",\n") }
        if nodes.isEmpty {
            write("  \"atoms\": [],\n")
        } else {
            write("  \"atoms\": [\n")
            for (i, node) in nodes.enumerated() {
                let value = json(node, maxDepth: maxDepth, diagnostics: &diagnostics)
                write("    " + value.serialized(indentLevel: 2) + (i < nodes.count - 1 ? ",\n" : "\n"))
            }
            write("  ],\n")
        }
        write("  \"diagnostics\": " + JSONValue.array(diagnostics.map(\.json)).serialized(indentLevel: 1) + "\n}\n")
    }

    /// The pinned document: `{"path", "format", "fileSize", "atoms", "diagnostics"}`.
    public static func json(path: String, format: String?, fileSize: UInt64, nodes: [InspectionNode], maxDepth: Int? = nil,
                            diagnostics: [Diagnostic]) -> JSONValue {
        var diagnostics = diagnostics
        let atoms = nodes.map { json($0, maxDepth: maxDepth, diagnostics: &diagnostics) }
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
        var members: [(String, JSONValue)] = [
            ("type", .string(node.type)), ("offset", .uint(node.offset)), ("size", .uint(node.size)),
            ("headerSize", .int(Int64(node.headerSize))), ("path", .string(node.path)),
        ]
        members += node.extra
        members.append(("fields", .object(details.fields.map { ($0.name, $0.value) })))
        var children: [JSONValue] = []
        if maxDepth.map({ $0 > 1 }) ?? true {
            children = node.children.map { json($0, maxDepth: maxDepth.map { $0 - 1 }, diagnostics: &diagnostics) }
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
