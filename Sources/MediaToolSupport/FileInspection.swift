import Carriers
import ID3
import ISOBMFF
import MediaBytes
import MediaMetadata

/// Why a file could not be inspected.
public struct InspectionFailure: Error, Sendable, CustomStringConvertible {
    /// Which failure: `notFound`, `permissionDenied`, `unreadable` (an I/O error),
    /// `unsupported` (not a format the tools read, a folder, a device), `malformed`.
    public enum Kind: Sendable { case notFound, permissionDenied, unreadable, unsupported, malformed }
    public var kind: Kind
    /// One line naming the file and, where it applies, the offset and the place in the file.
    public var message: String
    public var description: String { message }
}

/// A file opened for `atominspect`: its format, its top-level nodes, and the diagnostics met
/// reading its structure. ISO-BMFF/QuickTime files show atoms; MP3 and ADTS files their tags,
/// stream header and trailing blocks; AIFF and WAV files their chunks.
///
/// Opening reads headers only (for atoms, the tree of atom headers); what lies below the top
/// level is produced when asked for, so a 5 GiB file or a million-sample movie opens at once.
public struct FileInspection: Sendable {
    public let path: String
    public let source: any ByteSource
    public let format: MediaFormat?
    /// The format's name as the tools print it: `mp4`, `mp3`, `ts`...
    public var formatName: String? { format?.rawValue }
    /// The top-level nodes, in file order.
    public let nodes: [InspectionNode]
    /// Problems met reading the structure (those met decoding a node are in its details).
    public let diagnostics: [Diagnostic]
    /// The atom tree, for atom-based files.
    public let atomTree: AtomTree?
    /// The problems a whole check finds beyond those met opening the file (an Ogg file's
    /// audio pages, each read and checked); nil when opening meets them all.
    let deepCheck: (@Sendable () -> [Diagnostic])?
    /// Bytes at the end of an atom-based file that form no atom.
    public var trailingBytes: UInt64 { atomTree?.trailingSize ?? 0 }

    /// Opens and reads `path`.
    ///
    /// - Throws: `InspectionFailure` naming the file: `.notFound`, `.permissionDenied`,
    ///   `.unreadable` (I/O), `.unsupported` (a folder, a device, or not a format this tool
    ///   reads; the message says what it looks like), `.malformed` (with `strict`, the first
    ///   anomaly).
    public static func open(_ path: String, strict: Bool = false, fieldOptions: AtomFieldOptions = .default) throws(InspectionFailure) -> FileInspection {
        let source: FileByteSource
        do {
            source = try FileByteSource(path: path)
        } catch {
            let kind: InspectionFailure.Kind = switch error.code {
            case .notFound: .notFound
            case .permissionDenied: .permissionDenied
            case .isDirectory, .notRegularFile: .unsupported
            default: .unreadable
            }
            throw InspectionFailure(kind: kind, message: error.description)
        }
        // The reader of the format's structure (`MediaFormat.definitions`); atoms, which say
        // best what a file that is none of these looks like, otherwise.
        let format = MediaFormat.detect(source, named: path)
        guard let structure = format?.definition?.structure, let open = carrierOpeners[structure] else {
            if format == nil { try refuseUnrecognized(path, source) }
            return try openAtoms(path, source: source, format: format, strict: strict, fieldOptions: fieldOptions)
        }
        return try open(path, source, format, strict)
    }

    /// Refuses a file no format recognised in the words of the format its name gives (an MP3
    /// that is empty or all junk is not "too short for an atom header"), or an empty file;
    /// returns for the atom reader to say what the rest look like.
    private static func refuseUnrecognized(_ path: String, _ source: FileByteSource) throws(InspectionFailure) {
        if source.size == 0 { throw InspectionFailure(kind: .unsupported, message: "\(path): the file is empty") }
        guard let named = MediaFormat.definition(named: path), named.structure != .atoms else { return }
        let head = (try? source.readAvailable(at: 0, upTo: 8)) ?? []
        throw InspectionFailure(kind: .unsupported, message: "\(path): not a file atominspect reads: its name says \(named.names[0]), but no \(named.names[0]) file "
                                    + "begins as it does (its first bytes: \(head.map { [$0].hexString }.joined(separator: " ")); "
                                    + "\(source.size) bytes)")
    }

    typealias Opener = @Sendable (String, FileByteSource, MediaFormat?, Bool) throws(InspectionFailure) -> FileInspection

    /// The reader and node builder of each structure other than atoms: a new structure is a row.
    static let carrierOpeners: [MediaFormat.Structure: Opener] = [
        .mpegStream: { path, source, format, strict throws(InspectionFailure) in
            try openCarrier(path, source: source, format: format, strict: strict, read: MPEGStreamFile.init(source:),
                            deepCheck: { file in file.walkFrames(maxRows: 0).diagnostics })
        },
        .iffChunks: { path, source, format, strict throws(InspectionFailure) in
            try openCarrier(path, source: source, format: format, strict: strict, read: IFFChunkFile.init(source:))
        },
        .flacBlocks: { path, source, format, strict throws(InspectionFailure) in
            try openCarrier(path, source: source, format: format, strict: strict, read: FLACFile.init(source:))
        },
        .oggPages: { path, source, format, strict throws(InspectionFailure) in
            try openCarrier(path, source: source, format: format, strict: strict, read: OggFile.init(source:),
                            deepCheck: { file in file.walkPages(from: file.headerEnd).diagnostics })
        },
        .transportStream: { path, source, format, strict throws(InspectionFailure) in
            try openCarrier(path, source: source, format: format, strict: strict, read: TransportStreamFile.init(source:))
        },
    ]

    private static func openAtoms(_ path: String, source: FileByteSource, format: MediaFormat?, strict: Bool, fieldOptions: AtomFieldOptions) throws(InspectionFailure) -> FileInspection {
        let tree: AtomTree
        do {
            tree = try AtomTree(source: source, options: strict ? .strict : .lenient)
        } catch let error where error.code == .notISOBMFF {
            throw InspectionFailure(kind: .unsupported, message: "\(path): \(error.message)")
        } catch let error where error.code == .io {
            throw InspectionFailure(kind: .unreadable, message: "\(path): \(error.description)")
        } catch {
            throw InspectionFailure(kind: .malformed, message: "\(path): malformed \(error.description)")
        }
        return FileInspection(path: path, source: source, format: format, nodes: AtomNodes(tree: tree, options: fieldOptions).topLevel(),
                              diagnostics: tree.diagnostics, atomTree: tree, deepCheck: nil)
    }

    /// A file of a carrier layout, read with `read`: its diagnostics and the nodes of the parts
    /// it describes.
    private static func openCarrier<File>(
        _ path: String, source: FileByteSource, format: MediaFormat?, strict: Bool,
        read: (any ByteSource) throws(CarrierError) -> File,
        deepCheck: (@Sendable (File) -> [Diagnostic])? = nil
    ) throws(InspectionFailure) -> FileInspection where File: StructureDescribing {
        let file: File
        do {
            file = try read(source)
        } catch {
            let kind: InspectionFailure.Kind = switch error.code {
            case .io: .unreadable
            case .unrecognized: .unsupported
            default: .malformed
            }
            throw InspectionFailure(kind: kind, message: "\(path): \(error.description)")
        }
        let found = file.diagnostics
        // `--strict` refuses any anomaly, those of a deeper walk too.
        try checkStrict(path, found + (strict ? deepCheck.map { $0(file) } ?? [] : []), strict)
        let deep = deepCheck.map { check in { @Sendable in check(file) } }
        return FileInspection(path: path, source: source, format: format, nodes: InspectionNode.nodes(of: file.structure), diagnostics: found,
                              atomTree: nil, deepCheck: deep)
    }

    private static func checkStrict(_ path: String, _ diagnostics: [Diagnostic], _ strict: Bool) throws(InspectionFailure) {
        if strict, let first = diagnostics.first(where: \.isProblem) {
            throw InspectionFailure(kind: .malformed, message: "\(path): malformed at byte offset \(first.offset) (\(first.path)): \(first.message)")
        }
    }

    /// The node at a path like `moov/trak[1]/mdia` or `ID3v2/TXXX[1]`, or nil.
    public func node(at path: String) -> InspectionNode? {
        guard let components = InspectionPath.parse(path) else { return nil }
        return InspectionPath.find(components, in: nodes)
    }

    /// The innermost node whose bytes contain `offset`, and the nodes on the way to it (outermost
    /// first); empty when no node holds the offset. Only the nodes on the way are produced.
    public func nodes(containing offset: UInt64) -> [InspectionNode] {
        var chain: [InspectionNode] = []
        var level = nodes
        while let next = level.first(where: { $0.range.contains(offset) }) {
            chain.append(next)
            // Past the header, look inside; a header byte belongs to the node itself.
            guard next.hasChildren, offset >= next.payloadRange.lowerBound else { break }
            level = next.children
        }
        return chain
    }

    /// Every problem met reading the file and decoding every node (a whole walk), and the
    /// cross-checks of `check`: the browser's list of diagnostics holds all `check` reports.
    public func allDiagnostics() -> [Diagnostic] {
        var found = diagnostics
        func visit(_ nodes: [InspectionNode]) {
            InspectionNode.forEachListed(nodes) { node in
                visit(node.children)
                found += node.details.diagnostics
            }
        }
        visit(nodes)
        if let atomTree {
            found.appendNew(AtomStructureCheck.crossChecks(in: atomTree))
        } else {
            found.appendNew(deepCheck?() ?? [])
        }
        return found
    }

    /// What `atominspect check` reports: every problem (not notes), and for atom-based files the
    /// structural cross-checks of `AtomStructureCheck` and the rules of `profiles`.
    public func findings(profiles: [ConformanceProfile] = []) -> [Diagnostic] {
        if let atomTree {
            return AtomStructureCheck.findings(in: atomTree).filter(\.isProblem) + ConformanceRule.findings(in: atomTree, profiles: profiles)
        }
        var found = diagnostics
        found.appendNew(deepCheck?() ?? [])
        return found.filter(\.isProblem)
    }
}
