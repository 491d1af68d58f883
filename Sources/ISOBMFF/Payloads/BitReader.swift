import MediaBytes

/// Reads bits most significant first from bytes (codec headers: an H.264 sequence parameter
/// set, an AV1 sequence header, the packed fields of `hvcC`, `dac3`, `dec3`). Reading past the
/// end throws, naming the bit position.
struct BitReader {
    private let bytes: [UInt8]
    private(set) var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// An H.264/H.265 NAL unit's payload with its emulation prevention bytes (`00 00 03`)
    /// taken out, as the bitstream syntax reads it.
    init(unescaping nal: [UInt8]) {
        var out: [UInt8] = []
        out.reserveCapacity(nal.count)
        var zeros = 0
        for byte in nal {
            if zeros >= 2 && byte == 3 { zeros = 0; continue }
            zeros = byte == 0 ? zeros + 1 : 0
            out.append(byte)
        }
        self.init(out)
    }

    struct Overrun: Error { var bit: Int }

    /// The bits not read yet.
    var remaining: Int { bytes.count * 8 - position }

    mutating func bits(_ count: Int) throws(Overrun) -> UInt64 {
        guard count <= remaining else { throw Overrun(bit: position) }
        var value: UInt64 = 0
        for _ in 0..<count {
            let byte = bytes[position >> 3]
            value = value << 1 | UInt64(byte >> (7 - UInt8(position & 7)) & 1)
            position += 1
        }
        return value
    }

    mutating func flag() throws(Overrun) -> Bool { try bits(1) == 1 }

    /// `count` bits (at most 32) as a number; nil past the end (the reader stays where it was).
    mutating func read(_ count: Int) -> Int? {
        guard count <= 32, let value = try? bits(count) else { return nil }
        return Int(value)
    }

    /// An unsigned Exp-Golomb code (`ue(v)`).
    mutating func ue() throws(Overrun) -> UInt64 {
        var zeros = 0
        while try bits(1) == 0 {
            zeros += 1
            guard zeros < 32 else { throw Overrun(bit: position) }
        }
        return (1 << UInt64(zeros)) - 1 + (try bits(zeros))
    }

    /// A signed Exp-Golomb code (`se(v)`).
    mutating func se() throws(Overrun) -> Int64 {
        let code = try ue()
        return code & 1 == 1 ? Int64((code + 1) / 2) : -Int64(code / 2)
    }
}

/// What an H.264 sequence parameter set says of the picture (ISO/IEC 14496-10 section 7.3.2.1.1).
struct AVCSequenceParameters {
    var profile: UInt64
    var level: UInt64
    var chromaFormat: UInt64 = 1
    var bitDepthLuma: UInt64 = 8
    var bitDepthChroma: UInt64 = 8
    var width: UInt64
    var height: UInt64
    var frameMBsOnly: Bool

    static let chromaNames = ["4:0:0", "4:2:0", "4:2:2", "4:4:4"]

    init(_ nal: [UInt8]) throws(BitReader.Overrun) {
        var r = BitReader(unescaping: nal)
        _ = try r.bits(8)  // NAL unit header
        profile = try r.bits(8)
        _ = try r.bits(8)  // constraint flags
        level = try r.bits(8)
        _ = try r.ue()  // seq_parameter_set_id
        var separateColourPlane = false
        if [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].contains(profile) {
            chromaFormat = try r.ue()
            if chromaFormat == 3 { separateColourPlane = try r.flag() }
            bitDepthLuma = try r.ue() + 8
            bitDepthChroma = try r.ue() + 8
            _ = try r.flag()  // qpprime_y_zero_transform_bypass_flag
            if try r.flag() {  // seq_scaling_matrix_present_flag
                for index in 0..<(chromaFormat == 3 ? 12 : 8) {
                    guard try r.flag() else { continue }  // seq_scaling_list_present_flag
                    let size = index < 6 ? 16 : 64
                    var last: Int64 = 8, next: Int64 = 8
                    for _ in 0..<size where next != 0 {
                        next = (last + (try r.se()) + 256) % 256
                        last = next == 0 ? last : next
                    }
                }
            }
        }
        _ = try r.ue()  // log2_max_frame_num_minus4
        let pocType = try r.ue()
        if pocType == 0 {
            _ = try r.ue()
        } else if pocType == 1 {
            _ = try r.flag()
            _ = try r.se()
            _ = try r.se()
            let cycle = try r.ue()
            guard cycle < 256 else { throw BitReader.Overrun(bit: r.position) }
            for _ in 0..<cycle { _ = try r.se() }
        }
        _ = try r.ue()  // max_num_ref_frames
        _ = try r.flag()  // gaps_in_frame_num_value_allowed_flag
        let widthInMBs = try r.ue() + 1
        let heightInMapUnits = try r.ue() + 1
        frameMBsOnly = try r.flag()
        if !frameMBsOnly { _ = try r.flag() }  // mb_adaptive_frame_field_flag
        _ = try r.flag()  // direct_8x8_inference_flag
        var crop: (left: UInt64, right: UInt64, top: UInt64, bottom: UInt64) = (0, 0, 0, 0)
        if try r.flag() { crop = (try r.ue(), try r.ue(), try r.ue(), try r.ue()) }
        // Cropping is counted in chroma samples (section 7.4.2.1.1).
        let arrayType = separateColourPlane ? 0 : chromaFormat
        let subWidth: UInt64 = arrayType == 1 || arrayType == 2 ? 2 : 1
        let subHeight: UInt64 = arrayType == 1 ? 2 : 1
        let fieldFactor: UInt64 = frameMBsOnly ? 1 : 2
        let cropX = arrayType == 0 ? 1 : subWidth
        let cropY = (arrayType == 0 ? 1 : subHeight) * fieldFactor
        width = (widthInMBs * 16).subtractingClamped(cropX &* (crop.left &+ crop.right))
        height = (heightInMapUnits * 16 * fieldFactor).subtractingClamped(cropY &* (crop.top &+ crop.bottom))
    }

    var fields: [DescribedField] {
        [DescribedField("profile", profile), DescribedField("level", level),
         DescribedField("chromaFormat", chromaFormat < 4 ? Self.chromaNames[Int(chromaFormat)] : "chroma_format_idc \(chromaFormat)"),
         DescribedField("bitDepthLuma", bitDepthLuma), DescribedField("bitDepthChroma", bitDepthChroma),
         DescribedField("width", width), DescribedField("height", height), DescribedField("progressive", frameMBsOnly)]
    }
}

extension UInt64 {
    /// `self - other`, or 0 when `other` is larger (a damaged header's cropping).
    func subtractingClamped(_ other: UInt64) -> UInt64 { self >= other ? self - other : 0 }
}
