import MediaBytes

/// Writes a JSON document straight into bytes, value by value, in the one layout the tools
/// print: pretty-printed with two-space indentation (`"key": value`, one member or element
/// per line, `[]` and `{}` for empty containers), or compact. `JSONValue` serializes through
/// it, and the listings of `tagedit` write their documents with it directly, without a
/// `JSONValue` tree in between.
///
/// ```swift
/// var writer = JSONWriter(indentLevel: 0)
/// writer.beginObject()
/// writer.key("title"); writer.string("Song")
/// writer.key("tracks"); writer.beginArray(); writer.int(1); writer.int(2); writer.endArray()
/// writer.endObject()
/// // {\n  "title": "Song",\n  "tracks": [\n    1,\n    2\n  ]\n}
/// ```
///
/// Each value goes where the writer stands: after a `key` (in an object), as the next element
/// of an array, or as the document itself. The writer does not check that calls nest properly
/// (a key outside an object, an unclosed container); the writers of this package are tested
/// against `JSONValue`'s serialization.
public struct JSONWriter: ~Copyable {
    /// The document so far, as UTF-8: a buffer of its own, appended to through a pointer
    /// (an `Array`'s appends cost a uniqueness and a capacity check each, and a generic copy
    /// for every run of bytes: most of the writer's time when it wrote into one). `storage`
    /// owns it, and `encoded()` hands it over without a copy (an export's document is mostly
    /// a cover's Base64).
    private var storage: JSONWriterStorage
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int
    /// Two-space indentation and a space after colons; false for compact output.
    private let pretty: Bool
    /// The indentation level of the lines of the current container's members (for the
    /// document itself: the level it is written at).
    private var level: Int
    /// True once the current container has a member (the next one is preceded by a comma).
    private var hasMembers = false
    /// True when the next value follows a key, or is the document itself: no separator.
    private var afterKey = true
    /// `hasMembers` of the enclosing containers, one bit a level (the first 64 levels), and
    /// beyond them in `deeperLevels`.
    private var enclosing: UInt64 = 0
    private var deeperLevels: [Bool] = []
    private var depth = 0
    /// Base64 strings of bytes still in files, not yet read: where each goes in the document
    /// (between the quotes at that offset) and its bytes (see `base64(_:)` with `SplicedBytes`).
    private var insertions: [(offset: Int, data: SplicedBytes)] = []

    /// A writer whose lines are indented as if the document sat `indentLevel` levels deep in
    /// a pretty-printed document (nil: compact), with room for `capacity` bytes to start with.
    public init(indentLevel: Int?, capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        storage = JSONWriterStorage(capacity: self.capacity)
        base = storage.base
        pretty = indentLevel != nil
        level = indentLevel ?? 0
    }

    /// The document so far, as UTF-8 (a writer given bytes still in a file takes `encoded()`).
    public var bytes: [UInt8] { withBytes { Array($0) } }

    /// Calls `body` with the document so far (valid during the call only). Not for a writer
    /// given bytes still in a file (`base64(_:)` with `SplicedBytes`): that one is finished
    /// with `encoded()`.
    public func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        precondition(insertions.isEmpty, "a document with Base64 of file bytes is written through encoded()")
        return try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// Hands the bytes written so far to `body` and forgets them, keeping the writer's place in
    /// the document: a long document goes out in pieces from a buffer that stays small. (Not
    /// for a writer given bytes still in a file: see `withBytes`.)
    public mutating func drain(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        precondition(insertions.isEmpty, "a document with Base64 of file bytes is written through encoded()")
        try body(UnsafeBufferPointer(start: base, count: count))
        count = 0
    }

    /// The document, finished: its bytes, with the Base64 of the file bytes it was given
    /// still to be read and encoded when it is written out (`EncodedJSON.write`).
    public consuming func encoded() -> EncodedJSON {
        EncodedJSON(storage: storage, count: count, insertions: insertions)
    }

    /// Makes room for `extra` more bytes at once (a writer about to write a picture's Base64
    /// of known length grows once, instead of doubling, and copying, its way there).
    public mutating func reserveRoom(for extra: Int) { reserve(extra) }

    /// Bytes written since the last `drain`.
    public var pendingCount: Int { count }

    // MARK: - Containers

    public mutating func beginObject() { open(0x7B) }
    public mutating func endObject() { close(0x7D) }
    public mutating func beginArray() { open(0x5B) }
    public mutating func endArray() { close(0x5D) }

    /// The key of the object member whose value is written next (escaped as any string).
    public mutating func key(string name: String) {
        startMember()
        writeString(name)
        endKey()
    }

    /// A key written as it is, without escaping: for the literal keys of the tools' documents.
    /// The separator, line break, indentation, quoted name and colon are written after one
    /// check of the room left (half the instructions of writing them piece by piece).
    public mutating func key(_ name: StaticString) {
        name.withUTF8Buffer { name in
            let indentation = pretty ? 2 * level : 0
            reserve(name.count + indentation + 6)
            var next = base + count
            if hasMembers {
                next.pointee = 0x2C
                next += 1
            }
            hasMembers = true
            if pretty {
                next.pointee = 0x0A
                (next + 1).initialize(repeating: 0x20, count: indentation)
                next += 1 + indentation
            }
            next.pointee = 0x22
            if let start = name.baseAddress { (next + 1).initialize(from: start, count: name.count) }
            next += 1 + name.count
            next[0] = 0x22
            next[1] = 0x3A
            next += 2
            if pretty {
                next.pointee = 0x20
                next += 1
            }
            count = next - base
        }
        afterKey = true
    }

    private mutating func startMember() {
        if hasMembers { append(0x2C) }
        hasMembers = true
        newline()
    }

    private mutating func endKey() {
        append(0x3A)
        if pretty { append(0x20) }
        afterKey = true
    }

    /// Where a value starts: after its key, or on a line of its own as an array's element.
    private mutating func startValue() {
        if afterKey {
            afterKey = false
        } else {
            startMember()
        }
    }

    private mutating func open(_ bracket: UInt8) {
        startValue()
        append(bracket)
        if depth < 64 {
            let bit: UInt64 = 1 << UInt64(depth)
            enclosing = hasMembers ? enclosing | bit : enclosing & ~bit
        } else {
            deeperLevels.append(hasMembers)
        }
        depth += 1
        level += 1
        hasMembers = false
    }

    private mutating func close(_ bracket: UInt8) {
        let hadMembers = hasMembers
        depth -= 1
        level -= 1
        hasMembers = depth < 64 ? enclosing >> UInt64(depth) & 1 != 0 : deeperLevels.removeLast()
        // `[]` and `{}` when empty; otherwise the bracket on a line of its own.
        if hadMembers { newline() }
        append(bracket)
    }

    // MARK: - Values

    public mutating func null() {
        startValue()
        append(0x6E, 0x75, 0x6C, 0x6C)
    }

    public mutating func bool(_ value: Bool) {
        startValue()
        if value { append(0x74, 0x72, 0x75, 0x65) } else { append(0x66, 0x61, 0x6C, 0x73); append(0x65) }
    }

    public mutating func int(_ value: Int64) {
        startValue()
        if value < 0 { append(0x2D) }
        writeDigits(value.magnitude)
    }

    public mutating func int(_ value: Int) { int(Int64(value)) }

    /// An integer, or `null` for nil.
    public mutating func int(_ value: Int?) {
        if let value { int(Int64(value)) } else { null() }
    }

    public mutating func uint(_ value: UInt64) {
        startValue()
        writeDigits(value)
    }

    /// A number: integral values below 10^15 as integers, others in Swift's shortest
    /// round-trip form, and `null` for infinities and NaN (JSON has neither).
    public mutating func double(_ value: Double) {
        if value.isFinite && value == value.rounded() && abs(value) < 1e15 { return int(Int64(value)) }
        startValue()
        if value.isFinite {
            var text = String(value)
            text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
        } else {
            append(0x6E, 0x75, 0x6C, 0x6C)
        }
    }

    public mutating func string(_ value: String) {
        startValue()
        writeString(value)
    }

    /// A string given as its UTF-8 (which the caller has made valid: a document is UTF-8).
    public mutating func string(utf8 value: UnsafeBufferPointer<UInt8>) {
        startValue()
        writeQuoted(value)
    }

    /// A string, or `null` for nil.
    public mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    /// A string holding the Base64 of `data`, encoded straight into the document.
    public mutating func base64<C: Collection>(_ data: C) where C.Element == UInt8 {
        startValue()
        // The Base64 alphabet needs no escape.
        append(0x22)
        let length = Base64.encodedCount(data.count)
        reserve(length + 1)
        let target = UnsafeMutableBufferPointer(start: base + count, count: length)
        if data.withContiguousStorageIfAvailable({ Base64.encode(UnsafeRawBufferPointer($0), into: target) }) == nil {
            _ = Array(data).withUnsafeBytes { Base64.encode($0, into: target) }
        }
        count += length
        append(0x22)
    }

    /// A string holding the Base64 of `data`. Bytes in memory are encoded here; bytes still in
    /// a file are not read now: the document notes where they go, and `encoded()` hands them
    /// to the output, which reads and encodes them a chunk at a time (a 200 MB picture is
    /// never in memory at once).
    public mutating func base64(_ data: SplicedBytes) {
        // Bytes in memory are encoded where they lie (a cover in the metadata read).
        if data.pieces.count == 1, case .bytes(let bytes) = data.pieces[0] { return base64(bytes) }
        if data.isInMemory, let bytes = try? data.materialized() { return base64(bytes) }
        startValue()
        append(0x22)
        insertions.append((count, data))
        append(0x22)
    }

    /// An array of strings.
    public mutating func strings(_ values: [String]) {
        beginArray()
        for index in values.indices { string(values[index]) }
        endArray()
    }

    /// A whole `JSONValue`, in place.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let v): bool(v)
        case .int(let v): int(v)
        case .uint(let v): uint(v)
        case .double(let v): double(v)
        case .string(let v): string(v)
        case .base64(let data): base64(data)
        case .array(let items):
            beginArray()
            // By index: enumerating would copy every element.
            for i in items.indices { self.value(items[i]) }
            endArray()
        case .object(let members):
            beginObject()
            for i in members.indices {
                key(string: members[i].0)
                self.value(members[i].1)
            }
            endObject()
        }
    }

    // MARK: - Bytes

    /// Room for `extra` more bytes.
    @inline(__always) private mutating func reserve(_ extra: Int) {
        if capacity - count < extra { grow(extra) }
    }

    private mutating func grow(_ extra: Int) {
        let larger = max(2 * capacity, count + extra)
        let moved = JSONWriterStorage(capacity: larger)
        moved.base.initialize(from: base, count: count)
        storage = moved
        base = moved.base
        capacity = larger
    }

    @inline(__always) private mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always) private mutating func append(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
        reserve(4)
        base[count] = a
        base[count + 1] = b
        base[count + 2] = c
        base[count + 3] = d
        count += 4
    }

    @inline(__always) private mutating func append(_ run: UnsafeRawBufferPointer) {
        guard run.count > 0 else { return }
        reserve(run.count)
        (base + count).initialize(from: run.baseAddress!.assumingMemoryBound(to: UInt8.self), count: run.count)
        count += run.count
    }

    /// A line break and the indentation of the current level (nothing when compact).
    private mutating func newline() {
        guard pretty else { return }
        let width = 2 * level
        reserve(width + 1)
        base[count] = 0x0A
        (base + count + 1).initialize(repeating: 0x20, count: width)
        count += width + 1
    }

    /// The decimal digits of `value`, written in place (no `String` per number).
    private mutating func writeDigits(_ value: UInt64) {
        DecimalDigits.with(value) { append($0) }
    }

    /// A JSON string: quote, backslash and control characters (and DEL) escaped, everything
    /// else as its UTF-8.
    private mutating func writeString(_ text: String) {
        // A native string's bytes are read in place; others (bridged, lazily decoded) are made
        // contiguous first.
        if let done: Void = text.utf8.withContiguousStorageIfAvailable({ writeQuoted($0) }) {
            return done
        }
        var text = text
        text.withUTF8 { writeQuoted($0) }
    }

    /// `text` between quotes: copied whole when no byte of it needs an escape (nearly every
    /// string), else escaped run by run.
    @inline(__always) private mutating func writeQuoted(_ text: UnsafeBufferPointer<UInt8>) {
        guard !Self.anyNeedsEscape(text) else {
            append(0x22)
            return writeEscaped(text)
        }
        reserve(text.count + 2)
        base[count] = 0x22
        if let start = text.baseAddress { (base + count + 1).initialize(from: start, count: text.count) }
        base[count + 1 + text.count] = 0x22
        count += text.count + 2
    }

    /// True when some byte of `text` is one `needsEscape` marks: eight bytes at a time, the
    /// last few with spaces (which need none) after them.
    @inline(__always) private static func anyNeedsEscape(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = text.baseAddress else { return false }
        let bytes = UnsafeRawPointer(start)
        var i = 0
        while i + 8 <= text.count {
            if mayNeedEscape(bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) { return true }
            i += 8
        }
        guard i < text.count else { return false }
        var last: UInt64 = 0x2020_2020_2020_2020
        withUnsafeMutableBytes(of: &last) { $0.baseAddress!.copyMemory(from: bytes + i, byteCount: text.count - i) }
        return mayNeedEscape(last)
    }

    /// The UTF-8 of a JSON string's contents with its escapes, and the closing quote.
    private mutating func writeEscaped(_ text: UnsafeBufferPointer<UInt8>) {
        // Runs of bytes that need no escape are copied whole.
        var start = 0, i = 0
        while i < text.count {
            // Eight bytes at a time while none of them needs an escape (long texts).
            while i + 8 <= text.count && !Self.mayNeedEscape(UnsafeRawPointer(text.baseAddress! + i).loadUnaligned(as: UInt64.self)) {
                i += 8
            }
            guard i < text.count else { break }
            let byte = text[i]
            guard Self.needsEscape(byte) else { i += 1; continue }
            append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: text[start..<i])))
            i += 1
            start = i
            switch byte {
            case 0x22: append(0x5C); append(0x22)
            case 0x5C: append(0x5C); append(0x5C)
            case 0x0A: append(0x5C); append(0x6E)
            case 0x0D: append(0x5C); append(0x72)
            case 0x09: append(0x5C); append(0x74)
            default:
                let digits: StaticString = "0123456789abcdef"
                append(0x5C, 0x75, 0x30, 0x30)
                append(digits.utf8Start[Int(byte >> 4)])
                append(digits.utf8Start[Int(byte & 0x0F)])
            }
        }
        append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: text[start...])))
        append(0x22)
    }

    /// The bytes a JSON string escapes: control characters, `"`, `\\` and DEL.
    @inline(__always) private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F
    }

    /// False when none of the eight bytes in `word` is one `needsEscape` marks, true when one
    /// is (each test finds whether any byte is below a bound or equal to a value, exactly;
    /// which byte it flags can be off by a borrow, so the bytes are then looked at one by one).
    @inline(__always) private static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasZeroByte(_ v: UInt64) -> Bool { (v &- ones) & ~v & highs != 0 }
        let below0x20 = (word &- 0x20 &* ones) & ~word & highs != 0
        return below0x20 || hasZeroByte(word ^ (0x22 &* ones)) || hasZeroByte(word ^ (0x5C &* ones)) || hasZeroByte(word ^ (0x7F &* ones))
    }
}

/// A JSON document `JSONWriter.encoded()` finished: its bytes, and the Base64 of bytes still in
/// files that go between them, read and encoded as the document is written out.
public struct EncodedJSON: Sendable {
    /// The writer's buffer, handed over: the document's own bytes (the first `ownCount`).
    private let storage: JSONWriterStorage
    /// The number of the document's own bytes, without the Base64 of file bytes.
    public let ownCount: Int
    /// Where each Base64 string of file bytes goes in the document's own bytes, in order.
    let insertions: [(offset: Int, data: SplicedBytes)]

    fileprivate init(storage: JSONWriterStorage, count: Int, insertions: [(offset: Int, data: SplicedBytes)]) {
        self.storage = storage
        self.ownCount = count
        self.insertions = insertions
    }

    /// The document's own bytes (valid as long as the document).
    private var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage.base, count: ownCount) }

    /// The document's length in bytes, the Base64 of file bytes included.
    public var count: Int { insertions.reduce(ownCount) { $0 + Base64.encodedCount($1.data.count) } }

    /// Bytes of file content encoded at a time (a multiple of 3: no padding inside).
    static let chunk = 3 << 18

    /// Hands the document to `output` in order, in pieces: the Base64 of file bytes is read and
    /// encoded `chunk` bytes at a time.
    ///
    /// - Throws: what reading a file throws (the file changed or went since it was read; the
    ///   document is then cut there), or what `output` throws.
    public func write(_ output: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        var position = 0
        // The Base64 buffer, only as large as the largest piece needs (a document without
        // file bytes, a listing's, has none: it is not a megabyte to clear per file).
        let largest = insertions.reduce(0) { max($0, min($1.data.count, Self.chunk)) }
        var encoded = largest == 0 ? [] : [UInt8](repeating: 0, count: Base64.encodedCount(largest))
        // (Valid through the calls: `self`, and so its storage, lives until this returns.)
        let bytes = self.bytes
        for insertion in insertions {
            try output(UnsafeBufferPointer(rebasing: bytes[position..<insertion.offset]))
            try insertion.data.forEachChunk(size: Self.chunk) { piece in
                let length = piece.withUnsafeBytes { raw in
                    encoded.withUnsafeMutableBufferPointer { Base64.encode(raw, into: $0) }
                }
                try encoded.withUnsafeBufferPointer { try output(UnsafeBufferPointer(rebasing: $0[0..<length])) }
            }
            position = insertion.offset
        }
        try output(UnsafeBufferPointer(rebasing: bytes[position...]))
    }
}

/// A `JSONWriter`'s buffer, owned: freed when neither the writer nor a document it finished
/// (`EncodedJSON`, which may go to another thread) holds it. Written only by the one writer
/// that made it, read only once that writer handed it over.
final class JSONWriterStorage: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>

    init(capacity: Int) { base = .allocate(capacity: capacity) }

    deinit { base.deallocate() }
}

extension EncodedJSON {
    /// Writes the document and a line break to the output `path` as `FileReplacement.create`
    /// does (a regular file: beside it, verified, renamed into place; a device or FIFO written
    /// through). The verification reads the file written back and compares its length and
    /// CRC-32 with what was written, so the Base64 of file bytes is never held whole.
    public func create(_ path: String) throws {
        var crc = CRC32()
        var written: UInt64 = 0
        try FileReplacement.create(path, write: { sink in
            crc = CRC32()
            written = 0
            try write { piece in
                crc.update(UnsafeRawBufferPointer(piece))
                written += UInt64(piece.count)
                try sink.write(ArraySlice(piece))
            }
            try sink.write([0x0A])
            crc.update([0x0A])
            written += 1
        }, verify: { temporary in
            let file = try FileByteSource(path: temporary)
            var check = CRC32()
            var position: UInt64 = 0
            while position < file.size {
                let count = Int(min(1 << 20, file.size - position))
                check.update(try file.read(at: position, count: count))
                position += UInt64(count)
            }
            guard file.size == written, check.value == crc.value else {
                throw FileWriteError(path: path, reason: "the file written does not read back as written")
            }
        })
    }

    /// Writes the document and a line break to standard output.
    public func print() throws {
        try write { StandardOutput.write($0) }
        StandardOutput.write("\n")
    }
}

/// The decimal digits of a number, made on the stack: the JSON writer and the text tree write
/// them without a `String` per number.
enum DecimalDigits {
    /// Calls `body` with the ASCII digits of `value`.
    static func with<R>(_ value: UInt64, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: more than the 20 digits of UInt64.max
        var used = 0
        var rest = value
        return withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                used += 1
                buffer[24 - used] = UInt8(truncatingIfNeeded: rest % 10) &+ 0x30
                rest /= 10
            } while rest > 0
            return body(UnsafeRawBufferPointer(rebasing: buffer[(24 - used)...]))
        }
    }
}
