import MediaBytes

/// Bytes read whole from the file: a metadata container such as `moov` or `moof`.
struct AtomWindow: Sendable {
    let base: UInt64
    /// The bytes from `base` on: a slice that may share the source's storage (no copy of a
    /// `moov` that the file's first read already holds).
    let bytes: ArraySlice<UInt8>

    func covers(_ offset: UInt64, count: UInt64) -> Bool {
        offset >= base && offset - base <= UInt64(bytes.count) && count <= UInt64(bytes.count) - (offset - base)
    }

    /// The `count` bytes at file offset `offset`, which the window covers.
    func bytes(at offset: UInt64, count: Int) -> ArraySlice<UInt8> {
        let from = bytes.startIndex + Int(offset - base)
        return bytes[from..<from + count]
    }
}

/// Builds an `AtomTree` from a byte source. One use per file.
///
/// Headers at the top level are read one positional read each; a container of at most
/// `windowLimit` bytes is read whole once and its descendants are parsed from memory, so a
/// typical tagged M4A costs a handful of reads. A larger container (the `moov` of a long movie,
/// mostly sample tables) is walked header by header the same way, so its tables are read only
/// when something decodes them. Media payloads are never read (a long run of small atoms
/// outside any window has its headers read 64 KiB at a time, which may take in the first
/// bytes of whatever follows the run).
final class AtomParser {
    /// The largest container read whole (or `AtomLimits.maxPayloadInMemory`, when smaller).
    static let windowLimit = 1 << 20

    private let source: any ByteSource
    private let limits: AtomLimits
    // The state the walk touches per atom skips the run-time exclusivity check: a parser is
    // private to one read on one thread, and none of these is passed `inout` across a call
    // that touches it again.
    @exclusivity(unchecked) private(set) var windows: [AtomWindow] = []
    private var pending: [(diagnostic: Diagnostic, locator: [Int])] = []
    /// Child indexes from the top level down to the container being read.
    @exclusivity(unchecked) private var locator: [Int] = []
    @exclusivity(unchecked) private var atomCount = 0
    /// Diagnostics beyond `AtomLimits.maxDiagnostics`, counted but not kept.
    private var suppressed = 0
    @exclusivity(unchecked) private var stopped = false
    /// Bytes read ahead for the headers of a run of small atoms outside any window, and how
    /// many headers in a row were read each just past the end of the one before.
    private var readAhead: AtomWindow?
    private var smallHeadersInARow = 0
    /// Where the last header read outside a window ended (the next small atom starts there
    /// when atoms are small: an 8-byte header's atom of 8 to 64 bytes).
    private var lastHeaderEnd: UInt64 = .max

    init(source: any ByteSource, limits: AtomLimits) {
        self.source = source
        self.limits = limits
    }

    /// The top-level atoms and the number of bytes after them that form no atom.
    func parseFile() throws(AtomError) -> (atoms: [Atom], trailing: UInt64) {
        let size = source.size
        // Recognise the format from the first header before anything else.
        let first = try read(at: 0, count: Int(min(16, size)), window: -1)
        guard first.count >= 8 else {
            throw AtomError(.notISOBMFF, offset: 0, message: "file is \(size) bytes, too short for an atom header")
        }
        let type = FourCC(first[first.startIndex + 4], first[first.startIndex + 5], first[first.startIndex + 6], first[first.startIndex + 7])
        guard AtomRegistry.openingTypes.contains(type) else {
            throw AtomError(
                .notISOBMFF, offset: 0,
                message: "not an ISO-BMFF/QuickTime file: it starts with \(describeOpening(first)), not an atom such as ftyp, moov or mdat")
        }
        var atoms: [Atom] = []
        let trailing = try parseChildren(
            from: 0, to: size, depth: 0, parent: nil, handler: nil, window: -1, into: &atoms)
        return (atoms, trailing)
    }

    /// Diagnostics with their paths filled in from the finished tree.
    func diagnostics(resolvingIn atoms: [Atom]) -> [Diagnostic] {
        var memo: [[Int]: [Int?]] = [:]
        var resolved = pending.map { entry in
            var diagnostic = entry.diagnostic
            let path = Self.path(for: entry.locator, in: atoms, memo: &memo)
            diagnostic.path = path.isRoot ? "" : path.description
            return diagnostic
        }
        if suppressed > 0, let last = resolved.last {
            resolved.append(Diagnostic(
                .warning, code: last.code, offset: last.offset,
                message: "\(suppressed) more anomalies are not listed (the limit is \(limits.maxDiagnostics))"))
        }
        return resolved
    }

    // MARK: - Walking

    /// Parses the atoms between `start` and `end`, appending them to `children`; returns the
    /// number of bytes at the end of the range that form no atom.
    private func parseChildren(
        from start: UInt64, to end: UInt64, depth: Int, parent: FourCC?, handler: FourCC?, window: Int32,
        into children: inout [Atom]
    ) throws(AtomError) -> UInt64 {
        var position = start
        var handler = handler
        while position < end {
            if stopped { return end - position }
            let available = end - position
            guard available >= 8 else {
                let bytes = try read(at: position, count: Int(available), window: window)
                let quickTimeTerminator = available == 4 && bytes.allSatisfy { $0 == 0 }
                if !quickTimeTerminator {
                    note(.warning, .trailingBytes, at: position,
                         depth == 0
                            ? "\(available) bytes at the end of the file form no atom"
                            : "\(available) bytes after the last child form no atom")
                }
                return available
            }
            let headerBytes = try readHeaderBytes(at: position, available: available, window: window)
            guard let (header, extent) = decodeHeader(
                headerBytes, at: position, available: available, depth: depth, index: children.count)
            else { return end - position }
            if window < 0 { lastHeaderEnd = extent <= 64 ? position + extent : .max }

            atomCount += 1
            if atomCount > limits.maxAtomCount {
                note(.error, .atomCountLimit, at: position,
                     "more than \(limits.maxAtomCount) atoms; the rest of the file is kept unread")
                stopped = true
                return end - position
            }

            let index = children.count
            var layout = AtomRegistry.layout(for: header.type, parent: parent, handler: handler)
            if layout != .leaf && depth + 1 > limits.maxDepth {
                note(.error, .depthLimit, at: position, child: index,
                     "nesting deeper than \(limits.maxDepth) levels; kept as opaque bytes")
                layout = .leaf
            }

            var atomWindow = window
            if layout != .leaf && window < 0 && extent <= UInt64(min(limits.maxPayloadInMemory, Self.windowLimit)) {
                // A small container in a run that is read ahead (half a million `ilst` items)
                // takes its bytes from what was read ahead: no read, no copy.
                let bytes = if let ahead = readAhead, ahead.covers(position, count: extent) {
                    ahead.bytes(at: position, count: Int(extent))
                } else {
                    try readFromSource(at: position, count: Int(extent))
                }
                windows.append(AtomWindow(base: position, bytes: bytes))
                atomWindow = Int32(windows.count - 1)
            }

            var atom = Atom(header: header, size: extent, role: .leaf, windowIndex: atomWindow)
            let payloadStart = position + UInt64(header.headerSize)
            let payloadSize = extent - UInt64(header.headerSize)
            var prefix: Int?
            switch layout {
            case .leaf:
                break
            case .container(let fixed):
                prefix = fixed
                atom.role = .container
            case .meta:
                prefix = try metaPrefix(at: payloadStart, size: payloadSize, window: atomWindow)
                atom.role = .container
            case .itemInfo:
                let version = payloadSize > 0 ? try read(at: payloadStart, count: 1, window: atomWindow).first! : 0
                prefix = version == 0 ? 6 : 8
                atom.role = .container
            case .sampleEntry(let kind):
                atom.role = .sampleEntry(kind)
                prefix = try sampleEntryPrefix(kind, at: payloadStart, size: payloadSize, window: atomWindow)
            }

            // Fields before the children are at most a few dozen bytes; a sample entry whose
            // fields would be its whole payload of 2 GiB or more (a size that lies) is kept as
            // opaque bytes (`Atom.prefixSize` holds 32 bits).
            if let value = prefix, value > Int(Int32.max) {
                prefix = nil
                atom.role = .leaf
            }
            if let prefix {
                if UInt64(prefix) > payloadSize {
                    note(.warning, .invalidPayload, at: payloadStart, child: index,
                         "\(payloadSize) bytes are too few for the \(prefix) bytes of fields before the children")
                    atom.prefixSize = Int(payloadSize)
                } else {
                    atom.prefixSize = prefix
                    locator.append(index)
                    // Room for the children up front spares the steps of growing the list
                    // (each a reallocation and a move): as many as the payload can hold (a
                    // child takes at least 8 bytes), at most 8, which most containers fit
                    // (an `ilst` of a dozen items grows once; a fragmented file's thousands
                    // of `moof` and `traf` keep room for 8 children each, not more).
                    atom.children.reserveCapacity(Int(min((payloadSize - UInt64(prefix)) / 8, 8)))
                    atom.trailingSize = try parseChildren(
                        from: payloadStart + UInt64(prefix), to: position + extent, depth: depth + 1,
                        parent: header.type, handler: handler, window: atomWindow, into: &atom.children)
                    locator.removeLast()
                }
            }
            if header.type == "hdlr" && parent == "mdia", payloadSize >= 12 {
                // The media handler decides how the track's sample entries are laid out; it
                // applies to the later siblings of this `hdlr` and their descendants only.
                let bytes = try read(at: payloadStart + 8, count: 4, window: atomWindow)
                let i = bytes.startIndex
                handler = FourCC(bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3])
            }
            children.append(consume atom)
            position += extent
        }
        return 0
    }

    /// Decodes the header at `position` (`bytes` holds at least 8 bytes); on an impossible size,
    /// records why and returns nil (the caller keeps the rest of the range as opaque bytes).
    /// `index` is the position the atom will have among its siblings.
    private func decodeHeader(
        _ bytes: ArraySlice<UInt8>, at position: UInt64, available: UInt64, depth: Int, index: Int
    ) -> (AtomHeader, UInt64)? {
        let i = bytes.startIndex
        func word(_ at: Int) -> UInt32 {
            UInt32(bytes[i + at]) << 24 | UInt32(bytes[i + at + 1]) << 16 | UInt32(bytes[i + at + 2]) << 8 | UInt32(bytes[i + at + 3])
        }
        let size32 = word(0)
        let type = FourCC(rawValue: word(4))
        var header = AtomHeader(type: type, offset: position, declaredSize: UInt64(size32), sizeForm: .compact, headerSize: 8)
        var extent = UInt64(size32)
        let name = { AtomPath.escapedTypeName(type) }
        switch size32 {
        case 0:
            header.sizeForm = .toEnd
            extent = available
            if depth > 0 {
                note(.warning, .zeroSizeInContainer, at: position, child: index,
                     "atom '\(name())' has size 0 (\"to the end of the file\"), which only the top level allows; read as running to the end of its parent")
            }
        case 1:
            guard bytes.count >= 16 else {
                note(.warning, .truncated, at: position,
                     "atom '\(name())' has a 64-bit size but its header is cut off after \(available) bytes")
                return nil
            }
            let large = UInt64(word(8)) << 32 | UInt64(word(12))
            header.sizeForm = .extended
            header.headerSize = 16
            header.declaredSize = large
            extent = large
            guard large >= 16 else {
                note(.warning, .invalidSize, at: position,
                     "atom '\(name())' declares a 64-bit size of \(large), smaller than its 16-byte header")
                return nil
            }
        default:
            guard size32 >= 8 else {
                note(.warning, .invalidSize, at: position,
                     "atom '\(name())' declares a size of \(size32), smaller than its 8-byte header")
                return nil
            }
        }
        if type == AtomHeader.uuidType {
            let start = header.headerSize
            guard bytes.count >= start + 16 else {
                note(.warning, .truncated, at: position,
                     "uuid atom header is cut off: its 16-byte extended type does not fit in \(available) bytes")
                return nil
            }
            header.extendedType = Array(bytes[(i + start)..<(i + start + 16)])
            header.headerSize += 16
            guard extent >= UInt64(header.headerSize) || header.sizeForm == .toEnd else {
                note(.warning, .invalidSize, at: position,
                     "uuid atom declares a size of \(extent), smaller than its \(header.headerSize)-byte header")
                return nil
            }
        }
        if extent > available {
            note(.warning, depth == 0 ? .truncated : .overrun, at: position, child: index,
                 depth == 0
                    ? "atom '\(name())' declares \(extent) bytes but the file ends after \(available); read as truncated"
                    : "atom '\(name())' declares \(extent) bytes but its parent has only \(available) left; read up to the parent's end")
            extent = available
            guard extent >= UInt64(header.headerSize) else { return nil }
        }
        return (header, extent)
    }

    /// ISO `meta` is a full box (4 bytes of version and flags before the children); QuickTime's
    /// `meta` is a plain container. Tell them apart by whether a plausible child header starts
    /// right after the atom header.
    private func metaPrefix(at start: UInt64, size: UInt64, window: Int32) throws(AtomError) -> Int {
        guard size >= 8 else { return min(4, Int(size)) }
        let bytes = try read(at: start, count: 8, window: window)
        return looksLikeAtomHeader(bytes, room: size) ? 0 : 4
    }

    /// The fixed fields of a sample entry (ISO/IEC 14496-12 section 12; QuickTime sound
    /// descriptions versions 1 and 2 add 16 and 36 bytes).
    private func sampleEntryPrefix(_ kind: SampleEntryKind, at start: UInt64, size: UInt64, window: Int32)
        throws(AtomError) -> Int?
    {
        switch kind {
        case .quickTimeText:
            return nil
        case .video:
            return 78
        case .timedText:
            return 38
        case .timecode:
            return 26
        case .generic:
            // Only the common fields are known; children follow only when they look like atoms
            // (QuickTime's `c608`, for one, has none).
            guard size >= 16 else { return Int(min(size, 8)) }
            let next = try read(at: start + 8, count: 8, window: window)
            return looksLikeAtomHeader(next, room: size - 8) ? 8 : Int(size)
        case .audio:
            guard size >= 28 else { return 28 }
            let fields = try read(at: start, count: Int(min(size, 72)), window: window)
            let version = UInt16(fields[fields.startIndex + 8]) << 8 | UInt16(fields[fields.startIndex + 9])
            let candidates = switch version {
            case 1: [44, 28]
            case 2: [64, 28]
            default: [28]
            }
            for candidate in candidates {
                if UInt64(candidate) == size { return candidate }
                if UInt64(candidate) + 8 <= size, UInt64(candidate) + 8 <= UInt64(fields.count) {
                    let from = fields.startIndex + candidate
                    if looksLikeAtomHeader(fields[from..<from + 8], room: size - UInt64(candidate)) { return candidate }
                }
            }
            return candidates[0]
        }
    }

    private func looksLikeAtomHeader(_ bytes: ArraySlice<UInt8>, room: UInt64) -> Bool {
        let i = bytes.startIndex
        let size = UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
        let type = FourCC(bytes[i + 4], bytes[i + 5], bytes[i + 6], bytes[i + 7])
        return (size >= 8 && UInt64(size) <= room || size == 1) && type.isPrintable
    }

    // MARK: - Reading

    /// The bytes of the header at `position` and no more (so reading the header of an `mdat`
    /// touches none of its payload): 8 bytes, 16 with a 64-bit size, 16 more for `uuid`.
    private func readHeaderBytes(at position: UInt64, available: UInt64, window: Int32) throws(AtomError) -> ArraySlice<UInt8> {
        if window >= 0 { return try read(at: position, count: Int(min(available, 32)), window: window) }
        // A run of small atoms at one level outside any window (a million `free` atoms, a long
        // fragmented movie's small boxes) is read ahead 64 KiB at a time once it is long: a
        // header a read each would cost a system call per atom.
        if let ahead = readAhead, ahead.covers(position, count: min(available, 32)) {
            return ahead.bytes(at: position, count: Int(min(available, 32)))
        }
        smallHeadersInARow = position == lastHeaderEnd ? smallHeadersInARow + 1 : 0
        if smallHeadersInARow >= 64, available >= 32 {
            let count = Int(min(available, 64 << 10))
            readAhead = AtomWindow(base: position, bytes: try readFromSource(at: position, count: count))
            return readAhead!.bytes(at: position, count: 32)
        }
        let head = try readFromSource(at: position, count: 8)
        let b = head.startIndex
        var length: UInt64 = 8
        if head[b] == 0 && head[b + 1] == 0 && head[b + 2] == 0 && head[b + 3] == 1 { length += 8 }
        if head[b + 4] == 0x75 && head[b + 5] == 0x75 && head[b + 6] == 0x69 && head[b + 7] == 0x64 { length += 16 }
        length = min(length, available)
        guard length > 8 else { return head }
        return head + (try readFromSource(at: position + 8, count: Int(length - 8)))
    }

    /// `count` bytes at `offset`, from the window when it holds them, otherwise with one read.
    func read(at offset: UInt64, count: Int, window: Int32) throws(AtomError) -> ArraySlice<UInt8> {
        if window >= 0 {
            let w = windows[Int(window)]
            if w.covers(offset, count: UInt64(count)) { return w.bytes(at: offset, count: count) }
        }
        return try readFromSource(at: offset, count: count)
    }

    private func readFromSource(at offset: UInt64, count: Int) throws(AtomError) -> ArraySlice<UInt8> {
        do {
            return try source.slice(at: offset, count: count)
        } catch {
            throw AtomError(.io, offset: offset, message: error.description)
        }
    }

    private func note(
        _ severity: Diagnostic.Severity, _ code: AtomError.Code, at offset: UInt64, child: Int? = nil,
        _ message: String
    ) {
        guard pending.count < limits.maxDiagnostics else {
            suppressed += 1
            return
        }
        let place = child.map { locator + [$0] } ?? locator
        pending.append((Diagnostic(severity, code, offset: offset, path: .root, message: message), place))
    }

    /// The first four bytes for an error message: printable ASCII as is, others as `\xNN`.
    private func describeOpening(_ bytes: ArraySlice<UInt8>) -> String {
        let text = bytes.prefix(4).map { byte in
            byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
        }.joined()
        return "\"\(text)\""
    }

    /// The path of the atom reached by following child indexes from the top level. `memo`
    /// keeps each container's sibling indexes, so resolving many diagnostics stays linear.
    static func path(for locator: [Int], in atoms: [Atom], memo: inout [[Int]: [Int?]]) -> AtomPath {
        var path = AtomPath.root
        var siblings = atoms
        var prefix: [Int] = []
        for index in locator {
            guard index < siblings.count else { break }
            let indexes: [Int?]
            if let known = memo[prefix] {
                indexes = known
            } else {
                indexes = AtomTree.siblingIndexes(siblings)
                memo[prefix] = indexes
            }
            path = path.appending(siblings[index].type, index: indexes[index])
            siblings = siblings[index].children
            prefix.append(index)
        }
        return path
    }
}
