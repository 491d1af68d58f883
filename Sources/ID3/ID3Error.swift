import MediaBytes

/// An error about ID3 data, naming where it is.
///
/// Equality compares the code only, so tests read `#expect(throws: ID3Error(.notATag))`.
public struct ID3Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// An open set of problem kinds; new codes do not break clients' switches.
    public struct Code: Hashable, Sendable, CustomStringConvertible, DiagnosticCode {
        private enum Kind: Hashable, Sendable {
            case notATag, unsupportedVersion, truncated, invalidFrame, invalidFrameSize, padding
            case compression, encrypted, invalidExtendedHeader, invalidText, io, notWritable, verificationFailed
        }
        private let kind: Kind
        /// The code's stable name, as diagnostics and JSON give it (`truncated`).
        public var name: String { "\(kind)" }
        private init(_ kind: Kind) { self.kind = kind }

        /// The bytes are not an ID3 tag.
        public static let notATag = Code(.notATag)
        /// An ID3v2 major version other than 2, 3 or 4.
        public static let unsupportedVersion = Code(.unsupportedVersion)
        /// The tag or a frame ends before its declared size.
        public static let truncated = Code(.truncated)
        /// A frame header or body that cannot be read.
        public static let invalidFrame = Code(.invalidFrame)
        /// A frame size that does not fit the tag.
        public static let invalidFrameSize = Code(.invalidFrameSize)
        /// Non-zero bytes where padding should be.
        public static let padding = Code(.padding)
        /// A compressed frame that does not decompress (or would be too large).
        public static let compression = Code(.compression)
        /// An encrypted frame (kept as opaque bytes).
        public static let encrypted = Code(.encrypted)
        /// An extended header that cannot be read.
        public static let invalidExtendedHeader = Code(.invalidExtendedHeader)
        /// Text that does not follow its encoding.
        public static let invalidText = Code(.invalidText)
        /// Reading or writing the file failed.
        public static let io = Code(.io)
        /// The file is not understood well enough to write to it safely.
        public static let notWritable = Code(.notWritable)
        /// The file written does not read back as intended; the original was kept.
        public static let verificationFailed = Code(.verificationFailed)

        public var description: String {
            switch kind {
            case .notATag: "not an ID3 tag"
            case .unsupportedVersion: "unsupported version"
            case .truncated: "truncated"
            case .invalidFrame: "invalid frame"
            case .invalidFrameSize: "invalid frame size"
            case .padding: "junk in padding"
            case .compression: "compression"
            case .encrypted: "encrypted frame"
            case .invalidExtendedHeader: "invalid extended header"
            case .invalidText: "invalid text"
            case .io: "I/O error"
            case .notWritable: "not writable"
            case .verificationFailed: "verification failed"
            }
        }
    }

    public var code: Code
    /// The byte offset in the file.
    public var offset: UInt64
    /// The frame the problem is in (`TIT2`, `APIC[1]`), or nil for the tag itself.
    public var frame: String?
    public var message: String

    public init(_ code: Code, offset: UInt64 = 0, frame: String? = nil, message: String = "") {
        self.code = code
        self.offset = offset
        self.frame = frame
        self.message = message
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    public var description: String {
        let place = frame.map { "frame \($0)" } ?? "tag"
        return "at byte offset \(offset) (\(place)): \(message.isEmpty ? code.description : message)"
    }
}

extension Diagnostic {
    /// A diagnostic of an ID3 tag, at `frame` (its path) when it is about one.
    public init(_ severity: Severity, _ code: ID3Error.Code, offset: UInt64, frame: String? = nil, message: String) {
        self.init(severity, code, offset: offset, path: frame ?? "", message: message)
    }
}
