import Foundation
import Carriers
import ID3
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
        do { file = try MediaFile(path: path) } catch {
            // A file that starts as MP4 but holds no movie atom is refused here; TagLib, failing
            // to read it as MP4, guesses another format by content (an ID3v2 tag inside it).
            if (try? FileByteSource(path: path)).flatMap({ MediaFormat.detect($0) }) == .mp4, error.description.contains("no movie atom") { return nil }
            return taglib.properties.isEmpty ? [] : ["this project cannot read it (\(error)); TagLib reads \(taglib.properties)"]
        }
        var ours = file.tags
        var theirs = taglib.properties
        let items = file.items
        // The file's bytes and an MP3's stream, read once for every rule that looks at them.
        let fileSource = try? FileByteSource(path: path)
        let mpegStream = file.format == .mp3 ? fileSource.flatMap { try? MPEGStreamFile(source: $0) } : nil
        // The ID3v2 frames, read once for every rule that looks at them.
        let frames = file.format == .mp3 ? mpegStream?.mergedTag?.frames ?? [] : id3Frames(path, format: file.format)
        // A text frame whose size a mutation made cover the frames after it: its values are
        // their bytes (frame identifiers, sizes, pictures), which TagLib and this project split
        // and decode each in its own way. Not compared when a value is a frame identifier
        // that a frame of the tag had.
        // (Or an MP4 file's atom types, or a picture's magic: a frame that covers the bytes of an
        // MP4 file a mutation put inside the tag, or of a picture.)
        // (The identifiers of this tag's frames beside `structureWords`; worked out the first
        // time a value is checked.)
        lazy var frameIDs = Set(frames.map(\.id)).union(Self.structureWords)
        lazy var idBytes = frameIDs.map { Array($0.utf8) }
        lazy var wideBytes = Self.wideForms(of: Set(frames.map(\.id)).subtracting(Self.structureWords)) + Self.structureWideBytes
        var covering: [String: Bool] = [:]
        func coversStructure(_ value: String) -> Bool {
            if let known = covering[value] { return known }
            let bytes = Array(value.utf8)
            // (An identifier is the value, or a part of one longer than four characters.)
            let result = frameIDs.contains(value) || (value.count > 4 && idBytes.contains { Self.contains(bytes, $0) })
                || wideBytes.contains { Self.contains(bytes, $0) }
            covering[value] = result
            return result
        }
        // An ID3v2 tag of a major version after 4 (which a reader must not read, since it
        // cannot know its layout) is not read here; TagLib reads it as v2.4.
        if file.format == .mp3, let head = try? FileByteSource(path: path).read(at: 0, count: 4), head.starts(with: Array("ID3".utf8)), head[3] > 4 {
            return nil
        }
        // (The same for an ID3 chunk of a WAV or AIFF file.)
        if file.diagnostics.contains(where: { $0.message.contains("is not a version this reader knows") }) { return nil }
        // TagLib upper-cases the ASCII letters of a key (a TXXX description, a comment's
        // description, a role) and leaves the others; this project upper-cases every letter
        // (`é` is `É` in a key).
        theirs = Dictionary(theirs.map { ($0.key.uppercased(), $0.value) }, uniquingKeysWith: +)
        // TagLib keeps the byte-order mark of a UTF-16 value after the first as U+FEFF; this
        // project takes each value's mark as the mark it is.
        // (Scalar by scalar here and below: a mark followed by a combining mark is one
        // Character, which a Character comparison would not find.)
        // (A key too: a TXXX description's second mark.)
        func droppingMarks(_ text: String) -> String { String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\u{FEFF}" })) }
        theirs = Dictionary(theirs.map { (droppingMarks($0.key), $0.value.map(droppingMarks)) }, uniquingKeysWith: +)
        // An empty key: TagLib's name for a key it could not decode (a description or role of
        // garbage); this project never gives one. Not compared.
        theirs[""] = nil
        // An ID3v2 tag whose frames cannot be read: TagLib shows the ID3v2 tag (nothing), this
        // project the best-ranked area that has a value, the ID3v1 tag.
        // (The same for a tag whose frames cannot be read for any damage reported: a frame
        // that does not inflate, bytes that are no frame identifier.)
        if !ours.isEmpty, items.filter({ !$0.contributions.isEmpty }).allSatisfy({ $0.keySpace == .id3v1 }),
            file.diagnostics.contains(where: { $0.path.hasPrefix("ID3v2") && $0.isProblem })
        {
            return nil
        }
        // An ID3v2.2 tag whose compression flag is set: the standard defines no method and
        // says to ignore the tag, as this project does; TagLib reads its frames.
        if file.format == .mp3, file.diagnostics.contains(where: { $0.path == "ID3v2" && $0.message.contains("tag-level compression") }) { return nil }
        // A damaged file TagLib gives up on (no property at all) while this project reads the
        // intact parts, reporting the damage.
        if theirs.isEmpty && !ours.isEmpty && file.diagnostics.contains(where: \.isProblem) { return nil }
        // TagLib does not read an ID3v2 tag appended at the end of an MP3 (it shows the ID3v1 tag).
        // (Nor when the leading tags hold no frame: TagLib shows the ID3v1 tag then too.)
        if let stream = mpegStream, stream.leadingTags.allSatisfy({ $0.frames.isEmpty }),
            stream.appendedTag != nil
        {
            return nil
        }
        // TagLib looks for an ID3v2 tag anywhere before the first MPEG frame it accepts (one
        // whose length leads to the next frame's sync), so it reads a tag after junk or after
        // frames it does not accept; this project, like ffmpeg and mutagen, reads leading ID3v2
        // tags at the start of the file only.
        if let source = fileSource, let stream = mpegStream,
            stream.leadingTags.isEmpty, let head = try? source.read(at: 0, count: Int(min(source.size, 1 << 20))),
            Self.hasID3v2Header(head)
        {
            return nil
        }
        // A comment or lyrics with a description and empty text (the frame ends at the
        // description's terminator): TagLib splits the fields after the language in two only
        // when the second is not empty, and otherwise reads neither (an empty value under the
        // plain key); this project reads the description and the empty text.
        for frame in frames where frame.id == "COMM" || frame.id == "USLT" {
            guard let comment = frame.content.comment, !comment.description.isEmpty, comment.text.isEmpty else { continue }
            let plain = frame.id == "COMM" ? "COMMENT" : "LYRICS"
            func dropOneEmpty(_ values: [String]?) -> [String]? {
                guard var values, let i = values.firstIndex(of: "") else { return values }
                values.remove(at: i)
                return values.isEmpty ? nil : values
            }
            ours[plain + ":" + comment.description.uppercased()] = dropOneEmpty(ours[plain + ":" + comment.description.uppercased()])
            theirs[plain] = dropOneEmpty(theirs[plain])
        }
        // A description that is not valid text (a COMM's or USLT's, the part of the key after
        // the colon): this project shows U+FFFD where the bytes fail; TagLib reads the
        // description as empty and lists the value under the plain key.
        // (Before the rules that compare which keys each reader has: this one renames a key.)
        for key in Array(ours.keys) where key.unicodeScalars.contains("\u{FFFD}") && theirs[key] == nil {
            guard let plain = key.keyParts?.base else { continue }
            guard ["COMMENT", "LYRICS"].contains(plain), let values = ours[key] else { continue }
            ours[key] = nil
            ours[plain] = (ours[plain] ?? []) + values
            // (Its text, when it is not valid either, TagLib reads as empty: see below.)
            let readable = { (values: [String]) in Set(values.map { $0.unicodeScalars.contains("\u{FFFD}") ? "" : $0 }.filter { !$0.isEmpty }) }
            // (TagLib may split such a frame's fields elsewhere, the bytes that fail being where
            // its terminator would be, and read its text as empty: the text moved here need not
            // be among TagLib's.)
            if let theirValues = theirs[plain], readable(theirValues) == readable(ours[plain] ?? [])
                || (readable(theirValues).isSubset(of: readable(ours[plain] ?? [])) && readable(ours[plain] ?? []).subtracting(readable(theirValues)).isSubset(of: Set(values)))
            {
                ours[plain] = theirValues
            }
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
        if let stream = mpegStream, let first = stream.leadingTags.first,
            let merged = stream.mergedTag, merged.frames.count > first.frames.count
        {
            for frame in merged.frames[first.frames.count...] {
                // (The item of that frame, by its values: a comment's too, not every comment.)
                for item in items where item.identifier.keySpace == .id3 && item.identifier.key.hasPrefix(frame.id)
                    && (Self.values(of: frame).map { Set($0) == Set(item.values) } ?? true) { subtract(item) }
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
        // ID3v1 fields: TagLib strips white space (tab, line breaks, form feed, space) from both
        // ends of each; this project strips the padding at the end (NULs and spaces) alone.
        // (Only where the key's values are the ID3v1 tag's: an ID3v2 tag shown instead keeps
        // its values as they are in both readers.)
        // (Except a v1.0 comment, 30 bytes without a track number: TagLib 1.13 takes it as it
        // is up to its first NUL, white space too; both readers' values are stripped then.)
        for item in items where item.keySpace == .id3v1 {
            for contribution in item.contributions {
                guard let values = ours[contribution.key],
                    items.allSatisfy({ other in other.keySpace == .id3v1 || !other.contributions.contains { $0.key == contribution.key } }) else { continue }
                func stripping(_ values: [String]) -> [String]? {
                    let stripped = values.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \t\n\u{0B}\u{0C}\r")) }.filter { !$0.isEmpty }
                    return stripped.isEmpty ? nil : stripped
                }
                ours[contribution.key] = stripping(values)
                if contribution.key == "COMMENT", let others = theirs["COMMENT"] { theirs["COMMENT"] = stripping(others) }
            }
        }
        // An iTunes number item (a track or disc pair, tempo, a flag, a movement number) whose
        // data says it is text: this project reads the text it says it is; TagLib reads its
        // first bytes as the number the item's name calls for. Not compared.
        if file.family == .mp4 {
            for item in items where item.keySpace == .iTunes && Self.iTunesNumberItems.contains(item.nativeKey) && item.dataType.hasPrefix("utf") {
                for contribution in item.contributions { theirs[contribution.key] = nil }
                subtract(item)
            }
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
        // A credit list (TMCL, TIPL) with an empty field: TagLib drops every empty field of a
        // text frame before it pairs roles with names; this project keeps the pairs as stored.
        // With an odd number of fields, TagLib drops the list; this project pairs what it can.
        // (TagLib gives a role it cannot decode an empty key.)
        // (And one whose size covers the frames after it: its fields are their bytes.)
        // (Or a field that is not valid text, U+FFFD here: TagLib decodes a role so its own way.)
        if items.contains(where: { ["TIPL", "IPLS", "TMCL"].contains($0.nativeKey) && ($0.values.contains("") || $0.values.count % 2 == 1
            || $0.values.contains(where: coversStructure) || $0.values.contains(where: { $0.unicodeScalars.contains("\u{FFFD}") })) })
        {
            for key in Array(ours.keys) + Array(theirs.keys) where key.hasKeyPrefix("PERFORMER:") || Self.involvedPeopleKeys.contains(key) || key.isEmpty {
                ours[key] = nil
                theirs[key] = nil
            }
        }
        // TagLib splits a credited name (TIPL, TMCL) at its commas and keeps the spaces around
        // them (`A, B` is `A` and ` B`); this project trims them.
        if items.contains(where: { ["TIPL", "IPLS", "TMCL"].contains($0.nativeKey) }) {
            for key in Array(theirs.keys) where key.hasKeyPrefix("PERFORMER:") || Self.involvedPeopleKeys.contains(key) {
                theirs[key] = theirs[key]?.map { $0.trimmingCharacters(" ") }
            }
        }
        let version4 = file.format == .mp3 && (try? fileSource?.read(at: 0, count: 4)) == Array("ID3\u{04}".utf8)
        // After a frame without a body, or one whose identifier is a v2.2 one padded with a NUL
        // (where TagLib stops reading the tag), frames of a key TagLib has from before it: this
        // project's extra values for that key are those later frames' (mutagen reads them too),
        // and are not compared.
        // (So does a v2.4 frame flagging a data length indicator in 4 bytes or fewer. Empty
        // values are left out of the comparison: TagLib drops them, see below.)
        let paddedIdentifiers = Set(file.diagnostics.filter { $0.path.hasPrefix("ID3v2/") && $0.message.contains("a v2.2 one padded with a NUL") }.map(\.offset))
        // (And bytes after a frame that are neither a frame nor padding, which this project
        // steps over to the frames after them: TagLib stops there too.)
        let stopFrame = frames.first(where: { frame in
            frame.storedSize <= 10 || paddedIdentifiers.contains(frame.offset)
                || (version4 && frame.storedSize <= 14 && (try? fileSource?.read(at: frame.offset + 9, count: 1))?.first.map { $0 & 0x01 != 0 } == true)
        })?.offset
        let stopBytes = file.diagnostics.filter { $0.path == "ID3v2" && $0.message.contains("neither a frame nor zero padding") }.map(\.offset).min()
        // (A tag whose first frame is such a frame is empty to TagLib, which shows the ID3v1
        // tag instead: out of scope.)
        if let stopFrame, stopFrame == frames.first?.offset, file.format == .mp3 { return nil }
        if let stop = [stopFrame, stopBytes].compactMap({ $0 }).min() {
            // (From the frame where TagLib stops: a padded identifier's frame it does not read.)
            let later = frames.filter { $0.offset >= stop }.flatMap { Self.values(of: $0) ?? [] }
            for (name, values) in theirs {
                // (Text that is not valid, U+FFFD here, is empty text to TagLib: see below.)
                let readable = { (values: [String]) in values.map { $0.unicodeScalars.contains("\u{FFFD}") ? "" : $0 }.filter { !$0.isEmpty } }
                let (mine, others) = (readable(ours[name] ?? []), readable(values))
                guard mine.count > others.count, Array(mine.prefix(others.count)) == others else { continue }
                if mine.dropFirst(others.count).allSatisfy(later.contains) { ours[name] = values }
            }
            for (name, values) in ours where theirs[name] == nil && values.allSatisfy(later.contains) { ours[name] = nil }
        }
        func source(_ key: String) -> [NativeMetadataItem] { items.filter { $0.contributions.contains { $0.key == key } } }
        // An MP3's APE tag before a Lyrics3v2 block: TagLib 1.13 looks for the APE footer just
        // before the ID3v1 tag only, does not see it, and shows the ID3v1 tag where this
        // project shows the APE tag (ranked above ID3v1). The keys taken from it are not compared.
        if let stream = mpegStream, let ape = stream.apeBlock,
            let lyrics = stream.lyrics3Block, ape.upperBound <= lyrics.lowerBound
        {
            for key in Array(ours.keys) where source(key).contains(where: { $0.keySpace == .ape }) {
                ours[key] = nil
                theirs[key] = nil
            }
            // (The ID3v1 keys TagLib shows that this project's APE tag lacks: not compared.)
            for key in theirs.keys where ours[key] == nil { theirs[key] = nil }
        }
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
                    ours[key] = ours[key]?.map(Self.spacedT)
                }
                if from.allSatisfy({ $0.keySpace == .riffInfo }) {
                    // (TagLib shows no year where the value does not start with four digits.)
                    let years = (ours[key] ?? []).map { String($0.prefix(4)) }.filter { $0.count == 4 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
                    ours[key] = years.isEmpty ? nil : years
                }
            }
        }
        // ID3 frames whose bytes no reading makes right, where TagLib and this project guess
        // differently: the key they give is not compared.
        // A frame without a body, or an ID3v2.4 frame that flags a data length indicator and
        // is 4 bytes or shorter (no room for data after the indicator): TagLib stops reading
        // the tag there; this project reads the frame's bytes as they are, and the frames
        // after it. The keys only this project has are not compared then.
        if frames.contains(where: { frame in
            frame.storedSize <= 10 || (version4 && frame.storedSize <= 14
                && (try? fileSource?.read(at: frame.offset + 9, count: 1))?.first.map { $0 & 0x01 != 0 } == true)
        }) {
            for key in ours.keys where theirs[key] == nil { ours[key] = nil }
        }
        for frame in frames {
            guard unreadable(frame, diagnostics: file.diagnostics) != nil else { continue }
            if let base = ["COMM": "COMMENT", "USLT": "LYRICS", "WXXX": "URL"][frame.id] {
                // A comment's key is COMMENT or COMMENT:description (lyrics' LYRICS..., a user
                // URL's URL...): none is compared, nor the empty key TagLib gives the garbage
                // it reads from lyrics of an undefined encoding.
                for key in Array(ours.keys) + Array(theirs.keys) where key == base || key.hasKeyPrefix(base + ":") || key.isEmpty {
                    ours[key] = nil
                    theirs[key] = nil
                }
                continue
            }
            if frame.id == "TXXX" {
                // Its key is its description: what TagLib made of it is a key this project
                // does not have, and the key this project made of it one TagLib does not.
                // (A key of the table whose ID3 form is a TXXX, CATALOGNUMBER, too.)
                for key in theirs.keys where ours[key] == nil {
                    guard let row = MetadataKeyTable.definition(key) else { theirs[key] = nil; continue }
                    if [row.id3, row.id3v23].contains(where: { if case .userText? = $0 { true } else { false } }) { theirs[key] = nil }
                }
                if let description = frame.content.userText?.description.uppercased(), !description.isEmpty,
                    MetadataKeyTable.definition(description) == nil, theirs[description] == nil { ours[description] = nil }
                // (A description both read alike, values without a mark each decodes in its own
                // byte order: the key is not compared.)
                if let description = frame.content.userText?.description.uppercased(), !description.isEmpty,
                    MetadataKeyTable.definition(description) == nil, ours[description] != nil, theirs[description] != nil
                {
                    ours[description] = nil
                    theirs[description] = nil
                }
                // (And where another TXXX gives the key here too, TagLib's values are this
                // project's and that frame's.)
                for key in Array(theirs.keys) {
                    guard let mine = ours[key], let others = theirs[key], others.count > mine.count, Set(mine).isSubset(of: others) else { continue }
                    let row = MetadataKeyTable.definition(key)
                    if row == nil || [row?.id3, row?.id3v23].contains(where: { if case .userText? = $0 { true } else { false } }) { theirs[key] = mine }
                }
                continue
            }
            if ["TMCL", "TIPL", "IPLS"].contains(frame.id) {
                // A credit list: its keys are its roles (PERFORMER:role, PRODUCER...).
                for key in Array(ours.keys) + Array(theirs.keys) where key.hasKeyPrefix("PERFORMER:") || Self.involvedPeopleKeys.contains(key) {
                    ours[key] = nil
                    theirs[key] = nil
                }
                continue
            }
            // (A date part, TIME, TDAT or TRDA, that no key names: TagLib adds its garbage to
            // DATE, which this project has not from it.)
            if ["TIME", "TDAT", "TRDA"].contains(frame.id), ours["DATE"] == nil {
                theirs["DATE"] = nil
                continue
            }
            // (Or a TRDC, which TagLib reads as TDRC, beside this project's dates.)
            if ["TIME", "TDAT", "TRDA", "TRDC"].contains(frame.id), let mine = ours["DATE"], let others = theirs["DATE"], Set(mine).isSubset(of: others) {
                theirs["DATE"] = mine
                continue
            }
            guard let row = Self.rowOfFrame[frame.id] else { continue }
            ours[row.key] = nil
            theirs[row.key] = nil
        }
        /// The key an ID3 frame identifier gives (v2.2 identifiers upgraded first).
        func key(ofFrame stored: String) -> String? {
            let id = stored.count == 3 ? ID3Frame.identifier(upgradingV22: stored) ?? stored : stored
            return Self.rowOfFrame[id]?.key
        }
        // A TIME, TDAT, TRDA or TYER frame in an ID3v2.4 tag (which has none of them: TDRC
        // holds the whole date): TagLib 1.13 adds its text to DATE in any version; this project
        // reads the date from TDRC (and a TYER's year), as mutagen does.
        // (TRDA in a v2.3 tag too: TagLib maps it to DATE in any version.)
        if version4 || frames.contains(where: { $0.id == "TRDA" }), let dates = theirs["DATE"] {
            // (TagLib shows each DATE value's first `T` as a space, garbage too.)
            let times = Set(frames.filter { ["TIME", "TDAT", "TRDA", "TYER"].contains($0.id) }.flatMap { $0.textValues ?? [] }.flatMap { [$0, Self.spacedT($0)] })
            var kept = dates.filter { !times.contains($0) }
            // (Text of such a frame that is no date, its bytes garbage, TagLib splits and
            // decodes its own way: what it adds beside this project's dates is not compared.)
            if frames.contains(where: { ["TIME", "TDAT", "TRDA", "TYER"].contains($0.id) }), let mine = ours["DATE"], Set(mine.filter { !$0.isEmpty }).isSubset(of: dates) { kept = mine }
            if kept.count != dates.count { theirs["DATE"] = kept.isEmpty ? nil : kept }
        }
        // A v2.3 TIME or TDAT that is not four digits: TagLib joins it to the year all the same
        // (`2019-03-07 14:` and what the bytes make); this project joins four digits only.
        if !version4, let mine = ours["DATE"], let others = theirs["DATE"], mine.count == others.count,
            frames.contains(where: { ["TIME", "TDAT"].contains($0.id) && !($0.textValues?.first.map { $0.count == 4 && $0.allSatisfy { $0.isASCII && $0.isNumber } } ?? false) }),
            zip(others, mine).allSatisfy({ $0 == $1 || $0.hasPrefix($1) })
        {
            theirs["DATE"] = mine
        }
        // A TRDC frame (TDRC misspelt): TagLib 1.13 reads it as TDRC; this project keeps it
        // as the frame of unknown meaning it is, as mutagen and ffmpeg do.
        if ours["DATE"] == nil, frames.contains(where: { $0.id == "TRDC" }) { theirs["DATE"] = nil }
        // (Beside a TDRC: TagLib adds the TRDC's text, its first `T` a space.)
        // (Changed only when a value goes: an empty DATE both list stays.)
        if ours["DATE"] != nil, var dates = theirs["DATE"] {
            let count = dates.count
            for value in frames.filter({ $0.id == "TRDC" }).flatMap({ $0.textValues ?? [] }) {
                if let i = dates.firstIndex(of: Self.spacedT(value)) ?? dates.firstIndex(of: value) { dates.remove(at: i) }
            }
            if dates.count < count { theirs["DATE"] = dates.isEmpty ? nil : dates }
        }
        // A `TDR` in a v2.2 tag (not a v2.2 frame; iTunes writes the release date so): TagLib
        // reads it as TDRL; this project keeps it as the unknown frame it is.
        if ours["RELEASEDATE"] == nil, frames.contains(where: { $0.id == "TDR" }) { theirs["RELEASEDATE"] = nil }
        // A v2.2 identifier padded with a NUL to four bytes (`TAL\0`, an iTunes 12.1 bug): this
        // project reads the frame by its v2.3 identifier; TagLib 1.13 takes the identifier for
        // no frame's and stops reading the tag there. What only this project has is not compared.
        if file.diagnostics.contains(where: { $0.path.hasPrefix("ID3v2/") && $0.message.contains("a v2.2 one padded with a NUL") }) {
            for key in ours.keys where theirs[key] == nil { ours[key] = nil }
        }
        // A frame that runs past the end of its tag (a tag cut short or claiming too little):
        // TagLib reads it with the bytes after the tag; this project keeps it as padding.
        // What TagLib reads after such a frame (it steps on to what it takes for the next one)
        // this project does not read at all: keys only TagLib has are not compared then.
        // (The same after bytes that are no frame identifier, where this project stops and
        // TagLib, in a v2.3 tag, reads them as one.)
        if file.diagnostics.contains(where: { $0.path == "ID3v2" && $0.message.contains("are not a frame identifier") }) {
            for key in theirs.keys where ours[key] == nil { theirs[key] = nil }
            // (Nor the values TagLib adds after this project's to a key both have.)
            for (key, values) in theirs {
                if let mine = ours[key], values.count > mine.count, Array(values.prefix(mine.count)) == mine { theirs[key] = mine }
            }
        }
        for diagnostic in file.diagnostics where diagnostic.path.hasPrefix("ID3v2/") && diagnostic.message.contains("remain in the tag") {
            for key in theirs.keys where ours[key] == nil { theirs[key] = nil }
            // (A date part's key is DATE, though no row of the table names it.)
            guard let stored = diagnostic.path.split(separator: "/").last.map(String.init),
                let key = key(ofFrame: stored) ?? (["TIME", "TDAT", "TRDA", "TYER"].contains(stored) ? "DATE" : nil)
                    ?? ["COMM": "COMMENT", "COM": "COMMENT", "USLT": "LYRICS", "ULT": "LYRICS"][stored] else { continue }
            ours[key] = nil
            theirs[key] = nil
            // (A comment's or lyrics' key has its description: COMMENT:NOTE too.)
            if key == "COMMENT" || key == "LYRICS" {
                for described in Array(ours.keys) + Array(theirs.keys) where described.hasKeyPrefix(key + ":") {
                    ours[described] = nil
                    theirs[described] = nil
                }
            }
        }
        // A time or day (TIME, TDAT) without a year: TagLib takes it for the date; this project
        // makes a date from a year (TDRC, or TYER with them).
        if file.format == .mp3 || file.format == .aiff || file.format == .wav, ours["DATE"] == nil {
            let ids = Set(frames.map(\.id))
            if ids.isDisjoint(with: ["TYER", "TDRC"]) && !ids.isDisjoint(with: ["TIME", "TDAT"]) { theirs["DATE"] = nil }
        }
        // A damaged INFO list (a chunk whose ID is not one, or that runs past the list's end):
        // TagLib steps over a bad chunk by its size and drops one that runs past the end; this
        // project stops at the first and keeps what the second holds.
        if file.format == .wav, file.diagnostics.contains(where: { $0.isProblem && $0.path.hasPrefix("RIFF") && $0.message.contains("chunk") }) {
            for key in Array(ours.keys) + Array(theirs.keys) where source(key).allSatisfy({ $0.keySpace == .riffInfo }) {
                ours[key] = nil
                theirs[key] = nil
            }
        }
        // Bytes after the end a RIFF or FORM declares: not read as chunks here (a note says so);
        // TagLib reads chunks to the end of the file. Keys only TagLib has are not compared.
        if file.diagnostics.contains(where: { $0.message.contains("are not read as chunks") }) {
            for key in theirs.keys where ours[key] == nil { theirs[key] = nil }
        }
        // A chunk ID outside ASCII: TagLib stops there, this project (as ffmpeg) reads on. Keys
        // only this project has are not compared.
        if let stop = file.diagnostics.first(where: { $0.message.contains("is not four ASCII characters") })?.offset {
            for key in ours.keys where theirs[key] == nil { ours[key] = nil }
            // (An ID3 chunk after it, which TagLib does not reach: the keys this project takes
            // from it TagLib takes from the INFO list, or not at all.)
            if let first = frames.first?.offset, first > stop {
                for key in Array(ours.keys) where source(key).contains(where: { $0.keySpace == .id3 }) {
                    ours[key] = nil
                    theirs[key] = nil
                }
            }
        }
        // INFO text that is not UTF-8 (a byte outside ASCII here that is no UTF-8): this project
        // reads it as Latin-1 (INFO declares no encoding); TagLib 1.13 as UTF-8, giving no value.
        if file.format == .wav {
            for key in Array(ours.keys) where theirs[key] == nil && source(key).allSatisfy({ $0.keySpace == .riffInfo }) {
                if ours[key]?.contains(where: { !$0.unicodeScalars.allSatisfy(\.isASCII) }) == true { ours[key] = nil }
            }
        }
        // Two INFO chunks of one ID: this project lists both values; TagLib keeps the last.
        if file.format == .wav {
            for key in Array(ours.keys) where source(key).allSatisfy({ $0.keySpace == .riffInfo }) {
                if let mine = ours[key], mine.count > 1, theirs[key] == [mine[mine.count - 1]] { ours[key] = theirs[key] }
            }
        }
        // A damaged APE tag (an item that runs past the tag): TagLib drops the tag and shows
        // the ID3v1 tag, this project keeps the items it could read; the keys both have are
        // compared.
        if file.diagnostics.contains(where: { $0.isProblem && $0.path.hasPrefix("APEv2") }) {
            for key in Array(ours.keys) where !source(key).contains(where: { $0.keySpace == .id3 }) { ours[key] = nil }
            for key in Array(theirs.keys) where ours[key] == nil { theirs[key] = nil }
        }
        // A damaged MP4 structure: TagLib reads on where it breaks (values this project, which
        // stops there with a diagnostic, does not have).
        if file.family == .mp4, file.diagnostics.contains(where: \.isProblem) {
            for key in theirs.keys where ours[key] == nil { theirs[key] = nil }
        }
        // An iTunes item kept as bytes (bytes after its last child, a child that runs past it):
        // TagLib reads what it can of it; the key its name gives (another item of that name
        // shows it here) is not compared.
        // (A freeform item kept so has no name here: the freeform keys are not compared then.
        // TagLib keeps the first item of a name, this project the first it can read.)
        if file.family == .mp4 {
            let unreadable = items.filter { $0.dataType == "unreadable" }
            for item in items where unreadable.contains(where: { $0.identifier == item.identifier })
                || (unreadable.contains(where: { $0.nativeKey == "----" || $0.keySpace == .iTunesLong }) && item.identifier.freeformParts != nil)
            {
                for contribution in item.contributions {
                    ours[contribution.key] = nil
                    theirs[contribution.key] = nil
                }
            }
        }
        // An iTunes text item whose data says type 0 (implicit): this project reads it as the
        // UTF-8 text the item's name calls for, as mutagen and ffmpeg do; TagLib reads no value.
        // (Nor of any type but UTF-8, 1: a `©day` typed UTF-8 sort, 4, or UTF-16; TagLib reads
        // `purl` and `egid` of any type.)
        if file.family == .mp4 {
            // (A freeform item of another type TagLib keeps as bytes: its key without a value.)
            for item in items where (item.keySpace == .iTunes || item.keySpace == .iTunesLong) && item.dataType != "utf8"
                && !Self.iTunesNumberItems.contains(item.nativeKey)
                && item.contributions.allSatisfy({ theirs[$0.key] == nil || theirs[$0.key] == [] })
            {
                subtract(item)
                for contribution in item.contributions where theirs[contribution.key] == [] { theirs[contribution.key] = nil }
            }
        }
        // TagLib drops the empty values between NULs of an ID3 text frame (`a\0\0b` is `a`,
        // `b`); this project keeps them, as mutagen does.
        // (With values that are not valid text among them, which TagLib reads as empty and
        // this project with U+FFFD where the bytes fail: see below.)
        for key in Set(ours.keys).intersection(theirs.keys) where source(key).contains(where: { $0.keySpace == .id3 }) {
            // (U+FFFD, in either reader's value, marks text that is not valid: as empty.)
            let a = (ours[key] ?? []).map { $0.unicodeScalars.contains("\u{FFFD}") ? "" : $0 }.filter { !$0.isEmpty }
            let b = (theirs[key] ?? []).map { $0.unicodeScalars.contains("\u{FFFD}") ? "" : $0 }.filter { !$0.isEmpty }
            if a == b { ours[key] = theirs[key] }
        }
        // TagLib joins a v2.3 TDAT (and TIME) to the year only when its text is four characters
        // without a terminating NUL (it counts the NUL as a fifth); this project reads the date.
        if let date = ours["DATE"]?.first, theirs["DATE"] == [String(date.prefix(4))],
            frames.contains(where: { $0.id == "TDAT" && $0.body.last == 0 })
        {
            ours["DATE"] = theirs["DATE"]
        }
        // Text that is not valid UTF-8 or UTF-16: this project shows U+FFFD for the bytes that
        // are not, TagLib gives empty text. MP4 text with a NUL: TagLib ends it there, this
        // project keeps every byte of the value.
        for key in Set(ours.keys).intersection(theirs.keys) {
            guard let mine = ours[key], let others = theirs[key], mine.count == others.count else { continue }
            let same = zip(mine, others).allSatisfy { mine, other in
                mine == other || (other.isEmpty && mine.unicodeScalars.contains("\u{FFFD}"))
                    || (file.family == .mp4 && mine.contains("\0") && String(mine.prefix { $0 != "\0" }) == other)
            }
            if same { ours[key] = others }
        }
        // A comment or lyrics in UTF-8 with bytes after its terminator that are not UTF-8:
        // TagLib reads the text to the frame's end and gives empty text when any byte fails;
        // this project ends the text at its terminator.
        for key in theirs.keys where key.hasPrefix("LYRICS") || key.hasPrefix("COMMENT") {
            let id = key.hasPrefix("LYRICS") ? "USLT" : "COMM"
            guard let others = theirs[key], others.contains(""), let mine = ours[key], mine.count == others.count else { continue }
            let utf8Frames = frames.filter { $0.id == id && $0.body.first == 3 }
            if utf8Frames.contains(where: { String(validating: $0.body.dropFirst(4), as: UTF8.self) == nil }) { theirs[key] = mine }
        }
        for key in Array(ours.keys) where source(key).contains(where: { $0.keySpace == .id3 }) {
            // (The item's own values too: a date's were respelt with a space for their `T`.)
            guard let values = ours[key], values.count > 2,
                values.contains(where: coversStructure) || source(key).contains(where: { $0.values.contains(where: coversStructure) }) else { continue }
            ours[key] = nil
            theirs[key] = nil
        }
        // A value of only empty text (a comment with a description and no text): TagLib
        // lists no key for it.
        for (key, values) in ours where values == [""] && theirs[key] == nil { ours[key] = nil }
        // Values TagLib reads by another type: an ID3v1 year that is not four digits (TagLib
        // keeps a year only as the number its leading digits make), an MP4 track or disc number of 32768 or more (TagLib
        // reads them as signed 16-bit numbers), an MP4 genre code past the ID3 list (TagLib
        // gives empty text, or no item for a code of 32768 or more; this project the code), a UFID identifier that is not text (this
        // project shows it in Base64, TagLib as Latin-1).
        for key in Set(ours.keys).union(theirs.keys) {
            let from = source(key)
            if key == "DATE", from.allSatisfy({ $0.keySpace == .id3v1 }), let year = ours[key]?.first {
                // (TagLib's year is the number its leading digits make, none for 0.)
                let number = Int(year.prefix { $0.isASCII && $0.isNumber }) ?? 0
                ours[key] = number == 0 ? nil : [String(number)]
            }
            if file.family == .mp4, ["TRACKNUMBER", "DISCNUMBER"].contains(key), let values = ours[key],
                values.contains(where: { $0.split(separator: "/").contains { Int($0).map { $0 >= 32768 } ?? false } })
            {
                ours[key] = nil
                theirs[key] = nil
            }
            if file.family == .mp4, key == "GENRE", theirs[key] == [""], from.contains(where: { $0.nativeKey == "gnre" }) { theirs[key] = ours[key] }
            // (A code of 32768 or more is negative as TagLib reads it, and 0 is before the list,
            // whose codes start at 1: TagLib drops the item; this project shows the code.)
            if file.family == .mp4, key == "GENRE", theirs[key] == nil, from.contains(where: { $0.nativeKey == "gnre" }),
                let values = ours[key], values.allSatisfy({ Int($0).map { $0 >= 32768 || $0 == 0 } ?? false }) { ours[key] = nil }
            // (Nor an identifier of bytes outside ASCII: TagLib reads them as Latin-1, this
            // project as the UTF-8 they make. One such identifier among others is enough.)
            if from.contains(where: { $0.nativeKey.hasPrefix("UFID") }), let values = ours[key],
                values.contains(where: { Base64.decode($0) != nil && !$0.contains("-") }) || values.contains(where: { !$0.unicodeScalars.allSatisfy(\.isASCII) })
            {
                ours[key] = nil
                theirs[key] = nil
            }
        }
        // A TXXX whose description is empty: TagLib 1.13 drops every empty field of a text
        // frame, the description too, so it takes the first value for the description (a key
        // named by it, the other values its values); this project reads a user text without a
        // description as no key, as mutagen does. Where another frame gives that key here too,
        // TagLib's values are its and the empty-description frame's other values.
        for frame in frames where frame.id == "TXXX" {
            guard let (_, description, values) = frame.content.userText, description.isEmpty,
                let first = values.first(where: { !$0.isEmpty }) else { continue }
            let row = MetadataKeyTable.rows.first { row in
                [row.id3, row.id3v23].contains { if case .userText(let name)? = $0 { name.uppercased() == first.uppercased() } else { false } }
            }
            let rest = values.drop(while: { $0 != first }).dropFirst().filter { !$0.isEmpty }
            for key in [row?.key, first.uppercased()].compactMap({ $0 }) {
                // (Its values the bytes of the frames after it, which the two split and decode
                // each in its own way: not compared.)
                if values.contains(where: coversStructure) {
                    theirs[key] = ours[key]
                    continue
                }
                if let mine = ours[key] {
                    if let all = theirs[key], all.sorted() == (mine + rest).sorted() { theirs[key] = mine }
                } else {
                    theirs[key] = nil
                }
            }
        }
        // An ID3v1 tag inside the span an MP3's leading ID3v2 tag declares (its last 128 bytes
        // start with `TAG` where the ID3v2 tag's padding is): TagLib reads it; this project
        // takes those bytes for the ID3v2 tag's (a save rewrites them with the tag).
        if let bytes = fileSource, let stream = mpegStream,
            stream.id3v1 == nil, bytes.size >= 128, let tail = try? bytes.read(at: bytes.size - 128, count: 3), tail.elementsEqual("TAG".utf8),
            bytes.size - 128 < stream.leadingTagsEnd
        {
            for key in theirs.keys where ours[key] == nil { theirs[key] = nil }
        }
        // An ID3v1 tag whose title starts with `EX` after the bytes `APE` (the 8 bytes 131 from
        // the end spell `APETAGEX`): TagLib takes its `TAG` for the inside of an APE footer and
        // reads no ID3v1 tag; this project reads the ID3v1 tag (an APE footer would end where
        // the ID3v1 tag starts). Its keys are not compared.
        if file.format == .mp3, let bytes = fileSource, bytes.size >= 131,
            (try? bytes.read(at: bytes.size - 131, count: 8)).map({ Array($0) }) == Array("APETAGEX".utf8)
        {
            for item in items where item.keySpace == .id3v1 {
                for contribution in item.contributions where theirs[contribution.key] == nil { ours[contribution.key] = nil }
            }
        }
        // A frame of ID3v2.3 alone (TORY, TYER...) in an ID3v2.4 tag: this project reads it by
        // its ID3v2.3 meaning; TagLib upgrades frames in ID3v2.3 tags only.
        // (Where TagLib has the key from the v2.4 frame, TDOR beside TORY, the v2.3 frame's
        // values are what this project has more.)
        if version4 {
            for frame in frames {
                guard let row = Self.rowOfV23OnlyFrame[frame.id] else { continue }
                if theirs[row.key] == nil {
                    ours[row.key] = nil
                } else {
                    // (TagLib reads a TYER so in any version: its values go from both sides.)
                    func subtracting(_ values: [String]?) -> [String]? {
                        guard var values else { return nil }
                        for value in frame.textValues ?? [] {
                            // (Text that is not valid, U+FFFD here, TagLib reads as empty.)
                            let invalid = value.unicodeScalars.contains("\u{FFFD}")
                            // (Or as TagLib shows a date, its first `T` a space: this project's
                            // values were written so above.)
                            if let i = values.firstIndex(of: value) ?? values.firstIndex(of: Self.spacedT(value)) ?? (invalid ? values.firstIndex(of: "") : nil) {
                                values.remove(at: i)
                            }
                        }
                        return values.isEmpty ? nil : values
                    }
                    ours[row.key] = subtracting(ours[row.key])
                    theirs[row.key] = subtracting(theirs[row.key])
                }
            }
        }
        // TagLib leaves the ID3 genre references (RX) and (CR), and the v2.4 keywords RX and CR,
        // as RX and CR (before the rule below, which compares the genres one by one).
        if let genres = theirs["GENRE"] { theirs["GENRE"] = genres.map { $0 == "RX" ? "Remix" : $0 == "CR" ? "Cover" : $0 } }
        // (A number past the list beside other genres: TagLib's empty text for it, before the
        // rules below compare the rest.)
        if let mine = ours["GENRE"], let others = theirs["GENRE"], others.contains(""), source("GENRE").contains(where: { $0.keySpace == .id3 }),
            mine.contains(where: { Int($0).map { ID3Genres.name($0) == nil } ?? false })
        {
            ours["GENRE"] = mine.map { Int($0).map { ID3Genres.name($0) == nil } ?? false ? "" : $0 }
        }
        // A genre reference followed by a number (`(7)1`): TagLib reads the number as another
        // genre code (Classic Rock); this project and mutagen keep it as the refinement text.
        if let mine = ours["GENRE"], let others = theirs["GENRE"], mine.count == others.count, source("GENRE").contains(where: { $0.keySpace == .id3 }),
            zip(mine, others).allSatisfy({ $0 == $1 || (Int($0).flatMap(ID3Genres.name) == $1) })
        {
            ours["GENRE"] = others
        }
        // A genre reference followed by its own name in another case (`(13)pop`): TagLib lists
        // both (it drops the name only when it is spelt as its list spells it); this project
        // reads one genre.
        if let mine = ours["GENRE"], let others = theirs["GENRE"], others.count > mine.count, source("GENRE").contains(where: { $0.keySpace == .id3 }) {
            var seen: Set<String> = []
            let folded = others.filter { seen.insert($0.lowercased()).inserted }
            if folded == mine { theirs["GENRE"] = mine }
        }
        // An ID3 genre that is a number past the ID3v1 genre list (or before it, `-1`): TagLib
        // gives empty text; this project shows the number.
        if let mine = ours["GENRE"], let others = theirs["GENRE"], mine.count == others.count, source("GENRE").contains(where: { $0.keySpace == .id3 }),
            zip(mine, others).allSatisfy({ $0 == $1 || ($1.isEmpty && Int($0) != nil) })
        {
            ours["GENRE"] = others
        }
        // A damaged tag (a problem reported in it) with more than one frame that gives the date
        // (a second TDRC, or TDRC beside a TYER, TDAT, TIME or TRDA, often copies a mutation
        // made of the tag's frames): TagLib and this project stop, skip and join differently,
        // and DATE is not compared.
        if frames.filter({ ["TDRC", "TYER", "TDAT", "TIME", "TRDA"].contains($0.id) }).count > 1,
            file.diagnostics.contains(where: { $0.path.hasPrefix("ID3v2") && $0.isProblem })
        {
            ours["DATE"] = nil
            theirs["DATE"] = nil
        }
        // A TXXX description that is not valid text (U+FFFD here where the bytes fail): TagLib
        // decodes it its own way, into another key. Neither reader's key for it is compared.
        for frame in frames where frame.id == "TXXX" {
            guard let description = frame.content.userText?.description, description.unicodeScalars.contains("\u{FFFD}") else { continue }
            ours[description.uppercased()] = nil
            for key in theirs.keys where ours[key] == nil && MetadataKeyTable.definition(key) == nil { theirs[key] = nil }
        }
        // Copies of frames in a damaged tag (a problem reported in it; a mutation copied part of
        // the tag after itself): TagLib and this project stop and skip at different places, so
        // they read different numbers of the copies. Values are compared as sets there.
        if file.diagnostics.contains(where: { $0.path.hasPrefix("ID3v2") && $0.isProblem }) {
            for (key, values) in theirs {
                if let mine = ours[key], mine.count != values.count, Set(mine) == Set(values) { ours[key] = values }
            }
        }
        // TagLib reads a TXXX without description as a key named by its value, with no value.
        for (key, values) in theirs where values == [""] && ours[key] == nil { theirs[key] = nil }
        var problems: [String] = []
        for key in Set(ours.keys).union(theirs.keys).sorted() where ours[key] != theirs[key] {
            problems.append("\(key): ours \(ours[key].map { "\($0)" } ?? "absent"), TagLib \(theirs[key].map { "\($0)" } ?? "absent")")
        }
        return problems
    }


    /// The ID3v2 frames of an MP3 (its tags merged, as `tags` reads them) or of an AIFF or WAV
    /// file's ID3 chunk; none for other formats.
    /// The iTunes items TagLib reads as numbers (pairs, integers, flags) whatever their data's type.
    static let iTunesNumberItems: Set<String> = [
        "trkn", "disk", "tmpo", "cpil", "pgap", "pcst", "\u{A9}mvi", "\u{A9}mvc", "shwm", "hdvd", "rtng", "stik", "tves", "tvsn",
        "akID", "cnID", "geID", "plID", "sfID", "atID", "cmID",
    ]

    /// Whether `bytes` hold what TagLib takes for an ID3v2 tag header anywhere: `ID3`, any
    /// version and revision (TagLib reads a later major version as v2.4, and a revision of
    /// 0xFF, which the specification rules out, all the same), four size bytes below 0x80.
    static func hasID3v2Header(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 10 else { return false }
        for i in 0...(bytes.count - 10) where bytes[i] == 0x49 && bytes[i + 1] == 0x44 && bytes[i + 2] == 0x33 {
            if bytes[(i + 6)..<(i + 10)].allSatisfy({ $0 < 0x80 }) { return true }
        }
        return false
    }

    /// The first row whose ID3 form (v2.4 or v2.3) is the frame (`USLT` for lyrics), by
    /// frame identifier.
    static let rowOfFrame: [String: MetadataKeyDefinition] = {
        var rows: [String: MetadataKeyDefinition] = [:]
        for row in MetadataKeyTable.rows {
            for form in [row.id3, row.id3v23] {
                switch form {
                case .frame(let id)?: if rows[id] == nil { rows[id] = row }
                case .lyrics?: if rows["USLT"] == nil { rows["USLT"] = row }
                default: break
                }
            }
        }
        return rows
    }()

    /// The first row whose v2.3 form is a frame its v2.4 form is not (TORY, TYER...), by frame.
    static let rowOfV23OnlyFrame: [String: MetadataKeyDefinition] = {
        var rows: [String: MetadataKeyDefinition] = [:]
        for row in MetadataKeyTable.rows {
            if case .frame(let id)? = row.id3v23, row.id3 != .frame(id), rows[id] == nil { rows[id] = row }
        }
        return rows
    }()

    /// Frame identifiers, MP4 atom types, picture magic and IFF chunk IDs: a value holding one
    /// is the bytes of a structure a frame's size made it cover.
    static let structureWords: Set<String> = [
        "TPOS", "TDRC", "TCON", "TCMP", "TXXX", "APIC", "COMM", "TPE1", "TPE2", "TIT2", "TALB", "TRCK", "USLT", "PRIV", "CHAP", "CTOC",
        "PCNT", "TBPM", "TDOR", "TMOO", "RVA2", "TSOP", "POPM", "TCOM", "TIPL", "WOAR", "WXXX", "UFID", "GEOB", "TSRC", "TPUB",
        "moov", "trak", "mdia", "minf", "stbl", "stsd", "dinf", "dref", "mp4a", "esds", "stts", "stsc", "stsz", "stco", "udta",
        "ilst", "mdat", "ftyp", "hdlr", "mvhd", "tkhd", "edts", "elst", "mdhd", "smhd", "data", "gnre", "disk", "trkn",
        "JFIF", "Exif", "PNG", "RIFF", "WAVE", "LIST", "INFO", "FORM", "AIFF", "SSND",
    ]
    static let structureWideBytes = wideForms(of: structureWords)

    /// The UTF-8 bytes of each four-byte identifier read as UTF-16 text: two characters, in
    /// either byte order.
    static func wideForms(of ids: Set<String>) -> [[UInt8]] {
        ids.flatMap { id -> [[UInt8]] in
            let b = Array(id.utf8)
            guard b.count == 4 else { return [] }
            let little = [UInt16(b[1]) << 8 | UInt16(b[0]), UInt16(b[3]) << 8 | UInt16(b[2])]
            let big = [UInt16(b[0]) << 8 | UInt16(b[1]), UInt16(b[2]) << 8 | UInt16(b[3])]
            return [Array(String(decoding: little, as: UTF16.self).utf8), Array(String(decoding: big, as: UTF16.self).utf8)]
        }
    }

    /// `value` as TagLib shows a date: its first `T` a space (scalar by scalar: a `T` followed
    /// by a combining mark is one Character, and TagLib works on UTF-16 units).
    static func spacedT(_ value: String) -> String {
        var scalars = value.unicodeScalars
        guard let t = scalars.firstIndex(of: "T") else { return value }
        scalars.replaceSubrange(t...t, with: [" "])
        return String(scalars)
    }

    /// Whether `needle` occurs in `bytes`.
    static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, bytes.count >= needle.count else { return needle.isEmpty }
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
            if bytes[start..<start + needle.count].elementsEqual(needle) { return true }
        }
        return false
    }

    /// The values a frame gives its key: a text frame's, a user text's, a URL, a comment's or
    /// lyrics' text; nil for other frames.
    static func values(of frame: ID3Frame) -> [String]? {
        // (A genre's values as `tags` shows them: references resolved.)
        if frame.id == "TCON", let values = frame.textValues { return values.flatMap(ID3Genres.parse) }
        return frame.textValues ?? frame.content.userText?.values ?? frame.content.url.map { [$0] } ?? frame.content.userURL.map { [$0.url] }
            ?? frame.content.comment.map { [$0.text] }
    }

    static func id3Frames(_ path: String, format: MediaFormat) -> [ID3Frame] {
        guard let source = try? FileByteSource(path: path) else { return [] }
        switch format {
        case .mp3: return (try? MPEGStreamFile(source: source))?.mergedTag?.frames ?? []
        case .aiff, .wav: return (try? IFFChunkFile(source: source))?.id3Tag?.frames ?? []
        default: return []
        }
    }

    /// Why the ID3 frame's text cannot be read the one right way (nil when it can): an
    /// encoding byte ID3v2 does not define (kept as bytes here; TagLib decodes it as UTF-16),
    /// UTF-16 without a byte-order mark or of an odd length (TagLib reads empty text), a
    /// compressed frame that does not inflate (kept as bytes here; TagLib shows what it
    /// got), a genre reference in parentheses that is not a number (`(V3)`: TagLib drops it,
    /// this project shows what is inside).
    static func unreadable(_ frame: ID3Frame, diagnostics: [Diagnostic]) -> String? {
        if diagnostics.contains(where: { $0.path.hasSuffix("/" + frame.id) && $0.message.contains("does not decompress") }) { return "does not decompress" }
        // A v2.4 frame whose size is written as a plain number (an old iTunes bug) in a damaged
        // tag: TagLib and this project guess where such a frame ends each in its own way (in an
        // intact tag, as the fixture that has them, they agree and are compared).
        if diagnostics.contains(where: { $0.offset == frame.offset && $0.message.contains("written as a plain 32-bit number") }),
            diagnostics.contains(where: { $0.path.hasPrefix("ID3v2") && $0.isProblem })
        {
            return "size not syncsafe"
        }
        // A frame of a group: TagLib 1.13 does not skip the group byte and reads it as the
        // body's first (the text encoding of a text frame).
        if frame.flags.groupID != nil { return "grouping identity" }
        // An uncompressed frame whose data length indicator is not the length of its data
        // (ID3v2.4 section 4.1.2: the length without the format flags, for information):
        // TagLib reads as many bytes as the indicator says, cutting the value, giving none,
        // or reading into the next frames; this project (and mutagen) the frame's own bytes.
        if let length = frame.flags.dataLength, !frame.flags.compressed, Int(length) != frame.body.count { return "data length indicator" }
        // Kept as bytes here (a comment without its language, a text frame without its
        // encoding byte...); TagLib reads what it can of the fields.
        if diagnostics.contains(where: { diagnostic in
            guard diagnostic.message.contains("does not follow its layout"), let last = diagnostic.path.split(separator: "/").last else { return false }
            let stored = String(last.prefix { $0 != "[" })
            return (stored.count == 3 ? ID3Frame.identifier(upgradingV22: stored) : stored) == frame.id
        }) {
            return "does not follow its layout"
        }
        let isText = frame.id.hasPrefix("T") || ["MVIN", "MVNM", "GRP1", "WFED"].contains(frame.id)  // (iTunes' text frames too)
        guard isText || ["USLT", "COMM", "WXXX"].contains(frame.id), let encoding = frame.body.first else { return nil }
        if encoding > 3 { return "encoding \(encoding)" }
        // UTF-16BE (which has no byte-order mark) that starts with a little-endian mark: this
        // project takes the mark for what it says; TagLib reads big-endian (U+FFFE, then each
        // character's bytes swapped).
        if encoding == 2, isText, frame.body.dropFirst().starts(with: [0xFF, 0xFE]) {
            return "UTF-16BE with a little-endian byte-order mark"
        }
        if encoding == 1 {
            // (A comment's or lyrics' text follows its language; a TXXX's, COMM's or USLT's
            // description comes first and may be empty, without a mark.)
            var text = frame.body.dropFirst(frame.id == "COMM" || frame.id == "USLT" ? 4 : 1)
            // (A user URL's only UTF-16 is its description; the URL after it is Latin-1.)
            if frame.id == "WXXX", text.starts(with: [0, 0]) { return nil }
            if ["TXXX", "COMM", "USLT"].contains(frame.id), text.starts(with: [0, 0]) { text = text.dropFirst(2) }
            if text.isEmpty { return nil }
            // (A comment's, lyrics' or user text's description and its text each carry a mark:
            // the field after the description's terminator is looked at too.)
            if ["TXXX", "COMM", "USLT"].contains(frame.id), text.starts(with: [0xFF, 0xFE]) || text.starts(with: [0xFE, 0xFF]),
                let end = stride(from: text.startIndex, to: text.endIndex - 1, by: 2).first(where: { text[$0] == 0 && text[$0 + 1] == 0 })
            {
                let rest = text[(end + 2)...]
                if !rest.isEmpty, !(rest.starts(with: [0xFF, 0xFE]) || rest.starts(with: [0xFE, 0xFF])) { return "UTF-16 without a byte-order mark" }
            }
            if !(text.starts(with: [0xFF, 0xFE]) || text.starts(with: [0xFE, 0xFF])) { return "UTF-16 without a byte-order mark" }
            if text.count % 2 == 1 { return "UTF-16 of an odd length" }
            // A lone surrogate: TagLib reads empty text, this project U+FFFD for it.
            let bigEndian = text.starts(with: [0xFE, 0xFF])
            var units: [UInt16] = []
            var at = text.startIndex + 2
            while at + 1 < text.endIndex {
                let (high, low) = bigEndian ? (text[at], text[at + 1]) : (text[at + 1], text[at])
                units.append(UInt16(high) << 8 | UInt16(low))
                at += 2
            }
            var index = 0
            while index < units.count {
                if (0xD800..<0xDC00).contains(units[index]) {
                    guard index + 1 < units.count, (0xDC00..<0xE000).contains(units[index + 1]) else { return "UTF-16 with a lone surrogate" }
                    index += 2
                    continue
                }
                if (0xDC00..<0xE000).contains(units[index]) { return "UTF-16 with a lone surrogate" }
                index += 1
            }
        }
        if frame.id == "TCON", let values = frame.textValues,
            values.contains(where: { value in
                let inside = value.dropFirst().prefix { $0 != ")" }
                return value.hasPrefix("((") || (value.hasPrefix("(") && !((!inside.isEmpty && inside.allSatisfy(\.isNumber)) || value.hasPrefix("(RX)") || value.hasPrefix("(CR)")))
            })
        {
            // (Or `((`, a parenthesis escaped: this project reads the text after it as the
            // specification says; TagLib gives no value. Or `()` before text: this project, as
            // mutagen, shows the text as it is; TagLib drops the empty reference, `()17` is Rock.)
            return "a genre reference that is not a number"
        }
        return nil
    }
}
