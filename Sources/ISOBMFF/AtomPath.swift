import MediaBytes

/// The location of an atom in a tree, written like `moov/trak[1]/mdia/hdlr`.
///
/// Each component is an atom type with its 0-based index among the siblings of the same type;
/// the index is omitted when the type occurs once. Type bytes that are not printable
/// ISO-8859-1 (and `%`, `/`, `[`, `]`) are written as `%XX`, so `moov/udta/meta/ilst/©nam` and
/// `moov/udta/meta/ilst/%A9nam` name the same atom and an mdta item `%00%00%00%01` is typeable.
public struct AtomPath: Sendable, Hashable, CustomStringConvertible {
    public struct Component: Sendable, Hashable {
        public var type: FourCC
        /// The index among siblings of the same type; `nil` means "the only one" when printing
        /// and "the first one" when looking an atom up.
        public var index: Int?

        public init(type: FourCC, index: Int? = nil) {
            self.type = type
            self.index = index
        }
    }

    public var components: [Component]

    public init(_ components: [Component] = []) { self.components = components }

    /// The path of the top level of a file.
    public static let root = AtomPath()

    public var isRoot: Bool { components.isEmpty }

    public func appending(_ type: FourCC, index: Int? = nil) -> AtomPath {
        AtomPath(components + [Component(type: type, index: index)])
    }

    /// Parses the textual form; `nil` when a component is not a four-byte type with an optional
    /// `[n]` index.
    public init?(parsing text: String) {
        var components: [Component] = []
        for part in text.split(separator: "/", omittingEmptySubsequences: true) {
            var name = Substring(part)
            var index: Int?
            if name.hasSuffix("]"), let open = name.lastIndex(of: "[") {
                guard let value = Int(name[name.index(after: open)..<name.index(before: name.endIndex)]), value >= 0
                else { return nil }
                index = value
                name = name[..<open]
            }
            guard let text = PathEscaping.unescape(name), let type = FourCC(latin1: text) else { return nil }
            components.append(Component(type: type, index: index))
        }
        self.components = components
    }

    public var description: String {
        components.map { component in
            Self.escapedTypeName(component.type) + (component.index.map { "[\($0)]" } ?? "")
        }.joined(separator: "/")
    }

    /// A type written for a path: printable ISO-8859-1 as is, other bytes as `%XX`.
    public static func escapedTypeName(_ type: FourCC) -> String {
        PathEscaping.escape(type.description)
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
