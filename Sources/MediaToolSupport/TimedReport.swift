import MediaBytes
import MediaMetadata

/// The output of `tagedit timed`: every timed metadata item of a file in time order.
public enum TimedReport {
    /// The events of `report` within `from...to` (seconds; either may be nil).
    public static func events(_ report: TimedMetadataReport, from: Double?, to: Double?) -> [TimedMetadataEvent] {
        report.events.filter { event in (from.map { event.time >= $0 } ?? true) && (to.map { event.time <= $0 } ?? true) }
    }

    /// An event's values as `show` lists an item's: its text values, then its pictures.
    static func values(_ event: TimedMetadataEvent) -> [String] {
        event.values + event.pictures.map(TagReport.describe)
    }

    /// `timed --json` for one file: `{"path", "format", "events": [{"time", "duration",
    /// "source", "identifier", "key", "value", "offset"}], "diagnostics"}`.
    public static func json(_ report: TimedMetadataReport, from: Double? = nil, to: Double? = nil) -> JSONValue {
        .object([
            ("path", .string(PathBytes.display(report.path))), ("format", .string(report.format)),
            ("events", .array(events(report, from: from, to: to).map { event in
                .object([
                    ("time", .double(event.time)), ("duration", event.duration.map(JSONValue.double) ?? .null),
                    ("source", .string(event.source.rawValue)), ("identifier", .string(event.identifier)),
                    ("key", event.key.map(JSONValue.string) ?? .null), ("value", .array(values(event).map(JSONValue.string))),
                    ("offset", .uint(event.offset)),
                ])
            })),
            ("diagnostics", .array(report.diagnostics.map(\.json))),
        ])
    }

    /// `timed` as text: a heading, then one line per event:
    /// `  10.000 s  ts  id3/TIT2  TITLE  Now playing`.
    public static func text(_ report: TimedMetadataReport, from: Double? = nil, to: Double? = nil) -> String {
        let selected = events(report, from: from, to: to)
        var out = "\(report.path) (\(report.format)): \(selected.count) timed \(selected.count == 1 ? "item" : "items")\n"
        let identifierWidth = selected.map(\.identifier.count).max() ?? 0
        for event in selected {
            let time = TagReport.seconds(event.time)
            let duration = event.duration.map { " +" + TagReport.seconds($0) } ?? ""
            let key = event.key.map { "  " + $0 } ?? ""
            let value = values(event).joined(separator: " | ").escapingControls
            out += "  \(time)\(duration)  \(event.source.rawValue)  \(event.identifier.padding(toLength: identifierWidth))\(key)  \(value)\n"
        }
        return out
    }
}

extension String {
    func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}
