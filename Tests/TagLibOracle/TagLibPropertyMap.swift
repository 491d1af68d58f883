import Carriers
import MediaBytes
import MediaMetadata

/// This package's `tags` against TagLib's property map of the same file, for the cross-check
/// tests (`TagLibPropertyMapTests`) and the differential fuzz target (`taglib`): what differs
/// once every difference judged and documented (README, "Where `tags` differs from TagLib")
/// is normalised by its named rule. Never used by the products.
public enum TagLibPropertyMap {
    /// Keys this project reads where TagLib 1.13 does not (documented in the key table).
    public static let keysTagLibDoesNotMap: Set<String> = [
        "REPLAYGAIN_TRACK_GAIN", "REPLAYGAIN_TRACK_PEAK", "REPLAYGAIN_ALBUM_GAIN", "REPLAYGAIN_ALBUM_PEAK",
        "ACOUSTID_ID", "ACOUSTID_FINGERPRINT", "MUSICIP_PUID",
    ]
    public static let involvedPeopleKeys: Set<String> = ["ARRANGER", "ENGINEER", "PRODUCER", "DJMIXER", "MIXER"]

    /// The differences between `ours` and TagLib's map of `path`, after the documented rules;
    /// nil when the file is out of scope (TagLib cannot read it, or it has an APE tag TagLib
    /// prefers and this project does not read).
    public static func differences(_ path: String) -> [String]? {
        guard let taglib = TagLibReading.read(path) else { return nil }
        let file: MediaFile
        do { file = try MediaFile(path: path) } catch { return taglib.properties.isEmpty ? [] : ["this project cannot read it: \(error)"] }
        var ours = file.tags
        var theirs = taglib.properties
        let items = file.items
        // TagLib does not read an ID3v2 tag appended at the end of an MP3 (it shows the ID3v1 tag).
        if file.format == .mp3, let stream = try? MPEGStreamFile(source: FileByteSource(path: path)), stream.leadingTags.isEmpty, stream.appendedTag != nil {
            return nil
        }
        /// Takes the values `item` contributed out of `ours`.
        func subtract(_ item: NativeMetadataItem) {
            for contribution in item.contributions {
                var values = ours[contribution.key] ?? []
                for value in contribution.values { if let i = values.firstIndex(of: value) { values.remove(at: i) } }
                ours[contribution.key] = values.isEmpty ? nil : values
            }
        }
        // TagLib reads the first of an MP3's leading ID3v2 tags; this project reads them
        // together as ffmpeg does (`MPEGStreamFile.mergedTag`): the frames the merge took from
        // the later tags are not compared.
        if file.format == .mp3, let stream = try? MPEGStreamFile(source: FileByteSource(path: path)), let first = stream.leadingTags.first,
            let merged = stream.mergedTag, merged.frames.count > first.frames.count
        {
            for frame in merged.frames[first.frames.count...] {
                for item in items where item.identifier.keySpace == .id3 && item.identifier.key.hasPrefix(frame.id)
                    && (frame.textValues.map { Set($0) == Set(item.values) } ?? true) { subtract(item) }
            }
        }
        // TagLib matches freeform names case-sensitively (`originaldate`, `label`) and gives
        // freeform items outside its table no key; this project matches without regard to case
        // and reads iTunes-domain items outside the table as custom keys (as TXXX), and those
        // named as a key without an iTunes form of its own (ARRANGER) as that key.
        for item in items {
            guard let parts = item.identifier.freeformParts else { continue }
            let exact = MetadataKeyTable.rows.first { $0.iTunes.contains(.freeform(mean: parts.mean, name: parts.name)) }
            if exact.map({ Self.keysTagLibDoesNotMap.contains($0.key) || $0.iTunesIsFreeformByName }) ?? true { subtract(item) }
        }
        // TagLib drops a whole TIPL/TMCL list when a role is not as it spells it (upper case);
        // Picard writes them in lower case, and this project reads them.
        for item in items where ["TIPL", "IPLS", "TMCL"].contains(item.nativeKey) {
            var index = 0
            var exact = true
            while index + 1 < item.values.count {
                let role = item.values[index]
                if item.nativeKey != "TMCL" && !["ARRANGER", "ENGINEER", "PRODUCER", "DJ-MIX", "MIX"].contains(role) { exact = false }
                index += 2
            }
            guard !exact else { continue }
            subtract(item)
        }
        func source(_ key: String) -> [NativeMetadataItem] { items.filter { $0.contributions.contains { $0.key == key } } }
        for key in Array(ours.keys) {
            let from = source(key)
            // TagLib reads only the iTunes item list of MP4 files.
            if file.family == .mp4 && !from.contains(where: { $0.keySpace == .iTunes || $0.keySpace == .iTunesLong }) { ours[key] = nil }
            // TagLib 1.13 reads only the ID3 chunk of AIFF files, not their text chunks (NAME,
            // AUTH, (c) , ANNO), which exiftool and ffprobe read, and this project does too.
            if file.format == .aiff && !from.isEmpty && from.allSatisfy({ $0.keySpace == .riffInfo }) { ours[key] = nil }
            // TSST: TagLib 1.13 has no ID3 mapping for it.
            if key == "DISCSUBTITLE" && from.contains(where: { $0.nativeKey == "TSST" }) { ours[key] = nil }
            // TagLib lists ID3's PCST as PODCAST without a value.
            if key == "PODCAST" && from.contains(where: { $0.nativeKey == "PCST" }) { ours[key] = [] }
            // TagLib shows an ID3 date's T as a space, and a RIFF ICRD as its year.
            if key == "DATE" {
                if from.contains(where: { $0.keySpace == .id3 }) {
                    ours[key] = ours[key]?.map { value in
                        guard let t = value.firstIndex(of: "T") else { return value }
                        var copy = value
                        copy.replaceSubrange(t...t, with: " ")
                        return copy
                    }
                }
                if from.allSatisfy({ $0.keySpace == .riffInfo }) { ours[key] = ours[key]?.map { String($0.prefix(4)) } }
            }
        }
        // TagLib leaves the ID3 genre references (RX) and (CR) as RX and CR.
        if let genres = theirs["GENRE"] { theirs["GENRE"] = genres.map { $0 == "RX" ? "Remix" : $0 == "CR" ? "Cover" : $0 } }
        // TagLib reads a TXXX without description as a key named by its value, with no value.
        for (key, values) in theirs where values == [""] && ours[key] == nil { theirs[key] = nil }
        var problems: [String] = []
        for key in Set(ours.keys).union(theirs.keys).sorted() where ours[key] != theirs[key] {
            problems.append("\(key): ours \(ours[key].map { "\($0)" } ?? "absent"), TagLib \(theirs[key].map { "\($0)" } ?? "absent")")
        }
        return problems
    }

}
