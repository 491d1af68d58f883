/// Hex dump lines: the byte offset in decimal (the notation of `tree`, `check` and every error
/// message, so an offset can be looked up in either), 16 bytes in two groups of eight, and
/// their printable ASCII.
public enum HexDump {
    public static func lines<C: Collection>(_ bytes: C, startingAt offset: UInt64) -> [String] where C.Element == UInt8 {
        let data = Array(bytes)
        var lines: [String] = []
        var index = 0
        while index < data.count {
            let row = data[index..<min(index + 16, data.count)]
            var line = offsetColumn(offset + UInt64(index)) + "  "
            for (i, byte) in row.enumerated() {
                line += hex(UInt64(byte), width: 2) + (i == 7 ? "  " : " ")
            }
            if row.count < 16 {
                line += String(repeating: "   ", count: 16 - row.count) + (row.count <= 7 ? " " : "")
            }
            line += " |" + String(row.map { $0 >= 0x20 && $0 < 0x7F ? Character(Unicode.Scalar($0)) : "." }) + "|"
            lines.append(line)
            index += 16
        }
        return lines
    }

    /// A byte offset in decimal, right-aligned in ten columns (wider past 9,999,999,999).
    public static func offsetColumn(_ offset: UInt64) -> String {
        let digits = String(offset)
        return String(repeating: " ", count: max(0, 10 - digits.count)) + digits
    }

    /// `value` in lower-case hexadecimal, zero-padded to `width` digits.
    public static func hex(_ value: UInt64, width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
