import MediaBytes
import MediaMetadata

/// What an edit changes in a file, as `--dry-run` and `--verbose` show it: each key whose
/// values differ, old and new, and the pictures and chapters where they change. Taken from
/// the file as read and the file as edited in memory, so a preview is exactly what the save
/// would write.
public struct EditPreview: Sendable, Equatable {
    /// One key's values before and after (an empty list: absent).
    public struct Change: Sendable, Equatable {
        public var key: String
        public var old: [String]
        public var new: [String]
    }

    /// What of a file the preview compares.
    public struct Snapshot: Sendable {
        var tags: [String: [String]]
        var pictures: [PictureSummary]
        var chapters: [Chapter]

        public init(_ file: MediaFile) throws(MetadataError) {
            tags = file.tags.dictionary
            pictures = try file.pictureSummaries
            chapters = file.chapters
        }
    }

    public var changes: [Change]
    public var oldPictures: [PictureSummary]
    public var newPictures: [PictureSummary]
    public var oldChapters: [Chapter]
    public var newChapters: [Chapter]

    public init(before: Snapshot, after: Snapshot) {
        changes = Set(before.tags.keys).union(after.tags.keys).sorted().compactMap { key in
            let old = before.tags[key] ?? [], new = after.tags[key] ?? []
            return old == new ? nil : Change(key: key, old: old, new: new)
        }
        (oldPictures, newPictures) = before.pictures == after.pictures ? ([], []) : (before.pictures, after.pictures)
        (oldChapters, newChapters) = before.chapters == after.chapters ? ([], []) : (before.chapters, after.chapters)
    }

    public var isEmpty: Bool { changes.isEmpty && oldPictures == newPictures && oldChapters == newChapters }

    /// The preview for people, one line each, indented under the file's line:
    /// `  TITLE: "Old" -> "New"`, `  ARTIST: (none) -> "X"`, `  pictures: 1 -> 2 (...)`.
    public var lines: [String] {
        func values(_ values: [String]) -> String {
            values.isEmpty ? "(none)" : values.map { "\"\($0.escapingControls)\"" }.joined(separator: ", ")
        }
        var lines = changes.map { "  \($0.key): \(values($0.old)) -> \(values($0.new))" }
        if oldPictures != newPictures {
            lines.append("  pictures: \(Self.describe(oldPictures)) -> \(Self.describe(newPictures))")
        }
        if oldChapters != newChapters {
            lines.append("  chapters: \(oldChapters.count) -> \(newChapters.count)" + (newChapters.isEmpty ? "" : " (" + newChapters.prefix(3).map { "\"\($0.title.escapingControls)\"" }.joined(separator: ", ") + (newChapters.count > 3 ? ", …" : "") + ")"))
        }
        return lines
    }

    static func describe(_ pictures: [PictureSummary]) -> String {
        pictures.isEmpty ? "(none)" : pictures.map { "\($0.type.name) \($0.mimeType) \($0.size) bytes" }.joined(separator: ", ")
    }

    /// The preview as JSON members: `changes` (`key`, `old`, `new`), and `pictures` and
    /// `chapters` (`old`, `new`) where they change.
    public var jsonMembers: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [("changes", .array(changes.map { change in
            .object([("key", .string(change.key)), ("old", .array(change.old.map(JSONValue.string))), ("new", .array(change.new.map(JSONValue.string)))])
        }))]
        if oldPictures != newPictures {
            func json(_ pictures: [PictureSummary]) -> JSONValue {
                .array(pictures.map { .object([("type", .string($0.type.name)), ("mimeType", .string($0.mimeType)), ("size", .int(Int64($0.size))),
                                               ("description", .string($0.description))]) })
            }
            members.append(("pictures", .object([("old", json(oldPictures)), ("new", json(newPictures))])))
        }
        if oldChapters != newChapters {
            members.append(("chapters", .object([("old", .array(oldChapters.map(ChapterReport.json))), ("new", .array(newChapters.map(ChapterReport.json)))])))
        }
        return members
    }
}
