/// A key as the browser understands it, decoded from the bytes a terminal sends.
public enum BrowserKey: Sendable, Hashable {
    case character(Character)
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, tab, backTab, escape, backspace
    /// Ctrl plus a letter (`control("d")` is Ctrl-D).
    case control(Character)

    /// Decodes every key in `bytes` (UTF-8 text, control bytes and ANSI/xterm escape sequences).
    /// A lone ESC is the Escape key.
    public static func decode(_ bytes: [UInt8]) -> [BrowserKey] {
        var keys: [BrowserKey] = []
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == 0x1B {
                if i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") || bytes[i + 1] == UInt8(ascii: "O") {
                    // CSI or SS3: parameters, then a final byte in 0x40...0x7E.
                    var j = i + 2
                    while j < bytes.count, !(0x40...0x7E).contains(bytes[j]) { j += 1 }
                    guard j < bytes.count else { keys.append(.escape); i += 1; continue }
                    let parameters = String(decoding: bytes[(i + 2)..<j], as: UTF8.self)
                    switch bytes[j] {
                    case UInt8(ascii: "A"): keys.append(.up)
                    case UInt8(ascii: "B"): keys.append(.down)
                    case UInt8(ascii: "C"): keys.append(.right)
                    case UInt8(ascii: "D"): keys.append(.left)
                    case UInt8(ascii: "H"): keys.append(.home)
                    case UInt8(ascii: "F"): keys.append(.end)
                    case UInt8(ascii: "Z"): keys.append(.backTab)
                    case UInt8(ascii: "~"):
                        switch parameters {
                        case "5": keys.append(.pageUp)
                        case "6": keys.append(.pageDown)
                        case "1", "7": keys.append(.home)
                        case "4", "8": keys.append(.end)
                        default: break
                        }
                    default: break
                    }
                    i = j + 1
                    continue
                }
                keys.append(.escape)
                i += 1
                continue
            }
            switch byte {
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x09: keys.append(.tab)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x01...0x1A: keys.append(.control(Character(Unicode.Scalar(byte + 0x60))))
            default:
                // One UTF-8 character.
                var length = 1
                if byte >= 0xF0 { length = 4 } else if byte >= 0xE0 { length = 3 } else if byte >= 0xC0 { length = 2 }
                let end = min(i + length, bytes.count)
                if let text = String(validating: bytes[i..<end], as: UTF8.self), let character = text.first {
                    keys.append(.character(character))
                }
                i = end
                continue
            }
            i += 1
        }
        return keys
    }
}
