/// HTTP Live Streaming packed audio (RFC 8216 section 3.4): each segment opens with an ID3v2
/// tag whose `PRIV` frame `com.apple.streaming.transportStreamTimestamp` holds the MPEG-2
/// transport stream timestamp of the first sample: 8 bytes, big-endian, of which the low 33
/// bits count in 90 kHz units.
extension ID3v2Tag {
    public static let transportStreamTimestampOwner = "com.apple.streaming.transportStreamTimestamp"

    /// The 33-bit timestamp in 90 kHz units, when the tag has one.
    public var transportStreamTimestamp: UInt64? {
        for frame in frames {
            guard case .privateData(let owner, let data) = frame.content.storage, owner == Self.transportStreamTimestampOwner,
                data.count == 8
            else { continue }
            return data.reduce(0) { $0 << 8 | UInt64($1) } & ((1 << 33) - 1)
        }
        return nil
    }
}
