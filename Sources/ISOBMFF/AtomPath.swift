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
        // UTF-8 gathered in one buffer: a path is made for every node shown.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(components.count * 12)
        for (i, component) in components.enumerated() {
            if i > 0 { bytes.append(0x2F) }
            Self.appendTypeName(component.type, to: &bytes)
            if let index = component.index {
                bytes.append(0x5B)
                bytes += String(index).utf8
                bytes.append(0x5D)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the UTF-8 of `escapedTypeName(type)`: the four bytes as they are when none needs
    /// escaping (nearly every type), otherwise through `PathEscaping`.
    static func appendTypeName(_ type: FourCC, to bytes: inout [UInt8]) {
        let raw = type.rawValue
        let four = (UInt8(truncatingIfNeeded: raw >> 24), UInt8(truncatingIfNeeded: raw >> 16),
                    UInt8(truncatingIfNeeded: raw >> 8), UInt8(truncatingIfNeeded: raw))
        // Printable ASCII but `%`, `/`, `[`, `]`, and printable ISO-8859-1 (`©` of iTunes
        // items) as its UTF-8: what `PathEscaping` leaves as it is.
        func plain(_ byte: UInt8) -> Bool {
            (byte >= 0x20 && byte <= 0x7E && byte != 0x25 && byte != 0x2F && byte != 0x5B && byte != 0x5D) || byte >= 0xA0
        }
        guard plain(four.0), plain(four.1), plain(four.2), plain(four.3) else {
            bytes += escapedTypeName(type).utf8
            return
        }
        for byte in [four.0, four.1, four.2, four.3] {
            if byte < 0x80 {
                bytes.append(byte)
            } else {
                bytes.append(0xC0 | byte >> 6)
                bytes.append(0x80 | byte & 0x3F)
            }
        }
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
