import ID3
import MediaBytes

/// An error of a carrier: the file layout that holds tags (an MPEG audio or ADTS stream, AIFF
/// or WAV chunks), as opposed to the tags themselves (`ID3Error`, `APEError`).
///
/// Equality compares the code only, so tests read `#expect(throws: CarrierError(.notWritable))`.
public struct CarrierError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An open set of problem kinds; new codes do not break clients' switches.
    public struct Code: Hashable, Sendable, CustomStringConvertible, DiagnosticCode {
        private enum Kind: Hashable, Sendable {
            case unrecognized, truncated, malformed, padding, limit, tag, io, notWritable, unsupported, verificationFailed
        }
        private let kind: Kind
        /// The code's stable name, as diagnostics and JSON give it (`truncated`).
        public var name: String { "\(kind)" }
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
        /// A form of the format that is read but not written (an RF64 WAV's tags).
        public static let unsupported = Code(.unsupported)
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
            case .unsupported: "not supported"
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

extension Diagnostic {
    /// A diagnostic of a carrier or of a tag it holds: `area` names what it is about (`MPEG`,
    /// `ADTS`, `RIFF`, `FORM`, `FLAC`, `Ogg`, or a tag format: `ID3v2`, `APEv2`, `INFO`), and
    /// `element` the frame, item, block or chunk in it (`TIT2`, `Title`, `LIST`).
    public init(_ severity: Severity, _ code: CarrierError.Code, area: String, offset: UInt64, element: String? = nil, message: String) {
        self.init(severity, code, offset: offset, path: element.map { area + "/" + $0 } ?? area, message: message)
    }
}
