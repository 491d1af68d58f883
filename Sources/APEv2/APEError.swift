import MediaBytes

/// An error reading an APE tag.
///
/// Equality compares the code only, so tests read `#expect(throws: APEError(.malformed))`.
public struct APEError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An open set of problem kinds; new codes do not break clients' switches.
    public struct Code: Hashable, Sendable, CustomStringConvertible, DiagnosticCode {
        private enum Kind: Hashable, Sendable { case notATag, malformed, io }
        private let kind: Kind
        /// The code's stable name, as diagnostics and JSON give it (`truncated`).
        public var name: String { "\(kind)" }
        private init(_ kind: Kind) { self.kind = kind }

        /// No `APETAGEX` header or footer where one was expected.
        public static let notATag = Code(.notATag)
        /// The header, footer or an item breaks the layout (sizes past the tag, a bad key).
        public static let malformed = Code(.malformed)
        /// Reading the file failed.
        public static let io = Code(.io)

        public var description: String {
            switch kind {
            case .notATag: "not an APE tag"
            case .malformed: "malformed APE tag"
            case .io: "I/O error"
            }
        }
    }

    public var code: Code
    /// The byte offset of the problem in the file.
    public var offset: UInt64?
    public var message: String

    public init(_ code: Code, offset: UInt64? = nil, message: String = "") {
        self.code = code
        self.offset = offset
        self.message = message
    }

    public static func == (lhs: APEError, rhs: APEError) -> Bool { lhs.code == rhs.code }

    public var description: String {
        let text = message.isEmpty ? code.description : message
        return offset.map { "at byte offset \($0) (APEv2): \(text)" } ?? text
    }
}

extension Diagnostic {
    /// A diagnostic of an APE tag (a layout problem: the items before it were read), at the
    /// item `key` names when it is about one.
    public init(apeOffset offset: UInt64, key: String? = nil, message: String) {
        self.init(.warning, APEError.Code.malformed, offset: offset, path: key ?? "", message: message)
    }
}
