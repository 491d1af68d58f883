import MediaBytes

/// Where each kept top-level atom moves when a file is rewritten, and so where every absolute
/// file offset stored in the file must point afterwards.
public struct OffsetMap: Sendable {
    struct Move: Sendable {
        var start: UInt64
        var end: UInt64
        var delta: Int64
    }

    /// Kept atoms by old start offset.
    var moves: [Move]

    init(moves: [Move]) { self.moves = moves.sorted { $0.start < $1.start } }

    /// True when nothing moves.
    public var isIdentity: Bool { moves.allSatisfy { $0.delta == 0 } }

    /// The new position of old offset `offset`, or nil when no kept atom holds it. An offset
    /// just past an atom belongs to it when no atom starts there (an empty last chunk).
    public func map(_ offset: UInt64) -> UInt64? {
        var low = 0
        var high = moves.count
        while low < high {
            let middle = (low + high) / 2
            if moves[middle].start <= offset { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let move = moves[low - 1]
        guard offset <= move.end else { return nil }
        let (result, overflow) = Int64(bitPattern: offset).addingReportingOverflow(move.delta)
        return overflow || result < 0 ? nil : UInt64(result)
    }

    /// True when `range` lies inside one kept atom.
    func holds(_ start: UInt64, length: UInt64) -> Bool {
        moves.contains { $0.start <= start && start <= $0.end && length <= $0.end - start }
    }
}

/// The atoms that store absolute file offsets, and how to read and move them: chunk offsets
/// (`stco`, `co64`), track-fragment base data offsets (`tfhd`), fragment random-access entries
/// (`tfra`), item locations (`iloc`, construction method 0 in this file) and the segment
/// index's first offset (`sidx`, relative to its own end).
enum FilePointers {
    static let types: FourCCSet = ["stco", "co64", "tfhd", "tfra", "iloc", "sidx"]

    /// The absolute offsets stored in an atom of one of `types`, given its payload and where
    /// the atom ends (the anchor of `sidx`).
    static func offsets(type: FourCC, payload: ArraySlice<UInt8>, atomEnd: UInt64) throws -> [UInt64] {
        try slots(type: type, payload: payload).map { slot in
            switch slot.kind {
            case .absolute: slot.value
            case .afterAtom: atomEnd &+ slot.value
            case .ilocBase(let extents): slot.value &+ (extents.first ?? 0)
            }
        }
    }

    /// The atom with every offset moved by `map`; nil when nothing changes. A `stco` whose
    /// offsets no longer fit 32 bits becomes a `co64`.
    static func relocated(_ atom: Atom, payload: ArraySlice<UInt8>, map: OffsetMap, newAtomEnd: UInt64) throws(AtomError) -> AtomNode? {
        let slots: [Slot]
        do {
            slots = try Self.slots(type: atom.type, payload: payload)
        } catch {
            throw AtomError(.notWritable, offset: atom.offset, message: "'\(atom.type)' cannot be read to move its offsets: \(error)")
        }
        func moved(_ offset: UInt64) throws(AtomError) -> UInt64 {
            guard let new = map.map(offset) else {
                throw AtomError(.notWritable, offset: atom.offset, message: "'\(atom.type)' points at offset \(offset), which is in no atom that is kept")
            }
            return new
        }
        var bytes = Array(payload)
        var type = atom.type
        var values: [(Slot, UInt64)] = []
        for slot in slots {
            switch slot.kind {
            case .absolute:
                values.append((slot, try moved(slot.value)))
            case .afterAtom:
                let target = try moved(atom.endOffset &+ slot.value)
                guard target >= newAtomEnd else {
                    throw AtomError(.notWritable, offset: atom.offset, message: "'sidx' would point before its own end")
                }
                values.append((slot, target - newAtomEnd))
            case .ilocBase(let extents):
                // The base moves with the first extent; every extent must move alike.
                let first = slot.value &+ (extents.first ?? 0)
                let delta = Int64(bitPattern: try moved(first) &- first)
                for extent in extents.dropFirst() where Int64(bitPattern: try moved(slot.value &+ extent) &- (slot.value &+ extent)) != delta {
                    throw AtomError(.notWritable, offset: atom.offset, message: "'iloc' item extents would move apart")
                }
                values.append((slot, UInt64(bitPattern: Int64(bitPattern: slot.value) &+ delta)))
            }
        }
        guard values.contains(where: { $0.0.value != $0.1 }) else { return nil }
        if type == "stco", values.contains(where: { $0.1 > UInt64(UInt32.max) }) {
            // Widen to co64: same full-box header and count, 8-byte entries.
            var writer = ByteWriter(capacity: 8 + values.count * 8)
            writer.writeBytes(Array(bytes[0..<8]))
            for (_, value) in values { writer.writeUInt64(value) }
            bytes = writer.bytes
            type = "co64"
        } else {
            for (slot, value) in values {
                guard slot.width == 8 || value <= UInt64(UInt32.max) else {
                    throw AtomError(.notWritable, offset: atom.offset, message: "'\(atom.type)' has a 32-bit offset field that cannot hold \(value)")
                }
                for i in 0..<slot.width { bytes[slot.position + i] = UInt8(truncatingIfNeeded: value >> UInt64(8 * (slot.width - 1 - i))) }
            }
        }
        var node = AtomNode.original(atom)
        node.type = type
        node.templateHeader.type = type
        node.content = .payload(bytes)
        return node
    }

    struct Slot {
        enum Kind { case absolute, afterAtom, ilocBase(extents: [UInt64]) }
        var position: Int
        var width: Int
        var value: UInt64
        var kind: Kind
    }

    /// The offset fields of an atom's payload: where each is and what it holds.
    static func slots(type: FourCC, payload: ArraySlice<UInt8>) throws -> [Slot] {
        var reader = ByteReader(payload)
        func position() -> Int { reader.consumed }
        let header = try FullBoxHeader(from: &reader)
        var slots: [Slot] = []
        switch type {
        case "stco", "co64":
            let width = type == "co64" ? 8 : 4
            let count = try reader.readUInt32()
            try reader.require(entries: count, of: width)
            slots.reserveCapacity(Int(count))
            for _ in 0..<count {
                let at = position()
                slots.append(Slot(position: at, width: width, value: try reader.readUInt(width: width), kind: .absolute))
            }
        case "tfhd":
            try reader.skip(4)
            if header.flags & 0x01 != 0 {
                let at = position()
                slots.append(Slot(position: at, width: 8, value: try reader.readUInt64(), kind: .absolute))
            }
        case "tfra":
            try reader.skip(4)
            let sizes = try reader.readUInt32()
            let count = try reader.readUInt32()
            let width = header.version == 1 ? 8 : 4
            let rest = Int((sizes >> 4 & 3) + 1) + Int((sizes >> 2 & 3) + 1) + Int((sizes & 3) + 1)
            try reader.require(entries: count, of: 2 * width + rest)
            for _ in 0..<count {
                try reader.skip(width)
                let at = position()
                slots.append(Slot(position: at, width: width, value: try reader.readUInt(width: width), kind: .absolute))
                try reader.skip(rest)
            }
        case "sidx":
            let width = header.version == 0 ? 4 : 8
            try reader.skip(8 + width)
            let at = position()
            slots.append(Slot(position: at, width: width, value: try reader.readUInt(width: width), kind: .afterAtom))
        case "iloc":
            let sizes = try reader.readUInt16()
            let offsetSize = Int(sizes >> 12), lengthSize = Int(sizes >> 8 & 0xF), baseSize = Int(sizes >> 4 & 0xF)
            let indexSize = header.version == 1 || header.version == 2 ? Int(sizes & 0xF) : 0
            for size in [offsetSize, lengthSize, baseSize, indexSize] where ![0, 4, 8].contains(size) {
                throw ByteReaderError(offset: UInt64(position()), needed: 0, available: 0)
            }
            let count = header.version < 2 ? UInt32(try reader.readUInt16()) : try reader.readUInt32()
            for _ in 0..<count {
                try reader.skip(header.version < 2 ? 2 : 4)
                var method: UInt16 = 0
                if header.version >= 1 { method = try reader.readUInt16() & 0xF }
                let reference = try reader.readUInt16()
                let basePosition = position()
                let baseValue = try reader.readUInt(width: baseSize)
                let extentCount = try reader.readUInt16()
                var extents: [(Int, UInt64)] = []
                for _ in 0..<extentCount {
                    try reader.skip(indexSize)
                    let at = position()
                    extents.append((at, try reader.readUInt(width: offsetSize)))
                    try reader.skip(lengthSize)
                }
                // Only data in this file, addressed by offset, moves.
                guard method == 0, reference == 0 else { continue }
                if baseSize > 0 && (baseValue != 0 || offsetSize == 0) {
                    slots.append(Slot(position: basePosition, width: baseSize, value: baseValue, kind: .ilocBase(extents: extents.map(\.1))))
                } else if offsetSize > 0 {
                    for (at, value) in extents { slots.append(Slot(position: at, width: offsetSize, value: value, kind: .absolute)) }
                }
            }
        default:
            break
        }
        return slots
    }
}
