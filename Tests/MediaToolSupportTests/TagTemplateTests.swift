import MediaToolSupport
import Testing

/// The templates of `show --format`, `rename` and `from-name`, and file names made from values.
@Suite struct TagTemplateTests {
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

    @Test func fileNameComponentsAreSafeEverywhere() {
        #expect(FileNaming.component("AC/DC: Live? <1> \"x\" |*\\") == "AC_DC_ Live_ _1_ _x_ ___")
        #expect(FileNaming.component("..hidden. ") == "hidden")
        #expect(FileNaming.component("") == "_")
        #expect(FileNaming.component("tab\there") == "tab_here")
        let long = FileNaming.component(String(repeating: "é", count: 300))
        #expect(long.utf8.count <= FileNaming.maximumComponentBytes && long.allSatisfy { $0 == "é" })
    }
}
