import ID3
import ISOBMFF
import MediaBytes

/// Inspection nodes for an atom tree, produced on demand: a node's children are the atoms of
/// the tree below it (their headers are already parsed); its details decode its payload when
/// asked for, and its table reads entries a page at a time.
final class AtomNodes: Sendable {
    let inspector: AtomInspector
    /// The path of each track of the first `moov`, by track ID (for `tref` references).
    let trackPaths: [UInt32: String]

    init(tree: AtomTree, options: AtomFieldOptions) {
        inspector = AtomInspector(tree: tree, options: options)
        var tracks: [UInt32: String] = [:]
        let movies = tree.atoms.filter { $0.type == "moov" }
        if let moov = movies.first {
            let traks = moov.children.filter { $0.type == "trak" }
            for (i, trak) in traks.enumerated() {
                guard let tkhd = trak.child("tkhd"), tkhd.payloadSize >= 24,
                    let head = try? tree.bytes(at: tkhd.payloadOffset, count: 24)
                else { continue }
                let bytes = Array(head)
                let at = bytes[0] == 1 ? 20 : 12
                let id = bytes[at..<at + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                tracks[id] = "moov" + (movies.count > 1 ? "[0]" : "") + "/trak" + (traks.count > 1 ? "[\(i)]" : "")
            }
        }
        trackPaths = tracks
    }

    var tree: AtomTree { inspector.tree }

    func topLevel() -> [InspectionNode] { list(inspector.topLevelSiblings(), parentPath: nil) }

    /// The nodes of one level, a page at a time (`InspectionNode.paged`); the parent's path is
    /// made into text only for a list longer than a page (the `.more` node's path).
    func list(_ siblings: AtomSiblings, parentPath: AtomPath?) -> [InspectionNode] {
        InspectionNode.paged(count: siblings.count, parentPath: siblings.count > InspectionNode.pageSize ? parentPath?.description ?? "" : "",
                             range: { siblings.atoms[$0].offset..<siblings.atoms[$0].endOffset },
                             node: { [self] in node(siblings, $0) })
    }

    /// The node of atom `index` of a level. Its producer is the level and the index: the
    /// context (and the path in it) is made each time the node is asked for more.
    func node(_ siblings: AtomSiblings, _ index: Int) -> InspectionNode {
        let atom = siblings.atoms[index]
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
        // An event message carrying ID3 shows the tag's frames as its children.
        if atom.type == "emsg", let tag = Self.eventMessageTag(atom, tree: tree) {
            let context = siblings.context(at: index)
            let path = context.path.description
            return InspectionNode(
                kind: .atom, type: atom.type.description, offset: atom.offset, size: atom.size, headerSize: atom.headerSize,
                path: path, notes: notes, extra: extra, hasChildren: !tag.frames.isEmpty,
                children: { InspectionNode.nodes(describing: ID3Frame.structures(tag.frames, version: tag.majorVersion, offsetsAreInFile: !tag.isUnsynchronised),
                                                 under: path) },
                details: { [self] in details(context) })
        }
        return InspectionNode(
            kind: .atom, type: atom.type.description, offset: atom.offset, size: atom.size, headerSize: atom.headerSize,
            notes: notes, extra: extra, hasChildren: !atom.children.isEmpty, producer: Producer(nodes: self, siblings: siblings, index: index))
    }

    /// What makes an atom's node's children, details and path: three words, kept inline in
    /// the node.
    struct Producer: InspectionProducer {
        let nodes: AtomNodes
        let siblings: AtomSiblings
        let index: Int

        func children() -> [InspectionNode] {
            let context = siblings.context(at: index)
            return nodes.list(nodes.inspector.siblings(below: context), parentPath: context.path)
        }

        func details() -> InspectionDetails { nodes.details(siblings.context(at: index)) }

        func brief() -> InspectionBrief {
            // The decoding alone: no field ranges, references or sample table.
            let (summary, diagnostics) = nodes.inspector.brief(siblings.context(at: index))
            return InspectionBrief(summary: summary, diagnostics: diagnostics)
        }

        var path: String? { siblings.context(at: index).path.description }
    }

    /// The ID3 tag an `emsg` of an ID3 scheme carries, read where it lies in the file.
    static func eventMessageTag(_ atom: Atom, tree: AtomTree) -> ID3v2Tag? {
        guard let box: EventMessageBox = tree.payload(of: atom), box.carriesID3 else { return nil }
        return try? ID3v2Tag(parsing: box.messageData, at: box.messageDataOffset)
    }

    func details(_ context: AtomDecodingContext) -> InspectionDetails {
        let inspected = inspector.inspect(context)
        let atom = context.atom
        var fields = inspected.fields.map(InspectionField.init)
        assignRanges(&fields, atom: atom, payload: inspected.payload)
        // Bytes at the end of a container too few to be an atom: named, so every byte of the
        // payload is some field's or child's.
        if atom.trailingSize > 0, !atom.children.isEmpty || atom.isContainer, atom.trailingSize <= atom.size {
            let end = atom.endOffset
            fields.append(InspectionField("trailingBytes", .string("\(atom.trailingSize) bytes that form no atom"), range: end - atom.trailingSize..<end))
        }
        var references: [InspectionReference] = []
        var table: InspectionTable?
        switch inspected.payload {
        case let box as ItemLocationBox:
            for item in box.items where item.constructionMethod == 0 {
                for (k, extent) in item.extents.enumerated() {
                    let (start, overflow) = item.baseOffset.addingReportingOverflow(extent.offset)
                    guard !overflow, let range = Self.span(start, extent.length) else { continue }
                    references.append(InspectionReference("item \(item.itemID) extent \(k + 1)", .bytes(range)))
                }
            }
        case let run as TrackRunBox:
            table = trackRunTable(run, context: context)
        default:
            break
        }
        if context.parent == "tref", let index = fields.firstIndex(where: { $0.name == "trackIDs" }), case .array(let ids) = fields[index].value {
            for case .uint(let id) in ids {
                if let path = trackPaths[UInt32(truncatingIfNeeded: id)] { references.append(InspectionReference("track \(id)", .node(path))) }
            }
            fields[index].reference = references.first
        }
        if context.parent == "ilst", let data = inspector.children(of: context).first(where: { $0.atom.type == "data" }) {
            references.append(InspectionReference("value", .node(data.path.description)))
        }
        if table == nil { table = sampleTable(context) }
        if let first = table?.rows(0..<1).first?.reference, references.isEmpty { references.append(first) }
        return InspectionDetails(fields: fields, summary: inspected.summary, references: references,
                                 diagnostics: inspected.diagnostics, table: table)
    }

    /// Byte ranges of the fields whose place in the payload is fixed.
    func assignRanges(_ fields: inout [InspectionField], atom: Atom, payload: (any AtomPayload)?) {
        let start = atom.payloadOffset
        let end = atom.endOffset
        func at(_ lower: UInt64, _ upper: UInt64?) -> Range<UInt64>? {
            let low = start &+ lower
            let high = upper.map { start &+ $0 } ?? end
            return low <= high && high <= end ? low..<high : nil
        }
        guard !fields.isEmpty else { return }
        var layout: [String: (UInt64, UInt64?)] = [:]
        if fields.count >= 2, fields[0].name == "version", fields[1].name == "flags" {
            layout = Self.fullBoxLayout
        }
        switch atom.type {
        case "ftyp", "styp": layout = Self.fileTypeLayout
        case "hdlr": layout.merge(Self.handlerLayout) { $1 }
        case "data" where payload is ItemDataAtom: layout = Self.itemDataLayout
        case "mvhd": layout.merge(fields.first?.value == .uint(1) ? Self.wideMovieHeaderLayout : Self.movieHeaderLayout) { $1 }
        case "mdhd": layout.merge(fields.first?.value == .uint(1) ? Self.wideMediaHeaderLayout : Self.mediaHeaderLayout) { $1 }
        case "tkhd": layout.merge(fields.first?.value == .uint(1) ? Self.wideTrackHeaderLayout : Self.trackHeaderLayout) { $1 }
        case "stsz": layout.merge(Self.sampleSizeLayout) { $1 }
        case "stco", "co64", "stts", "ctts", "stss", "stps", "stsc", "elst": layout.merge(Self.tableLayout) { $1 }
        case "stsd", "dref": layout["entryCount"] = (4, 8)
        case "iinf": layout["entryCount"] = fields.first?.value == .uint(0) ? (4, 6) : (4, 8)
        case "pitm": layout["itemID"] = (4, nil)
        default:
            if atom.type.bytes[0] != 0xA9, fields.first?.name == "trackIDs" { layout["trackIDs"] = (0, nil) }
        }
        for i in fields.indices {
            if let (lower, upper) = layout[fields[i].name] { fields[i].range = at(lower, upper) }
        }
    }

    // Where fixed fields sit in a payload (from, to; nil: to the end), made once.
    static let fullBoxLayout: [String: (UInt64, UInt64?)] = ["version": (0, 1), "flags": (1, 4), "flagsSet": (1, 4)]
    static let fileTypeLayout: [String: (UInt64, UInt64?)] = ["majorBrand": (0, 4), "minorVersion": (4, 8), "compatibleBrands": (8, nil)]
    static let handlerLayout: [String: (UInt64, UInt64?)] = [
        "componentType": (4, 8), "preDefined": (4, 8), "handlerType": (8, 12), "manufacturer": (12, 16), "componentFlags": (16, 24), "reserved": (12, 24),
        "name": (24, nil),
    ]
    static let itemDataLayout: [String: (UInt64, UInt64?)] = [
        "typeSet": (0, 1), "typeIndicator": (1, 4), "typeName": (0, 4), "country": (4, 6), "language": (6, 8),
        "value": (8, nil), "mimeType": (0, 4), "imageSize": (8, nil),
    ]
    static let wideMediaHeaderLayout: [String: (UInt64, UInt64?)] = [
        "creationTime": (4, 12), "modificationTime": (12, 20), "timescale": (20, 24), "duration": (24, 32), "durationSeconds": (24, 32),
        "language": (32, 34), "preDefined": (34, 36),
    ]
    static let mediaHeaderLayout: [String: (UInt64, UInt64?)] = [
        "creationTime": (4, 8), "modificationTime": (8, 12), "timescale": (12, 16), "duration": (16, 20), "durationSeconds": (16, 20),
        "language": (20, 22), "preDefined": (22, 24),
    ]
    static let wideMovieHeaderLayout: [String: (UInt64, UInt64?)] = [
        "creationTime": (4, 12), "modificationTime": (12, 20), "timescale": (20, 24), "duration": (24, 32), "durationSeconds": (24, 32),
        "rate": (32, 36), "volume": (36, 38), "reserved": (38, 48), "matrix": (48, 84), "preDefined": (84, 108), "nextTrackID": (108, 112),
    ]
    static let movieHeaderLayout: [String: (UInt64, UInt64?)] = [
        "creationTime": (4, 8), "modificationTime": (8, 12), "timescale": (12, 16), "duration": (16, 20), "durationSeconds": (16, 20),
        "rate": (20, 24), "volume": (24, 26), "reserved": (26, 36), "matrix": (36, 72), "preDefined": (72, 96), "nextTrackID": (96, 100),
    ]
    static let trackHeaderLayout: [String: (UInt64, UInt64?)] = [
        "enabled": (1, 4), "inMovie": (1, 4), "inPreview": (1, 4), "creationTime": (4, 8), "modificationTime": (8, 12), "trackID": (12, 16),
        "reservedAfterTrackID": (16, 20), "duration": (20, 24), "reservedAfterDuration": (24, 32), "layer": (32, 34), "alternateGroup": (34, 36),
        "volume": (36, 38), "reservedAfterVolume": (38, 40), "matrix": (40, 76), "width": (76, 80), "height": (80, 84),
    ]
    static let wideTrackHeaderLayout: [String: (UInt64, UInt64?)] = [
        "enabled": (1, 4), "inMovie": (1, 4), "inPreview": (1, 4), "creationTime": (4, 12), "modificationTime": (12, 20), "trackID": (20, 24),
        "reservedAfterTrackID": (24, 28), "duration": (28, 36), "reservedAfterDuration": (36, 44), "layer": (44, 46), "alternateGroup": (46, 48),
        "volume": (48, 50), "reservedAfterVolume": (50, 52), "matrix": (52, 88), "width": (88, 92), "height": (92, 96),
    ]
    static let sampleSizeLayout: [String: (UInt64, UInt64?)] = ["sampleSize": (4, 8), "sampleCount": (8, 12), "entryCount": (8, 12), "entries": (12, nil)]
    static let tableLayout: [String: (UInt64, UInt64?)] = ["entryCount": (4, 8), "entries": (8, nil)]

    // MARK: Tables

    /// The track that holds the atom at `path` (a `trak` or something inside one), or nil.
    func track(holding context: AtomDecodingContext) -> Atom? {
        guard let index = context.path.components.lastIndex(where: { $0.type == "trak" }) else { return nil }
        return tree.atom(at: AtomPath(Array(context.path.components[...index])))
    }

    /// The table of a track (its samples), of its sample sizes or chunk offsets, or of a run
    /// table (`stts`, `ctts`, `stss`, `stsc`): entries read from the file a page at a time.
    func sampleTable(_ context: AtomDecodingContext) -> InspectionTable? {
        let atom = context.atom
        let source = tree.source
        switch atom.type {
        case "trak":
            return trackSampleTable(atom)
        case "stsz", "stz2":
            guard let trak = track(holding: context), let locator = TrackSampleLocator(trak: trak, tree: tree) else { return nil }
            let width: UInt64? = atom.type == "stsz" ? 4 : nil
            return InspectionTable(title: "sample sizes", columns: ["sample", "size", "offset"], rowCount: locator.sampleCount) { range in
                locator.samples(range).map { sample in
                    let entry = width.map { w in atom.payloadOffset + 12 + UInt64(sample.number - 1) * w }
                    return InspectionRow(index: sample.number - 1, values: [
                        .uint(UInt64(sample.number)), sample.size.map { .uint(UInt64($0)) } ?? .null, sample.offset.map(JSONValue.uint) ?? .null,
                    ], range: entry.map { $0..<$0 + width! }, reference: Self.sampleReference(sample))
                }
            }
        case "stco", "co64":
            let width = atom.type == "co64" ? 8 : 4
            let locator = track(holding: context).flatMap { TrackSampleLocator(trak: $0, tree: tree) }
            return fixedTable(atom, title: "chunk offsets", columns: ["chunk", "offset"], width: width, source: source) { index, bytes in
                let offset = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                let extent = locator?.chunkExtent(index) ?? offset..<offset
                return ([.uint(UInt64(index + 1)), .uint(offset)], InspectionReference("chunk \(index + 1)", .bytes(extent)))
            }
        case "stts", "ctts":
            let signed = atom.type == "ctts"
            return fixedTable(atom, title: atom.type == "stts" ? "time to sample" : "composition offsets",
                              columns: ["entry", "sampleCount", signed ? "offset" : "delta"], width: 8, source: source) { index, bytes in
                let count = bytes[0..<4].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                let raw = bytes[4..<8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                let value: JSONValue = signed && bytes.count == 8 ? .int(Int64(Int32(bitPattern: raw))) : .uint(UInt64(raw))
                return ([.uint(UInt64(index + 1)), .uint(count), value], nil)
            }
        case "stss", "stps":
            return fixedTable(atom, title: "sync samples", columns: ["entry", "sample"], width: 4, source: source) { index, bytes in
                ([.uint(UInt64(index + 1)), .uint(bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) })], nil)
            }
        case "stsc":
            return fixedTable(atom, title: "sample to chunk", columns: ["entry", "firstChunk", "samplesPerChunk", "sampleDescriptionIndex"],
                              width: 12, source: source) { index, bytes in
                func word(_ i: Int) -> JSONValue { .uint(bytes[i..<i + 4].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }) }
                return ([.uint(UInt64(index + 1)), word(0), word(4), word(8)], nil)
            }
        default:
            return nil
        }
    }

    /// Every sample of a track: those of its `moov` tables, then those of each movie fragment
    /// that names it, with decode and presentation times in ticks and seconds (the media
    /// timescale; presentation is decode time plus composition offset, before any edit list).
    func trackSampleTable(_ trak: Atom) -> InspectionTable? {
        let locator = TrackSampleLocator(trak: trak, tree: tree)
        func decoded<T: AtomPayload>(_ path: [FourCC], as: T.Type) -> T? {
            guard let atom = trak.descendant(AtomPath(path.map { .init(type: $0) })), let bytes = try? tree.fieldBytes(of: atom) else { return nil }
            var reader = ByteReader(bytes, baseOffset: atom.payloadOffset)
            return try? T(from: &reader, context: AtomDecodingContext(atom: atom, parent: path.count > 1 ? path[path.count - 2] : "trak"))
        }
        let moovCount = locator?.sampleCount ?? 0
        let hasFragments = tree.atoms.contains { $0.type == "moof" }
        let fragments = hasFragments ? decoded(["tkhd"], as: TrackHeaderBox.self).map { FragmentSampleLocator(trackID: $0.trackID, tree: tree, firstSample: moovCount) } : nil
        guard locator != nil || (fragments?.sampleCount ?? 0) > 0 else { return nil }
        let timescale = decoded(["mdia", "mdhd"], as: MediaHeaderBox.self)?.timescale ?? 0
        @Sendable func seconds(_ ticks: Int64?) -> JSONValue {
            guard let ticks, timescale > 0 else { return .null }
            return .double((Double(ticks) / Double(timescale) * 1_000_000).rounded() / 1_000_000)
        }
        return InspectionTable(title: "samples",
                               columns: ["sample", "offset", "size", "sync", "decodeTime", "duration", "compositionOffset", "decodeSeconds", "presentationSeconds",
                                         "fragment", "groups", "iv", "subsamples"],
                               rowCount: moovCount + (fragments?.sampleCount ?? 0)) { range in
            let samples = (locator?.samples(range) ?? []) + (fragments?.samples(range) ?? [])
            return samples.map { sample in
                let decode = sample.decodeTime.flatMap { Int64(exactly: $0) }
                let presented = decode.map { $0 &+ (sample.compositionOffset ?? 0) }
                // Where and how big first (what a narrow screen keeps), then the times.
                return InspectionRow(index: sample.number - 1, values: [
                    .uint(UInt64(sample.number)), sample.offset.map(JSONValue.uint) ?? .null, sample.size.map { .uint(UInt64($0)) } ?? .null,
                    .bool(sample.isSync), sample.decodeTime.map(JSONValue.uint) ?? .null, sample.duration.map { .uint(UInt64($0)) } ?? .null,
                    sample.compositionOffset.map(JSONValue.int) ?? .null, seconds(decode), seconds(presented),
                    sample.fragment.map { .uint(UInt64($0)) } ?? .null,
                    sample.groups.isEmpty ? .null : .string(sample.groups.joined(separator: " ")),
                    sample.initializationVector.map { .string($0.hexString) } ?? .null,
                    sample.subsamples.map { pieces in .string(pieces.map { "\($0.clear)+\($0.protected)" }.joined(separator: " ")) } ?? .null,
                ], reference: Self.sampleReference(sample))
            }
        }
    }

    static func sampleReference(_ sample: TrackSampleLocator.Sample) -> InspectionReference? {
        guard let offset = sample.offset, let size = sample.size, let range = span(offset, UInt64(size)) else { return nil }
        return InspectionReference("sample \(sample.number)", .bytes(range))
    }

    /// `start..<start + length`, or nil when that passes the largest offset.
    static func span(_ start: UInt64, _ length: UInt64) -> Range<UInt64>? {
        start <= UInt64.max - length ? start..<start + length : nil
    }

    /// A table of `width`-byte entries after a full box header and a 32-bit entry count; the
    /// count is believed only as far as the atom's bytes go.
    func fixedTable(_ atom: Atom, title: String, columns: [String], width: Int, source: any ByteSource,
                    row: @escaping @Sendable (Int, [UInt8]) -> ([JSONValue], InspectionReference?)) -> InspectionTable? {
        guard atom.payloadSize >= 8, let head = try? source.read(at: atom.payloadOffset + 4, count: 4), head.count == 4 else { return nil }
        let declared = head.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let start = atom.payloadOffset + 8
        let count = Int(min(declared, (atom.endOffset - start) / UInt64(width)))
        return InspectionTable(title: title, columns: columns, rowCount: count) { range in
            let first = start + UInt64(range.lowerBound * width)
            guard let bytes = try? source.read(at: first, count: range.count * width) else { return [] }
            return range.compactMap { index in
                let at = (index - range.lowerBound) * width
                guard at + width <= bytes.count else { return nil }
                let (values, reference) = row(index, Array(bytes[at..<at + width]))
                let entry = first + UInt64(at)
                return InspectionRow(index: index, values: values, range: entry..<entry + UInt64(width), reference: reference)
            }
        }
    }

    /// The samples of a fragment run, pointing at their bytes when the run says where they are.
    func trackRunTable(_ run: TrackRunBox, context: AtomDecodingContext) -> InspectionTable? {
        let components = context.path.components
        guard components.count >= 3 else { return nil }
        let traf = tree.atom(at: AtomPath(Array(components.dropLast())))
        let moof = tree.atom(at: AtomPath(Array(components.dropLast(2))))
        var header: TrackFragmentHeaderBox?
        if let tfhd = traf?.child("tfhd"), let bytes = try? tree.fieldBytes(of: tfhd) {
            var reader = ByteReader(bytes, baseOffset: tfhd.payloadOffset)
            header = try? TrackFragmentHeaderBox(from: &reader, context: AtomDecodingContext(atom: tfhd, parent: "traf"))
        }
        var start: UInt64?
        if let dataOffset = run.dataOffset, let base = header?.baseDataOffset ?? moof?.offset {
            start = UInt64(clamping: Int64(clamping: base) &+ Int64(dataOffset))
        }
        let defaultSize = header?.defaultSampleSize
        // Per-sample fields are bounded by the atom's bytes; a run of defaults is counted, not
        // stored, so its rows are worked out one page at a time.
        let samples = run.samples
        let rowCount = samples.isEmpty ? Int(run.sampleCount) : samples.count
        var starts: [UInt64?] = []
        if !samples.isEmpty {
            starts.reserveCapacity(samples.count)
            var offset = start
            for sample in samples {
                starts.append(offset)
                let size = sample.size ?? defaultSize
                offset = size.flatMap { s in offset.map { $0 &+ UInt64(s) } }
            }
        }
        let sampleStarts = starts
        let dataStart = start
        let defaultDuration = header?.defaultSampleDuration
        return InspectionTable(title: "run samples", columns: ["sample", "duration", "size", "compositionOffset", "offset"],
                               rowCount: rowCount) { range in
            range.map { index in
                let sample = samples.isEmpty ? TrackRunBox.Sample() : samples[index]
                let size = sample.size ?? defaultSize
                let offset = samples.isEmpty ? dataStart.flatMap { s in size.map { s &+ UInt64(index) &* UInt64($0) } } : sampleStarts[index]
                var reference: InspectionReference?
                if let offset, let size, let range = Self.span(offset, UInt64(size)) {
                    reference = InspectionReference("sample \(index + 1)", .bytes(range))
                }
                return InspectionRow(index: index, values: [
                    .uint(UInt64(index + 1)), (sample.duration ?? defaultDuration).map { .uint(UInt64($0)) } ?? .null,
                    size.map { .uint(UInt64($0)) } ?? .null, sample.compositionTimeOffset.map(JSONValue.int) ?? .null,
                    offset.map(JSONValue.uint) ?? .null,
                ], reference: reference)
            }
        }
    }
}

extension InspectionNode {
    /// The top-level nodes of an atom tree (their children and details produced on demand).
    public static func atoms(of tree: AtomTree, options: AtomFieldOptions = .default) -> [InspectionNode] {
        AtomNodes(tree: tree, options: options).topLevel()
    }
}
