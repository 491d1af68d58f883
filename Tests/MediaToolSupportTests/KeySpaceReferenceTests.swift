import Foundation
import MediaToolSupport
import TestSupport
import Testing

@Suite struct KeySpaceReferenceTests {
    @Test func referenceDocumentIsGeneratedFromTheTable() throws {
        let document = try String(contentsOfFile: TestFixtures.packageRoot + "/Documentation/KeySpace.md", encoding: .utf8)
        #expect(document == KeySpaceReference.markdown(), "run `swift run tagedit keys --markdown > Documentation/KeySpace.md`")
    }
}
