/// An error reading an APE tag.
///
/// Equality compares the code only, so tests read `#expect(throws: APEError(.malformed))`.
public struct APEError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An open set of problem kinds; new codes do not break clients' switches.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: Hashable, Sendable { case notATag, malformed, io }
        private let kind: Kind
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

/// A tolerated anomaly in an APE tag: the items before it were read.
public struct APEDiagnostic: Sendable, Hashable, CustomStringConvertible {
    public var offset: UInt64
    /// The key of the item concerned, when there is one.
    public var key: String?
    public var message: String

    public init(offset: UInt64, key: String? = nil, message: String) {
        self.offset = offset
        self.key = key
        self.message = message
    }

    public var description: String { "at byte offset \(offset) (APEv2\(key.map { "/" + $0 } ?? "")): \(message)" }
}
