/// Bounds that keep hostile input from costing unbounded memory or time.
public struct AtomLimits: Sendable, Hashable {
    /// Deepest nesting read; deeper containers are kept as opaque leaves (with a diagnostic).
    public var maxDepth: Int
    /// Most atoms read from one file; the rest of the file is kept as opaque bytes.
    public var maxAtomCount: Int
    /// Largest atom read into memory whole (a `moov` to parse, a table to decode). Larger
    /// containers are walked header by header instead; larger leaves are not decoded.
    public var maxPayloadInMemory: Int
    /// Most diagnostics kept from one read; the rest are counted in one last diagnostic.
    public var maxDiagnostics: Int

    public init(maxDepth: Int = 48, maxAtomCount: Int = 1_000_000, maxPayloadInMemory: Int = 256 << 20, maxDiagnostics: Int = 1000) {
        self.maxDepth = maxDepth
        self.maxAtomCount = maxAtomCount
        self.maxPayloadInMemory = maxPayloadInMemory
        self.maxDiagnostics = maxDiagnostics
    }

    public static let `default` = AtomLimits()
}

/// How a file is read.
public struct AtomReadingOptions: Sendable, Hashable {
    public var limits: AtomLimits
    /// When true, the first diagnostic of severity warning or worse is thrown as an `AtomError`
    /// instead of being recorded.
    public var strict: Bool

    public init(limits: AtomLimits = .default, strict: Bool = false) {
        self.limits = limits
        self.strict = strict
    }

    public static let lenient = AtomReadingOptions()
    public static let strict = AtomReadingOptions(strict: true)
}
