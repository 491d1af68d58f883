import MediaBytes
import MediaMetadata

/// A picture a node of the inspection holds (a cover's `data` value, an `APIC` frame's or a
/// FLAC `PICTURE` block's data): the field whose bytes start as an image does, found the same
/// way by the HTML page (which shows it) and the browser (which offers to open it).
public struct InspectionPicture: Sendable, Hashable {
    /// The field that holds the picture's bytes.
    public var field: String
    public var mimeType: String
    /// Where the picture's bytes are in the file.
    public var range: Range<UInt64>

    /// The first field of a leaf that is not media whose bytes (its range) sniff as an image:
    /// JPEG, PNG, GIF, BMP or WebP. `head` holds the node's first bytes when the caller read
    /// them already (nothing more is read then for a picture that starts in them); other
    /// fields' first 12 bytes are read from `source`.
    public static func find(in fields: [InspectionField], of node: InspectionNode, source: any ByteSource,
                            head: [UInt8] = []) -> InspectionPicture? {
        guard !node.hasChildren, !node.holdsMedia else { return nil }
        for field in fields {
            guard let range = field.range, range.count >= 16, range.lowerBound >= node.offset, range.upperBound <= source.size else { continue }
            let start = range.lowerBound - node.offset
            let first: [UInt8]
            if start + 12 <= UInt64(head.count) {
                first = Array(head[Int(start)..<Int(start) + 12])
            } else if let bytes = try? source.read(at: range.lowerBound, count: 12) {
                first = Array(bytes)
            } else {
                continue
            }
            if let mimeType = MediaPicture.mimeType(sniffing: first) { return InspectionPicture(field: field.name, mimeType: mimeType, range: range) }
        }
        return nil
    }

    /// The file name extension of the picture's type (`jpg`).
    public var fileExtension: String {
        switch mimeType {
        case "image/jpeg": "jpg"
        case "image/png": "png"
        case "image/gif": "gif"
        case "image/bmp": "bmp"
        case "image/webp": "webp"
        default: "bin"
        }
    }
}
