import MediaBytes

/// What the conformance rules look at, read from a tree once: the file type, the movie and its
/// tracks, every movie fragment's track fragments, the segment indexes, the HEIF item
/// structure and the iTunes items. Each part is decoded through the inspector (in its context:
/// a sample entry by its track's handler, `senc` with its track's IV size), so a rule sees the
/// values `tree --json` shows. A box that does not decode is left out here; the structural
/// check reports it.
struct ConformanceFacts {
    struct Track {
        var atom: Atom
        var path: AtomPath
        var header: TrackHeaderBox?
        var media: MediaHeaderBox?
        var edits: EditListBox?
        var handler: FourCC?
        /// The sample entries (`stsd`'s children) with the original format of an encrypted one
        /// (`encv`/`enca` with `sinf/frma`).
        var sampleEntries: [(atom: Atom, format: FourCC)] = []
        /// `avcC`'s profile and level, when the track has one.
        var avcProfileLevel: (profile: UInt64, level: UInt64)?
        /// The sum of the `stts` sample durations, in the media timescale.
        var sampleDurations: UInt64?
        /// The track IDs of `tref/chap`.
        var chapterTrackIDs: [UInt32] = []
        var trackID: UInt32? { header?.trackID }
    }

    struct TrackFragment {
        var atom: Atom
        var path: AtomPath
        var header: TrackFragmentHeaderBox?
        var decodeTime: UInt64?
        var runs: [TrackRunBox] = []
        /// `saiz`'s and `senc`'s sample counts, with their atoms.
        var auxiliarySizes: (count: UInt64, atom: Atom)?
        var encryption: (count: UInt64, atom: Atom)?
        var sampleCount: UInt64 { runs.reduce(0) { $0 + UInt64($1.sampleCount) } }
    }

    struct Fragment {
        var atom: Atom
        var trackFragments: [TrackFragment] = []
    }

    struct ImageItems {
        var meta: Atom
        var primary: (id: UInt32, atom: Atom)?
        /// Each item's type (nil for an `infe` of version 0-1), in file order.
        var items: [(id: UInt32, type: FourCC?, atom: Atom)] = []
        /// The property boxes of `ipco`, in order (association index 1 is the first).
        var properties: [Atom] = []
        var associations: [(itemID: UInt32, propertyIndexes: [UInt32], atom: Atom)] = []
        var references: [(type: FourCC, box: ItemReferenceBox, atom: Atom)] = []
    }

    struct ListItem {
        var type: FourCC
        var data: ItemDataAtom
        var atom: Atom
        var path: AtomPath
    }

    let tree: AtomTree
    var fileType: (box: FileTypeBox, atom: Atom)?
    var movie: Atom?
    var movieHeader: MovieHeaderBox?
    var hasMovieExtends = false
    /// `trex` default sample durations by track ID.
    var defaultDurations: [UInt32: UInt32] = [:]
    var tracks: [Track] = []
    var fragments: [Fragment] = []
    var segmentIndexes: [(box: SegmentIndexBox, atom: Atom)] = []
    var dataReferences: [(box: DataEntryBox, atom: Atom, path: AtomPath)] = []
    var image: ImageItems?
    var listItems: [ListItem] = []

    var isFragmented: Bool { hasMovieExtends || !fragments.isEmpty }

    /// The fragments whose `moof` starts in `range`, found by binary search (they are in file
    /// order): a segment index of thousands of references looks each up without a scan.
    func fragments(in range: Range<UInt64>) -> ArraySlice<Fragment> {
        var low = 0, high = fragments.count
        while low < high {
            let mid = (low + high) / 2
            if fragments[mid].atom.offset < range.lowerBound { low = mid + 1 } else { high = mid }
        }
        var end = low
        while end < fragments.count, fragments[end].atom.offset < range.upperBound { end += 1 }
        return fragments[low..<end]
    }

    init(tree: AtomTree) {
        self.tree = tree
        let inspector = AtomInspector(tree: tree, options: .complete)
        walk(inspector.topLevelSiblings(), inspector: inspector)
    }

    private static func decode<T: AtomPayload>(_ context: AtomDecodingContext, _ inspector: AtomInspector, as type: T.Type) -> T? {
        (try? inspector.decode(context)) as? T
    }

    /// Visits every atom once, in file order, filling the facts from the ones the rules read.
    private mutating func walk(_ siblings: AtomSiblings, inspector: AtomInspector) {
        for index in 0..<siblings.count {
            let context = siblings.context(at: index)
            let atom = context.atom
            let depth = context.path.components.count
            func decoded<T: AtomPayload>(as type: T.Type) -> T? { Self.decode(context, inspector, as: type) }
            switch atom.type {
            case "ftyp" where depth == 1 && fileType == nil:
                if let box = decoded(as: FileTypeBox.self) { fileType = (box, atom) }
            case "moov" where depth == 1:
                // A second movie is the structural check's finding; the rules read the first.
                guard movie == nil else { continue }
                movie = atom
            case "mvhd" where context.parent == "moov":
                movieHeader = decoded(as: MovieHeaderBox.self)
            case "mvex" where context.parent == "moov":
                hasMovieExtends = true
            case "trex":
                if let box = decoded(as: FragmentFieldsBox.self), let id = box.fields.unsigned("trackID"),
                   let duration = box.fields.unsigned("defaultSampleDuration") {
                    defaultDurations[UInt32(truncatingIfNeeded: id)] = UInt32(truncatingIfNeeded: duration)
                }
            case "trak" where context.parent == "moov":
                tracks.append(Track(atom: atom, path: context.path))
            case "tkhd" where context.parent == "trak":
                tracks.lastModify { $0.header = decoded(as: TrackHeaderBox.self) }
            case "mdhd":
                tracks.lastModify { $0.media = decoded(as: MediaHeaderBox.self) }
            case "elst":
                tracks.lastModify { $0.edits = decoded(as: EditListBox.self) }
            case "hdlr" where context.parent == "mdia":
                tracks.lastModify { $0.handler = decoded(as: HandlerBox.self)?.handlerType }
            case "stts" where context.parent == "stbl":
                if let box = decoded(as: TimeToSampleBox.self) {
                    tracks.lastModify { $0.sampleDurations = box.entries.reduce(UInt64(0)) { $0 &+ UInt64($1.sampleCount) &* UInt64(max($1.value, 0)) } }
                }
            case "avcC":
                if let box = decoded(as: CodecConfigurationBox.self), let profile = box.fields(.default).unsigned("profile"),
                   let level = box.fields(.default).unsigned("level") {
                    tracks.lastModify { $0.avcProfileLevel = (profile, level) }
                }
            case "chap" where context.parent == "tref":
                if let box = decoded(as: SmallFieldsBox.self), case .list(let ids)? = box.fields(.complete).first(where: { $0.name == "trackIDs" })?.value {
                    tracks.lastModify { $0.chapterTrackIDs = ids.compactMap { if case .unsigned(let id) = $0 { UInt32(truncatingIfNeeded: id) } else { nil } } }
                }
            case "url ", "urn ":
                if context.parent == "dref", let box = decoded(as: DataEntryBox.self) { dataReferences.append((box, atom, context.path)) }
            case "moof" where depth == 1:
                fragments.append(Fragment(atom: atom))
            case "traf" where context.parent == "moof":
                fragments.lastModify { $0.trackFragments.append(TrackFragment(atom: atom, path: context.path)) }
            case "tfhd", "tfdt", "trun", "saiz", "senc":
                guard context.parent == "traf" else { break }
                let payload = try? inspector.decode(context)
                fragments.lastModify { fragment in
                    fragment.trackFragments.lastModify { traf in
                        switch payload {
                        case let header as TrackFragmentHeaderBox: traf.header = header
                        case let run as TrackRunBox: traf.runs.append(run)
                        case let box as FragmentFieldsBox: traf.decodeTime = box.fields.unsigned("baseMediaDecodeTime")
                        case let box as ProtectionBox:
                            if let count = box.fields.unsigned("sampleCount") {
                                if atom.type == "saiz" { traf.auxiliarySizes = (count, atom) } else { traf.encryption = (count, atom) }
                            }
                        default: break
                        }
                    }
                }
            case "sidx" where depth == 1:
                if let box = decoded(as: SegmentIndexBox.self) { segmentIndexes.append((box, atom)) }
            case "meta" where depth == 1 && image == nil:
                image = ImageItems(meta: atom)
            case "pitm" where depth == 2:
                if let box = decoded(as: PrimaryItemBox.self) { image?.primary = (box.itemID, atom) }
            case "infe" where depth == 3:
                if let box = decoded(as: ItemInfoEntryBox.self) { image?.items.append((box.itemID, box.itemType, atom)) }
            case "ipco" where depth == 3:
                image?.properties = atom.children
            case "ipma" where depth == 3:
                image?.associations += Self.associations(decoded(as: PropertyBox.self), atom: atom)
            case _ where context.parent == "iref" && depth == 3:
                if let box = decoded(as: ItemReferenceBox.self) { image?.references.append((atom.type, box, atom)) }
            case "data" where context.grandparent == "ilst":
                if let box = decoded(as: ItemDataAtom.self), let item = context.path.components.dropLast().last?.type {
                    listItems.append(ListItem(type: item, data: box, atom: atom, path: context.path))
                }
            default:
                break
            }
            // Sample entries: their type is the codec; an encrypted one names the original in `sinf/frma`.
            if case .sampleEntry = atom.role {
                let original = atom.child("sinf")?.child("frma").flatMap { frma in
                    (try? tree.bytes(at: frma.payloadOffset, count: 4)).map { bytes in
                        let b = Array(bytes)
                        return FourCC(b[0], b[1], b[2], b[3])
                    }
                }
                tracks.lastModify { $0.sampleEntries.append((atom, original ?? atom.type)) }
            }
            // Media data and the samples' bytes hold no boxes the rules read.
            if !atom.children.isEmpty, atom.type != "mdat" { walk(inspector.siblings(below: context), inspector: inspector) }
        }
    }

    /// `ipma`'s entries: each item with the indexes of its properties (0: none).
    private static func associations(_ box: PropertyBox?, atom: Atom) -> [(itemID: UInt32, propertyIndexes: [UInt32], atom: Atom)] {
        guard let box, case .list(let entries)? = box.fields(.complete).first(where: { $0.name == "entries" })?.value else { return [] }
        return entries.compactMap { entry in
            guard case .record(let fields) = entry, let id = fields.unsigned("itemID"),
                  case .list(let list)? = fields.first(where: { $0.name == "associations" })?.value else { return nil }
            let indexes = list.compactMap { value -> UInt32? in
                guard case .record(let association) = value else { return nil }
                return association.unsigned("propertyIndex").map { UInt32(truncatingIfNeeded: $0) }
            }
            return (UInt32(truncatingIfNeeded: id), indexes, atom)
        }
    }
}

extension Array where Element == DescribedField {
    /// The unsigned value of the first field named `name`, or nil.
    func unsigned(_ name: String) -> UInt64? {
        guard let field = first(where: { $0.name == name }) else { return nil }
        switch field.value {
        case .unsigned(let value): return value
        case .integer(let value): return value >= 0 ? UInt64(value) : nil
        default: return nil
        }
    }
}

extension Array {
    /// Changes the last element, when there is one.
    mutating func lastModify(_ change: (inout Element) -> Void) {
        guard !isEmpty else { return }
        change(&self[count - 1])
    }
}
