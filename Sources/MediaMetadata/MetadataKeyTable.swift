import ISOBMFF
import MediaBytes

/// The key-space table: every uniform key with its native forms. This is the single source of
/// truth for reading, writing and converting; `Documentation/KeySpace.md` is generated from it
/// (`tagedit keys --markdown`) and a test fails when the two differ.
///
/// Keys and their iTunes/ID3 forms follow TagLib 1.13's property map (`mp4tag.cpp`,
/// `id3v2frame.cpp`), so scripts written for TagLib-based tools carry over; where this table
/// departs from TagLib, the row's note says why.
public enum MetadataKeyTable {
    public typealias Row = MetadataKeyDefinition

    /// The iTunes freeform domain.
    static let apple = "com.apple.iTunes"

    /// Bare QuickTime metadata key names that ffmpeg writes (`-movflags use_metadata_tags`) and
    /// that do not become a table key by putting `com.apple.quicktime.` before them (`title`,
    /// `artist`, `album`, `comment`, `genre`, `composer`, `copyright`, `description` do).
    /// Read as these keys; written back under the name the file uses.
    ///
    /// | bare name | key |
    /// |---|---|
    /// | `album_artist` | ALBUMARTIST |
    /// | `date` | DATE |
    /// | `track` | TRACKNUMBER |
    /// | `disc` | DISCNUMBER |
    /// | `encoder` | ENCODEDBY (ffmpeg's `encoder` is the `©too` tool, which TagLib names ENCODEDBY) |
    public static let bareQuickTimeKeys: [String: String] = [
        "album_artist": "ALBUMARTIST", "date": "DATE", "track": "TRACKNUMBER", "disc": "DISCNUMBER", "encoder": "ENCODEDBY",
    ]

    public static let rows: [Row] = [
        // Core tags.
        Row("TITLE", aliases: ["common/title"], iTunes: [.item("©nam")], userData: "©nam", quickTime: "com.apple.quicktime.title",
            threeGPP: "titl", id3: .frame("TIT2"), info: "INAM", ape: "Title"),
        Row("ARTIST", aliases: ["common/artist"], iTunes: [.item("©ART")], userData: "©ART", quickTime: "com.apple.quicktime.artist",
            threeGPP: "perf", id3: .frame("TPE1"), info: "IART",
            ape: "Artist", note: "3GPP `perf` (performer) is the artist; 3GPP `auth` (author) has no uniform key and stays as `3gpp/auth`."),
        Row("ALBUM", aliases: ["common/albumName"], iTunes: [.item("©alb")], userData: "©alb", quickTime: "com.apple.quicktime.album",
            threeGPP: "albm", id3: .frame("TALB"), info: "IPRD", ape: "Album"),
        Row("ALBUMARTIST", iTunes: [.item("aART")], id3: .frame("TPE2"),
            ape: "Album Artist", vorbis: ["ALBUMARTIST", "ALBUM ARTIST"], note: "TPE2 is \"band/orchestra\" in the ID3 specification; TagLib, iTunes and most players use it for the album artist."),
        Row("DATE", .date, aliases: ["common/creationDate"], iTunes: [.item("©day")], userData: "©day",
            quickTime: "com.apple.quicktime.creationdate", threeGPP: "yrrc", id3: .frame("TDRC"), id3v23: .frame("TYER"), info: "ICRD",
            ape: "Year", note: "ID3v2.3 splits the date into TYER (year), TDAT (DDMM) and TIME (HHMM); they are joined and split again. 3GPP `yrrc` holds a year only. TagLib shows an ID3 date's `T` as a space and a RIFF `ICRD` as its year; this project keeps the text as stored."),
        Row("TRACKNUMBER", .pair, iTunes: [.item("trkn")], id3: .frame("TRCK"), info: "IPRT",
            ape: "Track", note: "`n` or `n/total`. iTunes `trkn` holds two 16-bit numbers; a 3GPP `albm` track number is read as part of the album asset only."),
        Row("DISCNUMBER", .pair, iTunes: [.item("disk")], id3: .frame("TPOS"), ape: "Disc"),
        Row("GENRE", iTunes: [.item("©gen"), .item("gnre")], userData: "©gen", quickTime: "com.apple.quicktime.genre", threeGPP: "gnre",
            id3: .frame("TCON"), info: "IGNR",
            ape: "Genre", note: "Numeric genres (iTunes `gnre`, ID3 `(17)` or `17`) are read as their ID3v1 genre names and written as text (`©gen`, TCON). TagLib leaves `(RX)`/`(CR)` and the v2.4 keywords `RX`/`CR` as `RX`/`CR`; this project reads them as Remix/Cover as the ID3 specification says."),
        Row("COMMENT", iTunes: [.item("©cmt")], userData: "©cmt", quickTime: "com.apple.quicktime.comment", threeGPP: "dscp",
            id3: .comment(""), info: "ICMT",
            ape: "Comment", note: "ID3 COMM without description; a described comment is `COMMENT:DESCRIPTION` as in TagLib. 3GPP `dscp` (description) is read as the comment."),
        Row("COMPOSER", iTunes: [.item("©wrt")], userData: "©wrt", quickTime: "com.apple.quicktime.composer", id3: .frame("TCOM"), ape: "Composer"),
        Row("LYRICIST", iTunes: [.iTunes("LYRICIST")], id3: .frame("TEXT")),
        Row("CONDUCTOR", iTunes: [.iTunes("CONDUCTOR")], id3: .frame("TPE3")),
        Row("REMIXER", iTunes: [.iTunes("REMIXER")], id3: .frame("TPE4"), ape: "MixArtist"),
        Row("LYRICS", iTunes: [.item("©lyr")], id3: .lyrics(""),
            note: "ID3 USLT without description (TagLib writes the description `LYRICS`, which it reads the same way)."),
        Row("BPM", .integer, iTunes: [.item("tmpo")], id3: .frame("TBPM")),
        Row("COMPILATION", .boolean, iTunes: [.item("cpil")], id3: .frame("TCMP"), note: "TCMP is iTunes' own frame, read by TagLib and most players."),
        Row("COPYRIGHT", aliases: ["common/copyrights"], iTunes: [.item("cprt")], userData: "©cpy", quickTime: "com.apple.quicktime.copyright",
            threeGPP: "cprt", id3: .frame("TCOP"), info: "ICOP"),
        Row("ENCODEDBY", aliases: ["common/software"], iTunes: [.item("©too")], userData: "©swr", quickTime: "com.apple.quicktime.software",
            id3: .frame("TENC"),
            note: "TagLib maps iTunes `©too` (encoding tool) to ENCODEDBY, as here; ID3 TENC is the person or organisation that encoded."),
        Row("ENCODING", id3: .frame("TSSE"), note: "ID3 TSSE (encoder software and settings); MP4's ©too is ENCODEDBY, as in TagLib, so in MP4 it is a freeform item."),
        Row("GROUPING", iTunes: [.item("©grp")], id3: .frame("GRP1"),
            note: "TagLib 1.13 and iTunes 12.5+ write grouping as GRP1 and WORK as TIT1; older writers put grouping in TIT1, which reads as WORK."),
        Row("WORK", iTunes: [.item("©wrk")], id3: .frame("TIT1")),
        Row("MOVEMENTNAME", iTunes: [.item("©mvn")], id3: .frame("MVNM")),
        Row("MOVEMENTNUMBER", .integer, iTunes: [.item("©mvi")], id3: .frame("MVIN")),
        Row("MOVEMENTCOUNT", .integer, iTunes: [.item("©mvc")]),
        Row("SHOWWORKMOVEMENT", .boolean, iTunes: [.item("shwm")]),
        Row("SUBTITLE", iTunes: [.iTunes("SUBTITLE")], id3: .frame("TIT3")),
        Row("DISCSUBTITLE", iTunes: [.iTunes("DISCSUBTITLE")], id3: .frame("TSST"), id3v23: .userText("DISCSUBTITLE"),
            note: "TagLib 1.13 has no ID3 mapping for TSST (a v2.4 frame); it is read and written here. v2.3 has no TSST, so a TXXX is used."),
        Row("MOOD", iTunes: [.iTunes("MOOD")], id3: .frame("TMOO"), id3v23: .userText("MOOD")),
        Row("MEDIA", iTunes: [.iTunes("MEDIA")], id3: .frame("TMED")),
        Row("LABEL", aliases: ["common/publisher"], iTunes: [.iTunes("LABEL")], quickTime: "com.apple.quicktime.publisher", id3: .frame("TPUB")),
        Row("CATALOGNUMBER", iTunes: [.iTunes("CATALOGNUMBER")], id3: .userText("CATALOGNUMBER")),
        Row("BARCODE", iTunes: [.iTunes("BARCODE")], id3: .userText("BARCODE")),
        Row("ISRC", iTunes: [.iTunes("ISRC")], id3: .frame("TSRC")),
        Row("ASIN", iTunes: [.iTunes("ASIN")], id3: .userText("ASIN")),
        Row("LANGUAGE", aliases: ["common/language"], iTunes: [.iTunes("LANGUAGE")], id3: .frame("TLAN")),
        Row("SCRIPT", iTunes: [.iTunes("SCRIPT")], id3: .userText("SCRIPT")),
        Row("LICENSE", iTunes: [.iTunes("LICENSE")], id3: .userText("LICENSE")),
        Row("ARTISTS", iTunes: [.iTunes("ARTISTS")], id3: .userText("ARTISTS")),
        Row("ORIGINALDATE", .date, iTunes: [.iTunes("originaldate")], id3: .frame("TDOR"), id3v23: .frame("TORY"),
            note: "ID3v2.3 TORY holds a year only."),
        Row("ORIGINALALBUM", id3: .frame("TOAL")),
        Row("ORIGINALARTIST", id3: .frame("TOPE")),
        Row("ORIGINALLYRICIST", id3: .frame("TOLY")),
        Row("ORIGINALFILENAME", id3: .frame("TOFN")),
        Row("RELEASEDATE", .date, id3: .frame("TDRL"), id3v23: .userText("RELEASEDATE")),
        Row("TAGGINGDATE", .date, id3: .frame("TDTG"), id3v23: .userText("TAGGINGDATE")),
        Row("ENCODINGTIME", .date, id3: .frame("TDEN"), id3v23: .userText("ENCODINGTIME")),
        Row("INITIALKEY", id3: .frame("TKEY")),
        Row("LENGTH", .integer, id3: .frame("TLEN"), note: "Milliseconds, as the ID3 frame stores it."),
        Row("FILETYPE", id3: .frame("TFLT")),
        Row("OWNER", id3: .frame("TOWN")),
        Row("PLAYLISTDELAY", .integer, id3: .frame("TDLY")),
        Row("PRODUCEDNOTICE", id3: .frame("TPRO"), id3v23: .userText("PRODUCEDNOTICE")),
        Row("RADIOSTATION", id3: .frame("TRSN")),
        Row("RADIOSTATIONOWNER", id3: .frame("TRSO")),
        // Sort orders.
        Row("TITLESORT", iTunes: [.item("sonm")], id3: .frame("TSOT")),
        Row("ARTISTSORT", iTunes: [.item("soar")], id3: .frame("TSOP")),
        Row("ALBUMSORT", iTunes: [.item("soal")], id3: .frame("TSOA")),
        Row("ALBUMARTISTSORT", iTunes: [.item("soaa")], id3: .frame("TSO2")),
        Row("COMPOSERSORT", iTunes: [.item("soco")], id3: .frame("TSOC")),
        // Involved people.
        Row("ARRANGER", id3: .involvedPerson(frame: "TIPL", role: "ARRANGER"), id3v23: .involvedPerson(frame: "IPLS", role: "ARRANGER")),
        Row("ENGINEER", iTunes: [.iTunes("ENGINEER")], id3: .involvedPerson(frame: "TIPL", role: "ENGINEER"),
            id3v23: .involvedPerson(frame: "IPLS", role: "ENGINEER")),
        Row("PRODUCER", iTunes: [.iTunes("PRODUCER")], quickTime: "com.apple.quicktime.producer",
            id3: .involvedPerson(frame: "TIPL", role: "PRODUCER"), id3v23: .involvedPerson(frame: "IPLS", role: "PRODUCER")),
        Row("DJMIXER", iTunes: [.iTunes("DJMIXER")], id3: .involvedPerson(frame: "TIPL", role: "DJ-MIX"),
            id3v23: .involvedPerson(frame: "IPLS", role: "DJ-MIX")),
        Row("MIXER", iTunes: [.iTunes("MIXER")], id3: .involvedPerson(frame: "TIPL", role: "MIX"), id3v23: .involvedPerson(frame: "IPLS", role: "MIX"),
            note: "TIPL roles as TagLib names them (ARRANGER, ENGINEER, PRODUCER, DJ-MIX, MIX). Musician credits (TMCL) are `PERFORMER:INSTRUMENT`."),
        // MusicBrainz and other identifiers.
        Row("MUSICBRAINZ_TRACKID", iTunes: [.iTunes("MusicBrainz Track Id")], id3: .uniqueFileID("http://musicbrainz.org"),
            note: "ID3 UFID with owner http://musicbrainz.org (as TagLib and Picard)."),
        Row("MUSICBRAINZ_ARTISTID", iTunes: [.iTunes("MusicBrainz Artist Id")], id3: .userText("MusicBrainz Artist Id")),
        Row("MUSICBRAINZ_ALBUMID", iTunes: [.iTunes("MusicBrainz Album Id")], id3: .userText("MusicBrainz Album Id")),
        Row("MUSICBRAINZ_ALBUMARTISTID", iTunes: [.iTunes("MusicBrainz Album Artist Id")], id3: .userText("MusicBrainz Album Artist Id")),
        Row("MUSICBRAINZ_RELEASEGROUPID", iTunes: [.iTunes("MusicBrainz Release Group Id")], id3: .userText("MusicBrainz Release Group Id")),
        Row("MUSICBRAINZ_RELEASETRACKID", iTunes: [.iTunes("MusicBrainz Release Track Id")], id3: .userText("MusicBrainz Release Track Id")),
        Row("MUSICBRAINZ_WORKID", iTunes: [.iTunes("MusicBrainz Work Id")], id3: .userText("MusicBrainz Work Id")),
        Row("RELEASECOUNTRY", iTunes: [.iTunes("MusicBrainz Album Release Country")], id3: .userText("MusicBrainz Album Release Country")),
        Row("RELEASESTATUS", iTunes: [.iTunes("MusicBrainz Album Status")], id3: .userText("MusicBrainz Album Status")),
        Row("RELEASETYPE", iTunes: [.iTunes("MusicBrainz Album Type")], id3: .userText("MusicBrainz Album Type"),
            note: "TXXX descriptions are written in Picard's spelling (`MusicBrainz Album Type`) and matched without regard to case; TagLib writes them upper-case."),
        Row("ACOUSTID_ID", iTunes: [.iTunes("Acoustid Id")], id3: .userText("Acoustid Id"),
            note: "TagLib 1.13 has no MP4 form for the AcoustID and MusicIP keys; the freeform names are Picard's."),
        Row("ACOUSTID_FINGERPRINT", iTunes: [.iTunes("Acoustid Fingerprint")], id3: .userText("Acoustid Fingerprint")),
        Row("MUSICIP_PUID", iTunes: [.iTunes("MusicIP PUID")], id3: .userText("MusicIP PUID")),
        // ReplayGain.
        Row("REPLAYGAIN_TRACK_GAIN", iTunes: [.iTunes("replaygain_track_gain")], id3: .userText("REPLAYGAIN_TRACK_GAIN"),
            note: "TagLib 1.13 reads these from ID3 as custom keys and not at all from MP4; the freeform names are the lower-case ones foobar2000 and Picard write."),
        Row("REPLAYGAIN_TRACK_PEAK", iTunes: [.iTunes("replaygain_track_peak")], id3: .userText("REPLAYGAIN_TRACK_PEAK")),
        Row("REPLAYGAIN_ALBUM_GAIN", iTunes: [.iTunes("replaygain_album_gain")], id3: .userText("REPLAYGAIN_ALBUM_GAIN")),
        Row("REPLAYGAIN_ALBUM_PEAK", iTunes: [.iTunes("replaygain_album_peak")], id3: .userText("REPLAYGAIN_ALBUM_PEAK")),
        // Web pages.
        Row("ARTISTWEBPAGE", id3: .frame("WOAR")),
        Row("AUDIOSOURCEWEBPAGE", id3: .frame("WOAS")),
        Row("COPYRIGHTURL", id3: .frame("WCOP")),
        Row("FILEWEBPAGE", id3: .frame("WOAF")),
        Row("PAYMENTWEBPAGE", id3: .frame("WPAY")),
        Row("PUBLISHERWEBPAGE", id3: .frame("WPUB")),
        Row("RADIOSTATIONWEBPAGE", id3: .frame("WORS")),
        // Podcasts and TV.
        Row("PODCAST", .boolean, iTunes: [.item("pcst")], id3: .frame("PCST"),
            note: "ID3 PCST is iTunes' podcast flag frame; TagLib lists it as PODCAST with no value, this project as `1`."),
        Row("PODCASTCATEGORY", iTunes: [.item("catg")], id3: .frame("TCAT")),
        Row("PODCASTDESC", aliases: ["common/description"], iTunes: [.item("desc")], quickTime: "com.apple.quicktime.description", id3: .frame("TDES"),
            note: "iTunes `desc` is the description of any item (AV Foundation's common description); TagLib names it PODCASTDESC."),
        Row("PODCASTID", iTunes: [.item("egid")], id3: .frame("TGID")),
        Row("PODCASTURL", iTunes: [.item("purl")], id3: .frame("WFED")),
        Row("GAPLESSPLAYBACK", .boolean, iTunes: [.item("pgap")]),
        Row("TVSHOW", iTunes: [.item("tvsh")]),
        Row("SHOWSORT", iTunes: [.item("sosn")]),
        Row("TVNETWORK", iTunes: [.item("tvnn")]),
        Row("TVEPISODEID", iTunes: [.item("tven")]),
        Row("TVEPISODE", .integer, iTunes: [.item("tves")]),
        Row("TVSEASON", .integer, iTunes: [.item("tvsn")]),
        // Pictures: listed for their native forms; they are edited with the picture commands.
        Row("PICTURE", .picture, aliases: ["common/artwork"], iTunes: [.item("covr")], quickTime: "com.apple.quicktime.artwork", id3: .frame("APIC"),
            note: "Not a text key (TagLib 1.13 has none either): `tags` never holds it; pictures are read, added and removed as pictures (`MediaFile.pictures`, `addPicture`, `removePictures`)."),
    ]
}
