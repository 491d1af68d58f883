#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Carriers
import ID3
import ISOBMFF
import MediaBytes

/// An error of the file-level metadata layer: what went wrong, with which file, and where in
/// it when the problem is in the file's bytes.
///
/// Equality compares the code only, so tests read `#expect(throws: MetadataError(.unknownKey))`.
public struct MetadataError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An open set of problem kinds; new codes do not break clients' switches.
    public struct Code: Hashable, Sendable, CustomStringConvertible, DiagnosticCode {
        private enum Kind: Hashable, Sendable {
            case fileNotFound, unsupportedFormat, malformed, unknownKey, badValue, notRepresentable
            case permissionDenied, io, notWritable, verificationFailed, locked
        }
        private let kind: Kind
        /// The code's stable name, as diagnostics and JSON give it (`truncated`).
        public var name: String { "\(kind)" }
        private init(_ kind: Kind) { self.kind = kind }

        /// The path does not exist.
        public static let fileNotFound = Code(.fileNotFound)
        /// The file is none of the formats this package reads (or a directory).
        public static let unsupportedFormat = Code(.unsupportedFormat)
        /// The file's structure cannot be read.
        public static let malformed = Code(.malformed)
        /// A key that is neither a uniform key, an alias, an identifier, nor a custom key the
        /// file has.
        public static let unknownKey = Code(.unknownKey)
        /// A value that does not fit its key (`TRACKNUMBER=abc`).
        public static let badValue = Code(.badValue)
        /// The key or value has no place in the file's format.
        public static let notRepresentable = Code(.notRepresentable)
        /// The file or its directory may not be read or written.
        public static let permissionDenied = Code(.permissionDenied)
        /// Reading or writing failed (a full disk, a file changed while being edited).
        public static let io = Code(.io)
        /// The file is not understood well enough to write to it safely (damaged structure).
        public static let notWritable = Code(.notWritable)
        /// The written file did not read back as intended; the original was kept.
        public static let verificationFailed = Code(.verificationFailed)
        /// Another process is editing the file (it holds the file's lock).
        public static let locked = Code(.locked)

        public var description: String {
            switch kind {
            case .fileNotFound: "file not found"
            case .unsupportedFormat: "unsupported format"
            case .malformed: "malformed file"
            case .unknownKey: "unknown key"
            case .badValue: "bad value"
            case .notRepresentable: "not representable"
            case .permissionDenied: "permission denied"
            case .io: "I/O error"
            case .notWritable: "not writable"
            case .verificationFailed: "verification failed"
            case .locked: "locked"
            }
        }
    }

    public var code: Code
    /// The file concerned, when there is one.
    public var path: String?
    /// The byte offset of the problem in the file, when it is about the file's bytes.
    public var offset: UInt64?
    public var message: String

    public init(_ code: Code, path: String? = nil, offset: UInt64? = nil, message: String = "") {
        self.code = code
        self.path = path
        self.offset = offset
        self.message = message
    }

    public static func == (lhs: MetadataError, rhs: MetadataError) -> Bool { lhs.code == rhs.code }

    /// `path: message` (the offset is part of the message when the layer below named one).
    public var description: String {
        (path.map { $0 + ": " } ?? "") + message
    }

    /// The error an operation on `path` threw, as a `MetadataError` with the file named.
    static func wrapping(_ error: any Error, path: String) -> MetadataError {
        if var error = error as? MetadataError {
            if error.path == nil { error.path = path }
            return error
        }
        if let error = error as? ByteSourceError {
            let code: Code = switch error.code {
            case .notFound: .fileNotFound
            case .permissionDenied: .permissionDenied
            case .isDirectory, .notRegularFile: .unsupportedFormat
            default: .io
            }
            var message = error.description
            if message.hasPrefix(path + ": ") { message.removeFirst(path.count + 2) }
            return MetadataError(code, path: path, offset: error.offset, message: message)
        }
        if let error = error as? AtomError {
            let code: Code = error.code == .verificationFailed ? .verificationFailed : error.code == .notWritable ? .notWritable : .malformed
            return MetadataError(code, path: path, offset: error.offset, message: error.description)
        }
        if let error = error as? ID3Error {
            let code: Code = error.code == .verificationFailed ? .verificationFailed : error.code == .notWritable ? .notWritable : error.code == .io ? .io : .malformed
            var error = error
            if error.message.hasPrefix(path + ": ") { error.message.removeFirst(path.count + 2) }
            return MetadataError(code, path: path, offset: error.offset, message: error.description)
        }
        if let error = error as? CarrierError {
            let code: Code = switch error.code {
            case .verificationFailed: .verificationFailed
            case .notWritable: .notWritable
            case .io: .io
            case .unrecognized, .unsupported: .unsupportedFormat
            default: .malformed
            }
            var message = error.message
            if message.hasPrefix(path + ": ") { message.removeFirst(path.count + 2) }
            return MetadataError(code, path: path, offset: error.offset, message: CarrierError(error.code, offset: error.offset, place: error.place, message: message).description)
        }
        if let error = error as? FileWriteError {
            // A target that exists and is not replaced (a file with other hard links) counts with
            // the read-only ones: exit 73 in tagedit.
            let refused = error.isPermissionProblem || error.errorNumber == EEXIST
            return MetadataError(refused ? .permissionDenied : .io, path: path, message: error.description)
        }
        return MetadataError(.io, path: path, message: "\(error)")
    }
}
