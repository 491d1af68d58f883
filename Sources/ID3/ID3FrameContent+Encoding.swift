import MediaBytes

extension ID3TextEncoding {
    /// The encoding to write `texts` with in a tag of `version`: the `preferred` one when that
    /// version allows it and it can hold the text, else ISO-8859-1 when it can, else UTF-16 with
    /// a BOM in v2.3 (which has no UTF-8) and UTF-8 in v2.4.
    public static func forWriting(_ texts: [String], version: UInt8, preferred: ID3TextEncoding) -> ID3TextEncoding {
        // Every scalar up to U+00FF: in UTF-8, bytes below 0xC4 only (ASCII, the lead bytes
        // 0xC2 and 0xC3, continuation bytes), checked without decoding the scalars.
        // (Over the contiguous bytes where the string has them: a long title is checked at
        // memory speed, not a byte at a time through the view.)
        let latin1Fits = texts.allSatisfy { text in
            text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 < 0xC4 } } ?? text.utf8.allSatisfy { $0 < 0xC4 }
        }
        let allowed = version >= 4 || preferred == .latin1 || preferred == .utf16
        if allowed && (preferred != .latin1 || latin1Fits) { return preferred }
        if latin1Fits { return .latin1 }
        return version >= 4 ? .utf8 : .utf16
    }
}

extension ID3FrameContent {
    /// The frame body for a tag of `version` (3 or 4); nil when this content cannot be written
    /// (an embedded frame list that cannot be, for one). `separatedValues` keeps several text
    /// values apart with terminators even in v2.3, as its involved-people list `IPLS` does.
    ///
    /// - Throws: `.io` when a payload still in the file cannot be read.
    public func encodedBody(version: UInt8, separatedValues: Bool = false) throws(ID3Error) -> [UInt8]? {
        func terminator(_ encoding: ID3TextEncoding) -> [UInt8] { encoding.isWide ? [0, 0] : [0] }
        func language(_ code: String) -> [UInt8] {
            let bytes = Array(code.utf8.prefix(3))
            return bytes + [UInt8](repeating: 0x58, count: 3 - bytes.count)  // "XXX" for unknown
        }
        func latin1(_ text: String) -> [UInt8] { ID3TextEncoding.latin1.encode(text, terminated: false) }
        func big(_ value: UInt64, minimum: Int) -> [UInt8] {
            var bytes: [UInt8] = []
            var rest = value
            repeat {
                bytes.insert(UInt8(rest & 0xFF), at: 0)
                rest >>= 8
            } while rest > 0
            return [UInt8](repeating: 0, count: max(0, minimum - bytes.count)) + bytes
        }
        func values(_ list: [String], _ e: ID3TextEncoding) -> [UInt8] {
            // v2.4 separates values with terminators; v2.3 has one string, joined with "/".
            if version >= 4 || separatedValues {
                return list.enumerated().flatMap { i, value in e.encode(value, terminated: false) + (i < list.count - 1 ? terminator(e) : []) }
            }
            return e.encode(list.joined(separator: "/"), terminated: false)
        }

        switch storage {
        case .text(let preferred, let list):
            let e = ID3TextEncoding.forWriting(list, version: version, preferred: preferred)
            return [e.rawValue] + values(list, e)
        case .userText(let preferred, let description, let list):
            let e = ID3TextEncoding.forWriting(list + [description], version: version, preferred: preferred)
            return [e.rawValue] + e.encode(description, terminated: true) + values(list, e)
        case .url(let url):
            return latin1(url)
        case .userURL(let preferred, let description, let url):
            let e = ID3TextEncoding.forWriting([description], version: version, preferred: preferred)
            return [e.rawValue] + e.encode(description, terminated: true) + latin1(url)
        case .comment(let preferred, let code, let description, let text):
            let e = ID3TextEncoding.forWriting([description, text], version: version, preferred: preferred)
            return [e.rawValue] + language(code) + e.encode(description, terminated: true) + e.encode(text, terminated: false)
        case .syncedLyrics(let preferred, let code, let format, let type, let description, let lines):
            let e = ID3TextEncoding.forWriting([description] + lines.map(\.text), version: version, preferred: preferred)
            var body = [e.rawValue] + language(code) + [format, type] + e.encode(description, terminated: true)
            for line in lines { body += e.encode(line.text, terminated: true) + big(UInt64(line.time), minimum: 4) }
            return body
        case .picture(let preferred, let mime, let type, let description, let data):
            let e = ID3TextEncoding.forWriting([description], version: version, preferred: preferred)
            return [e.rawValue] + latin1(mime) + [0, type] + e.encode(description, terminated: true) + (try data.bytes())
        case .object(let preferred, let mime, let filename, let description, let data):
            let e = ID3TextEncoding.forWriting([filename, description], version: version, preferred: preferred)
            return [e.rawValue] + latin1(mime) + [0] + e.encode(filename, terminated: true) + e.encode(description, terminated: true) + (try data.bytes())
        case .privateData(let owner, let data):
            return latin1(owner) + [0] + data
        case .uniqueFileID(let owner, let identifier):
            return latin1(owner) + [0] + identifier
        case .popularimeter(let email, let rating, let counter):
            return latin1(email) + [0, rating] + (counter.map { big($0, minimum: 4) } ?? [])
        case .playCounter(let count):
            return big(count, minimum: 4)
        case .chapter(let element, let start, let end, let startOffset, let endOffset, let subframes):
            guard let embedded = try ID3FrameEncoder.encode(subframes, version: version) else { return nil }
            return latin1(element) + [0] + [start, end, startOffset, endOffset].flatMap { big(UInt64($0), minimum: 4) } + embedded
        case .tableOfContents(let element, let top, let ordered, let children, let subframes):
            guard children.count <= 255, let embedded = try ID3FrameEncoder.encode(subframes, version: version) else { return nil }
            return latin1(element) + [0, (top ? 0x02 : 0) | (ordered ? 0x01 : 0), UInt8(children.count)]
                + children.flatMap { latin1($0) + [0] } + embedded
        case .musicCDIdentifier(let data):
            return data
        case .relativeVolume(let identification, let channels):
            var body = latin1(identification) + [0]
            for channel in channels {
                let steps = Int16(clamping: Int((channel.adjustment * 512).rounded()))
                body += [channel.channel] + big(UInt64(UInt16(bitPattern: steps)), minimum: 2) + [channel.peakBits] + channel.peak
            }
            return body
        case .binary(let data):
            return Array(data)
        }
    }
}
