import MediaBytes

// The nodes of the files whose formats describe their own parts (`StructureDescription`): ID3
// and APE tags, the chunks, blocks, pages and stream headers of the files that carry them. The
// formats say what each part holds; this makes their paths and renders their fields.

extension InspectionNode {
    /// The top-level nodes of a file's parts, made a page at a time (see `paged`).
    public static func nodes(of parts: DescribedParts) -> [InspectionNode] {
        let indexes = InspectionPath.siblingIndexes((0..<parts.count).map(parts.name))
        return paged(count: parts.count, parentPath: "", range: parts.range) { index in
            InspectionNode(describing: parts.describe(index), path: InspectionPath.child(of: "", parts.name(index), indexes[index]))
        }
    }

    /// The nodes of described parts inside the node at `path`.
    static func nodes(describing parts: [StructureDescription], under path: String) -> [InspectionNode] {
        let indexes = InspectionPath.siblingIndexes(parts.map(\.pathName))
        return parts.enumerated().map { index, part in
            InspectionNode(describing: part, path: InspectionPath.child(of: path, part.pathName, indexes[index]))
        }
    }

    /// The node of a described part at `path`, with its children at theirs.
    init(describing part: StructureDescription, path: String) {
        let children = Self.nodes(describing: part.children, under: path)
        let kind = Kind(rawValue: part.kind.rawValue)
        guard let deferred = part.deferred else {
            self.init(kind: kind, type: part.type, offset: part.offset, size: part.size, headerSize: part.headerSize, path: path, notes: part.notes,
                      fields: part.fields.map(InspectionField.init), summary: part.summary, diagnostics: part.diagnostics, children: children)
            pathName = part.name
            return
        }
        self.init(kind: kind, type: part.type, offset: part.offset, size: part.size, headerSize: part.headerSize, path: path, notes: part.notes,
                  hasChildren: !children.isEmpty, children: { children }, details: {
            let details = deferred()
            return InspectionDetails(fields: details.fields.map(InspectionField.init), summary: details.summary, diagnostics: details.diagnostics,
                                     table: details.table.map(InspectionTable.init))
        })
        pathName = part.name
    }
}

extension InspectionField {
    /// A described field as the views show it.
    init(_ field: DescribedField) {
        self.init(field.name, JSONValue(field.value), range: field.range)
    }
}

extension InspectionTable {
    /// A described table as the views show it.
    init(_ table: DescribedTable) {
        self.init(title: table.title, columns: table.columns, rowCount: table.rowCount) { range in
            table.rows(range).map { InspectionRow(index: $0.index, values: $0.values.map(JSONValue.init), range: $0.range) }
        }
    }
}

extension JSONValue {
    /// A described value in JSON: bytes as hexadecimal text, a record as an object.
    public init(_ value: FieldValue) {
        switch value {
        case .absent: self = .null
        case .integer(let v): self = .int(v)
        case .unsigned(let v): self = .uint(v)
        case .number(let v): self = .double(v)
        case .boolean(let v): self = .bool(v)
        case .text(let v): self = .string(v)
        case .bytes(let v): self = .string(v.hexString)
        case .list(let v): self = .array(v.map(JSONValue.init))
        case .record(let v): self = .object(v.map { ($0.name, JSONValue($0.value)) })
        }
    }
}
