import MediaBytes

/// What changed between two files, node by node: nodes matched by path, compared by their
/// bytes first (a node whose bytes are equal is equal, wherever it sits, and is not opened),
/// then by size and decoded fields, then through their children. `atominspect diff` prints it.
public struct InspectionDiff: Sendable {
    /// One difference.
    public struct Change: Sendable, Equatable {
        public enum Kind: String, Sendable, Hashable {
            /// Only in the second file.
            case added
            /// Only in the first file.
            case removed
            /// In both, with another size.
            case resized
            /// In both, byte for byte the same, at another offset.
            case moved
            /// A decoded field's value differs.
            case field
            /// Same size and fields, other bytes (a leaf without decoded fields).
            case bytes
        }

        public var kind: Kind
        public var path: String
        public var type: String
        /// The field's name, for `.field`.
        public var field: String?
        /// Offset, size and value in the first and the second file, where they apply.
        public var before: Side?
        public var after: Side?
        /// For `.bytes`: how far into the node the first differing byte is (the same in both
        /// files: the sizes are equal).
        public var firstDifference: UInt64?

        public struct Side: Sendable, Equatable {
            public var offset: UInt64
            public var size: UInt64
            public var value: JSONValue?
            /// The node's path in this file (another than the change's when a track matched by
            /// its ID sits at another index).
            public var path: String
        }
    }

    public var changes: [Change]
    /// Byte-identical nodes inside a changed parent that only shifted with it (counted, not
    /// listed: every frame after a longer title moves).
    public var shiftedInside = 0
    /// Byte-identical nodes found at other offsets whose size is at least 1 MiB or that hold
    /// media (`mdat`): the "media moved, not changed" summary.
    public var movedMedia: [Change] { changes.filter { $0.kind == .moved && ($0.type == "mdat" || ($0.before?.size ?? 0) >= 1 << 20) } }

    public var isEmpty: Bool { changes.isEmpty }

    /// With `structureOnly`: the media nodes of the same size taken as the same without reading
    /// them, and the bytes they hold.
    public var uncomparedMedia: (nodes: Int, bytes: UInt64) = (0, 0)

    /// Compares the files' nodes. A top-level node found byte-identical at another offset is a
    /// `.moved` change; one inside a changed parent is only counted in `shiftedInside`. With
    /// `structureOnly`, a node holding media (`InspectionNode.holdsMedia`: `mdat`, MP3 and
    /// ADTS frames) is compared by its size, not its bytes: the structure and metadata of two
    /// large movies compared without reading their media.
    ///
    /// `progress`, when given, is called with the number of bytes compared so far as a large
    /// node's bytes are compared (every `progressStep` bytes), for a tool to show on a terminal.
    public init(_ a: FileInspection, _ b: FileInspection, structureOnly: Bool = false, progress: ((_ compared: UInt64) -> Void)? = nil) {
        var changes: [Change] = []
        var shifted = 0
        var uncompared: (nodes: Int, bytes: UInt64) = (0, 0)
        // Where the last two nodes compared first differ (nil when equal or not read).
        var lastDifference: UInt64?
        var compared: UInt64 = 0
        func side(_ node: InspectionNode, _ value: JSONValue? = nil) -> Change.Side {
            Change.Side(offset: node.offset, size: node.size, value: value, path: node.path)
        }
        func sameBytes(_ x: InspectionNode, _ y: InspectionNode) -> Bool {
            lastDifference = nil
            guard x.size == y.size, x.range.upperBound <= a.source.size, y.range.upperBound <= b.source.size else { return false }
            if structureOnly && x.holdsMedia && y.holdsMedia {
                uncompared.nodes += 1
                uncompared.bytes += x.size
                return true
            }
            // In steps, so a large node's comparison reports its progress as it goes.
            var done: UInt64 = 0
            while done < x.size {
                let step = min(Self.progressStep, x.size - done)
                let difference: UInt64?
                do {
                    difference = try a.source.firstDifference(at: x.offset + done, from: b.source, at: y.offset + done, count: step)
                } catch {
                    return false
                }
                compared += step
                if x.size >= Self.progressStep { progress?(compared) }
                if let difference {
                    lastDifference = done + difference
                    return false
                }
                done += step
            }
            return true
        }
        func compare(_ first: [InspectionNode], _ second: [InspectionNode], topLevel: Bool) {
            let byKey = Dictionary(second.map { (Self.matchKey($0), $0) }, uniquingKeysWith: { x, _ in x })
            let firstKeys = Set(first.map(Self.matchKey))
            for x in first {
                guard let y = byKey[Self.matchKey(x)] else {
                    changes.append(Change(kind: .removed, path: x.path, type: x.type, before: side(x)))
                    continue
                }
                if sameBytes(x, y) {
                    if x.offset != y.offset {
                        if topLevel { changes.append(Change(kind: .moved, path: x.path, type: x.type, before: side(x), after: side(y))) } else { shifted += 1 }
                    }
                    continue
                }
                if x.size != y.size { changes.append(Change(kind: .resized, path: x.path, type: x.type, before: side(x), after: side(y))) }
                let fieldsX = x.details.fields
                let fieldsY = y.details.fields
                var fieldChanged = false
                let namesY = Dictionary(fieldsY.map { ($0.name, $0.value) }, uniquingKeysWith: { v, _ in v })
                for field in fieldsX where namesY[field.name] != field.value {
                    fieldChanged = true
                    changes.append(Change(kind: .field, path: x.path, type: x.type, field: field.name,
                                          before: side(x, field.value), after: namesY[field.name].map { side(y, $0) }))
                }
                let namesX = Set(fieldsX.map(\.name))
                for field in fieldsY where !namesX.contains(field.name) {
                    fieldChanged = true
                    changes.append(Change(kind: .field, path: x.path, type: x.type, field: field.name, before: nil, after: side(y, field.value)))
                }
                if x.hasChildren || y.hasChildren {
                    compare(x.children, y.children, topLevel: false)
                } else if !fieldChanged && x.size == y.size {
                    var change = Change(kind: .bytes, path: x.path, type: x.type, before: side(x), after: side(y))
                    change.firstDifference = lastDifference
                    changes.append(change)
                }
            }
            for y in second where !firstKeys.contains(Self.matchKey(y)) {
                changes.append(Change(kind: .added, path: y.path, type: y.type, after: side(y)))
            }
        }
        compare(a.nodes, b.nodes, topLevel: true)
        self.changes = changes
        shiftedInside = shifted
        uncomparedMedia = uncompared
    }

    /// How many bytes a comparison reads between two reports of its progress.
    public static let progressStep: UInt64 = 64 << 20

    /// What matches a node with its counterpart among the other file's siblings: a track by
    /// its track ID (a track added before it does not make it another), anything else by its
    /// type and its index among siblings of that type (the last component of its path).
    static func matchKey(_ node: InspectionNode) -> String {
        if node.kind == .atom, node.type == "trak",
           let id = node.children.first(where: { $0.type == "tkhd" })?.details.fields.first(where: { $0.name == "trackID" })?.value {
            return "trak#" + id.serialized(pretty: false)
        }
        // `free` and `free[0]` are one node: a path gives the index only when the type repeats.
        let last = node.path.split(separator: "/").last.map(String.init) ?? node.path
        guard let component = InspectionPath.parse(last)?.first else { return last }
        return component.type + "[\(component.index)]"
    }

    /// The node of `b` that matches the node at `path` in `a`, matched level by level as the
    /// comparison matches them (a track by its ID): `exact` false when the node has no
    /// counterpart and this is its nearest ancestor's; nil when not even the top-level node has one.
    public static func counterpart(of path: String, in a: FileInspection, _ b: FileInspection) -> (node: InspectionNode, exact: Bool)? {
        guard let components = InspectionPath.parse(path) else { return nil }
        var levelA = a.nodes
        var levelB = b.nodes
        var found: InspectionNode?
        for component in components {
            guard let x = InspectionPath.find([component], in: levelA) else { return found.map { ($0, false) } }
            let key = matchKey(x)
            // The node at the same path first (found without a walk of its siblings, through
            // the pages of a long list too); a track matched by its ID may sit elsewhere.
            let samePath = InspectionPath.find([component], in: levelB).flatMap { matchKey($0) == key ? $0 : nil }
            guard let y = samePath ?? levelB.first(where: { matchKey($0) == key }) else { return found.map { ($0, false) } }
            found = y
            levelA = x.children
            levelB = y.children
        }
        return found.map { ($0, true) }
    }

    /// One line per change: `~ moov  size 2578 -> 2600 (+22)`, `- free @40 size 8`,
    /// `+ moov/udta/meta/ilst/©ART @1200 size 30`, `  moov/mvhd  duration: 1000 -> 2000`,
    /// `= mdat  byte-identical, moved 36 -> 58 (+22)`.
    public var lines: [String] {
        changes.map { change in
            switch change.kind {
            case .added: return "+ \(change.path) @\(change.after!.offset) size \(change.after!.size)"
            case .removed: return "- \(change.path) @\(change.before!.offset) size \(change.before!.size)"
            case .resized:
                return "~ \(change.path)  size \(change.before!.size) -> \(change.after!.size) (\(Self.signed(change.after!.size, change.before!.size)))"
            case .moved:
                return "= \(change.path)  byte-identical, moved \(change.before!.offset) -> \(change.after!.offset) (\(Self.signed(change.after!.offset, change.before!.offset)))"
            case .field:
                let before = change.before?.value.map(Self.short) ?? "(none)"
                let after = change.after?.value.map(Self.short) ?? "(none)"
                return "  \(change.path)  \(change.field!): \(before) -> \(after)"
            case .bytes:
                guard let at = change.firstDifference, let before = change.before, let after = change.after else { return "~ \(change.path)  same size, other bytes" }
                return "~ \(change.path)  same size, other bytes from byte \(at) of it (file offsets \(before.offset + at) and \(after.offset + at))"
            }
        }.map(\.escapingControls)  // (a C1 control in a value is not escaped by JSON)
    }

    /// A value on one line, cut at 100 characters (the JSON document has it whole). A text is
    /// counted in its own characters, not with the quotes around it.
    static func short(_ value: JSONValue) -> String {
        if case .string(let text) = value {
            return text.count <= 100 ? value.serialized(pretty: false)
                : JSONValue.string(String(text.prefix(90))).serialized(pretty: false) + "... (\(text.count) characters)"
        }
        let text = value.serialized(pretty: false)
        return text.count <= 100 ? text : String(text.prefix(90)) + "... (\(text.count) characters)"
    }

    static func signed(_ after: UInt64, _ before: UInt64) -> String {
        after >= before ? "+\(after - before)" : "-\(before - after)"
    }

    /// `{"a", "b", "equal", "shiftedInside", "changes": [{"change", "path", "type", ["field",] ["a": {offset, size, [value], [path]}], ["b": ...]}]}`.
    public func json(a: String, b: String) -> JSONValue {
        func side(_ side: Change.Side?, of change: Change) -> JSONValue? {
            guard let side else { return nil }
            var members: [(String, JSONValue)] = [("offset", .uint(side.offset)), ("size", .uint(side.size))]
            if let value = side.value { members.append(("value", value)) }
            // A track matched by its ID at another index: where it is in this file.
            if side.path != change.path { members.append(("path", .string(side.path))) }
            return .object(members)
        }
        return .object([
            ("a", .string(a)), ("b", .string(b)), ("equal", .bool(isEmpty)), ("shiftedInside", .int(Int64(shiftedInside))),
            ("changes", .array(changes.map { change in
                var members: [(String, JSONValue)] = [("change", .string(change.kind.rawValue)), ("path", .string(change.path)), ("type", .string(PathEscaping.escape(change.type)))]
                if let field = change.field { members.append(("field", .string(field))) }
                if let before = side(change.before, of: change) { members.append(("a", before)) }
                if let after = side(change.after, of: change) { members.append(("b", after)) }
                if let at = change.firstDifference { members.append(("firstDifference", .uint(at))) }
                return .object(members)
            })),
        ] + (uncomparedMedia.nodes == 0 ? [] : [
            ("mediaNotCompared", .object([("nodes", .int(Int64(uncomparedMedia.nodes))), ("bytes", .uint(uncomparedMedia.bytes))])),
        ]))
    }
}
