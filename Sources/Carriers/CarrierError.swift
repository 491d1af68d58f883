import ID3
import MediaBytes

/// An error of a carrier: the file layout that holds tags (an MPEG audio or ADTS stream, AIFF
/// or WAV chunks), as opposed to the tags themselves (`ID3Error`, `APEError`).
///
/// Equality compares the code only, so tests read `#expect(throws: CarrierError(.notWritable))`.
public struct CarrierError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An open set of problem kinds; new codes do not break clients' switches.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: Hashable, Sendable {
            case unrecognized, truncated, malformed, padding, limit, tag, io, notWritable, verificationFailed
        }
        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        /// The bytes are not this carrier (no `FORM`/`RIFF` header, no audio frame).
        public static let unrecognized = Code(.unrecognized)
        /// A chunk or block claims more bytes than the file has.
        public static let truncated = Code(.truncated)
        /// Bytes where a chunk, frame or block should be are not one.
        public static let malformed = Code(.malformed)
        /// Bytes that belong to nothing (junk before the audio, a stray byte after the chunks).
        public static let padding = Code(.padding)
        /// More chunks or tags than a file is read for.
        public static let limit = Code(.limit)
        /// A problem inside a tag the carrier holds (the diagnostic's `area` names the tag format).
        public static let tag = Code(.tag)
        /// Reading or writing the file failed.
        public static let io = Code(.io)
        /// The file is not understood well enough to write to it safely.
        public static let notWritable = Code(.notWritable)
        /// The written file did not read back as intended; the original was kept.
        public static let verificationFailed = Code(.verificationFailed)

        public var description: String {
            switch kind {
            case .unrecognized: "unrecognized layout"
            case .truncated: "truncated"
            case .malformed: "malformed"
            case .padding: "padding"
            case .limit: "limit reached"
            case .tag: "tag problem"
            case .io: "I/O error"
            case .notWritable: "not writable"
            case .verificationFailed: "verification failed"
            }
        }
    }

    public var code: Code
    /// The byte offset of the problem in the file, when it is about the file's bytes.
    public var offset: UInt64?
    /// Where in the structure (`ID3v2/TIT2`, `RIFF`), when known.
    public var place: String?
    public var message: String

    public init(_ code: Code, offset: UInt64? = nil, place: String? = nil, message: String = "") {
        self.code = code
        self.offset = offset
        self.place = place
        self.message = message
    }

    public static func == (lhs: CarrierError, rhs: CarrierError) -> Bool { lhs.code == rhs.code }

    public var description: String {
        let text = message.isEmpty ? code.description : message
        let place = self.place.map { " (\($0))" } ?? ""
        return offset.map { "at byte offset \($0)\(place): \(text)" } ?? text
    }
}

/// A tolerated anomaly in a carrier or in one of the tags it holds.
public struct CarrierDiagnostic: Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable { case note, warning, error }
    public var severity: Severity
    public var code: CarrierError.Code
    /// What the diagnostic is about: `MPEG`, `ADTS`, `RIFF`, `FORM` (the carrier), or the tag
    /// format (`ID3v2`, `APEv2`, `INFO`).
    public var area: String
    public var offset: UInt64
    /// The frame, item or chunk inside `area`, when there is one (`TIT2`, `Title`, `LIST`).
    public var element: String?
    public var message: String

    public init(_ severity: Severity, _ code: CarrierError.Code, area: String, offset: UInt64, element: String? = nil, message: String) {
        self.severity = severity
        self.code = code
        self.area = area
        self.offset = offset
        self.element = element
        self.message = message
    }

    /// A diagnostic of an ID3v2 tag the carrier holds.
    public init(_ diagnostic: ID3Diagnostic) {
        let severity: Severity = switch diagnostic.severity {
        case .note: .note
        case .warning: .warning
        case .error: .error
        }
        self.init(severity, diagnostic.code == .padding ? .padding : diagnostic.code == .truncated ? .truncated : .tag,
                  area: "ID3v2", offset: diagnostic.offset, element: diagnostic.frame, message: diagnostic.message)
    }

    /// Where in the structure: the area and the element in it (`ID3v2/TIT2`, `RIFF`).
    public var place: String { element.map { area + "/" + $0 } ?? area }

    /// True for a warning or an error (a note is an observation, not a problem).
    public var isProblem: Bool { severity != .note }

    public var description: String {
        "\(severity.rawValue): \(place) at byte offset \(offset): \(message)"
    }
}
