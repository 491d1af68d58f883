import TagLibOracle
import TestSupport
import Testing

@Suite struct TagLibOracleTests {
    @Test func oracleReadsAnMP4Fixture() throws {
        let reading = try #require(TagLibReading.read(TestFixtures.path("aac-itunes-tags-cover.m4a")))
        #expect(reading.properties["TITLE"] == ["Fixture Title"])
    }
}
