@testable import ID3
import MediaBytes
import TestSupport
import Testing

/// The written-as-read path of an unchanged frame (`ID3FrameEncoder.storedFrame`) on its own:
/// `unchangedFramesAreWrittenAsReadInTheirOwnVersion` checks the bytes written, which the path
/// that makes the header anew gives as well; these check which path a frame takes.
@Suite struct StoredFrameTests {
    @Test func anUnchangedFrameIsTheSliceItWasReadAs() throws {
        let canonical = ID3Builder.frame("TPE1", ID3Builder.text(["A"]))
        let long = String(repeating: "x", count: 200)
        let plainSized = ID3Builder.frame("TIT2", ID3Builder.text([long]), plainSize: true)
        let tag = try ID3v2Tag(parsing: ID3Builder.tag(canonical + plainSized, padding: 10), at: 0)
        let stored = try #require(tag.frames[0].stored)
        let whole = try #require(ID3FrameEncoder.storedFrame(stored))
        #expect(Array(whole) == canonical)
        // The slice of the tag it was read from, its body at the end.
        #expect(whole.endIndex == stored.body.endIndex && whole.count == stored.body.count + 10)
        // A v2.4 frame whose size was written plain (200 is not its syncsafe form): made anew.
        let plainStored = try #require(tag.frames[1].stored)
        #expect(ID3FrameEncoder.storedFrame(plainStored) == nil)
        // A body changed after reading forgets the bytes it was read with.
        var changed = stored
        changed.body = changed.body.dropLast()
        #expect(ID3FrameEncoder.storedFrame(changed) == nil)
    }

    @Test func aVersion3FrameKeepsItsPlainSize() throws {
        let long = String(repeating: "x", count: 200)
        let frame = ID3Builder.frame("TIT2", ID3Builder.text([long], encoding: 0), version: 3)
        let tag = try ID3v2Tag(parsing: ID3Builder.tag(version: 3, frames: [frame]), at: 0)
        let stored = try #require(tag.frames[0].stored)
        let whole = try #require(ID3FrameEncoder.storedFrame(stored))
        #expect(Array(whole) == frame)
    }
}
