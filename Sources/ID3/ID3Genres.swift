/// The ID3v1 genre table (indexes 0-191: the original 80, Winamp's extensions, and later
/// additions), with the names TagLib uses, so genre names agree across tools.
public enum ID3Genres {
    public static let names: [String] = [
        "Blues", "Classic Rock", "Country", "Dance", "Disco", "Funk", "Grunge", "Hip-Hop", "Jazz", "Metal",
        "New Age", "Oldies", "Other", "Pop", "R&B", "Rap", "Reggae", "Rock", "Techno", "Industrial",
        "Alternative", "Ska", "Death Metal", "Pranks", "Soundtrack", "Euro-Techno", "Ambient", "Trip-Hop",
        "Vocal", "Jazz-Funk", "Fusion", "Trance", "Classical", "Instrumental", "Acid", "House", "Game",
        "Sound Clip", "Gospel", "Noise", "Alternative Rock", "Bass", "Soul", "Punk", "Space", "Meditative",
        "Instrumental Pop", "Instrumental Rock", "Ethnic", "Gothic", "Darkwave", "Techno-Industrial",
        "Electronic", "Pop-Folk", "Eurodance", "Dream", "Southern Rock", "Comedy", "Cult", "Gangsta",
        "Top 40", "Christian Rap", "Pop/Funk", "Jungle", "Native American", "Cabaret", "New Wave",
        "Psychedelic", "Rave", "Showtunes", "Trailer", "Lo-Fi", "Tribal", "Acid Punk", "Acid Jazz", "Polka",
        "Retro", "Musical", "Rock & Roll", "Hard Rock", "Folk", "Folk Rock", "National Folk", "Swing",
        "Fast Fusion", "Bebop", "Latin", "Revival", "Celtic", "Bluegrass", "Avant-garde", "Gothic Rock",
        "Progressive Rock", "Psychedelic Rock", "Symphonic Rock", "Slow Rock", "Big Band", "Chorus",
        "Easy Listening", "Acoustic", "Humour", "Speech", "Chanson", "Opera", "Chamber Music", "Sonata",
        "Symphony", "Booty Bass", "Primus", "Porn Groove", "Satire", "Slow Jam", "Club", "Tango", "Samba",
        "Folklore", "Ballad", "Power Ballad", "Rhythmic Soul", "Freestyle", "Duet", "Punk Rock", "Drum Solo",
        "A Cappella", "Euro-House", "Dancehall", "Goa", "Drum & Bass", "Club-House", "Hardcore Techno",
        "Terror", "Indie", "Britpop", "Worldbeat", "Polsk Punk", "Beat", "Christian Gangsta Rap",
        "Heavy Metal", "Black Metal", "Crossover", "Contemporary Christian", "Christian Rock", "Merengue",
        "Salsa", "Thrash Metal", "Anime", "Jpop", "Synthpop", "Abstract", "Art Rock", "Baroque", "Bhangra",
        "Big Beat", "Breakbeat", "Chillout", "Downtempo", "Dub", "EBM", "Eclectic", "Electro",
        "Electroclash", "Emo", "Experimental", "Garage", "Global", "IDM", "Illbient", "Industro-Goth",
        "Jam Band", "Krautrock", "Leftfield", "Lounge", "Math Rock", "New Romantic", "Nu-Breakz",
        "Post-Punk", "Post-Rock", "Psytrance", "Shoegaze", "Space Rock", "Trop Rock", "World Music",
        "Neoclassical", "Audiobook", "Audio Theatre", "Neue Deutsche Welle", "Podcast", "Indie Rock",
        "G-Funk", "Dubstep", "Garage Rock", "Psybient",
    ]

    /// The name of genre `index`, or nil outside the table.
    public static func name(_ index: Int) -> String? { names.indices.contains(index) ? names[index] : nil }

    /// The index of a genre name (case-insensitive), or nil.
    public static func index(of name: String) -> Int? {
        let wanted = name.lowercased()
        return names.firstIndex { $0.lowercased() == wanted }
    }

    /// Reads a `TCON` value: references in parentheses `(13)`, `(RX)` remix and `(CR)` cover
    /// (v2.3), a plain number and the keywords `RX` and `CR` (v2.4, section 4.2.3), free text,
    /// and `((` escaping a literal parenthesis. `(13)Pop` gives `Pop` once; `(21)Eurodisco`
    /// gives the reference and its refinement.
    public static func parse(_ value: String) -> [String] {
        if let number = Int(value), let genre = name(number) { return [genre] }
        if value == "RX" { return ["Remix"] }
        if value == "CR" { return ["Cover"] }
        var genres: [String] = []
        var rest = Substring(value)
        while rest.hasPrefix("("), !rest.hasPrefix("(("), let close = rest.firstIndex(of: ")") {
            let reference = rest[rest.index(after: rest.startIndex)..<close]
            if let number = Int(reference), let genre = name(number) {
                genres.append(genre)
            } else if reference == "RX" {
                genres.append("Remix")
            } else if reference == "CR" {
                genres.append("Cover")
            } else if !reference.isEmpty, !reference.contains("(") {
                // A name in parentheses, as some writers put it: `(17)(Pop)(02)`.
                genres.append(String(reference))
            } else {
                break
            }
            rest = rest[rest.index(after: close)...]
        }
        if rest.hasPrefix("((") { rest = rest.dropFirst() }
        let refinement = String(rest)
        if !refinement.isEmpty && genres.last?.lowercased() != refinement.lowercased() { genres.append(refinement) }
        return genres
    }
}
