import MediaBytes

/// One thing `atominspect` shows: an atom, a RIFF/AIFF chunk, an ID3 tag or frame, an audio
/// stream header. The same text and JSON views, paths, hex dumps and extraction work for all.
public struct InspectionNode: Sendable {
    /// The type as shown in JSON: four ISO-8859-1 characters for atoms and chunks, the frame
    /// identifier for ID3 frames, a name (`ID3v2`, `TAG`, `mpeg`, `adts`) otherwise.
    public var type: String
    public var offset: UInt64
    public var size: UInt64
    public var headerSize: Int
    /// `moov/trak[1]/mdia`, `ID3v2/TXXX[2]`: components are types with their 0-based index among
    /// siblings of the same type, omitted when the type occurs once.
    public var path: String
    /// Short remarks on the header for the text view, such as `64-bit size`.
    public var notes: [String]
    /// Extra JSON members placed before `fields` (`uuid`, `sizeForm`).
    public var extra: [(String, JSONValue)]
    public var fields: [(String, JSONValue)]
    public var summary: String
    public var children: [InspectionNode]

    public init(
        type: String, offset: UInt64, size: UInt64, headerSize: Int, path: String, notes: [String] = [],
        extra: [(String, JSONValue)] = [], fields: [(String, JSONValue)] = [], summary: String = "", children: [InspectionNode] = []
    ) {
        self.type = type
        self.offset = offset
        self.size = size
        self.headerSize = headerSize
        self.path = path
        self.notes = notes
        self.extra = extra
        self.fields = fields
        self.summary = summary
        self.children = children
    }

    /// The type for the text view: printable ISO-8859-1 as is, anything else in hexadecimal.
    public var displayType: String {
        let printable = type.unicodeScalars.allSatisfy { ($0.value >= 0x20 && $0.value < 0x7F) || ($0.value >= 0xA0 && $0.value <= 0xFF) || $0.value > 0xFF }
        if printable { return type }
        return "0x" + type.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }.hexString
    }
}

/// A problem met while reading a file, in the tool's one form for atoms and ID3 alike.
public struct InspectionDiagnostic: Sendable, Hashable {
    /// `note`, `warning` or `error`; notes are not problems.
    public var severity: String
    public var offset: UInt64
    public var path: String
    public var message: String

    public init(severity: String, offset: UInt64, path: String, message: String) {
        self.severity = severity
        self.offset = offset
        self.path = path
        self.message = message
    }

    public var isProblem: Bool { severity != "note" }

    /// `warning: moov/udta at offset 1234: message`.
    public var line: String {
        "\(severity): \(path.isEmpty ? "top level" : path) at offset \(offset): \(message)"
    }

    public var json: JSONValue {
        .object([("severity", .string(severity)), ("offset", .uint(offset)), ("path", .string(path)), ("message", .string(message))])
    }
}

/// Paths of inspection nodes: `type[index]` components separated by `/`; `%XX` stands for a
/// byte (so `%A9nam` is `©nam`), and a missing index means the first.
public enum InspectionPath {
    public struct Component: Hashable, Sendable {
        public var type: String
        public var index: Int
    }

    /// Parses a path; nil when a component is malformed.
    public static func parse(_ text: String) -> [Component]? {
        var components: [Component] = []
        for part in text.split(separator: "/", omittingEmptySubsequences: true) {
            var name = Substring(part)
            var index = 0
            if name.hasSuffix("]"), let open = name.lastIndex(of: "[") {
                guard let value = Int(name[name.index(after: open)..<name.index(before: name.endIndex)]), value >= 0 else { return nil }
                index = value
                name = name[..<open]
            }
            guard !name.isEmpty, let type = PathEscaping.unescape(name) else { return nil }
            components.append(Component(type: type, index: index))
        }
        return components.isEmpty ? nil : components
    }

    /// The node at `path` among `nodes`, or nil.
    public static func find(_ path: [Component], in nodes: [InspectionNode]) -> InspectionNode? {
        guard let first = path.first else { return nil }
        let matches = nodes.filter { $0.type == first.type }
        guard first.index < matches.count else { return nil }
        let node = matches[first.index]
        return path.count == 1 ? node : find(Array(path.dropFirst()), in: node.children)
    }

    /// Each node's index among its siblings of the same type, or nil when its type is unique.
    public static func siblingIndexes(_ types: [String]) -> [Int?] {
        var totals: [String: Int] = [:]
        for type in types { totals[type, default: 0] += 1 }
        var seen: [String: Int] = [:]
        return types.map { type in
            guard totals[type]! > 1 else { return nil }
            defer { seen[type, default: 0] += 1 }
            return seen[type, default: 0]
        }
    }

    /// `type` escaped for a path (see `PathEscaping`).
    public static func escape(_ type: String) -> String { PathEscaping.escape(type) }
}

/// The text and JSON views of `atominspect`.
public enum InspectionRendering {
    /// One line per node, indented two spaces per level: `type @offset size=N [(notes)]  summary`.
    public static func text(_ nodes: [InspectionNode], depth: Int = 0) -> String {
        var out = ""
        for node in nodes {
            out += String(repeating: "  ", count: depth) + node.displayType + " @\(node.offset) size=\(node.size)"
            for note in node.notes { out += " (\(note))" }
            if !node.summary.isEmpty { out += "  " + node.summary }
            out += "\n"
            out += text(node.children, depth: depth + 1)
        }
        return out
    }

    /// Writes the pinned document to `write` one top-level node at a time, so a file with many
    /// top-level atoms (a long fragmented movie) never has its whole JSON text in memory. The
    /// text is the same as `json(...).serialized()`.
    public static func writeJSON(path: String, format: String?, fileSize: UInt64, nodes: [InspectionNode],
                                 diagnostics: [InspectionDiagnostic], to write: (String) -> Void) {
        let head: [(String, JSONValue)] = [
            ("path", .string(path)), ("format", format.map { .string($0) } ?? .null), ("fileSize", .uint(fileSize)),
        ]
        write("{\n")
        for (key, value) in head { write("  \"\(key)\": " + value.serialized(indentLevel: 1) + ",\n") }
        if nodes.isEmpty {
            write("  \"atoms\": [],\n")
        } else {
            write("  \"atoms\": [\n")
            for (i, node) in nodes.enumerated() {
                write("    " + json(node).serialized(indentLevel: 2) + (i < nodes.count - 1 ? ",\n" : "\n"))
            }
            write("  ],\n")
        }
        write("  \"diagnostics\": " + JSONValue.array(diagnostics.map(\.json)).serialized(indentLevel: 1) + "\n}\n")
    }

    /// The pinned document: `{"path", "format", "fileSize", "atoms", "diagnostics"}`.
    public static func json(path: String, format: String?, fileSize: UInt64, nodes: [InspectionNode], diagnostics: [InspectionDiagnostic]) -> JSONValue {
        .object([
            ("path", .string(path)),
            ("format", format.map { .string($0) } ?? .null),
            ("fileSize", .uint(fileSize)),
            ("atoms", .array(nodes.map(json))),
            ("diagnostics", .array(diagnostics.map(\.json))),
        ])
    }

    public static func json(_ node: InspectionNode) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("type", .string(node.type)), ("offset", .uint(node.offset)), ("size", .uint(node.size)),
            ("headerSize", .int(Int64(node.headerSize))), ("path", .string(node.path)),
        ]
        members += node.extra
        members.append(("fields", .object(node.fields)))
        members.append(("children", .array(node.children.map(json))))
        return .object(members)
    }

    /// `nodes` cut to `depth` levels (1 = these nodes only).
    public static func limit(_ nodes: [InspectionNode], depth: Int?) -> [InspectionNode] {
        guard let depth else { return nodes }
        return nodes.map { node in
            var node = node
            node.children = depth > 1 ? limit(node.children, depth: depth - 1) : []
            return node
        }
    }
}
