import Carriers
import ISOBMFF
import MediaBytes

extension MetadataKeyTable {
    /// The row of a uniform key or alias (case-insensitive), or nil.
    public static func definition(_ name: String) -> Row? { byName[name.uppercased()] }

    private static let byName: [String: Row] = {
        var map: [String: Row] = [:]
        for row in rows {
            map[row.key.uppercased()] = row
            for alias in row.aliases { map[alias.uppercased()] = row }
        }
        return map
    }()

    /// The row whose iTunes forms include `form` (freeform names matched without regard to case).
    static func definition(iTunes form: Row.ITunesForm) -> Row? {
        rowIndex(iTunes: form).map { rows[$0] }
    }

    /// The index in `rows` of `definition(iTunes:)`, for reading a field or two of it in place
    /// (a row is a dozen fields: returning a copy cost ~1,000 instructions per item listed).
    static func rowIndex(iTunes form: Row.ITunesForm) -> Int? {
        // Item atoms (nearly every item of every file) by code, without hashing.
        switch form {
        case .item(let type): byITunesItem[type]
        case .freeform: byFreeform[normalized(form)]
        }
    }

    private static func normalized(_ form: Row.ITunesForm) -> Row.ITunesForm {
        if case .freeform(let mean, let name) = form { return .freeform(mean: mean, name: name.uppercased()) }
        return form
    }

    /// The rows of the iTunes item atoms, by code (indexes of `rows`; the last row naming a
    /// form wins).
    private static let byITunesItem: FourCCMap<Int> = {
        var map: [FourCC: Int] = [:]
        for index in rows.indices { for case .item(let type) in rows[index].iTunes { map[type] = index } }
        return FourCCMap(map)
    }()

    /// The rows of the freeform items, by mean and upper-case name (indexes of `rows`).
    private static let byFreeform: [Row.ITunesForm: Int] = {
        var map: [Row.ITunesForm: Int] = [:]
        for index in rows.indices {
            for form in rows[index].iTunes { if case .freeform = form { map[normalized(form)] = index } }
        }
        return map
    }()

    static func definition(userData type: FourCC) -> Row? { byUserData[type] }
    private static let byUserData: [FourCC: Row] = Dictionary(rows.compactMap { row in row.userData.map { ($0, row) } }, uniquingKeysWith: { a, _ in a })

    static func definition(threeGPP type: FourCC) -> Row? { byThreeGPP[type] }
    private static let byThreeGPP: [FourCC: Row] = Dictionary(rows.compactMap { row in row.threeGPP.map { ($0, row) } }, uniquingKeysWith: { a, _ in a })

    /// The row of a QuickTime metadata key: its own spelling, or a bare name as ffmpeg writes
    /// (`-movflags use_metadata_tags`) looked up with `com.apple.quicktime.` before it (as
    /// exiftool does) and in `bareQuickTimeKeys`.
    static func definition(quickTimeKey key: String) -> Row? {
        if let row = byQuickTimeKey[key] { return row }
        guard !key.contains(".") else { return nil }
        return byQuickTimeKey["com.apple.quicktime." + key] ?? bareQuickTimeKeys[key].flatMap { definition($0) }
    }
    private static let byQuickTimeKey: [String: Row] = Dictionary(rows.compactMap { row in row.quickTimeKey.map { ($0, row) } }, uniquingKeysWith: { a, _ in a })

    /// The row of a RIFF `INFO` ID, or of an AIFF text chunk's (`NAME` is `INAM`'s).
    static func definition(riffInfo id: FourCC) -> Row? { byInfo[id] ?? RIFFInfoList.aiffTextIDs[id].flatMap { byInfo[$0] } }
    /// The row of an APE item key (compared without regard to case): the row whose `ape`
    /// spelling it is, or the row it names (`TITLE`), as TagLib maps APE keys.
    static func definition(apeKey key: String) -> Row? {
        let upper = key.uppercased()
        return byAPE[upper] ?? definition(upper).flatMap { $0.ape == nil || $0.key == upper ? $0 : nil }
    }
    private static let byAPE: [String: Row] = Dictionary(rows.compactMap { row in row.ape.map { ($0.uppercased(), row) } }, uniquingKeysWith: { a, _ in a })
    /// The row of a Vorbis comment field name (compared in upper case).
    static func definition(vorbisKey name: String) -> Row? { byVorbis[name] ?? byVorbis[name.uppercased()] }
    /// The uniform key of a Vorbis comment field name given in upper case (a listing's lookup:
    /// no row copied).
    static func uniformKey(vorbisKey name: String) -> String? { keyByVorbis[name] }
    private static let keyByVorbis: [String: String] = byVorbis.mapValues(\.key)
    private static let byVorbis: [String: Row] = {
        var map: [String: Row] = [:]
        for row in rows { for name in row.vorbisNames where map[name] == nil { map[name] = row } }
        return map
    }()
    private static let byInfo: [FourCC: Row] = Dictionary(rows.compactMap { row in row.riffInfo.map { ($0, row) } }, uniquingKeysWith: { a, _ in a })

    /// The row of an ID3 form in either version (`TXXX` descriptions and `TIPL` roles matched
    /// without regard to case).
    static func definition(id3 form: Row.ID3Form) -> Row? { rowIndex(id3: form).map { rows[$0] } }

    /// The uniform key of `definition(id3:)`, read in place (no copy of the row).
    static func key(id3 form: Row.ID3Form) -> String? { rowIndex(id3: form).map { rows[$0].key } }

    /// The index in `rows` of `definition(id3:)`. Plain frames (nearly every frame of every
    /// tag) by code, without hashing a string.
    static func rowIndex(id3 form: Row.ID3Form) -> Int? {
        if case .frame(let id) = form, let code = FourCC(latin1: id) { return rowIndex(id3Frame: code) }
        return byID3[normalized(form)]
    }

    /// `rowIndex(id3: .frame(id))` of a frame whose ID is `code` (read once by the caller).
    static func rowIndex(id3Frame code: FourCC) -> Int? { byID3Frame[code] }

    private static func normalized(_ form: Row.ID3Form) -> Row.ID3Form {
        switch form {
        case .userText(let description): .userText(description.uppercased())
        case .involvedPerson(let frame, let role): .involvedPerson(frame: frame == "IPLS" ? "TIPL" : frame, role: role.uppercased())
        default: form
        }
    }

    /// Indexes of `rows` by normalized ID3 form (the first row naming a form wins).
    private static let byID3: [Row.ID3Form: Int] = {
        var map: [Row.ID3Form: Int] = [:]
        for index in rows.indices {
            for form in [rows[index].id3, rows[index].id3v23].compactMap({ $0 }) where map[normalized(form)] == nil { map[normalized(form)] = index }
        }
        return map
    }()

    /// The plain-frame entries of `byID3`, by frame code.
    private static let byID3Frame: FourCCMap<Int> = {
        var map: [FourCC: Int] = [:]
        for (form, index) in byID3 { if case .frame(let id) = form, let code = FourCC(latin1: id) { map[code] = index } }
        return FourCCMap(map)
    }()
}
