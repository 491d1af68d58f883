import MediaBytes

/// A JSON document with object keys in insertion order, so tool output is stable and reads in
/// the order the format documents it.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case string(String)
    /// A string holding the Base64 of these bytes, encoded straight into the output when the
    /// value is written (a picture's bytes in an export are never a `String` of their own). It
    /// equals the `string` of the same text.
    case base64([UInt8])
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.uint(let a), .uint(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.base64(let a), .base64(let b)): a == b
        case (.base64(let a), .string(let b)), (.string(let b), .base64(let a)): Base64.encode(a) == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// The value of `key` in an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// Serialized text: pretty-printed with two-space indentation, or compact.
    public func serialized(pretty: Bool = true) -> String {
        serialized(indentLevel: pretty ? 0 : nil)
    }

    /// Serialized text whose lines are indented as if the value sat `indentLevel` levels deep
    /// in a pretty-printed document (nil: compact), for writing a document piece by piece.
    public func serialized(indentLevel: Int?) -> String {
        var writer = JSONWriter(indentLevel: indentLevel)
        writer.value(self)
        return writer.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Appends the UTF-8 of the serialized value to `out` (see `JSONWriter`, which writes it).
    public func write(to out: inout [UInt8], indent: Int?) {
        var writer = JSONWriter(indentLevel: indent)
        writer.value(self)
        writer.withBytes { out.append(contentsOf: $0) }
    }
}

/// A pretty-printed JSON array written to standard output one element at a time, exactly as
/// `JSONValue.array(elements).serialized()` would print it, so that a listing of 100,000
/// files keeps flat memory and shows its first results at once.
public struct JSONArrayOutput {
    private var count = 0
    /// Why an element could not be written whole (a file it took Base64 from could no longer be
    /// read): the output is not valid JSON, and the run must fail. Nil when all went out.
    public private(set) var failure: String?

    public init() {}

    public mutating func append(_ element: JSONValue) {
        append(encoded: Self.encode(element))
    }

    /// `element` as the bytes `append` writes for it: a worker thread can encode while the
    /// output is written in order elsewhere.
    public static func encode(_ element: JSONValue) -> EncodedJSON {
        encode { $0.value(element) }
    }

    /// The element `write` writes, as `append(encoded:)` writes it (a document written
    /// straight from its source, without a `JSONValue` in between; the Base64 of bytes still
    /// in a file is read when it is appended).
    public static func encode<Failure: Error>(_ write: (inout JSONWriter) throws(Failure) -> Void) throws(Failure) -> EncodedJSON {
        var writer = JSONWriter(indentLevel: 1, capacity: 4096)
        try write(&writer)
        return writer.encoded()
    }

    /// Appends an element `encode` made.
    public mutating func append(encoded element: EncodedJSON) {
        // The bytes as they are (valid UTF-8 already), into the same buffered stream `print` uses.
        StandardOutput.write(count == 0 ? "[\n  " : ",\n  ")
        do {
            try element.write { StandardOutput.write($0) }
        } catch {
            if failure == nil { failure = "the output is cut short: \(error)" }
        }
        count += 1
    }

    /// Closes the array (`[]` when nothing was appended) and ends the line.
    public func finish() {
        print(count == 0 ? "[]" : "\n]")
    }
}
