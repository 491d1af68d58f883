import MediaBytes

/// What a file is held to by `atominspect check --profile`: the needs of one kind of player or
/// delivery, beyond a file that is structurally sound.
public enum ConformanceProfile: String, CaseIterable, Sendable {
    /// QuickTime Player, Music/iTunes and Apple devices playing a file.
    case apple
    /// Browsers playing a file from a web server (`<video src>`), or through Media Source
    /// Extensions when it is fragmented.
    case web
    /// HTTP Live Streaming: fragmented MP4 segments (RFC 8216 and Apple's HLS authoring
    /// specification).
    case hls
    /// CMAF tracks (ISO/IEC 23000-19), as DASH and HLS serve them.
    case cmaf
    /// HEIF and AVIF images (ISO/IEC 23008-12).
    case heif
}

/// One rule of a conformance profile: its ID (stable, for scripts), the profiles it belongs
/// to, how bad breaking it is, where it comes from and why it matters to a player. `check`
/// reports each breach as a `Diagnostic` whose code is the rule's ID.
public struct ConformanceRule: Sendable {
    /// A place the rule is broken and what was found there.
    struct Breach {
        var offset: UInt64
        var path: String
        var detail: String

        init(_ atom: Atom, _ path: AtomPath? = nil, _ detail: String) {
            offset = atom.offset
            self.path = path?.description ?? ""
            self.detail = detail
        }

        init(offset: UInt64, path: String, _ detail: String) {
            self.offset = offset
            self.path = path
            self.detail = detail
        }
    }

    public let id: String
    public let profiles: [ConformanceProfile]
    public let severity: Diagnostic.Severity
    /// The specification and section the rule comes from.
    public let source: String
    /// One line: what a player does with a file that breaks the rule.
    public let why: String
    let breaches: @Sendable (ConformanceFacts) -> [Breach]

    /// Every rule, in the order `check` reports them.
    public static let all: [ConformanceRule] = ConformanceRules.table

    /// The rules of `profiles`.
    public static func rules(of profiles: some Collection<ConformanceProfile>) -> [ConformanceRule] {
        all.filter { rule in rule.profiles.contains { profiles.contains($0) } }
    }

    /// The breaches of `profiles`' rules in `tree`, as diagnostics coded by rule ID. A rule
    /// reports its first five breaches and then how many more there are.
    public static func findings(in tree: AtomTree, profiles: some Collection<ConformanceProfile>) -> [Diagnostic] {
        let rules = rules(of: profiles)
        guard !rules.isEmpty else { return [] }
        let facts = ConformanceFacts(tree: tree)
        var found: [Diagnostic] = []
        for rule in rules {
            let breaches = rule.breaches(facts)
            for breach in breaches.prefix(5) {
                found.append(Diagnostic(rule.severity, code: rule.id, offset: breach.offset, path: breach.path,
                                        message: "[\(rule.id)] \(breach.detail). \(rule.why). Source: \(rule.source)"))
            }
            if breaches.count > 5, let last = breaches.last {
                found.append(Diagnostic(rule.severity, code: rule.id, offset: last.offset, path: last.path,
                                        message: "[\(rule.id)] \(breaches.count - 5) more like these"))
            }
        }
        return found
    }
}
