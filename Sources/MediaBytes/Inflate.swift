/// A zlib (RFC 1950) / DEFLATE (RFC 1951) decompressor in plain Swift, for compressed ID3
/// frames and other small compressed metadata. It stops with an error instead of producing
/// more than `maxOutputSize` bytes, so a decompression bomb costs a bounded amount of memory.
public enum Inflate {
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var reason: String
        /// The bytes decompressed before the stream failed or reached the limit: what the
        /// attempt cost, for a caller that counts decompressed bytes against a budget.
        public var producedBytes = 0
        public var description: String { reason }
    }

    /// Decompresses a zlib stream (2-byte header, DEFLATE data, Adler-32 checksum).
    public static func zlib(_ bytes: [UInt8], maxOutputSize: Int) throws(Failure) -> [UInt8] {
        guard bytes.count >= 2 else { throw Failure(reason: "zlib stream shorter than its 2-byte header") }
        let cmf = bytes[0], flg = bytes[1]
        guard cmf & 0x0F == 8, (UInt16(cmf) << 8 | UInt16(flg)) % 31 == 0 else {
            throw Failure(reason: "not a zlib stream (header \(cmf) \(flg))")
        }
        guard flg & 0x20 == 0 else { throw Failure(reason: "zlib stream needs a preset dictionary") }
        var inflater = Inflater(bytes, start: 2, maxOutput: maxOutputSize)
        try inflater.runCountingProduced()
        // The checksum is part of the stream: data that ends before it was cut short (or its
        // last block made up by damage), and zlib, TagLib and mutagen refuse it too.
        let end = inflater.byteAlignedPosition
        guard end + 4 <= bytes.count else {
            throw Failure(reason: "zlib stream ends before its checksum", producedBytes: inflater.output.count)
        }
        let expected = UInt32(bytes[end]) << 24 | UInt32(bytes[end + 1]) << 16 | UInt32(bytes[end + 2]) << 8 | UInt32(bytes[end + 3])
        guard adler32(inflater.output) == expected else {
            throw Failure(reason: "zlib checksum does not match the data", producedBytes: inflater.output.count)
        }
        return inflater.output
    }

    /// Decompresses raw DEFLATE data.
    public static func deflate(_ bytes: [UInt8], maxOutputSize: Int) throws(Failure) -> [UInt8] {
        var inflater = Inflater(bytes, start: 0, maxOutput: maxOutputSize)
        try inflater.runCountingProduced()
        return inflater.output
    }

    static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        var index = 0
        while index < data.count {
            let end = min(index + 5552, data.count)
            while index < end {
                a += UInt32(data[index])
                b += a
                index += 1
            }
            a %= 65521
            b %= 65521
        }
        return b << 16 | a
    }
}

/// Canonical Huffman code: how many codes of each length, and the symbols in code order.
private struct Huffman {
    var counts = [Int](repeating: 0, count: 16)
    var symbols: [Int]

    init(lengths: ArraySlice<Int>) throws(Inflate.Failure) {
        symbols = [Int](repeating: 0, count: lengths.count)
        for length in lengths { counts[length] += 1 }
        counts[0] = 0
        var left = 1
        for length in 1...15 {
            left <<= 1
            left -= counts[length]
            guard left >= 0 else { throw Inflate.Failure(reason: "over-subscribed Huffman code") }
        }
        var offsets = [Int](repeating: 0, count: 16)
        for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
        for (symbol, length) in lengths.enumerated() where length != 0 {
            symbols[offsets[length]] = symbol
            offsets[length] += 1
        }
    }
}

private struct Inflater {
    let input: [UInt8]
    var position: Int
    var bitBuffer: UInt32 = 0
    var bitCount = 0
    var output: [UInt8] = []
    let maxOutput: Int

    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    init(_ input: [UInt8], start: Int, maxOutput: Int) {
        self.input = input
        position = start
        self.maxOutput = maxOutput
    }

    /// The input position after the last whole byte used.
    var byteAlignedPosition: Int { position }

    mutating func bits(_ count: Int) throws(Inflate.Failure) -> Int {
        while bitCount < count {
            guard position < input.count else { throw Inflate.Failure(reason: "compressed data ends early") }
            bitBuffer |= UInt32(input[position]) << UInt32(bitCount)
            position += 1
            bitCount += 8
        }
        let value = Int(bitBuffer & ((1 << UInt32(count)) - 1))
        bitBuffer >>= UInt32(count)
        bitCount -= count
        return value
    }

    mutating func decode(_ code: Huffman) throws(Inflate.Failure) -> Int {
        var value = 0, first = 0, index = 0
        for length in 1...15 {
            value |= try bits(1)
            let count = code.counts[length]
            if value - count < first { return code.symbols[index + (value - first)] }
            index += count
            first += count
            first <<= 1
            value <<= 1
        }
        throw Inflate.Failure(reason: "invalid Huffman code in compressed data")
    }

    /// `run`, with what was produced before a failure recorded in the failure.
    mutating func runCountingProduced() throws(Inflate.Failure) {
        do { try run() } catch {
            var failure = error
            failure.producedBytes = output.count
            throw failure
        }
    }

    mutating func run() throws(Inflate.Failure) {
        var last = false
        while !last {
            last = try bits(1) == 1
            switch try bits(2) {
            case 0: try stored()
            case 1: try fixed()
            case 2: try dynamic()
            default: throw Inflate.Failure(reason: "invalid DEFLATE block type")
            }
        }
    }

    mutating func emit(_ byte: UInt8) throws(Inflate.Failure) {
        guard output.count < maxOutput else {
            throw Inflate.Failure(reason: "decompressed data exceeds the \(maxOutput)-byte limit")
        }
        output.append(byte)
    }

    mutating func stored() throws(Inflate.Failure) {
        bitBuffer = 0
        bitCount = 0
        guard position + 4 <= input.count else { throw Inflate.Failure(reason: "stored block header ends early") }
        let length = Int(input[position]) | Int(input[position + 1]) << 8
        let complement = Int(input[position + 2]) | Int(input[position + 3]) << 8
        guard length == ~complement & 0xFFFF else { throw Inflate.Failure(reason: "stored block length check fails") }
        position += 4
        guard position + length <= input.count else { throw Inflate.Failure(reason: "stored block ends early") }
        for i in 0..<length { try emit(input[position + i]) }
        position += length
    }

    mutating func fixed() throws(Inflate.Failure) {
        var lengths = [Int](repeating: 8, count: 288)
        for i in 144..<256 { lengths[i] = 9 }
        for i in 256..<280 { lengths[i] = 7 }
        let literals = try Huffman(lengths: lengths[...])
        let distances = try Huffman(lengths: [Int](repeating: 5, count: 30)[...])
        try codes(literals, distances)
    }

    mutating func dynamic() throws(Inflate.Failure) {
        let literalCount = try bits(5) + 257
        let distanceCount = try bits(5) + 1
        let codeLengthCount = try bits(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else { throw Inflate.Failure(reason: "too many Huffman codes") }
        var codeLengths = [Int](repeating: 0, count: 19)
        for i in 0..<codeLengthCount { codeLengths[Self.codeLengthOrder[i]] = try bits(3) }
        let lengthCode = try Huffman(lengths: codeLengths[...])
        var lengths: [Int] = []
        lengths.reserveCapacity(literalCount + distanceCount)
        while lengths.count < literalCount + distanceCount {
            let symbol = try decode(lengthCode)
            var repeatValue = 0
            var repeatCount: Int
            switch symbol {
            case 0..<16:
                lengths.append(symbol)
                continue
            case 16:
                guard let previous = lengths.last else { throw Inflate.Failure(reason: "repeat with no previous length") }
                repeatValue = previous
                repeatCount = 3 + (try bits(2))
            case 17:
                repeatCount = 3 + (try bits(3))
            default:
                repeatCount = 11 + (try bits(7))
            }
            guard lengths.count + repeatCount <= literalCount + distanceCount else {
                throw Inflate.Failure(reason: "code lengths overflow their table")
            }
            lengths += [Int](repeating: repeatValue, count: repeatCount)
        }
        guard lengths[256] != 0 else { throw Inflate.Failure(reason: "no end-of-block code") }
        let literals = try Huffman(lengths: lengths[0..<literalCount])
        let distances = try Huffman(lengths: lengths[literalCount...])
        try codes(literals, distances)
    }

    mutating func codes(_ literals: Huffman, _ distances: Huffman) throws(Inflate.Failure) {
        while true {
            let symbol = try decode(literals)
            if symbol < 256 {
                try emit(UInt8(symbol))
            } else if symbol == 256 {
                return
            } else {
                let index = symbol - 257
                guard index < 29 else { throw Inflate.Failure(reason: "invalid length code") }
                let length = Self.lengthBase[index] + (try bits(Self.lengthExtra[index]))
                let distanceSymbol = try decode(distances)
                guard distanceSymbol < 30 else { throw Inflate.Failure(reason: "invalid distance code") }
                let distance = Self.distanceBase[distanceSymbol] + (try bits(Self.distanceExtra[distanceSymbol]))
                guard distance <= output.count else { throw Inflate.Failure(reason: "distance reaches before the start of the data") }
                for _ in 0..<length { try emit(output[output.count - distance]) }
            }
        }
    }
}
