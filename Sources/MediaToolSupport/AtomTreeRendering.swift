import ISOBMFF
import MediaBytes
import MediaMetadata

/// The text and JSON views of `atominspect`, kept here so they are unit-testable.
public enum AtomTreeRendering {
    /// One line per atom, indented two spaces per level:
    /// `type @offset size=N [header=16] [declared=N]  summary`.
    public static func text(_ atoms: [InspectedAtom]) -> String {
        var out = ""
        func emit(_ node: InspectedAtom) {
            let atom = node.atom
            out += String(repeating: "  ", count: node.depth)
            out += displayType(atom)
            out += " @\(atom.offset) size=\(atom.size)"
            if atom.header.sizeForm == .extended { out += " (64-bit size)" }
            if atom.header.sizeForm == .toEnd { out += " (size 0: to end)" }
            if atom.isTruncated { out += " (declares \(atom.header.declaredSize): truncated)" }
            if !node.summary.isEmpty { out += "  " + node.summary }
            out += "\n"
            node.children.forEach(emit)
        }
        atoms.forEach(emit)
        return out
    }

    /// A type for text output: printable ISO-8859-1 as is, anything else in hexadecimal, and
    /// the extended type of `uuid` atoms.
    public static func displayType(_ atom: Atom) -> String {
        var text = atom.type.isPrintable ? atom.type.description : "0x" + atom.type.bytes.hexString
        if let uuid = atom.header.extendedType { text += "[\(uuid.hexString)]" }
        return text
    }

    /// The pinned JSON document: `{"path", "format", "fileSize", "atoms", "diagnostics"}`.
    public static func json(
        path: String, format: MediaFormat?, fileSize: UInt64, atoms: [InspectedAtom], diagnostics: [AtomDiagnostic]
    ) -> JSONValue {
        .object([
            ("path", .string(path)),
            ("format", format.map { .string($0.rawValue) } ?? .null),
            ("fileSize", .uint(fileSize)),
            ("atoms", .array(atoms.map(json))),
            ("diagnostics", .array(diagnostics.map(json))),
        ])
    }

    public static func json(_ node: InspectedAtom) -> JSONValue {
        let atom = node.atom
        var members: [(String, JSONValue)] = [
            ("type", .string(atom.type.description)),
            ("offset", .uint(atom.offset)),
            ("size", .uint(atom.size)),
            ("headerSize", .int(Int64(atom.headerSize))),
            ("path", .string(node.path.description)),
        ]
        if let uuid = atom.header.extendedType { members.append(("uuid", .string(uuid.hexString))) }
        if atom.header.sizeForm != .compact {
            members.append(("sizeForm", .string(atom.header.sizeForm == .extended ? "64-bit" : "to-end")))
        }
        members.append(("fields", .object(node.fields.map { ($0.name, json($0.value)) })))
        members.append(("children", .array(node.children.map(json))))
        return .object(members)
    }

    public static func json(_ value: AtomFieldValue) -> JSONValue {
        switch value {
        case .integer(let v): .int(v)
        case .unsigned(let v): .uint(v)
        case .number(let v): .double(v)
        case .boolean(let v): .bool(v)
        case .text(let v): .string(v)
        case .bytes(let v): .string(v.hexString)
        case .list(let v): .array(v.map(json))
        case .record(let v): .object(v.map { ($0.name, json($0.value)) })
        }
    }

    public static func json(_ diagnostic: AtomDiagnostic) -> JSONValue {
        .object([
            ("severity", .string(diagnostic.severity.rawValue)),
            ("offset", .uint(diagnostic.offset)),
            ("path", .string(diagnostic.path.description)),
            ("message", .string(diagnostic.message)),
        ])
    }

    /// A diagnostic as one line: `warning: moov/udta at offset 1234: message`.
    public static func line(_ diagnostic: AtomDiagnostic) -> String {
        let place = diagnostic.path.isRoot ? "top level" : diagnostic.path.description
        return "\(diagnostic.severity.rawValue): \(place) at offset \(diagnostic.offset): \(diagnostic.message)"
    }
}
