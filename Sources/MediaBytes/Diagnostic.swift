/// A tolerated problem found while reading a file, in the one form every layer uses, from an
/// atom or a frame up to both tools: how bad it is, what kind it is, where it is.
///
/// A reader that meets damage it can step over records a `Diagnostic` and goes on; the same
/// damage in strict mode (or when a save needs the part) becomes the layer's error. The
/// `path` of a diagnostic is relative to the structure that recorded it: an ID3 tag says
/// `TIT2`, the carrier holding it says `ID3v2/TIT2` (see `within(_:)`), an atom tree says
/// `moov/udta/meta`.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How bad a diagnostic is. Ordered: `note < warning < error`.
    public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable {
        /// Worth knowing, harmless (a `data` type this reader cannot decode, padding that is
        /// not zero). Not a problem.
        case note
        /// The file breaks its format but was read anyway.
        case warning
        /// Part of the file could not be read.
        case error

        private var rank: Int {
            switch self {
            case .note: 0
            case .warning: 1
            case .error: 2
            }
        }
        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
    }

    public var severity: Severity
    /// What kind of problem: the name of the recording layer's error code (`truncated`,
    /// `invalidFrameSize`, `zeroSizeInContainer`), stable for scripts.
    public var code: String
    /// The byte offset in the file.
    public var offset: UInt64
    /// Where in the structure: `moov/udta/meta`, `ID3v2/TIT2`, `RIFF`; empty for the top level.
    public var path: String
    public var message: String

    public init(_ severity: Severity, _ code: some DiagnosticCode, offset: UInt64, path: String = "", message: String) {
        self.init(severity, code: code.name, offset: offset, path: path, message: message)
    }

    public init(_ severity: Severity, code: String, offset: UInt64, path: String = "", message: String) {
        self.severity = severity
        self.code = code
        self.offset = offset
        self.path = path
        self.message = message
    }

    /// True for a warning or an error (a note is an observation, not a problem).
    public var isProblem: Bool { severity != .note }

    /// True when the diagnostic has `code`.
    public func has(_ code: some DiagnosticCode) -> Bool { self.code == code.name }

    /// The path for people: `top level` when empty.
    public var place: String { path.isEmpty ? "top level" : path }

    /// The same diagnostic seen from the structure that holds the one that recorded it:
    /// `within("ID3v2")` turns `TIT2` into `ID3v2/TIT2`.
    public func within(_ outer: String) -> Diagnostic {
        var copy = self
        copy.path = path.isEmpty ? outer : outer.isEmpty ? path : outer + "/" + path
        return copy
    }

    /// `warning: at byte offset 1234 (moov/udta): message`, as errors are worded.
    public var description: String { "\(severity.rawValue): at byte offset \(offset) (\(place)): \(message)" }
}

/// An error code that names the kind of a diagnostic: each layer's error `Code` is one.
public protocol DiagnosticCode: Sendable {
    /// The code's stable name (`truncated`, `invalidFrameSize`).
    var name: String { get }
}
