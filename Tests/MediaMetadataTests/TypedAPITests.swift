import Foundation
import MediaBytes
@testable import MediaMetadata
import TestSupport
import Testing

/// The typed Swift API: `MetadataKey` constants, the settable properties, errors a property
/// setter cannot throw reported by `save()`, and a `MediaFile` that goes on after a save.
@Suite struct TypedAPITests {
    func copy(_ fixture: String) throws -> String {
        try TemporaryFile.write(TemporaryFile.read(TestFixtures.path(fixture)), name: fixture)
    }

    @Test func everyKeyConstantIsARowOfTheTable() {
        for key in MetadataKey.common {
            #expect(MetadataKeyTable.definition(key.rawValue)?.key == key.rawValue, "\(key)")
        }
        #expect(MetadataKey("mood") == MetadataKey("MOOD"))
    }

    @Test(arguments: ["moov-before-mdat.m4a", "no-tags.mp3", "id3v23-utf16.mp3", "wav-id3-info.wav"])
    func typedPropertiesReadBackAfterSaving(_ fixture: String) throws {
        let path = try copy(fixture)
        var file = try MediaFile(path: path)
        file.title = "Typed ✓"
        file.artist = "Someone"
        file.album = "Album"
        file.albumArtist = "Various"
        file.trackNumber = 4
        file.trackTotal = 12
        file.discNumber = 1
        file.discTotal = 2
        file.genre = "Jazz"
        file.date = "2024"
        file.comment = "A note"
        file.compilation = true
        try file.save()
        let read = try MediaFile(path: path)
        #expect(read.title == "Typed ✓")
        #expect(read.artist == "Someone" && read.album == "Album" && read.albumArtist == "Various")
        #expect(read.trackNumber == 4 && read.trackTotal == 12)
        #expect(read.discNumber == 1 && read.discTotal == 2)
        #expect(read.genre == "Jazz" && read.date == "2024" && read.comment == "A note")
        #expect(read.compilation == true)
        #expect(try read.values(.trackNumber) == ["4/12"])
        // Setting the number keeps the total; nil removes.
        var again = try MediaFile(path: path)
        again.trackNumber = 5
        again.comment = nil
        try again.save()
        let last = try MediaFile(path: path)
        #expect(try last.values(.trackNumber) == ["5/12"])
        #expect(last.comment == nil)
    }

    @Test func saveTakesTheFileLockAndIsRefusedWhileAnotherProcessHoldsIt() throws {
        let path = try copy("id3v24-full.mp3")
        let before = try TemporaryFile.read(path)
        var file = try MediaFile(path: path)
        file.title = "Locked out"
        // Another program holds the lock (util-linux flock) until the test creates `release`.
        let release = path + ".release"
        let holder = Thread {
            _ = try? ChildProcess.run("/usr/bin/flock", [path, "sh", "-c", "while [ ! -e \"$0\" ]; do sleep 0.02; done", release], timeout: 120)
        }
        holder.start()
        var heldElsewhere = false
        for _ in 0..<200 where !heldElsewhere {
            do { _ = try FileLock(path); Thread.sleep(forTimeInterval: 0.02) } catch { heldElsewhere = error.isHeldElsewhere }
        }
        try #require(heldElsewhere, "the other process took the lock")
        do {
            try file.save()
            Issue.record("saved while another process held the lock")
        } catch {
            #expect(error.code == .locked)
            #expect(error.description.contains("holds its lock"))
        }
        #expect(try TemporaryFile.read(path) == before)
        // Once it lets go, the same value saves.
        #expect(FileManager.default.createFile(atPath: release, contents: Data()))
        var released = false
        for _ in 0..<500 where !released {
            if (try? FileLock(path)) != nil { released = true } else { Thread.sleep(forTimeInterval: 0.02) }
        }
        try #require(released)
        try file.save()
        #expect(try MediaFile(path: path).title == "Locked out")
    }

    @Test func tagsAreLookedUpWithoutRegardToCase() throws {
        let file = try MediaFile(path: TestFixtures.path("id3v24-full.mp3"))
        #expect(file.tags["title"] == ["Fixture Title ♪"])
        #expect(file.tags["Title"] == file.tags["TITLE"])
        #expect(file.tags[.title] == ["Fixture Title ♪"])
        var copy = file.tags
        copy["artist"] = ["Other"]
        #expect(copy["ARTIST"] == ["Other"] && copy.count == file.tags.count)
        #expect(Set(file.tags.keys).allSatisfy { $0 == $0.uppercased() })
    }

    @Test func aValueTheFileCannotHoldIsThrownBySave() throws {
        let path = try copy("moov-before-mdat.m4a")
        let before = try TemporaryFile.read(path)
        var file = try MediaFile(path: path)
        file.date = "not a date"
        file.title = "Fine"
        let error = try #require(throws: MetadataError.self) { try file.save() }
        #expect(error.code == .badValue)
        #expect(try TemporaryFile.read(path) == before)
        // Setting the key again clears the error.
        file.date = "2020"
        try file.save()
        #expect(try MediaFile(path: path).date == "2020")
    }

    @Test(arguments: ["moov-after-mdat.m4a", "id3v24-full.mp3"])
    func aFileGoesOnAfterASave(_ fixture: String) throws {
        let path = try copy(fixture)
        var file = try MediaFile(path: path)
        try file.set(.title, ["First"])
        try file.save()
        #expect(!file.hasChanges)
        #expect(file.title == "First")
        try file.set(.title, ["Second"])
        #expect(try file.save().changed)
        #expect(try MediaFile(path: path).title == "Second")
        #expect(try file.remove(.title))
        try file.save()
        #expect(try MediaFile(path: path).title == nil)
    }
}
