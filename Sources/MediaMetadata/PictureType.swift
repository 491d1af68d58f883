/// What a picture shows: the ID3 `APIC` picture types (ID3v2.4 section 4.14), an open set
/// (any byte is a type; the named ones are constants). MP4 cover art has no type and reads as
/// `.frontCover`.
public struct PictureType: RawRepresentable, Hashable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(integerLiteral value: UInt8) { self.init(rawValue: value) }

    public static let other: PictureType = 0
    public static let fileIcon: PictureType = 1
    public static let otherFileIcon: PictureType = 2
    public static let frontCover: PictureType = 3
    public static let backCover: PictureType = 4
    public static let leaflet: PictureType = 5
    public static let media: PictureType = 6
    public static let leadArtist: PictureType = 7
    public static let artist: PictureType = 8
    public static let conductor: PictureType = 9
    public static let band: PictureType = 10
    public static let composer: PictureType = 11
    public static let lyricist: PictureType = 12
    public static let recordingLocation: PictureType = 13
    public static let duringRecording: PictureType = 14
    public static let duringPerformance: PictureType = 15
    public static let screenCapture: PictureType = 16
    public static let brightColoredFish: PictureType = 17
    public static let illustration: PictureType = 18
    public static let bandLogo: PictureType = 19
    public static let publisherLogo: PictureType = 20

    /// The names of types 0-20, as the command line and JSON documents write them.
    static let names: [String] = [
        "other", "file-icon", "other-file-icon", "front-cover", "back-cover", "leaflet", "media", "lead-artist",
        "artist", "conductor", "band", "composer", "lyricist", "recording-location", "during-recording",
        "during-performance", "screen-capture", "bright-colored-fish", "illustration", "band-logo", "publisher-logo",
    ]

    /// `front-cover`; `type-N` for a type without a name.
    public var name: String { Int(rawValue) < Self.names.count ? Self.names[Int(rawValue)] : "type-\(rawValue)" }
    public var description: String { name }

    /// The type named `name` (`front-cover`, `Front-Cover`, `type-42`, or a number 0-255); nil otherwise.
    public init?(named name: String) {
        if let number = UInt8(name) {
            self.init(rawValue: number)
        } else if name.hasPrefix("type-"), let number = UInt8(name.dropFirst(5)) {
            self.init(rawValue: number)
        } else if let index = Self.names.firstIndex(of: name.lowercased()) {
            self.init(rawValue: UInt8(index))
        } else {
            return nil
        }
    }
}
