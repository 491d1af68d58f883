import MediaBytes

/// One item of an item list (`ilst`): iTunes metadata (`©nam`, `trkn`, a `----` freeform item
/// with `mean` and `name`) or QuickTime `mdta` metadata (whose item type is a key index).
///
/// An item keeps the bytes it was read from; as long as it is not changed it is written back
/// exactly as it was, and an item this reader cannot take apart is kept whole (`isOpaque`).
public struct MetadataItem: Sendable {
    /// The item atom's type: `©nam`, `----`, or for `mdta` metadata the 1-based key index.
    public var type: FourCC
    /// The reverse-DNS domain of a freeform (`----`) item (`com.apple.iTunes`).
    public var mean: String?
    /// The name of a freeform item (`MusicBrainz Track Id`).
    public var name: String?
    public var values: [ItemValue]
    /// Child atoms that are none of `mean`, `name` and `data` (whole atoms, written after the
    /// values).
    public var otherChildren: [[UInt8]]

    /// The item atom as read, and what it decoded to; nil for new items.
    private var original: (bytes: ArraySlice<UInt8>, decoded: Decoded)?
    private var opaque: Bool

    private struct Decoded: Hashable {
        var type: FourCC
        var mean: String?, name: String?
        var values: [ItemValue]
        var otherChildren: [[UInt8]]
    }

    private var decoded: Decoded { Decoded(type: type, mean: mean, name: name, values: values, otherChildren: otherChildren) }

    public init(type: FourCC, values: [ItemValue], mean: String? = nil, name: String? = nil) {
        self.type = type
        self.values = values
        self.mean = mean
        self.name = name
        otherChildren = []
        original = nil
        opaque = false
    }

    /// A freeform item `----:MEAN:NAME`.
    public static func freeform(mean: String, name: String, values: [ItemValue]) -> MetadataItem {
        MetadataItem(type: "----", values: values, mean: mean, name: name)
    }

    /// True for an item whose children could not be read: it is kept and written back whole.
    public var isOpaque: Bool { opaque && isUnchanged }

    /// True when the item is as it was read.
    public var isUnchanged: Bool { original.map { $0.decoded == decoded } ?? false }

    /// The text values.
    public var texts: [String] { values.compactMap(\.text) }

    // MARK: - Reading

    private static let dataType: FourCC = "data"
    private static let meanType: FourCC = "mean"
    private static let nameType: FourCC = "name"

    /// Reads the item `atom` (a child of `ilst`).
    init(_ atom: Atom, in tree: AtomTree) throws(AtomError) {
        // A slice of the metadata already in memory: nothing is copied until the item is written.
        let bytes = try tree.bytes(at: atom.offset, count: Int(atom.size))
        let base = bytes.startIndex
        type = atom.type
        mean = nil
        name = nil
        values = []
        otherChildren = []
        opaque = false
        // The children read in place, by index (a `for child in` loop copied each of them).
        let children = atom.children
        let readable = atom.isContainer && !atom.isTruncated && atom.trailingSize == 0 && atom.prefixSize == 0
            && children.indices.allSatisfy { !children[$0].isTruncated && !children[$0].isContainer }
        if readable {
            do {
                for index in children.indices {
                    let start = base + Int(children[index].offset - atom.offset)
                    let payload = bytes[start + children[index].headerSize..<start + Int(children[index].size)]
                    switch children[index].type {
                    case Self.dataType:
                        values.append(try ItemValue(dataAtomPayload: payload))
                    case Self.meanType, Self.nameType:
                        guard payload.count >= 4 else { throw ByteReaderError(offset: children[index].offset, needed: 4, available: payload.count) }
                        let text = String(decoding: payload.dropFirst(4), as: UTF8.self)
                        if children[index].type == Self.meanType { mean = text } else { name = text }
                    default:
                        otherChildren.append(Array(bytes[start..<start + Int(children[index].size)]))
                    }
                }
            } catch {
                opaque = true
            }
        } else {
            opaque = true
        }
        if opaque {
            mean = nil
            name = nil
            values = []
            otherChildren = []
        }
        original = (bytes, Decoded(type: type, mean: mean, name: name, values: values, otherChildren: otherChildren))
    }

    // MARK: - Writing

    /// The item atom's bytes: the original ones when unchanged, otherwise newly encoded.
    public var encoded: [UInt8] {
        if let original, original.decoded == decoded { return Array(original.bytes) }
        var writer = ByteWriter(capacity: 64 + values.reduce(0) { $0 + $1.bytes.count + 16 })
        let start = writer.beginAtom(type)
        for (childType, text) in [("mean", mean), ("name", name)] as [(FourCC, String?)] {
            guard let text else { continue }
            let child = writer.beginAtom(childType)
            writer.writeUInt32(0)
            writer.writeBytes(Array(text.utf8))
            writer.endAtom(child)
        }
        for value in values {
            let child = writer.beginAtom("data")
            writer.writeBytes(value.dataAtomPayload)
            writer.endAtom(child)
        }
        for child in otherChildren { writer.writeBytes(child) }
        writer.endAtom(start)
        return writer.bytes
    }

    /// The same item renumbered (for `mdta` items, whose type is a key index): the original
    /// bytes with only the type changed.
    func renumbered(_ newType: FourCC) -> MetadataItem {
        var copy = self
        guard newType != type else { return copy }
        copy.type = newType
        if var original = copy.original, original.decoded == decoded {
            var bytes = Array(original.bytes)
            bytes.replaceSubrange(4..<8, with: newType.bytes)
            original.bytes = bytes[...]
            original.decoded.type = newType
            copy.original = original
        }
        return copy
    }
}

extension MetadataItem: Equatable {
    /// Items are equal when they hold the same content, wherever they were read from.
    public static func == (lhs: MetadataItem, rhs: MetadataItem) -> Bool {
        if lhs.opaque || rhs.opaque, let l = lhs.original, let r = rhs.original, lhs.isUnchanged, rhs.isUnchanged {
            return l.bytes == r.bytes
        }
        return lhs.decoded == rhs.decoded
    }
}

extension ByteWriter {
    /// Starts an atom with a compact header whose size `endAtom` fills in.
    mutating func beginAtom(_ type: FourCC) -> Int {
        let start = bytes.count
        writeUInt32(0)
        writeFourCC(type)
        return start
    }

    /// Sets the size of the atom begun at `start`.
    mutating func endAtom(_ start: Int) {
        setUInt32(UInt32(bytes.count - start), at: start)
    }
}
