import MediaBytes

/// An error about an ISO-BMFF / QuickTime file's structure, naming where it is.
///
/// Equality compares the code only, so tests read `#expect(throws: AtomError(.notISOBMFF))`.
public struct AtomError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An open set of problem kinds; new codes do not break clients' switches.
    public struct Code: Hashable, Sendable, CustomStringConvertible, DiagnosticCode {
        private enum Kind: Hashable, Sendable, CaseIterable {
            case notISOBMFF, invalidSize, overrun, truncated, trailingBytes, zeroSizeInContainer
            case depthLimit, atomCountLimit, payloadLimit, invalidPayload, unknownDataType, inconsistentTables
            case chunkOffsetOutsideMediaData, movieCount, io, notWritable, verificationFailed
        }
        private let kind: Kind
        /// The code's stable name, as diagnostics and JSON give it (`truncated`).
        public var name: String { "\(kind)" }
        /// The code a diagnostic's `code` names, if it is an atom code.
        public init?(named name: String) {
            guard let kind = Kind.allCases.first(where: { "\($0)" == name }) else { return nil }
            self.init(kind)
        }
        private init(_ kind: Kind) { self.kind = kind }

        /// The data does not start like an ISO-BMFF / QuickTime file.
        public static let notISOBMFF = Code(.notISOBMFF)
        /// A size field is impossible (below the header size).
        public static let invalidSize = Code(.invalidSize)
        /// An atom declares more bytes than its parent has left.
        public static let overrun = Code(.overrun)
        /// The file ends inside an atom.
        public static let truncated = Code(.truncated)
        /// Bytes inside a container (or at the end of the file) that form no atom.
        public static let trailingBytes = Code(.trailingBytes)
        /// A size of 0 ("to the end of the file") below the top level.
        public static let zeroSizeInContainer = Code(.zeroSizeInContainer)
        /// Nesting deeper than `AtomLimits.maxDepth`.
        public static let depthLimit = Code(.depthLimit)
        /// More atoms than `AtomLimits.maxAtomCount`.
        public static let atomCountLimit = Code(.atomCountLimit)
        /// An atom larger than `AtomLimits.maxPayloadInMemory` that would have to be read whole.
        public static let payloadLimit = Code(.payloadLimit)
        /// An atom's fields could not be decoded.
        public static let invalidPayload = Code(.invalidPayload)
        /// A `data` atom with a type indicator this reader does not know.
        public static let unknownDataType = Code(.unknownDataType)
        /// Sample tables that disagree about the number of samples.
        public static let inconsistentTables = Code(.inconsistentTables)
        /// A chunk offset that points outside every `mdat` payload.
        public static let chunkOffsetOutsideMediaData = Code(.chunkOffsetOutsideMediaData)
        /// Not exactly one `moov`.
        public static let movieCount = Code(.movieCount)
        /// Reading the file failed.
        public static let io = Code(.io)
        /// The file is not understood well enough to be written safely; nothing was written.
        public static let notWritable = Code(.notWritable)
        /// The file written did not read back as planned; the original was kept.
        public static let verificationFailed = Code(.verificationFailed)

        public var description: String {
            switch kind {
            case .notISOBMFF: "not an ISO-BMFF/QuickTime file"
            case .invalidSize: "invalid size"
            case .overrun: "overrun"
            case .truncated: "truncated"
            case .trailingBytes: "trailing bytes"
            case .zeroSizeInContainer: "zero size in container"
            case .depthLimit: "depth limit"
            case .atomCountLimit: "atom count limit"
            case .payloadLimit: "payload limit"
            case .invalidPayload: "invalid payload"
            case .unknownDataType: "unknown data type"
            case .inconsistentTables: "inconsistent sample tables"
            case .chunkOffsetOutsideMediaData: "chunk offset outside media data"
            case .movieCount: "movie atom count"
            case .io: "I/O error"
            case .notWritable: "not writable"
            case .verificationFailed: "verification failed"
            }
        }
    }

    public var code: Code
    /// The byte offset the problem is at.
    public var offset: UInt64
    /// The atom the problem is in or at (`AtomPath.root` for the top level).
    public var path: AtomPath
    public var message: String

    public init(_ code: Code, offset: UInt64 = 0, path: AtomPath = .root, message: String = "") {
        self.code = code
        self.offset = offset
        self.path = path
        self.message = message
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    public var description: String {
        let place = path.isRoot ? "top level" : path.description
        return "at byte offset \(offset) (\(place)): \(message.isEmpty ? code.description : message)"
    }
}

extension Diagnostic {
    /// A diagnostic of an atom tree, at the atom `path` names.
    public init(_ severity: Severity, _ code: AtomError.Code, offset: UInt64, path: AtomPath, message: String) {
        self.init(severity, code, offset: offset, path: path.isRoot ? "" : path.description, message: message)
    }

    /// The same problem as a thrown error (strict mode).
    public var atomError: AtomError {
        AtomError(AtomError.Code(named: code) ?? .invalidPayload, offset: offset, path: AtomPath(parsing: path) ?? .root, message: message)
    }
}
