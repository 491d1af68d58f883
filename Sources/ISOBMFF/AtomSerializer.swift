import MediaBytes

/// Writes atoms back to bytes.
///
/// An atom is written from its parts: its header re-encoded in its original form (32-bit,
/// 64-bit or size-0), the fixed fields and any trailing bytes copied from the source, and its
/// children written the same way. An unmodified tree therefore comes out byte for byte as it
/// was read, including the odd parts (a 64-bit header on a small atom, a truncated last atom,
/// padding after the last child).
public enum AtomSerializer {
    /// The number of bytes `write` produces for `atom`.
    public static func serializedSize(of atom: Atom) -> UInt64 {
        guard atom.isContainer else { return atom.size }
        var total = UInt64(atom.headerSize) + UInt64(atom.prefixSize) + atom.trailingSize
        for child in atom.children { total += serializedSize(of: child) }
        return total
    }

    /// Writes the whole tree (every top-level atom and any trailing bytes) to `sink`.
    public static func write<Sink: ByteSink>(_ tree: AtomTree, to sink: inout Sink) throws {
        for atom in tree.atoms { try write(atom, of: tree, to: &sink) }
        if tree.trailingSize > 0 {
            try copy(from: tree.fileSize - tree.trailingSize, count: tree.trailingSize, of: tree, to: &sink)
        }
    }

    /// Writes one atom and its descendants to `sink`.
    public static func write<Sink: ByteSink>(_ atom: Atom, of tree: AtomTree, to sink: inout Sink) throws {
        let size = serializedSize(of: atom)
        // Unchanged extent: keep the declared size, even when it overstates (a truncated atom).
        let declared = size == atom.size && atom.header.sizeForm != .toEnd ? atom.header.declaredSize : size
        try sink.write(atom.header.encoded(totalSize: declared))
        guard atom.isContainer else {
            try copy(from: atom.payloadOffset, count: atom.payloadSize, of: tree, to: &sink)
            return
        }
        try copy(from: atom.payloadOffset, count: UInt64(atom.prefixSize), of: tree, to: &sink)
        for child in atom.children { try write(child, of: tree, to: &sink) }
        if atom.trailingSize > 0 {
            try copy(from: atom.endOffset - atom.trailingSize, count: atom.trailingSize, of: tree, to: &sink)
        }
    }

    /// Serializes the whole tree into memory (for small files and tests).
    public static func bytes(of tree: AtomTree) throws -> [UInt8] {
        var writer = ByteWriter(capacity: Int(min(tree.fileSize, 1 << 26)))
        try write(tree, to: &writer)
        return writer.bytes
    }

    private static func copy<Sink: ByteSink>(from offset: UInt64, count: UInt64, of tree: AtomTree, to sink: inout Sink) throws {
        guard count > 0 else { return }
        if count <= 1 << 16 {
            try sink.write(try tree.bytes(at: offset, count: Int(count)))
        } else {
            try tree.source.copy(from: offset, count: count, to: &sink)
        }
    }
}
