import ID3

/// The Lyrics3 v2.00 block some MP3 files carry before their ID3v1 tag: `LYRICSBEGIN`, fields
/// (a three-letter identifier, a five-digit size, the value in ISO-8859-1), a six-digit size of
/// all that, and `LYRICS200`. Its `ETT`, `EAR`, `EAL` and `LYR` fields hold a title, an artist,
/// an album and lyrics that exiftool reads, so a save keeps them in step with the ID3v2 tag
/// (`keptInStep(with:previous:)`); the other fields (indications, author, images) are kept as they are.
public struct Lyrics3Block: Sendable, Equatable {
    public struct Field: Sendable, Equatable {
        public var id: String
        public var value: [UInt8]
    }

    public var fields: [Field]

    /// The fields that mirror a tag's values, and the ID3v2 frame each mirrors.
    public static let mirrored: [(id: String, frame: String)] = [("ETT", "TIT2"), ("EAR", "TPE1"), ("EAL", "TALB"), ("LYR", "USLT")]

    /// Reads a whole block (from `LYRICSBEGIN` to `LYRICS200`); nil when its fields do not add
    /// up (the block is then kept as bytes and never edited).
    public init?(_ bytes: [UInt8]) {
        let begin = Array("LYRICSBEGIN".utf8), end = Array("LYRICS200".utf8)
        guard bytes.count >= begin.count + 15, bytes.starts(with: begin), bytes.suffix(9).elementsEqual(end) else { return nil }
        var index = begin.count
        let fieldsEnd = bytes.count - 15
        var fields: [Field] = []
        while index < fieldsEnd {
            guard fieldsEnd - index >= 8 else { return nil }
            let id = bytes[index..<index + 3]
            guard id.allSatisfy({ ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) }),
                let size = Self.decimal(bytes[index + 3..<index + 8]), size <= fieldsEnd - index - 8
            else { return nil }
            fields.append(Field(id: String(decoding: id, as: UTF8.self), value: Array(bytes[index + 8..<index + 8 + size])))
            index += 8 + size
        }
        self.fields = fields
    }

    init(fields: [Field]) { self.fields = fields }

    static func decimal(_ digits: ArraySlice<UInt8>) -> Int? {
        guard digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    static func digits(_ value: Int, width: Int) -> [UInt8] {
        let text = String(value)
        return Array((String(repeating: "0", count: max(0, width - text.count)) + text).utf8)
    }

    /// The block's bytes; nil when a field is longer than its five-digit size can say, or the
    /// whole longer than six digits.
    public var serialized: [UInt8]? {
        var body = Array("LYRICSBEGIN".utf8)
        for field in fields {
            guard field.value.count <= 99_999 else { return nil }
            body += Array(field.id.utf8) + Self.digits(field.value.count, width: 5) + field.value
        }
        guard body.count <= 999_999 else { return nil }
        return body + Self.digits(body.count, width: 6) + Array("LYRICS200".utf8)
    }

    /// The block with its mirrored fields (`ETT`, `EAR`, `EAL`, `LYR`) set to `tag`'s values
    /// (several values joined by `/`; the lyrics of the first `USLT` frame, preferring one
    /// without a description, their lines ended by CR LF as Lyrics3 has them; characters beyond
    /// ISO-8859-1 as `?`), and removed where the tag has no value. A mirrored field the block
    /// does not have is not added. Lyrics the ID3v2 tag did not hold before either (`previous`:
    /// the tag as read) are kept: the block may be the only place a file keeps them.
    public func keptInStep(with tag: ID3v2Tag, previous: ID3v2Tag?) -> Lyrics3Block {
        var kept: [Field] = []
        for field in fields {
            guard let frame = Self.mirrored.first(where: { $0.id == field.id })?.frame else {
                kept.append(field)
                continue
            }
            let values: [String]
            if frame == "USLT" {
                let lyrics = tag.frames(frame).compactMap(\.content.comment)
                let text = (lyrics.first { $0.description.isEmpty } ?? lyrics.first)?.text ?? ""
                if text.isEmpty && previous?.frames(frame).isEmpty != false {
                    kept.append(field)
                    continue
                }
                values = text.isEmpty ? [] : [text.replacingCRLF]
            } else {
                values = tag.frames(frame).flatMap { $0.textValues ?? [] }.filter { !$0.isEmpty }
            }
            guard !values.isEmpty else { continue }
            let text = values.joined(separator: "/")
            kept.append(Field(id: field.id, value: text.unicodeScalars.map { $0.value <= 0xFF ? UInt8($0.value) : 0x3F }))
        }
        return Lyrics3Block(fields: kept)
    }
}

extension String {
    /// Every line break as CR LF (a lone LF or CR made one), as a Lyrics3 block's lines end.
    fileprivate var replacingCRLF: String {
        var out = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for scalar in unicodeScalars {
            if scalar == "\n" {
                if previous != "\r" { out.append("\r") }
                out.append("\n")
            } else if previous == "\r" && scalar != "\n" {
                out.append("\n")
                out.append(scalar)
            } else {
                out.append(scalar)
            }
            previous = scalar
        }
        if previous == "\r" { out.append("\n") }
        return String(out)
    }
}
