import MediaBytes

/// The 4-byte header of an MPEG-1/2/2.5 audio frame, layers I-III (ISO/IEC 11172-3 section
/// 2.4.1.3; ISO/IEC 13818-3 for the lower sampling rates).
public struct MPEGAudioFrameHeader: Sendable, Hashable {
    public enum Version: String, Sendable, Hashable {
        case mpeg1 = "MPEG-1", mpeg2 = "MPEG-2", mpeg25 = "MPEG-2.5"
    }

    public enum ChannelMode: String, Sendable, Hashable {
        case stereo, jointStereo = "joint stereo", dualChannel = "dual channel", mono
    }

    public var version: Version
    /// 1, 2 or 3.
    public var layer: Int
    public var hasCRC: Bool
    /// In kbit/s; 0 for the "free" format.
    public var bitrate: Int
    public var sampleRate: Int
    public var padding: Bool
    public var channelMode: ChannelMode

    /// Decodes four bytes; nil when they are not a valid frame header.
    public init?<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        let b = HeaderBytes(bytes, count: 4)
        guard b.count == 4, b[0] == 0xFF, b[1] & 0xE0 == 0xE0 else { return nil }
        switch (b[1] >> 3) & 0x3 {
        case 0: version = .mpeg25
        case 2: version = .mpeg2
        case 3: version = .mpeg1
        default: return nil
        }
        let layerBits = Int((b[1] >> 1) & 0x3)
        guard layerBits != 0 else { return nil }
        layer = 4 - layerBits
        hasCRC = b[1] & 1 == 0
        let bitrateIndex = Int(b[2] >> 4)
        let rateIndex = Int((b[2] >> 2) & 0x3)
        guard bitrateIndex != 15, rateIndex != 3 else { return nil }
        let rates = [44100, 48000, 32000]
        sampleRate = switch version {
        case .mpeg1: rates[rateIndex]
        case .mpeg2: rates[rateIndex] / 2
        case .mpeg25: rates[rateIndex] / 4
        }
        bitrate = Self.bitrates(version, layer)[bitrateIndex]
        padding = b[2] & 0x2 != 0
        channelMode = [.stereo, .jointStereo, .dualChannel, .mono][Int(b[3] >> 6)]
    }

    private static func bitrates(_ version: Version, _ layer: Int) -> [Int] {
        switch (version, layer) {
        case (.mpeg1, 1): [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448]
        case (.mpeg1, 2): [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384]
        case (.mpeg1, _): [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
        case (_, 1): [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256]
        default: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
        }
    }

    public var channelCount: Int { channelMode == .mono ? 1 : 2 }

    /// Samples per frame: 384 for layer I, 1152 for layer II and MPEG-1 layer III, 576 otherwise.
    public var samplesPerFrame: Int {
        if layer == 1 { return 384 }
        if layer == 2 || version == .mpeg1 { return 1152 }
        return 576
    }

    /// Bytes in the frame including the header; nil for the free format.
    public var frameLength: Int? {
        guard bitrate > 0 else { return nil }
        if layer == 1 { return (12 * bitrate * 1000 / sampleRate + (padding ? 1 : 0)) * 4 }
        return samplesPerFrame / 8 * bitrate * 1000 / sampleRate + (padding ? 1 : 0)
    }

    /// Where a Xing/Info header would start, counted from the frame header: after the side
    /// information of a layer III frame.
    public var sideInformationEnd: Int {
        let side = version == .mpeg1 ? (channelMode == .mono ? 17 : 32) : (channelMode == .mono ? 9 : 17)
        return 4 + (hasCRC ? 2 : 0) + side
    }
}

/// The Xing / Info header in the first frame of a VBR (or LAME CBR) MP3, with the LAME
/// extension's encoder string when present.
public struct XingHeader: Sendable, Hashable {
    /// `Xing` (VBR), `Info` (CBR) or `VBRI` (Fraunhofer's VBR header).
    public var tag: String
    public var frameCount: UInt32?
    public var byteCount: UInt32?
    public var quality: UInt32?
    /// Nine characters such as `LAME3.100`, when a LAME header follows.
    public var encoder: String?

    /// Reads the header from the bytes of a first frame; nil when it has none.
    public init?(frame: [UInt8], header: MPEGAudioFrameHeader) { self.init(frame: frame[...], header: header) }

    /// Reads the header from the bytes of a first frame (a slice of what was read, looked at
    /// in place); nil when it has none.
    public init?(frame: ArraySlice<UInt8>, header: MPEGAudioFrameHeader) {
        // Offsets below are from the frame's start.
        let base = frame.startIndex
        func word(_ at: Int) -> UInt32? {
            guard at + 4 <= frame.count else { return nil }
            return frame[base + at..<base + at + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        // Fraunhofer's VBRI header sits 32 bytes after the frame header, whatever the mode.
        if frame.count >= 36 + 18, frame[base + 36..<base + 40].elementsEqual("VBRI".utf8) {
            tag = "VBRI"
            byteCount = word(36 + 10)
            frameCount = word(36 + 14)
            return
        }
        let start = header.sideInformationEnd
        guard frame.count >= start + 8 else { return nil }
        let tagBytes = frame[base + start..<base + start + 4]
        guard tagBytes.elementsEqual("Xing".utf8) || tagBytes.elementsEqual("Info".utf8) else { return nil }
        tag = String(decoding: tagBytes, as: UTF8.self)
        guard let flags = word(start + 4) else { return nil }
        var position = start + 8
        if flags & 1 != 0 { frameCount = word(position); position += 4 }
        if flags & 2 != 0 { byteCount = word(position); position += 4 }
        if flags & 4 != 0 { position += 100 }
        if flags & 8 != 0 { quality = word(position); position += 4 }
        if position + 9 <= frame.count {
            let name = frame[base + position..<base + position + 9]
            if name.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) && name.first.map({ $0 >= 0x41 }) == true {
                encoder = String(decoding: name, as: UTF8.self).trimmingTrailingSpaces
            }
        }
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " || text.last == "\0" { text.removeLast() }
        return text
    }
}

/// The 7-byte header of an ADTS frame (ISO/IEC 13818-7 section 6.2; ISO/IEC 14496-3 1.A.2).
public struct ADTSFrameHeader: Sendable, Hashable {
    public var isMPEG2: Bool
    public var hasCRC: Bool
    /// Audio object type (profile + 1): 1 Main, 2 LC, 3 SSR, 4 LTP.
    public var audioObjectType: Int
    public var sampleRate: Int?
    public var channelConfiguration: Int
    /// Bytes in the frame including the header.
    public var frameLength: Int

    static let rates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]

    public init?<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        let b = HeaderBytes(bytes, count: 7)
        guard b.count == 7, b[0] == 0xFF, b[1] & 0xF6 == 0xF0 else { return nil }
        isMPEG2 = b[1] & 0x08 != 0
        hasCRC = b[1] & 0x01 == 0
        audioObjectType = Int(b[2] >> 6) + 1
        let rateIndex = Int((b[2] >> 2) & 0xF)
        sampleRate = rateIndex < Self.rates.count ? Self.rates[rateIndex] : nil
        channelConfiguration = Int((b[2] & 0x1) << 2 | b[3] >> 6)
        frameLength = Int(b[3] & 0x3) << 11 | Int(b[4]) << 3 | Int(b[5] >> 5)
        guard frameLength >= (hasCRC ? 9 : 7) else { return nil }
    }
}
