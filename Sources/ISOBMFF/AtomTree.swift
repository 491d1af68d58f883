import MediaBytes

/// The atom structure of an ISO-BMFF / QuickTime file (MP4, M4A, M4B, M4V, MOV, 3GP, HEIF).
///
/// Reading is lenient: whatever can be tolerated (trailing bytes, an atom overrunning its
/// parent, a truncated last atom) becomes a `Diagnostic` with its offset and path, and
/// every byte of the file stays accounted for, so `AtomSerializer` writes an unmodified tree
/// back identically. With `AtomReadingOptions.strict`, the first diagnostic is thrown instead.
public struct AtomTree: Sendable {
    public let source: any ByteSource
    public let options: AtomReadingOptions
    /// The top-level atoms, in file order.
    public var atoms: [Atom]
    /// Bytes at the end of the file that form no atom.
    public var trailingSize: UInt64
    /// Anomalies met while reading, in file order of discovery.
    public var diagnostics: [Diagnostic]
    let windows: [AtomWindow]

    /// Reads the structure of `source`.
    ///
    /// - Throws: `AtomError` with code `.notISOBMFF` when the data does not start with an atom
    ///   an ISO-BMFF or QuickTime file can start with, `.io` when reading fails, and in strict
    ///   mode the first diagnostic of severity warning or worse.
    public init(source: any ByteSource, options: AtomReadingOptions = .lenient) throws(AtomError) {
        let parser = AtomParser(source: source, limits: options.limits)
        let (atoms, trailing) = try parser.parseFile()
        self.source = source
        self.options = options
        self.atoms = atoms
        self.trailingSize = trailing
        self.windows = parser.windows
        self.diagnostics = parser.diagnostics(resolvingIn: atoms)
        if options.strict, let first = diagnostics.first(where: { $0.severity >= .warning }) {
            throw first.atomError
        }
    }

    /// Opens and reads the file at `path`.
    public init(contentsOf path: String, options: AtomReadingOptions = .lenient) throws {
        try self.init(source: try FileByteSource(path: path), options: options)
    }

    public var fileSize: UInt64 { source.size }

    /// The atom types a file may start with for this reader to take it as ISO-BMFF/QuickTime.
    public static let openingTypes: Set<FourCC> = Set(AtomRegistry.openingTypes)

    /// True when `type` is one of `openingTypes`, answered from a sorted table (format
    /// detection asks this of every file; building the hashed set costs more than the answer).
    public static func isOpeningType(_ type: FourCC) -> Bool { AtomRegistry.openingTypes.contains(type) }

    // MARK: - Finding atoms

    /// The atom at `path` (a missing index means the first of that type).
    public func atom(at path: AtomPath) -> Atom? {
        guard let first = path.components.first else { return nil }
        var seen = 0
        for atom in atoms where atom.type == first.type {
            if seen == (first.index ?? 0) {
                return atom.descendant(AtomPath(Array(path.components.dropFirst())))
            }
            seen += 1
        }
        return nil
    }

    /// Visits every atom depth-first in file order with its canonical path and depth (0 at
    /// the top level). Return false from `body` to skip an atom's children.
    public func walk(_ body: (_ atom: Atom, _ path: AtomPath, _ depth: Int) throws -> Bool) rethrows {
        try Self.walk(atoms, parentPath: .root, depth: 0, body)
    }

    private static func walk(
        _ siblings: [Atom], parentPath: AtomPath, depth: Int,
        _ body: (Atom, AtomPath, Int) throws -> Bool
    ) rethrows {
        let indexes = siblingIndexes(siblings)
        for (i, atom) in siblings.enumerated() {
            let path = parentPath.appending(atom.type, index: indexes[i])
            if try body(atom, path, depth), !atom.children.isEmpty {
                try walk(atom.children, parentPath: path, depth: depth + 1, body)
            }
        }
    }

    /// The path of the atom that starts at `offset` (for an error message); nil when none does.
    /// Only the containers that hold `offset` are opened.
    public func path(ofAtomAt offset: UInt64) -> AtomPath? {
        var found: AtomPath?
        walk { atom, path, _ in
            if found == nil && atom.offset == offset { found = path }
            return found == nil && atom.offset <= offset && offset < atom.endOffset
        }
        return found
    }

    /// For each sibling, its index among those of the same type, or nil when its type is unique.
    public static func siblingIndexes(_ siblings: [Atom]) -> [Int?] {
        if siblings.count == 1 { return [nil] }
        if siblings.count <= 16 {
            // A few siblings (nearly every container): compare types pairwise, no hashing.
            let types = siblings.map(\.type)
            return types.indices.map { i in
                var before = 0, total = 0
                for j in types.indices where types[j] == types[i] {
                    if j < i { before += 1 }
                    total += 1
                }
                return total > 1 ? before : nil
            }
        }
        // Many siblings (half a million `ilst` items): the types and positions sorted
        // together, each run of one type numbered in file order (no hashing per atom).
        var keys = siblings.indices.map { UInt64(siblings[$0].type.rawValue) << 32 | UInt64(truncatingIfNeeded: $0) }
        keys.sort()
        var indexes = [Int?](repeating: nil, count: siblings.count)
        var start = 0
        while start < keys.count {
            let type = keys[start] >> 32
            var end = start + 1
            while end < keys.count && keys[end] >> 32 == type { end += 1 }
            if end - start > 1 {
                for k in start..<end { indexes[Int(truncatingIfNeeded: keys[k] & 0xFFFF_FFFF)] = k - start }
            }
            start = end
        }
        return indexes
    }

    // MARK: - Bytes

    /// `count` bytes at `offset`: from memory when the parse already read them, otherwise one read.
    public func bytes(at offset: UInt64, count: Int) throws(AtomError) -> ArraySlice<UInt8> {
        // Windows are disjoint and in file order: find the last one starting at or before `offset`.
        var low = 0
        var high = windows.count
        while low < high {
            let middle = (low + high) / 2
            if windows[middle].base <= offset { low = middle + 1 } else { high = middle }
        }
        if low > 0, windows[low - 1].covers(offset, count: UInt64(count)) {
            return windows[low - 1].bytes(at: offset, count: count)
        }
        do {
            return try source.slice(at: offset, count: count)
        } catch {
            throw AtomError(.io, offset: offset, message: error.description)
        }
    }

    /// True when the parse read the `count` bytes at `offset` into memory (they come from a
    /// container small enough to be read whole).
    func holdsInMemory(_ offset: UInt64, count: UInt64) -> Bool {
        windows.contains { $0.covers(offset, count: count) }
    }

    /// The bytes that describe the atom itself: the whole payload of a leaf, or the fixed fields
    /// before the first child of a container.
    ///
    /// - Throws: `.payloadLimit` when they are larger than `AtomLimits.maxPayloadInMemory`.
    public func fieldBytes(of atom: Atom) throws(AtomError) -> ArraySlice<UInt8> {
        let count = atom.isContainer ? UInt64(atom.prefixSize) : atom.payloadSize
        guard count <= UInt64(options.limits.maxPayloadInMemory) else {
            throw AtomError(
                .payloadLimit, offset: atom.offset,
                message: "'\(atom.type)' has \(count) bytes of fields, more than the \(options.limits.maxPayloadInMemory)-byte limit for reading into memory")
        }
        if atom.windowIndex >= 0 {
            let window = windows[Int(atom.windowIndex)]
            if window.covers(atom.payloadOffset, count: count) { return window.bytes(at: atom.payloadOffset, count: Int(count)) }
        }
        return try bytes(at: atom.payloadOffset, count: Int(count))
    }
}
