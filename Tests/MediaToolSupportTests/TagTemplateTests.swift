import MediaBytes
import MediaMetadata
@testable import MediaToolSupport
import TestSupport
import Testing

/// The templates of `show --format`, `rename` and `from-name`, and file names made from values.
@Suite struct TagTemplateTests {
    /// `pattern` rendered for `file`, with the keys it found missing.
    static func render(_ pattern: String, _ file: MediaFile) throws -> (text: String, missing: [String]) {
        var missing: [String] = []
        let text = try TagTemplate(pattern).render(file, missing: &missing)
        return (text, missing)
    }

    @Test func parsesFieldsWidthsDefaultsAndLiteralBraces() throws {
        let template = try TagTemplate("{{{artist}}} {TrackNumber:02}{TITLE|none}{path}")
        #expect(template.parts == [
            .literal("{"), .field(.init(key: "ARTIST", width: nil, fallback: nil)), .literal("} "),
            .field(.init(key: "TRACKNUMBER", width: 2, fallback: nil)), .field(.init(key: "TITLE", width: nil, fallback: "none")),
            .field(.init(key: "path", width: nil, fallback: nil)),
        ])
        for bad in ["{TITLE", "TITLE}", "{}", "{TITLE:99}"] {
            #expect(throws: TagTemplate.SyntaxError.self, "\(bad)") { try TagTemplate(bad) }
        }
    }

    @Test func matchesNamesWithNumberFieldsAndIgnoredParts() throws {
        let template = try TagTemplate("{ARTIST}/{TRACKNUMBER} - {_} - {TITLE}")
        #expect(template.componentCount == 2)
        let values = try #require(template.match("The Band/07 - skip me - A - B"))
        #expect(values.map(\.key) == ["ARTIST", "TRACKNUMBER", "TITLE"])
        #expect(values.map(\.value) == ["The Band", "07", "A - B"])
        // A number field matches digits only; a field never spans folders.
        #expect(template.match("The Band/seven - x - Title") == nil)
        #expect(try TagTemplate("{TITLE}").match("a/b") == nil)
        // Regular-expression characters in the literal parts are literal.
        #expect(try TagTemplate("({DATE}) [{TITLE}]").match("(2024) [Song]")?.map(\.value) == ["2024", "Song"])
    }

    /// A fallback is a pattern of its own (another key), filters fold and change case, the
    /// audio is a field too, and a key without value or fallback is reported as missing (issue
    /// 35; before 2026-11-27 `{A|{B}}` was a syntax error and missing keys were silently empty).
    @Test func fallbacksToOtherKeysFiltersAudioFieldsAndMissingKeys() throws {
        let file = try MediaFile(path: TestFixtures.path("id3v24-full.mp3"))
        let render = { (pattern: String) in try Self.render(pattern, file) }
        #expect(try render("{CONDUCTOR|{ARTIST}}").text == (try file.values("ARTIST"))?.first)
        #expect(try render("{CONDUCTOR|{LYRICIST|nobody}}").text == "nobody")
        #expect(try render("{CONDUCTOR|}").missing.isEmpty)
        #expect(try render("{CONDUCTOR} - {TITLE}").missing == ["CONDUCTOR"])
        #expect(try render("{ALBUM:ascii}").text == "Fixture Album _")
        #expect(try render("{ALBUM:ascii:lower}").text == "fixture album _")
        #expect(try render("{TITLE:upper}").text == "FIXTURE TITLE ♪")
        #expect(try render("{TRACKNUMBER:03:ascii}").text == "003")
        #expect(try render("{codec} {samplerate} {channels} {duration}").text == "mp3 44100 1 0:01")
        // An identifier's own colon is not a filter.
        #expect(try TagTemplate("{id3/TXXX:MusicBrainz Album Id}").fields.first?.key == "ID3/TXXX:MUSICBRAINZ ALBUM ID")
        #expect(throws: TagTemplate.SyntaxError.self) { try TagTemplate("{A|{B}") }
    }

    /// A section `{?...}` is shown only when every field in it has a value; a key missing in
    /// it is not missing from the whole; it matches its text or nothing; it needs a field.
    @Test func sectionsAreLeftOutWhenAKeyInThemIsMissing() throws {
        let file = try MediaFile(path: TestFixtures.path("id3v24-full.mp3"))
        let render = { (pattern: String) in try Self.render(pattern, file) }
        #expect(try render("{?{TRACKNUMBER:02} - }{TITLE}").text == "03 - Fixture Title ♪")
        #expect(try render("{?{CONDUCTOR} - }{TITLE}") == ("Fixture Title ♪", []))
        #expect(try render("{?{TRACKNUMBER}/{CONDUCTOR} }x").text == "x")
        #expect(try render("{?{CONDUCTOR|{ARTIST}}: }x").text == "Fixture Artist: x")
        #expect(try render("{?[{?{CONDUCTOR}, }{TRACKNUMBER}] }x").text == "[3] x")
        let template = try TagTemplate("{?{TRACKNUMBER} - }{TITLE}")
        #expect(template.fields.map(\.key) == ["TRACKNUMBER", "TITLE"])
        #expect(template.match("07 - Song")?.map(\.key) == ["TRACKNUMBER", "TITLE"])
        #expect(template.match("07 - Song")?.map(\.value) == ["07", "Song"])
        #expect(template.match("Song")?.map(\.key) == ["TITLE"])
        // A section's folder is not counted for matching names: from-name refuses it.
        #expect(try TagTemplate("{?{ALBUM}/}{TITLE}").componentCount == 1)
        #expect(try TagTemplate("{?{ALBUM}/}{TITLE}").sectionsHoldFolders)
        #expect(try !TagTemplate("{ARTIST}/{?{TRACKNUMBER} - }{TITLE}").sectionsHoldFolders)
        // Literal braces inside a section are `{{` and `}}`, as outside; a field's name ends
        // at its first `}`.
        #expect(try render("{?{{ {TRACKNUMBER} - }{TITLE}").text == "{ 3 - Fixture Title ♪")
        #expect(try render("{?{TRACKNUMBER}}} - }x").text == "3} - x")
        #expect(try render("{?{CONDUCTOR}}}}{TITLE}").text == "Fixture Title ♪")
        #expect(try render("{{{TRACKNUMBER}}}").text == "{3}")
        #expect(throws: TagTemplate.SyntaxError.self) { try TagTemplate("{? - }{TITLE}") }
        #expect(throws: TagTemplate.SyntaxError.self) { try TagTemplate("{?{TITLE}") }
    }

    @Test func asciiFoldingKeepsLatinLettersAndSpellsOutTheRest() {
        #expect(TagTemplate.asciiFolded("Björk – Sigur Rós’s “Æther” Straße Œuvre Łódź") == "Bjork - Sigur Ros's \"AEther\" Strasse OEuvre Lodz")
        #expect(TagTemplate.asciiFolded("東京") == "__")
        #expect(TagTemplate.asciiFolded("e\u{301}") == "e")
    }

    /// A value's `/` never makes a folder, even with a combining mark after it (one Swift
    /// character, two scalars), and the pattern's own `/` does, even when a value after it
    /// starts with a combining mark.
    @Test func onlyThePatternsSlashesMakeFolders() throws {
        var file = try MediaFile(path: TestFixtures.path("id3v24-full.mp3"))
        try file.set("TITLE", ["AC/\u{301}DC"])
        try file.set("ALBUM", ["\u{301}Album"])
        let path = try FileNaming.relativePath("{ARTIST}/{ALBUM}/{TITLE}", for: file)
        #expect(path.unicodeScalars.split(separator: "/").count == 3, "\(path.unicodeScalars.map { String($0.value, radix: 16) })")
        #expect(path.hasSuffix("AC_\u{301}DC"))
    }

    @Test func fileNameComponentsAreSafeEverywhere() {
        #expect(FileNaming.component("AC/DC: Live? <1> \"x\" |*\\") == "AC_DC_ Live_ _1_ _x_ ___")
        #expect(FileNaming.component("..hidden. ") == "hidden")
        #expect(FileNaming.component("") == "_")
        #expect(FileNaming.component("tab\there") == "tab_here")
        // A `/` followed by a combining mark is one character, and still a path separator.
        #expect(FileNaming.component("AC/\u{301}DC") == "AC_\u{301}DC")
        #expect(!FileNaming.component("a/\u{301}b").unicodeScalars.contains("/"))
        let long = FileNaming.component(String(repeating: "é", count: 300))
        #expect(long.utf8.count <= FileNaming.maximumComponentBytes && long.allSatisfy { $0 == "é" })
    }
}

/// The backup file names of `--backup`: the absolute path with `/` and `%` escaped, its bytes
/// kept (a name that is not UTF-8 too), long paths cut with a hash of the whole.
@Suite struct EditBackupNameTests {
    @Test func namesKeepThePathsBytesAndStayUnderTheLimit() {
        #expect(EditBackup.name(for: "/music/100% Hits/Café.mp3") == "%2Fmusic%2F100%25 Hits%2FCafé.mp3.json")
        let raw = PathBytes.string(Array("/a/".utf8) + [0xFF, 0x41])
        #expect(PathBytes.bytes(EditBackup.name(for: raw)) == Array("%2Fa%2F".utf8) + [0xFF, 0x41] + Array(".json".utf8))
        let long = "/" + String(repeating: "é", count: 200) + "/x.mp3"
        let other = "/" + String(repeating: "è", count: 1) + String(repeating: "é", count: 199) + "/x.mp3"
        let name = EditBackup.name(for: long)
        #expect(PathBytes.bytes(name).count < 255 && name.hasSuffix("x.mp3.json"))
        #expect(name != EditBackup.name(for: other), "two long paths with one end keep apart")
        #expect(String(validating: PathBytes.bytes(name), as: UTF8.self) != nil, "cut at a character's start")
    }
}
