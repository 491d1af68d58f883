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
        writeText(nodes, maxDepth: maxDepth, diagnostics: &diagnostics, bytes: { write(String(decoding: $0, as: UTF8.self)) })
    }

    /// The text view handed over as UTF-8 in pieces of about 64 KiB (standard output takes
    /// them as they are: no string is made of each line or piece).
    /// At most `maxNodes` lines are made (nil: every node); a list cut there ends in a line for
    /// the siblings left out (`… @offset size=N (K more, from #i, not listed)`), and
    /// `diagnostics` ends with a `listingCut` note.
    public static func writeText(_ nodes: [InspectionNode], maxDepth: Int? = nil, maxNodes: Int? = nil, diagnostics: inout [Diagnostic],
                                 bytes write: (UnsafeBufferPointer<UInt8>) -> Void) {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 17)
        let budget = ListingBudget(limit: maxNodes)
        func visit(_ nodes: [InspectionNode], depth: Int) {
            InspectionNode.forEachListed(nodes, budget: budget) { node in
                let details = node.brief
                for _ in 0..<depth { buffer += [0x20, 0x20] }
                TerminalText.append(node.displayType, to: &buffer)
                buffer += " @".utf8
                DecimalDigits.with(node.offset) { buffer += $0 }
                buffer += " size=".utf8
                DecimalDigits.with(node.size) { buffer += $0 }
                // Text from the file never reaches the terminal raw (`TerminalText`).
                for note in node.notes {
                    buffer += " (".utf8
                    TerminalText.append(note, to: &buffer)
                    buffer.append(0x29)
                }
                if !details.summary.isEmpty {
                    buffer += "  ".utf8
                    TerminalText.append(details.summary, to: &buffer)
                }
                buffer.append(0x0A)
                if buffer.count >= 1 << 16 {
                    buffer.withUnsafeBufferPointer(write)
                    buffer.removeAll(keepingCapacity: true)
                }
                if node.kind != .more, maxDepth.map({ depth + 1 < $0 }) ?? true {
                    visit(node.children, depth: depth + 1)
                }
                diagnostics.appendNew(details.diagnostics)
            }
        }
        visit(nodes, depth: 0)
        if !buffer.isEmpty { buffer.withUnsafeBufferPointer(write) }
        if let cut = budget.cutDiagnostic { diagnostics.append(cut) }
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
    ///
    /// At most `maxNodes` nodes are written (nil: every node); a list cut there ends in a node
    /// of type `…` for the siblings left out (fields `listedFrom`, `more`, `notListed`), and
    /// the diagnostics end with a `listingCut` note.
    ///
    /// With `fieldRanges`, each node also carries `payloadRange` and `fieldRanges` (each field
    /// with file bytes of its own: `[start, end)` offsets), for byte-coverage checks.
    public static func writeJSON(path: String, format: String?, fileSize: UInt64, nodes: [InspectionNode], maxDepth: Int? = nil,
                                 maxNodes: Int? = nil, fieldRanges: Bool = false, diagnostics: [Diagnostic], bytes write: (UnsafeBufferPointer<UInt8>) -> Void) {
        var diagnostics = diagnostics
        let budget = ListingBudget(limit: maxNodes)
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
        writeList(nodes, maxDepth: maxDepth, fieldRanges: fieldRanges, into: &writer, diagnostics: &diagnostics, budget: budget, flush: flush)
        if let cut = budget.cutDiagnostic { diagnostics.append(cut) }
        writer.key("diagnostics")
        writer.value(.array(diagnostics.map(\.json)))
        writer.endObject()
        flush(&writer)
        var newline: UInt8 = 0x0A
        withUnsafePointer(to: &newline) { write(UnsafeBufferPointer(start: $0, count: 1)) }
    }

    /// A JSON array of nodes and their children, written into `writer` (handed to `flush`
    /// whenever it holds 64 KiB) while `budget` lasts.
    static func writeList(_ nodes: [InspectionNode], maxDepth: Int?, fieldRanges: Bool = false, into writer: inout JSONWriter,
                          diagnostics: inout [Diagnostic], budget: ListingBudget, flush: (inout JSONWriter) -> Void) {
        writer.beginArray()
        InspectionNode.forEachListed(nodes, budget: budget) { node in
            let details = node.details
            writer.beginObject()
            for (key, value) in jsonMembers(node, details: details, fieldRanges: fieldRanges) {
                writer.key(string: key)
                writer.value(value)
            }
            writer.key("children")
            if node.kind != .more, maxDepth.map({ $0 > 1 }) ?? true {
                writeList(node.children, maxDepth: maxDepth.map { $0 - 1 }, fieldRanges: fieldRanges, into: &writer, diagnostics: &diagnostics,
                          budget: budget, flush: flush)
            } else {
                writer.beginArray()
                writer.endArray()
            }
            writer.endObject()
            diagnostics.appendNew(details.diagnostics)
            if writer.pendingCount >= 1 << 16 { flush(&writer) }
        }
        writer.endArray()
    }

    /// A node's JSON members before `children`.
    static func jsonMembers(_ node: InspectionNode, details: InspectionDetails, fieldRanges: Bool = false) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [
            ("type", .string(node.displayType)), ("offset", .uint(node.offset)), ("size", .uint(node.size)),
            ("headerSize", .int(Int64(node.headerSize))), ("path", .string(node.path)),
        ]
        members += node.extra
        members.append(("fields", .object(details.fields.map { ($0.name, $0.value) })))
        if fieldRanges {
            let payload = node.payloadRange
            members.append(("payloadRange", .array([.uint(payload.lowerBound), .uint(payload.upperBound)])))
            members.append(("fieldRanges", .object(details.fields.compactMap { field in
                field.range.map { (field.name, .array([.uint($0.lowerBound), .uint($0.upperBound)])) }
            })))
        }
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
