import MediaBytes

/// Reading JSON text (RFC 8259) into a `JSONValue`, for `tagedit import`.
extension JSONValue {
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        /// The byte offset in the text.
        public var offset: Int
        public var message: String
        public var description: String { "invalid JSON at byte \(offset): \(message)" }
    }

    /// Parses `text`; numbers become `.int` when whole and in range, `.double` otherwise.
    public static func parse(_ text: String) throws(ParseError) -> JSONValue {
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }  // a UTF-8 byte-order mark
        var parser = Parser(bytes: bytes)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == parser.bytes.count else { throw ParseError(offset: parser.index, message: "text after the value") }
        return value
    }

    /// The array elements, or nil.
    public var arrayValue: [JSONValue]? { if case .array(let items) = self { items } else { nil } }
    /// The string, or nil.
    public var stringValue: String? {
        switch self {
        case .string(let text): text
        case .base64(let bytes): Base64.encode(bytes)
        default: nil
        }
    }
    /// The integer, or nil.
    public var intValue: Int64? {
        switch self {
        case .int(let v): v
        case .uint(let v): Int64(exactly: v)
        case .double(let v): Int64(exactly: v)
        default: nil
        }
    }
    /// The members of an object, or nil.
    public var objectMembers: [(String, JSONValue)]? { if case .object(let members) = self { members } else { nil } }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        static let maxDepth = 256

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        func fail(_ message: String) -> ParseError { ParseError(offset: index, message: message) }

        mutating func expect(_ literal: String) throws(ParseError) {
            let expected = Array(literal.utf8)
            guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
                throw fail("expected \(literal)")
            }
            index += expected.count
        }

        mutating func value(depth: Int) throws(ParseError) -> JSONValue {
            guard depth < Self.maxDepth else { throw fail("nested too deeply") }
            guard index < bytes.count else { throw fail("unexpected end") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [(String, JSONValue)] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                while true {
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a member name") }
                    let name = try string()
                    skipSpace()
                    try expect(":")
                    skipSpace()
                    members.append((name, try value(depth: depth + 1)))
                    skipSpace()
                    guard index < bytes.count else { throw fail("unexpected end in an object") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                    throw fail("expected , or }")
                }
            case UInt8(ascii: "["):
                index += 1
                var items: [JSONValue] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                while true {
                    skipSpace()
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    guard index < bytes.count else { throw fail("unexpected end in an array") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                    throw fail("expected , or ]")
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"):
                try expect("true"); return .bool(true)
            case UInt8(ascii: "f"):
                try expect("false"); return .bool(false)
            case UInt8(ascii: "n"):
                try expect("null"); return .null
            default:
                return try number()
            }
        }

        mutating func number() throws(ParseError) -> JSONValue {
            let start = index
            while index < bytes.count, "+-0123456789.eE".utf8.contains(bytes[index]) { index += 1 }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            if let integer = Int64(text) { return .int(integer) }
            if let double = Double(text) { return .double(double) }
            index = start
            throw fail("expected a value")
        }

        mutating func hex4() throws(ParseError) -> UInt32 {
            guard index + 4 <= bytes.count, bytes[index..<index + 4].allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) }),
                let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
            else {
                throw fail("bad \\u escape")
            }
            index += 4
            return value
        }

        mutating func string() throws(ParseError) -> String {
            index += 1  // the opening quote
            var out: [UInt8] = []
            while true {
                guard index < bytes.count else { throw fail("unterminated string") }
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { throw fail("unterminated escape") }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        var scalar = try hex4()
                        if (0xD800..<0xDC00).contains(scalar), index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                            let saved = index
                            index += 2
                            let low = try hex4()
                            if (0xDC00..<0xE000).contains(low) {
                                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                            } else {
                                index = saved  // an unpaired high surrogate: U+FFFD, and the next escape read on its own
                            }
                        }
                        out += Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
                    default:
                        throw fail("bad escape")
                    }
                default:
                    out.append(byte)
                }
            }
        }
    }
}
