import MediaBytes

/// One atom ("box") of a parsed file: where it is, how its header was written, and, for a
/// container, its children.
///
/// Payload bytes are not stored here; `AtomTree.fieldBytes(of:)` and `AtomTree.payload(of:)`
/// fetch them when asked, from the metadata already read or with one positional read.
public struct Atom: Sendable {
    /// What kind of content follows the header.
    public enum Role: Sendable, Hashable {
        /// Opaque or decoded bytes, no children.
        case leaf
        /// Optional fixed fields (`prefixSize` bytes) followed by child atoms.
        case container
        /// An entry of a sample description (`stsd`): fixed fields, then child atoms.
        case sampleEntry(SampleEntryKind)
    }

    // Declared so that the small fields fill the header's last bytes (see `AtomHeader`).
    public var header: AtomHeader
    public var role: Role
    /// Index of the in-memory window holding this atom's bytes, or -1.
    var windowIndex: Int32
    @usableFromInline var storedPrefixSize: Int32
    /// The bytes this atom spans in the file, header included. Equal to the declared size except
    /// for a truncated or overrunning atom (cut to what its parent or the file has) and for the
    /// size-0 form (the distance to the end).
    public var size: UInt64
    public var children: [Atom]
    /// Bytes after the last child that form no atom (containers only), kept as they are.
    public var trailingSize: UInt64
    /// Bytes of fixed fields between the header and the first child (containers only): 4 for
    /// full-box containers such as ISO `meta`, 8 for `stsd`/`dref`, 28 for an audio sample entry.
    @inlinable public var prefixSize: Int {
        get { Int(storedPrefixSize) }
        set { storedPrefixSize = Int32(newValue) }
    }

    init(header: AtomHeader, size: UInt64, role: Role, prefixSize: Int = 0, windowIndex: Int32) {
        self.header = header
        self.size = size
        self.role = role
        storedPrefixSize = Int32(prefixSize)
        children = []
        trailingSize = 0
        self.windowIndex = windowIndex
    }

    @inlinable public var type: FourCC { header.type }
    @inlinable public var offset: UInt64 { header.offset }
    @inlinable public var headerSize: Int { header.headerSize }
    /// The offset just past the atom.
    @inlinable public var endOffset: UInt64 { header.offset + size }
    /// The offset of the first byte after the header.
    @inlinable public var payloadOffset: UInt64 { header.offset + UInt64(header.headerSize) }
    /// Bytes after the header.
    @inlinable public var payloadSize: UInt64 { size - UInt64(header.headerSize) }

    /// True when child atoms follow the fixed fields. A QuickTime `text` sample entry is a
    /// sample entry without children.
    public var isContainer: Bool {
        switch role {
        case .leaf, .sampleEntry(.quickTimeText): false
        case .container, .sampleEntry: true
        }
    }

    /// True when the header declares more bytes than the atom has.
    public var isTruncated: Bool {
        header.sizeForm != .toEnd && header.declaredSize > size
    }

    /// The first child of `type`, or the `index`-th one among those of that type.
    public func child(_ type: FourCC, index: Int = 0) -> Atom? {
        var seen = 0
        // By position: a `for child in` loop copies every sibling it passes (each a retain and
        // a release of its own children), and tree walks ask for children all the time.
        for position in children.indices where children[position].type == type {
            if seen == index { return children[position] }
            seen += 1
        }
        return nil
    }

    /// The descendant at a relative path, resolving components one level at a time.
    public func descendant(_ path: AtomPath) -> Atom? {
        var current = self
        for component in path.components {
            guard let next = current.child(component.type, index: component.index ?? 0) else { return nil }
            current = next
        }
        return current
    }
}

/// What a sample entry describes, which decides its fixed fields (ISO/IEC 14496-12 section 12;
/// QuickTime File Format, "Sample description atoms").
public enum SampleEntryKind: String, Sendable, Hashable {
    /// `AudioSampleEntry` / QuickTime sound description (version 0, 1 or 2).
    case audio
    /// `VisualSampleEntry` / QuickTime video sample description.
    case video
    /// 3GPP timed text `tx3g` (3GPP TS 26.245).
    case timedText
    /// QuickTime `text` sample description (fields only; kept as a leaf).
    case quickTimeText
    /// QuickTime timecode `tmcd`.
    case timecode
    /// Only the common 8-byte `SampleEntry` fields, then child atoms (`mp4s`, `wvtt`, `c608`).
    case generic
}
