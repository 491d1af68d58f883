import Foundation
import MediaMetadata
import MediaToolSupport
import TestSupport
import Testing

/// The batch conveniences of `tagedit`: output templates and TSV, numbering, renaming by tags,
/// tags from names, pictures over several files, and the TRACKTOTAL/DISCTOTAL keys.
@Suite struct LibraryCommandsTests {
    func tagedit(_ arguments: String...) async throws -> ToolRunner.Result {
        try await ToolRunner.run("tagedit", arguments)
    }

    /// A folder holding copies of `fixtures` under the given names.
    func library(_ files: [(fixture: String, name: String)]) throws -> String {
        let directory = try TemporaryFile.makeDirectory()
        for file in files {
            let path = (directory as NSString).appendingPathComponent(file.name)
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(TemporaryFile.read(TestFixtures.path(file.fixture))).write(to: URL(fileURLWithPath: path))
        }
        return directory
    }

    func names(in directory: String) throws -> [String] {
        (FileManager.default.enumerator(atPath: directory)?.allObjects as? [String] ?? []).filter {
            var isDirectory: ObjCBool = false
            FileManager.default.fileExists(atPath: directory + "/" + $0, isDirectory: &isDirectory)
            return !isDirectory.boolValue
        }.sorted()
    }

    @Test func parallelRunsPrintExactlyWhatASerialRunPrints() async throws {
        // 40 files, a damaged one and a missing one among them.
        var files: [(fixture: String, name: String)] = []
        for index in 0..<20 {
            files.append(("id3v24-full.mp3", String(format: "%02d-a.mp3", index)))
            files.append(("aac-itunes-tags-cover.m4a", String(format: "%02d-b.m4a", index)))
        }
        let directory = try library(files)
        try Data(TemporaryFile.read(TestFixtures.path("moov-before-mdat.m4a")).prefix(300)).write(to: URL(fileURLWithPath: directory + "/07-c.m4a"))
        let missing = directory + "/missing.mp3"
        for arguments in [["show", "-r", directory], ["show", "--json", "-r", directory], ["get", "-r", directory, missing, "TITLE"],
                          ["show", "-r", directory, "--format", "{TRACKNUMBER} {TITLE} {filename}"],
                          ["export", "-r", directory, missing], ["chapters", "list", "-r", directory, missing],
                          ["chapters", "list", "--json", "-r", directory], ["timed", "-r", directory, missing], ["timed", "--json", "-r", directory],
                          ["rename", "--dry-run", "-r", directory, "--pattern", "{TRACKNUMBER|x} {basename}"]] {
            let serial = try await ToolRunner.run("tagedit", arguments + ["--jobs", "1"])
            let parallel = try await ToolRunner.run("tagedit", arguments + ["--jobs", "4"])
            #expect(parallel.standardOutput == serial.standardOutput, "\(arguments)")
            #expect(parallel.standardError == serial.standardError, "\(arguments)")
            #expect(parallel.status == serial.status, "\(arguments)")
        }
        // Writing: every file edited once, in the same order, with the same summary and exit code.
        let copy = try library(files)
        try Data(TemporaryFile.read(TestFixtures.path("moov-before-mdat.m4a")).prefix(300)).write(to: URL(fileURLWithPath: copy + "/07-c.m4a"))
        let serial = try await tagedit("set", "-r", directory, "TITLE=Parallel", "-v", "--jobs", "1")
        let parallel = try await tagedit("set", "-r", copy, "TITLE=Parallel", "-v", "--jobs", "4")
        #expect(parallel.status == serial.status && serial.status == 68)
        #expect(parallel.standardOutput.replacingOccurrences(of: copy, with: directory) == serial.standardOutput)
        #expect(parallel.standardError.replacingOccurrences(of: copy, with: directory) == serial.standardError)
        #expect(parallel.standardError.hasSuffix("40 files changed, 0 unchanged, 1 failed\n"))
        let titles = try await tagedit("get", "-r", copy, "TITLE")
        #expect(titles.standardOutput.split(separator: "\n").filter { $0.hasSuffix(": Parallel") }.count == 40)
    }

    @Test func oneFileNamedTwiceInAParallelRunIsEditedOnceAfterTheOther() async throws {
        let directory = try library([("aac-itunes-tags-cover.m4a", "b.m4a"), ("id3v24-full.mp3", "a.mp3")])
        let b = directory + "/b.m4a"
        let result = try await tagedit("add", "--jobs", "4", b, directory + "/./b.m4a", b, directory + "/a.mp3", "GROUPING=z")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try MediaFile(path: b).tags["GROUPING"] == ["z", "z", "z"])
        #expect(try await ToolRunner.run("atominspect", ["check", b]).standardOutput == "\(b): ok\n")
    }

    @Test func showFormatRendersOneLinePerFileWithPaddingAndDefaults() async throws {
        let directory = try library([("id3v24-full.mp3", "a.mp3"), ("no-tags.mp3", "b.mp3")])
        let result = try await tagedit("show", "-r", directory, "--format", "{TRACKNUMBER:03}|{TRACKTOTAL}|{ARTIST|nobody} - {TITLE}|{filename}|{basename}.{ext}|{{x}}")
        #expect(result.status == 0)
        #expect(result.standardOutput == "003|12|Fixture Artist - Fixture Title ♪|a.mp3|a.mp3|{x}\n||nobody - |b.mp3|b.mp3|{x}\n")
        let bad = try await tagedit("show", directory + "/a.mp3", "--format", "{TITLE")
        #expect(bad.status == 64)
        #expect(bad.standardError.contains("unclosed"))
        // The template's own tab stays a tab (a table for other tools); a value's control
        // characters are escaped, and the line stays one line.
        #expect(try await tagedit("set", directory + "/b.mp3", "TITLE=a\tb\u{1B}[2Jc\nd").status == 0)
        let tabbed = try await tagedit("show", directory + "/b.mp3", "--format", "{filename}\t{TITLE}\n")
        #expect(tabbed.standardOutput == "b.mp3\ta\\tb\\x1B[2Jc\\nd\\n\n", "\(tabbed.standardOutput)")
    }

    @Test func showTSVHasAHeaderAndOneEscapedRowPerFile() async throws {
        let directory = try library([("id3v24-full.mp3", "a.mp3"), ("aac-itunes-tags-cover.m4a", "b.m4a")])
        #expect(try await tagedit("set", directory + "/a.mp3", "COMMENT=tab\there\nand a line").status == 0)
        let result = try await tagedit("show", "--tsv", "--keys", "TITLE,TRACKNUMBER,COMMENT", directory + "/a.mp3", directory + "/b.m4a")
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4 && lines[3].isEmpty)
        #expect(lines[0] == "path\tTITLE\tTRACKNUMBER\tCOMMENT")
        #expect(lines[1] == "\(directory)/a.mp3\tFixture Title ♪\t3/12\ttab\\there\\nand a line")
        #expect(lines[2].hasPrefix("\(directory)/b.m4a\tFixture Title\t3/12\t"))
        #expect(lines.dropFirst().dropLast().allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == 4 })
    }

    @Test func trackAndDiscTotalsAreKeysOfTheirOwnInEveryFormat() async throws {
        for fixture in ["id3v24-full.mp3", "aac-itunes-tags-cover.m4a", "wav-id3-info.wav"] {
            let path = try TemporaryFile.write(TemporaryFile.read(TestFixtures.path(fixture)), name: fixture)
            #expect(try await tagedit("set", path, "TRACKNUMBER=3/", "DISCNUMBER=1", "DISCTOTAL=2").status == 0)
            #expect(try await tagedit("set", path, "TRACKTOTAL=12").status == 0)
            #expect(try await tagedit("get", path, "TRACKNUMBER").standardOutput == "3/12\n", "\(fixture)")
            // In one command the total goes after the number, whatever the order given.
            #expect(try await tagedit("set", path, "TRACKTOTAL=9", "TRACKNUMBER=2").status == 0)
            #expect(try await tagedit("get", path, "TRACKNUMBER").standardOutput == "2/9\n", "\(fixture)")
            #expect(try await tagedit("set", path, "TRACKNUMBER=3/12").status == 0)
            #expect(try await tagedit("get", path, "tracktotal").standardOutput == "12\n")
            #expect(try await tagedit("get", path, "DISCNUMBER").standardOutput == "1/2\n", "\(fixture)")
            var file = try MediaFile(path: path)
            #expect(try file.values(.trackTotal) == ["12"])
            #expect(try file.values(.discTotal) == ["2"])
            #expect(file.tags["TRACKTOTAL"] == nil)
            #expect(throws: MetadataError.self) { try file.set(.trackTotal, ["twelve"]) }
            // Removing the total keeps the number.
            #expect(try await tagedit("remove", path, "TRACKTOTAL").status == 0)
            #expect(try await tagedit("get", path, "TRACKNUMBER").standardOutput == "3\n")
            #expect(try await tagedit("get", path, "TRACKTOTAL").status == 1)
        }
    }

    /// `TRACKNUMBER=4` keeps the total a file has (`3/12` becomes `4/12`, in one TRCK frame,
    /// an MP4 `trkn` or two Vorbis fields), `4/` drops it, and a total set without a number is
    /// written where the format can hold it alone (MP4's number 0, a Vorbis `TRACKTOTAL` field)
    /// and refused in ID3, whose TRCK has a total only after its number. Before 2026-11-27
    /// `TRACKNUMBER=4` dropped the total and `TRACKTOTAL=5` wrote `TRCK=0/5`.
    @Test func aNumberKeepsItsTotalAndATotalAloneIsWrittenOnlyWhereItCanStandAlone() async throws {
        let fixtures = [("id3v24-full.mp3", "0"), ("wav-id3-info.wav", "0"), ("aac-itunes-tags-cover.m4a", "0/9"), ("flac-tags-picture.flac", "/9"),
                        ("ogg-vorbis-tags.ogg", "/9")]
        for (fixture, totalAlone) in fixtures {
            let path = try TemporaryFile.write(TemporaryFile.read(TestFixtures.path(fixture)), name: fixture)
            #expect(try await tagedit("set", path, "TRACKNUMBER=3/12").status == 0)
            #expect(try await tagedit("set", path, "TRACKNUMBER=4").status == 0)
            #expect(try await tagedit("get", path, "TRACKNUMBER").standardOutput == "4/12\n", "\(fixture)")
            #expect(try await tagedit("get", path, "TRACKTOTAL").standardOutput == "12\n", "\(fixture)")
            #expect(try await tagedit("set", path, "TRACKNUMBER=5/").status == 0)
            #expect(try await tagedit("get", path, "TRACKNUMBER").standardOutput == "5\n", "\(fixture)")
            #expect(try await tagedit("get", path, "TRACKTOTAL").status == 1, "\(fixture)")
            #expect(try await tagedit("remove", path, "TRACKNUMBER").status == 0)
            let alone = try await tagedit("set", path, "TRACKTOTAL=9")
            if totalAlone == "0" {
                #expect(alone.status == 65, "\(fixture)")
                #expect(alone.standardError.contains("TRACKTOTAL=9: ID3 keeps a total only after its number (TRCK n/m); set TRACKNUMBER too"), "\(alone.standardError)")
                #expect(try await tagedit("get", path, "TRACKNUMBER").status == 1, "\(fixture): something was written")
                continue
            }
            #expect(alone.status == 0, "\(fixture): \(alone.standardError)")
            #expect(try await tagedit("get", path, "TRACKTOTAL").standardOutput == "9\n", "\(fixture)")
            // What the format's other readers see: no number written beside the total.
            if fixture.hasSuffix(".m4a") {
                #expect(try await tagedit("get", path, "TRACKNUMBER").standardOutput == "0/9\n")
            } else {
                let fields = try await ToolRunner.runProgram(OtherReaders.python, ["-c", "import mutagen,sys; f=mutagen.File(sys.argv[1]); print(sorted(k for k in f.tags.keys() if 'TRACK' in k.upper()))", path])
                #expect(fields.standardOutput == "['tracktotal']\n" || fields.standardOutput == "['TRACKTOTAL']\n", "\(fixture): \(fields.standardOutput)")
            }
            // A number set later keeps the total standing alone.
            #expect(try await tagedit("set", path, "TRACKNUMBER=2").status == 0)
            #expect(try await tagedit("get", path, "TRACKNUMBER").standardOutput == "2/9\n", "\(fixture)")
        }
    }

    /// A key with no MP4 atom of its own (RELEASEDATE, ORIGINALALBUM) is written to an M4A as
    /// the freeform item named as the key, as TagLib writes such properties, and read back as
    /// the key; mutagen sees the item. Before 2026-11-27 it was refused ("has no MP4 form")
    /// while CUSTOM:RELEASEDATE wrote the same item.
    @Test func aKeyWithoutAnMP4AtomIsAFreeformItemNamedAsTheKey() async throws {
        let path = try TemporaryFile.write(TemporaryFile.read(TestFixtures.path("moov-before-mdat.m4a")), name: "a.m4a")
        let set = try await tagedit("set", path, "RELEASEDATE=2020-01-02", "ORIGINALALBUM=First Pressing")
        #expect(set.status == 0, "\(set.standardError)")
        #expect(try await tagedit("get", path, "RELEASEDATE").standardOutput == "2020-01-02\n")
        #expect(try await tagedit("get", path, "ORIGINALALBUM").standardOutput == "First Pressing\n")
        let items = try await ToolRunner.runProgram(OtherReaders.python, ["-c", "import mutagen,sys; t=mutagen.File(sys.argv[1]).tags; print(sorted((k, bytes(v[0]).decode()) for k, v in t.items() if k.startswith('----')))", path])
        #expect(items.standardOutput == "[('----:com.apple.iTunes:ORIGINALALBUM', 'First Pressing'), ('----:com.apple.iTunes:RELEASEDATE', '2020-01-02')]\n", "\(items.standardOutput)")
    }

    /// `rename` with templates as a library needs them (issue 35): a key a file lacks refuses
    /// the batch instead of naming it `- Title.mp3`, a fallback (another key, or `{KEY|}` for
    /// none) names it, filters fold names to ASCII, and `--prune` removes the folders the moves
    /// emptied but never one named on the command line.
    @Test func renameRefusesAMissingKeyUsesFallbacksAndPrunesEmptiedFolders() async throws {
        let directory = try library([("id3v24-full.mp3", "inbox/x/a.mp3"), ("no-tags.mp3", "inbox/y/b.mp3")])
        #expect(try await tagedit("set", directory + "/inbox/y/b.mp3", "TITLE=Naïve Song", "ARTIST=Other").status == 0)
        let missing = try await tagedit("rename", "-r", directory + "/inbox", "--pattern", "{TRACKNUMBER:02} - {TITLE}", "--to", directory + "/out")
        #expect(missing.status == 65)
        #expect(missing.standardError.contains("b.mp3: has no TRACKNUMBER: not renamed"), "\(missing.standardError)")
        #expect(missing.standardError.contains("nothing moved"))
        #expect(try names(in: directory + "/inbox/y") == ["b.mp3"])

        let pattern = "{ALBUMARTIST|{ARTIST}}/{TRACKNUMBER:02|00} - {TITLE:ascii}"
        let moved = try await tagedit("rename", "-r", directory + "/inbox", "--pattern", pattern, "--to", directory + "/out", "--prune")
        #expect(moved.status == 0, "\(moved.standardError)")
        #expect(try names(in: directory + "/out/Other") == ["00 - Naive Song.mp3"])
        #expect(try names(in: directory + "/out/Fixture Album Artist").count == 1)
        #expect(moved.standardOutput.contains("removed the empty folder \(directory)/inbox/x"), "\(moved.standardOutput)")
        #expect(FileManager.default.fileExists(atPath: directory + "/inbox"), "a folder named on the command line stays")
        #expect(!FileManager.default.fileExists(atPath: directory + "/inbox/x") && !FileManager.default.fileExists(atPath: directory + "/inbox/y"))
    }

    /// A section `{?...}` is left out, text and all, when a key in it is missing (issue 35:
    /// "no `- Title.mp3` when the track number is missing"): `rename` names both files, one
    /// without the number and its dash, a section may hold a folder, and `from-name` reads a
    /// name with or without the section.
    @Test func renameLeavesOutASectionWhoseKeyIsMissing() async throws {
        let directory = try library([("id3v24-full.mp3", "in/a.mp3"), ("no-tags.mp3", "in/b.mp3")])
        #expect(try await tagedit("set", directory + "/in/b.mp3", "TITLE=Loose Track").status == 0)
        let moved = try await tagedit("rename", "-r", directory + "/in", "--pattern", "{?{ALBUM}/}{?{TRACKNUMBER:02} - }{TITLE:ascii}", "--to", directory + "/out")
        #expect(moved.status == 0, "\(moved.standardError)")
        let out = try names(in: directory + "/out")
        #expect(out == ["Fixture Älbum ✓/03 - Fixture Title _.mp3", "Loose Track.mp3"], "\(out)")
        let folder = directory + "/out/Fixture Älbum ✓"

        // from-name: the same section matches a name with it and one without.
        #expect(try await tagedit("remove", directory + "/out/Loose Track.mp3", "TITLE").status == 0)
        let named = try await tagedit("from-name", directory + "/out/Loose Track.mp3", folder + "/03 - Fixture Title _.mp3", "--pattern", "{?{TRACKNUMBER} - }{TITLE}")
        #expect(named.status == 0, "\(named.standardError)")
        #expect(try await tagedit("get", directory + "/out/Loose Track.mp3", "TITLE").standardOutput == "Loose Track\n")
        #expect(try await tagedit("get", directory + "/out/Loose Track.mp3", "TRACKNUMBER").status == 1)
        #expect(try await tagedit("get", folder + "/03 - Fixture Title _.mp3", "TITLE").standardOutput == "Fixture Title _\n")
    }

    @Test func numberCountsEachFolderInNaturalOrderWithItsTotal() async throws {
        let directory = try library([
            ("no-tags.mp3", "cd1/10 ten.mp3"), ("no-tags.mp3", "cd1/2 two.mp3"), ("no-tags.mp3", "cd1/1 one.mp3"),
            ("aac-itunes-tags-cover.m4a", "cd2/b.m4a"), ("id3v24-full.mp3", "cd2/a.mp3"),
        ])
        #expect(try await tagedit("number", directory).status == 0)
        let numbers = try await tagedit("show", "-r", directory, "--format", "{TRACKNUMBER}/{TRACKTOTAL} {filename}")
        // (listed in path order; numbered in natural order)
        #expect(numbers.standardOutput == "1/3 1 one.mp3\n3/3 10 ten.mp3\n2/3 2 two.mp3\n1/2 a.mp3\n2/2 b.m4a\n")
        // Tag order: by the numbers the files have; --start and --no-total.
        #expect(try await tagedit("set", directory + "/cd2/a.mp3", "TRACKNUMBER=9").status == 0)
        #expect(try await tagedit("number", directory + "/cd2", "--order", "tag", "--start", "5", "--no-total").status == 0)
        let reordered = try await tagedit("show", "-r", directory + "/cd2", "--format", "{TRACKNUMBER}/{TRACKTOTAL|-} {filename}")
        #expect(reordered.standardOutput == "6/- a.mp3\n5/- b.m4a\n")
        // Per disc with --order tag; files that are not media are not counted.
        let discs = try library([("no-tags.mp3", "x/a.mp3"), ("no-tags.mp3", "x/b.mp3"), ("no-tags.mp3", "x/c.mp3")])
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: discs + "/x/cover.jpg"))
        #expect(try await tagedit("set", discs + "/x/a.mp3", discs + "/x/c.mp3", "DISCNUMBER=2").status == 0)
        #expect(try await tagedit("set", discs + "/x/b.mp3", "DISCNUMBER=1").status == 0)
        #expect(try await tagedit("number", discs, "--order", "tag").status == 0)
        let perDisc = try await tagedit("show", "-r", discs, "--format", "{DISCNUMBER}:{TRACKNUMBER}/{TRACKTOTAL} {filename}")
        #expect(perDisc.standardOutput == "2:1/2 a.mp3\n1:1/1 b.mp3\n2:2/2 c.mp3\n")
        #expect(try await tagedit("number", discs, "--start", "70000").status == 64)
    }

    /// A file `number` cannot read is counted as failed in its summary, as `set` counts it
    /// (before 2026-11-30: "2 files changed, 0 unchanged, 0 failed" after an error line).
    @Test func numberCountsAFileItCannotReadAsFailed() async throws {
        let directory = try library([("no-tags.mp3", "a.mp3"), ("no-tags.mp3", "b.mp3")])
        try Data("junk".utf8).write(to: URL(fileURLWithPath: directory + "/bad.m4a"))
        let result = try await tagedit("number", directory)
        #expect(result.status == 67)
        #expect(result.standardError.contains("2 files changed, 0 unchanged, 1 failed"), "\(result.standardError)")
        #expect(try await tagedit("get", directory + "/b.mp3", "TRACKNUMBER").standardOutput == "2/2\n")
    }

    @Test func renameMovesFilesToNamesFromTheirTags() async throws {
        let directory = try library([("id3v24-full.mp3", "in/a.mp3"), ("aac-itunes-tags-cover.m4a", "in/b.m4a"), ("no-tags.mp3", "in/c.mp3")])
        #expect(try await tagedit("set", directory + "/in/b.m4a", "TITLE=AC/DC: Live?", "TRACKNUMBER=4").status == 0)
        // `{KEY|}` leaves a missing number out (and the space before the title is dropped);
        // without a fallback the file would be refused (renameRefusesAMissingKey...).
        let pattern = "{ARTIST|Unknown Artist}/{TRACKNUMBER:02|} {TITLE|untitled}"
        let dry = try await tagedit("rename", "-r", directory + "/in", "--pattern", pattern, "--dry-run")
        #expect(dry.status == 0)
        #expect(dry.standardOutput.contains("\(directory)/in/b.m4a -> \(directory)/in/Fixture Artist/04 AC_DC_ Live_.m4a\n"))
        #expect(try names(in: directory) == ["in/a.mp3", "in/b.m4a", "in/c.mp3"])
        let result = try await tagedit("rename", "-r", directory + "/in", "--pattern", pattern)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try names(in: directory) == ["in/Fixture Artist/03 Fixture Title ♪.mp3", "in/Fixture Artist/04 AC_DC_ Live_.m4a", "in/Unknown Artist/untitled.mp3"])
        #expect(result.standardOutput.split(separator: "\n").count == 3)
        // With --to, relative to a root; already named files stay.
        let root = try TemporaryFile.makeDirectory()
        let again = try await tagedit("rename", "-r", directory + "/in", "--pattern", "{ALBUM|x}/{TITLE|untitled}", "--to", root)
        #expect(again.status == 0)
        #expect(try names(in: root).count == 3)
        #expect(try names(in: directory).isEmpty)
    }

    @Test func renameRefusesCollisionsAndExistingTargetsMovingNothing() async throws {
        let directory = try library([("no-tags.mp3", "x.mp3"), ("no-tags.mp3", "y.mp3"), ("id3v24-full.mp3", "z.mp3")])
        let collision = try await tagedit("rename", directory + "/x.mp3", directory + "/y.mp3", directory + "/z.mp3", "--pattern", "{TITLE|same}")
        #expect(collision.status == 73)
        #expect(collision.standardError.contains("would all become"))
        #expect(collision.standardError.contains("nothing moved"))
        #expect(try names(in: directory) == ["x.mp3", "y.mp3", "z.mp3"])
        try Data("occupied".utf8).write(to: URL(fileURLWithPath: directory + "/Fixture Title ♪.mp3"))
        let existing = try await tagedit("rename", directory + "/z.mp3", "--pattern", "{TITLE}")
        #expect(existing.status == 73)
        #expect(existing.standardError.contains("exists"))
        #expect(try names(in: directory) == ["Fixture Title ♪.mp3", "x.mp3", "y.mp3", "z.mp3"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/Fixture Title ♪.mp3")) == Data("occupied".utf8))
    }

    @Test func renameRefusesLinksCaseCollisionsAndFilesInTheWay() async throws {
        let directory = try library([("no-tags.mp3", "x.mp3"), ("no-tags.mp3", "y.mp3"), ("id3v24-full.mp3", "z.mp3")])
        #expect(try await tagedit("set", directory + "/x.mp3", "TITLE=Song").status == 0)
        #expect(try await tagedit("set", directory + "/y.mp3", "TITLE=SONG").status == 0)
        // Names that differ only in case collide only where the file system ignores case (before
        // 2026-11-27 they were refused everywhere, as "would all become" the first name).
        let folded = try await tagedit("rename", directory + "/x.mp3", directory + "/y.mp3", "--pattern", "{TITLE}", "--dry-run")
        if PathNames.ignoresCase(folder: directory) {
            #expect(folded.status == 73)
            #expect(folded.standardError.contains("/x.mp3 -> \(directory)/Song.mp3, \(directory)/y.mp3 -> \(directory)/SONG.mp3: these names differ only in case"), "\(folded.standardError)")
        } else {
            #expect(folded.status == 0, "\(folded.standardError)")
            #expect(folded.standardOutput.contains("/y.mp3 -> \(directory)/SONG.mp3"), "\(folded.standardOutput)")
        }
        try FileManager.default.createSymbolicLink(atPath: directory + "/link.mp3", withDestinationPath: directory + "/z.mp3")
        let link = try await tagedit("rename", directory + "/link.mp3", "--pattern", "{TITLE}")
        #expect(link.status == 65)
        #expect(link.standardError.contains("is a symbolic link"))
        try Data("a file".utf8).write(to: URL(fileURLWithPath: directory + "/Fixture Artist"))
        let blocked = try await tagedit("rename", directory + "/z.mp3", "--pattern", "{ARTIST}/{TITLE}")
        #expect(blocked.status == 73)
        #expect(blocked.standardError.contains("is a file, not a folder"))
        #expect(try names(in: directory) == ["Fixture Artist", "link.mp3", "x.mp3", "y.mp3", "z.mp3"])
    }

    static var sharedMemoryIsAnotherFileSystem: Bool {
        var a = stat(), b = stat()
        return stat(NSTemporaryDirectory(), &a) == 0 && stat("/dev/shm", &b) == 0 && a.st_dev != b.st_dev
    }

    @Test(.enabled(if: sharedMemoryIsAnotherFileSystem, "needs /dev/shm on another file system than the temporary folder"))
    func aMoveThatFailsHalfwayMovesTheOthersBack() async throws {
        let directory = try library([("id3v24-full.mp3", "a.mp3"), ("no-tags.mp3", "b.mp3")])
        #expect(try await tagedit("set", directory + "/b.mp3", "ARTIST=Zed").status == 0)
        // The folder for the second file is a link to another file system: hard links fail there.
        let elsewhere = "/dev/shm/tagedit-test-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: elsewhere) }
        try FileManager.default.createSymbolicLink(atPath: directory + "/Zed", withDestinationPath: elsewhere)
        let result = try await tagedit("rename", directory + "/a.mp3", directory + "/b.mp3", "--pattern", "{ARTIST}/{TITLE|untitled}")
        #expect(result.status == 74)
        #expect(result.standardError.contains("cannot move to another file system"))
        #expect(result.standardError.contains("moved back: every file is where it was"))
        #expect(try names(in: directory).filter { !$0.hasPrefix("Zed") } == ["a.mp3", "b.mp3"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
    }

    @Test func fromNameSetsTagsFromNamesAndFolders() async throws {
        let directory = try library([("id3v24-full.mp3", "Some Band/07 - A Song - Live.mp3"), ("no-tags.mp3", "Other/no number.mp3")])
        let result = try await tagedit("from-name", directory + "/Some Band/07 - A Song - Live.mp3", "--pattern", "{ARTIST}/{TRACKNUMBER} - {TITLE}")
        #expect(result.status == 0, "\(result.standardError)")
        let file = try MediaFile(path: directory + "/Some Band/07 - A Song - Live.mp3")
        #expect(file.artist == "Some Band")
        #expect(file.title == "A Song - Live")
        // The number from the name; the total the file had stays.
        #expect(file.trackNumber == 7 && file.trackTotal == 12)
        let before = try TemporaryFile.read(directory + "/Other/no number.mp3")
        let mismatch = try await tagedit("from-name", directory + "/Other/no number.mp3", "--pattern", "{TRACKNUMBER} - {TITLE}")
        #expect(mismatch.status == 65)
        #expect(mismatch.standardError.contains("does not match the pattern"))
        #expect(try TemporaryFile.read(directory + "/Other/no number.mp3") == before)
        let huge = try library([("no-tags.mp3", "99999999999999999999 - Big.mp3")])
        let overflow = try await tagedit("from-name", huge + "/99999999999999999999 - Big.mp3", "--pattern", "{TRACKNUMBER} - {TITLE}")
        #expect(overflow.status == 65)
        #expect(overflow.standardError.contains("not a number up to 65535"))
    }

    @Test func pictureCommandsTakeSeveralFilesAndReplaceByType() async throws {
        let directory = try library([("no-tags.mp3", "a.mp3"), ("moov-before-mdat.m4a", "b.m4a")])
        let cover = try TemporaryFile.write(Array(Data(base64Encoded: "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AKp//2Q==")!), name: "cover.jpg")
        #expect(try await tagedit("picture", "add", "-r", directory, "--image", cover, "--description", "one").status == 0)
        #expect(try await tagedit("picture", "add", "-r", directory, "--image", cover, "--description", "two").status == 0)
        for name in ["a.mp3", "b.m4a"] {
            #expect(try MediaFile(path: directory + "/" + name).pictures.count == 2, "\(name): two front covers without --replace")
        }
        #expect(try await tagedit("picture", "add", "-r", directory, "--image", cover, "--replace").status == 0)
        for name in ["a.mp3", "b.m4a"] {
            #expect(try MediaFile(path: directory + "/" + name).pictures.count == 1, "\(name): --replace leaves one")
        }
        // MP4 cover art has no type: --replace with another type replaces it all.
        #expect(try await tagedit("picture", "add", directory + "/b.m4a", "--image", cover, "--type", "back-cover", "--replace").status == 0)
        #expect(try MediaFile(path: directory + "/b.m4a").pictures.count == 1)
        // The one-file form still works, and adds a second picture.
        #expect(try await tagedit("picture", "add", directory + "/a.mp3", cover, "--type", "back-cover").status == 0)
        #expect(try MediaFile(path: directory + "/a.mp3").pictures.map(\.typeName) == ["front-cover", "back-cover"])
        let output = try TemporaryFile.makeDirectory()
        let extracted = try await tagedit("picture", "extract", "-r", directory, "--output", output)
        #expect(extracted.status == 0)
        #expect(try names(in: output) == ["a-1-front-cover.jpg", "a-2-back-cover.jpg", "b-1-front-cover.jpg"])
        try Data("old".utf8).write(to: URL(fileURLWithPath: output + "/a-1-front-cover.jpg"))
        try FileManager.default.removeItem(atPath: output + "/a-2-back-cover.jpg")
        let again = try await tagedit("picture", "extract", directory + "/a.mp3", "--output", output)
        #expect(again.status == 73)
        #expect(again.standardError.contains("exists; --force overwrites it"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: output + "/a-1-front-cover.jpg")) == Data("old".utf8))
        // The file's other picture is still written (before 2026-11-30 the first refusal
        // ended the file), and its path printed.
        #expect(again.standardOutput == output + "/a-2-back-cover.jpg\n", "\(again.standardOutput)")
        #expect(FileManager.default.fileExists(atPath: output + "/a-2-back-cover.jpg"))
        #expect(try await tagedit("picture", "extract", directory + "/a.mp3", "--output", output, "--force").status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: output + "/a-1-front-cover.jpg")) == Data(TemporaryFile.read(cover)))
        // Two files of one name in different folders never overwrite each other's pictures.
        let twins = try library([("no-tags.mp3", "cd1/01.mp3"), ("no-tags.mp3", "cd2/01.mp3")])
        #expect(try await tagedit("picture", "add", "-r", twins, "--image", cover).status == 0)
        let clash = try await tagedit("picture", "extract", "-r", twins, "--output", twins, "--force")
        #expect(clash.status == 73)
        #expect(clash.standardError.contains("was written for another file of this run"))
        #expect(try await tagedit("picture", "remove", "-r", directory, "--type", "front-cover").status == 0)
        #expect(try MediaFile(path: directory + "/b.m4a").pictures.isEmpty)
    }
}
