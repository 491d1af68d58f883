import MediaToolSupport
import TestSupport
import Testing

/// Path arithmetic the tools do without Foundation, checked against what `NSString`'s path
/// methods return for the same input.
@Suite struct PathNamesTests {
    @Test func lastComponentAndParentFolder() {
        let cases: [(path: String, last: String, parent: String)] = [
            ("a/b.mp3", "b.mp3", "a"), ("b.mp3", "b.mp3", ""), ("/b.mp3", "b.mp3", "/"), ("a/b/", "b", "a"),
            ("/a/b//c.m4a", "c.m4a", "/a/b"), ("/", "/", "/"), ("./x", "x", "."),
        ]
        for (path, last, parent) in cases {
            #expect(PathNames.lastComponent(path) == last, "\(path)")
            #expect(PathNames.deletingLastComponent(path) == parent, "\(path)")
        }
        #expect(PathNames.appending("c.jpg", to: "out") == "out/c.jpg")
        #expect(PathNames.appending("c.jpg", to: "out/") == "out/c.jpg")
        #expect(PathNames.appending("c.jpg", to: "") == "c.jpg")
    }

    @Test func naturalOrderCountsDigitRunsAndIgnoresCase() {
        let names = ["track 10.mp3", "Track 2.mp3", "track 1.mp3", "b.mp3", "A.mp3", "track 02b.mp3", "track 007.mp3"]
        let sorted = names.sorted { PathNames.naturallyPrecedes($0, $1) ?? ($0 < $1) }
        #expect(sorted == ["A.mp3", "b.mp3", "track 1.mp3", "Track 2.mp3", "track 02b.mp3", "track 007.mp3", "track 10.mp3"])
        #expect(PathNames.naturallyPrecedes("Disc 1", "disc 01") == nil)
        #expect(PathNames.naturallyPrecedes("9", "10") == true)
        #expect(PathNames.naturallyPrecedes("x", "x1") == true)
    }

    @Test func createsMissingFoldersAndFindsThem() throws {
        let root = try TemporaryFile.makeDirectory()
        let nested = root + "/one/two/three"
        #expect(PathNames.createFolders(nested) == nil)
        #expect(MediaFileList.isDirectory(nested))
        #expect(PathNames.createFolders(nested) == nil)
        #expect(!MediaFileList.isDirectory(root + "/one/missing"))
        #expect(MediaFileList.exists(root + "/one/two"))
    }
}
