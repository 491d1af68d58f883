import MediaBytes
import Testing

/// Seconds as the views print them. A damaged Ogg or FLAC header makes a duration no count of
/// milliseconds holds (a granule position near 2^63 over a rate of 1): `atominspect` crashed
/// on it (found by the `read-ogg` fuzz target, 2026-11-29); it is printed as the number is.
@Suite struct SecondsFormattingTests {
    @Test func secondsHaveThreeDecimalsAndAnyDoubleIsPrinted() {
        #expect(FieldValue.seconds(12.3456) == "12.346")
        #expect(FieldValue.seconds(0) == "0.000")
        #expect(FieldValue.seconds(0.0004) == "0.000")
        #expect(FieldValue.seconds(9.2e15) == "9200000000000000.000")
        for value in [1e20, Double.greatestFiniteMagnitude, .infinity, -.infinity, .nan, -1.5] {
            #expect(FieldValue.seconds(value) == "\(value)")
        }
    }
}
