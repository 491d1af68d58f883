@testable import MediaToolSupport
import Testing

/// Markup escaping matches what a browser or an XML reader reads: bytes and code points, not
/// Swift Characters. A markup character inside a Character (a combining mark after `"`, a
/// prepended mark such as U+0600 before `<`) was left raw by `String.replacing`, so a tag's
/// value could close an attribute or the HTML view's `<script>` (fixed 2026-11-27).
@Suite struct MarkupEscapingTests {
    @Test func markupInsideACharacterIsEscaped() {
        #expect(InspectionHTML.escape("\"\u{301} onmouseover=x") == "&quot;\u{301} onmouseover=x")
        #expect(InspectionHTML.escape("\u{0600}<b>") == "\u{0600}&lt;b&gt;")
        #expect(InspectionHTML.escape("a&\u{20E3}") == "a&amp;\u{20E3}")
        #expect(InspectionHTML.replacingBytes("x\u{0600}</script>", [("</", "<\\/")]) == "x\u{0600}<\\/script>")
    }

    @Test func anXMLAttributeKeepsItsQuotesAndEntitiesApartFromTheTitle() throws {
        for title in ["\u{301}start", "end\u{0600}", "a&\u{301}", "\u{0600}&b", "tab\there\r\nCR LF", "\u{200D}", "\u{0600}\u{0600}<", "x\u{0600}\u{0600}"] {
            let attribute = ChapterFileFormat.xmlEscaped(title)
            // No Character of the attribute mixes markup with title text.
            for character in attribute where character.unicodeScalars.count > 1 {
                #expect(!character.unicodeScalars.contains { "&;\"<>".unicodeScalars.contains($0) }, "\(title.debugDescription): \(attribute.debugDescription)")
            }
            let document = "<psc:chapters><psc:chapter start=\"0\" title=\"\(attribute)\"/></psc:chapters>"
            #expect(try ChapterFileFormat.podlove.parse(document).first?.title == title, "\(title.debugDescription)")
        }
    }
}
