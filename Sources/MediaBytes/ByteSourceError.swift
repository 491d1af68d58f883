/// An error from opening or reading a byte source.
///
/// Equality compares the code only, so tests can write `#expect(throws: ByteSourceError(.notFound))`.
public struct ByteSourceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An open set of error kinds; new codes do not break clients' switches.
    public struct Code: Hashable, Sendable, CustomStringConvertible, DiagnosticCode {
        private enum Kind: Hashable, Sendable {
            case notFound, isDirectory, permissionDenied, notRegularFile, io, outOfRange
        }
        private let kind: Kind
        /// The code's stable name, as diagnostics and JSON give it (`truncated`).
        public var name: String { "\(kind)" }
        private init(_ kind: Kind) { self.kind = kind }

        /// The path does not exist.
        public static let notFound = Code(.notFound)
        /// The path names a directory.
        public static let isDirectory = Code(.isDirectory)
        /// The file exists but may not be opened or read.
        public static let permissionDenied = Code(.permissionDenied)
        /// The path names something other than a regular file (a device, a socket, a FIFO).
        public static let notRegularFile = Code(.notRegularFile)
        /// The operating system reported an I/O error.
        public static let io = Code(.io)
        /// A read asked for bytes beyond the end of the source.
        public static let outOfRange = Code(.outOfRange)

        public var description: String {
            switch kind {
            case .notFound: "not found"
            case .isDirectory: "is a directory"
            case .permissionDenied: "permission denied"
            case .notRegularFile: "not a regular file"
            case .io: "I/O error"
            case .outOfRange: "read out of range"
            }
        }
    }

    public var code: Code
    /// The file the error is about, when there is one.
    public var path: String?
    /// The byte offset the error is about, when there is one.
    public var offset: UInt64?
    /// What happened, in words a user can act on.
    public var reason: String

    public init(_ code: Code, path: String? = nil, offset: UInt64? = nil, reason: String = "") {
        self.code = code
        self.path = path
        self.offset = offset
        self.reason = reason
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    public var description: String {
        var text = path.map { "\($0): " } ?? ""
        text += reason.isEmpty ? code.description : reason
        if let offset { text += " (at byte offset \(offset))" }
        return text
    }
}
