import ISOBMFF
import MediaBytes

extension InspectionNode {
    /// The node for an inspected atom and its children.
    public init(_ inspected: InspectedAtom) {
        let atom = inspected.atom
        var notes: [String] = []
        var extra: [(String, JSONValue)] = []
        if let uuid = atom.header.extendedType {
            notes.append("uuid \(uuid.hexString)")
            extra.append(("uuid", .string(uuid.hexString)))
        }
        switch atom.header.sizeForm {
        case .extended:
            notes.append("64-bit size")
            extra.append(("sizeForm", .string("64-bit")))
        case .toEnd:
            notes.append("size 0: to end")
            extra.append(("sizeForm", .string("to-end")))
        case .compact:
            break
        }
        if atom.isTruncated { notes.append("declares \(atom.header.declaredSize): truncated") }
        self.init(
            type: atom.type.description, offset: atom.offset, size: atom.size, headerSize: atom.headerSize,
            path: inspected.path.description, notes: notes, extra: extra,
            fields: inspected.fields.map { ($0.name, Self.json($0.value)) }, summary: inspected.summary,
            children: inspected.children.map(InspectionNode.init))
    }

    static func json(_ value: AtomFieldValue) -> JSONValue {
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
}

extension InspectionDiagnostic {
    public init(_ diagnostic: AtomDiagnostic) {
        self.init(severity: diagnostic.severity.rawValue, offset: diagnostic.offset, path: diagnostic.path.description, message: diagnostic.message)
    }
}
