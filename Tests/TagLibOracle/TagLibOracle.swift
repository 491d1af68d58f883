import CTagLibShim
import Foundation

/// What the system TagLib reads from a file, for cross-checks in tests. Never used by the
/// products.
public struct TagLibReading: @unchecked Sendable {
    /// TagLib's property map (`TITLE`, `ARTIST`, ...).
    public var properties: [String: [String]]
    /// TagLib's ID3v2 tag: major version (after TagLib's own upgrade it reads v2.2/2.3 frames as
    /// v2.4 ones) and frames as dictionaries (see Tests/CTagLibShim/shim.cpp).
    public var id3v2Version: Int?
    public var id3v2Frames: [[String: Any]]
    public var id3v1: [String: Any]?
    public var info: [String: String]?
    /// TagLib's MP4 items by item name (`©nam`, `trkn`, `----:com.apple.iTunes:NAME`), each
    /// `{"kind": ..., "values"/"value"/"index"/"total": ...}` (see shim.cpp); nil for non-MP4.
    public var mp4Items: [String: [String: Any]]?

    /// Sets title, artist and track number with TagLib's MP4 writer; false when TagLib fails.
    public static func setMP4Items(in path: String, title: String, artist: String, track: Int, total: Int) -> Bool {
        taglib_shim_set_mp4_items(path, title, artist, Int32(track), Int32(total)) == 1
    }

    /// Writes TagLib's sample tag (see Tests/CTagLibShim/include/CTagLibShim.h) into the MP3
    /// at `path` as ID3v2.`version`; false when TagLib fails.
    public static func writeSample(to path: String, version: Int) -> Bool {
        taglib_shim_write_sample(path, Int32(version)) == 1
    }

    /// Reads `path` with TagLib; nil when TagLib cannot open it.
    public static func read(_ path: String) -> TagLibReading? {
        guard let raw = taglib_shim_describe(path) else { return nil }
        defer { taglib_shim_free(raw) }
        let data = Data(bytes: raw, count: strlen(raw))
        guard let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        let id3v2 = document["id3v2"] as? [String: Any]
        return TagLibReading(
            properties: document["properties"] as? [String: [String]] ?? [:],
            id3v2Version: id3v2?["version"] as? Int,
            id3v2Frames: id3v2?["frames"] as? [[String: Any]] ?? [],
            id3v1: document["id3v1"] as? [String: Any],
            info: document["info"] as? [String: String],
            mp4Items: (document["mp4"] as? [String: Any])?["items"] as? [String: [String: Any]])
    }
}
