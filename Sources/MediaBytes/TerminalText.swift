/// Text printed for people on one line, with nothing a terminal acts on: tag values, titles
/// and descriptions come from files other programs wrote, and an escape sequence in one
/// (`\u{1B}[2J`) would clear or recolour the terminal of whoever lists them.
///
/// A line feed is written `\n`, a carriage return `\r`, a tab `\t`, every other C0 control
/// and DEL `\xHH`, the C1 controls U+0080-U+009F `\u{HH}`; everything else is kept.
public enum TerminalText {
    /// The UTF-8 of `text`, escaped, appended to `bytes` (a listing's buffer).
    public static func append(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            var start = 0, index = 0
            func hex(_ byte: UInt8) -> [UInt8] { Array((byte < 0x10 ? "0" : "").utf8) + Array(String(byte, radix: 16, uppercase: true).utf8) }
            while index < utf8.count {
                let byte = utf8[index]
                guard mayNeedEscape(byte) else { index += 1; continue }
                var escape: [UInt8]
                var length = 1
                switch byte {
                case 0x0A: escape = Array("\\n".utf8)
                case 0x0D: escape = Array("\\r".utf8)
                case 0x09: escape = Array("\\t".utf8)
                case 0xC2:
                    guard index + 1 < utf8.count, (0x80...0x9F).contains(utf8[index + 1]) else { index += 1; continue }
                    escape = Array("\\u{".utf8) + hex(utf8[index + 1]) + [UInt8(ascii: "}")]
                    length = 2
                default: escape = Array("\\x".utf8) + hex(byte)
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                bytes.append(contentsOf: escape)
                index += length
                start = index
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
    }

    /// True for a byte that may start what `append` escapes: a C0 control, DEL, or 0xC2 (the
    /// first byte of a C1 control's UTF-8).
    @inline(__always) public static func mayNeedEscape(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x7F || byte == 0xC2 }
}

extension String {
    /// The text on one line and safe to print to a terminal (`TerminalText`).
    public var escapingControls: String {
        guard utf8.contains(where: TerminalText.mayNeedEscape) else { return self }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count + 8)
        TerminalText.append(self, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
