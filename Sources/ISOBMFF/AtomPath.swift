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
            guard let bytes = Self.decodeType(name), bytes.count == 4 else { return nil }
            components.append(Component(type: FourCC(bytes[0], bytes[1], bytes[2], bytes[3]), index: index))
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
        var text = ""
        for byte in type.bytes {
            let printable = (byte >= 0x20 && byte <= 0x7E) || byte >= 0xA0
            if printable && byte != 0x25 && byte != 0x2F && byte != 0x5B && byte != 0x5D {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                text += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return text
    }

    private static func decodeType(_ name: Substring) -> [UInt8]? {
        var bytes: [UInt8] = []
        var scalars = name.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            if scalar == "%" {
                guard let high = scalars.next(), let low = scalars.next(),
                    let value = UInt8(String([Character(high), Character(low)]), radix: 16)
                else { return nil }
                bytes.append(value)
            } else {
                guard scalar.value <= 0xFF else { return nil }
                bytes.append(UInt8(scalar.value))
            }
        }
        return bytes
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
