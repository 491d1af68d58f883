import Foundation
import TestSupport
import Testing

/// `--dry-run` (and `--verbose`) show each key's old and new values, pictures and chapters
/// where they change, for every writing command; `--json` gives the same as data, and the file
/// is not touched (issue 35: before 2026-11-27 a dry run said only "would be written: in-place").
@Suite struct DryRunPreviewTests {
    func tagedit(_ arguments: String...) async throws -> ToolRunner.Result { try await ToolRunner.run("tagedit", arguments) }

    func copy(_ fixture: String) throws -> String {
        try TemporaryFile.write(try TemporaryFile.read(TestFixtures.path(fixture)), name: fixture)
    }

    @Test(arguments: ["id3v24-full.mp3", "aac-itunes-tags-cover.m4a", "flac-tags-picture.flac"])
    func aDryRunShowsOldAndNewValuesAndWritesNothing(_ fixture: String) async throws {
        let path = try copy(fixture)
        let before = try TemporaryFile.read(path)
        let title = try await tagedit("get", path, "TITLE").standardOutput.dropLast()
        let result = try await tagedit("set", path, "TITLE=New Title", "MOOD=Restless", "ALBUM=", "--dry-run")
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("\(path): would be written: ") == true, "\(result.standardOutput)")
        #expect(lines.contains("  TITLE: \"\(title)\" -> \"New Title\""), "\(result.standardOutput)")
        let mood = try await tagedit("get", path, "MOOD").standardOutput.dropLast()
        #expect(lines.contains("  MOOD: \(mood.isEmpty ? "(none)" : "\"\(mood)\"") -> \"Restless\""), "\(result.standardOutput)")
        #expect(lines.contains { $0.hasPrefix("  ALBUM: \"") && $0.hasSuffix("\" -> (none)") }, "\(result.standardOutput)")
        #expect(try TemporaryFile.read(path) == before, "a dry run wrote to the file")
    }

    @Test func jsonGivesTheSameAsDataForEveryFile() async throws {
        let a = try copy("id3v24-full.mp3"), b = try copy("no-tags.mp3")
        let result = try await tagedit("set", a, b, "TRACKNUMBER=4", "--dry-run", "--json")
        #expect(result.status == 0, "\(result.standardError)")
        let documents = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        #expect(documents.map { $0["path"] as? String } == [a, b])
        #expect(documents.allSatisfy { $0["written"] as? Bool == false && $0["changed"] as? Bool == true })
        let changes = documents.map { ($0["changes"] as? [[String: Any]]) ?? [] }
        #expect(changes[0].contains { $0["key"] as? String == "TRACKNUMBER" && $0["old"] as? [String] == ["3/12"] && $0["new"] as? [String] == ["4/12"] })
        #expect(changes[1].contains { $0["key"] as? String == "TRACKNUMBER" && ($0["old"] as? [String])?.isEmpty == true && $0["new"] as? [String] == ["4"] })
        // --json alone has nothing to show.
        #expect(try await tagedit("set", a, "TITLE=x", "--json").status == 64)
    }

    @Test func picturesAndChaptersArePreviewedToo() async throws {
        let path = try copy("audiobook-chapters.m4b")
        let image = try TemporaryFile.write([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 40), name: "c.png")
        let picture = try await tagedit("picture", "add", path, "--image", image, "--dry-run")
        #expect(picture.status == 0, "\(picture.standardError)")
        #expect(picture.standardOutput.contains("  pictures: ") && picture.standardOutput.contains("front-cover image/png 48 bytes"), "\(picture.standardOutput)")
        let chapters = try await tagedit("chapters", "remove", path, "--dry-run")
        #expect(chapters.status == 0, "\(chapters.standardError)")
        #expect(chapters.standardOutput.contains("  chapters: 3 -> 0"), "\(chapters.standardOutput)")
        // --verbose shows the same after a real write.
        let verbose = try await tagedit("set", path, "TITLE=Book", "-v")
        #expect(verbose.standardOutput.contains(": written: ") && verbose.standardOutput.contains("  TITLE: "), "\(verbose.standardOutput)")
    }
}

/// `--backup DIR` writes each file's export document before the file changes, and `import
/// --paths` applies documents to the files they name: an undo across a whole batch, and a
/// way to apply what `export -r` wrote (issue 35).
@Suite struct BackupAndBatchImportTests {
    func tagedit(_ arguments: String...) async throws -> ToolRunner.Result { try await ToolRunner.run("tagedit", arguments) }

    /// After the undo every file exports the same document as before the batch: the same
    /// native items, pictures and chapters (the bytes may differ in padding and order of
    /// rewriting, not in what any reader sees).
    @Test func aBackupUndoesABatch() async throws {
        let folder = try TemporaryFile.makeDirectory()
        let fixtures = ["id3v24-full.mp3", "aac-itunes-tags-cover.m4a", "flac-tags-picture.flac", "wav-id3-info.wav"]
        var documents: [String: String] = [:]
        for fixture in fixtures {
            let path = folder + "/music/" + fixture
            _ = PathNamesForTests.createFolder(folder + "/music")
            try Data(try TemporaryFile.read(TestFixtures.path(fixture))).write(to: URL(fileURLWithPath: path))
            documents[path] = try await tagedit("export", path).standardOutput
        }
        let backup = folder + "/backup"
        let set = try await tagedit("set", "-r", folder + "/music", "TITLE=Changed", "ARTIST=", "--backup", backup)
        #expect(set.status == 0, "\(set.standardError)")
        let names = try FileManager.default.contentsOfDirectory(atPath: backup).sorted()
        #expect(names.count == fixtures.count)
        #expect(names.allSatisfy { $0.hasPrefix("%2F") && $0.hasSuffix(".json") }, "\(names)")
        for path in documents.keys { #expect(try await tagedit("get", path, "TITLE").standardOutput == "Changed\n") }

        // A second run into the same folder keeps the first backups (the older state).
        let again = try await tagedit("set", "-r", folder + "/music", "TITLE=Twice", "--backup", backup)
        #expect(again.standardError.contains("a backup of it is already in"), "\(again.standardError)")

        let restore = try await ToolRunner.run("tagedit", ["import", "--paths"] + names.map { backup + "/" + $0 })
        #expect(restore.status == 0, "\(restore.standardError)")
        for (path, document) in documents {
            let restored = try await tagedit("export", path).standardOutput
            #expect(try Self.withoutID3v1(restored) == Self.withoutID3v1(document), "\(path) does not export as before")
            // The ID3v1 tag stays, refreshed from the restored ID3v2 tag (its fields mirror it).
            #expect(Self.id3v1Count(restored) == Self.id3v1Count(document), "\(path)")
        }
    }

    /// The export document with its ID3v1 items left out: a restore refreshes the ID3v1 tag
    /// from the restored ID3v2 tag, so a v1 tag that said something else is not restored.
    static func withoutID3v1(_ text: String) throws -> NSDictionary {
        var document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        document["items"] = (document["items"] as? [[String: Any]])?.filter { $0["keySpace"] as? String != "id3v1" }
        return document as NSDictionary
    }

    static func id3v1Count(_ text: String) -> Int {
        let document = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
        return ((document?["items"] as? [[String: Any]]) ?? []).filter { $0["keySpace"] as? String == "id3v1" }.count
    }

    /// `clear` strips the ID3v1 tag too; the undo puts it back (holding what the restored
    /// ID3v2 tag says). Before 2026-11-30 the restored file had no ID3v1 tag.
    @Test func undoingAClearBringsTheID3v1TagBack() async throws {
        let folder = try TemporaryFile.makeDirectory()
        let path = folder + "/u.mp3"
        try Data(try TemporaryFile.read(TestFixtures.path("id3v24-full.mp3"))).write(to: URL(fileURLWithPath: path))
        let before = try await tagedit("export", path).standardOutput
        #expect(Self.id3v1Count(before) == 7)
        #expect(try await tagedit("clear", path, "--backup", folder + "/backup").status == 0)
        #expect(Self.id3v1Count(try await tagedit("export", path).standardOutput) == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/backup")
        let restore = try await ToolRunner.run("tagedit", ["import", "--paths"] + names.map { folder + "/backup/" + $0 })
        #expect(restore.status == 0, "\(restore.standardError)")
        let after = try await tagedit("export", path).standardOutput
        #expect(Self.id3v1Count(after) == 7)
        #expect(try Self.withoutID3v1(after) == Self.withoutID3v1(before))
    }

    /// A file whose name is not UTF-8: its document names it by its bytes (`pathBytes`), so
    /// the undo edits that file, not one whose name is the shown form (`bad\xff.mp3` as text).
    /// Before 2026-11-30 the undo failed ("no such file"), or edited the other file.
    @Test func aBackupOfANameThatIsNotUTF8RestoresThatFile() async throws {
        let folder = try TemporaryFile.makeDirectory()
        let raw = Array((folder + "/bad").utf8) + [0xFF] + Array(".mp3".utf8)
        let lookalike = folder + "/bad\\xff.mp3"
        func write(_ fixture: String, to bytes: [UInt8]) throws {
            let fd = (bytes + [0]).withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
            #expect(fd >= 0)
            let data = try TemporaryFile.read(TestFixtures.path(fixture))
            #expect(data.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) } == data.count)
            close(fd)
        }
        try write("id3v24-full.mp3", to: raw)
        // The tools take their arguments as bytes: a shell gives them the byte 0xFF.
        func shell(_ command: String) async throws -> ToolRunner.Result {
            try await ToolRunner.runProgram("/bin/sh", ["-c", command], environment: ["T": ToolRunner.productsDirectory + "/tagedit", "D": folder])
        }
        #expect(try await shell("\"$T\" set \"$D/bad$(printf '\\377').mp3\" TITLE=Changed --backup \"$D/backup\"").status == 0)
        try write("no-tags.mp3", to: Array(lookalike.utf8))
        // (The backup's name holds the byte too: read and named through the shell.)
        let document = try await shell("cat \"$D\"/backup/*.json")
        #expect(document.standardOutput.contains("\"pathBytes\""), "\(document.standardOutput)")
        let restore = try await shell("\"$T\" import --paths \"$D\"/backup/*.json")
        #expect(restore.status == 0, "\(restore.standardError)")
        let restored = try await shell("\"$T\" get \"$D/bad$(printf '\\377').mp3\" TITLE")
        #expect(restored.standardOutput == "Fixture Title ♪\n", "\(restored.standardError)")
        #expect(try await tagedit("get", lookalike, "TITLE").status == 1, "the look-alike file was edited")
    }

    /// An undo puts the chapters back in the forms the file had: an M4B with only Nero
    /// chapters gets no chapter track (before 2026-11-30 it got one, with an untitled chapter).
    @Test func anUndoRestoresTheChapterFormsTheFileHad() async throws {
        let folder = try TemporaryFile.makeDirectory()
        let path = folder + "/book.m4b"
        try Data(try TemporaryFile.read(TestFixtures.path("audiobook-chapters.m4b"))).write(to: URL(fileURLWithPath: path))
        #expect(try await tagedit("chapters", "convert", path, "--to", "nero").status == 0)
        let before = try await tagedit("chapters", "list", path).standardOutput
        #expect(before.contains("form nero") && !before.contains("form qt"), "\(before)")
        #expect(try await tagedit("clear", path, "--backup", folder + "/backup").status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/backup")
        let restore = try await ToolRunner.run("tagedit", ["import", "--paths"] + names.map { folder + "/backup/" + $0 })
        #expect(restore.status == 0, "\(restore.standardError)")
        let after = try await tagedit("chapters", "list", path).standardOutput
        #expect(after.contains("form nero: 3 chapters") && !after.contains("form qt"), "\(after)")
    }

    /// A file's own export imported again changes nothing: its chapters are already so (before
    /// 2026-11-30 the chapter track was written anew each time, and the file grew).
    @Test func importingAFilesOwnExportLeavesItsChapters() async throws {
        let folder = try TemporaryFile.makeDirectory()
        let path = folder + "/book.m4b", document = folder + "/book.json"
        try Data(try TemporaryFile.read(TestFixtures.path("audiobook-chapters.m4b"))).write(to: URL(fileURLWithPath: path))
        #expect(try await tagedit("export", path, "--output", document).status == 0)
        let before = try TemporaryFile.read(path)
        let result = try await tagedit("import", path, document, "-v")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardOutput.contains("chapter track"), "\(result.standardOutput)")
        #expect(try TemporaryFile.read(path) == before)
    }

    @Test func importByPathTakesWhatExportRecursiveWrote() async throws {
        let folder = try TemporaryFile.makeDirectory()
        let a = folder + "/a.mp3", b = folder + "/b.m4a"
        try Data(try TemporaryFile.read(TestFixtures.path("id3v24-full.mp3"))).write(to: URL(fileURLWithPath: a))
        try Data(try TemporaryFile.read(TestFixtures.path("aac-itunes-tags-cover.m4a"))).write(to: URL(fileURLWithPath: b))
        let document = folder + "/all.json"
        let genre = try await tagedit("get", b, "GENRE").standardOutput
        #expect(!genre.isEmpty && genre != "Noise\n")
        #expect(try await tagedit("export", "-r", folder, "--output", document).status == 0)
        #expect(try await tagedit("set", a, b, "TITLE=Gone", "GENRE=Noise").status == 0)
        let result = try await tagedit("import", "--paths", document)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try await tagedit("get", a, "TITLE").standardOutput == "Fixture Title ♪\n")
        #expect(try await tagedit("get", b, "GENRE").standardOutput == genre)
        // An array given for one file is refused: it applies by path.
        let one = try await tagedit("import", a, document)
        #expect(one.status == 65 && one.standardError.contains("apply an array by path with --paths"), "\(one.standardError)")
    }
}

enum PathNamesForTests {
    static func createFolder(_ path: String) -> Bool {
        (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)) != nil
    }
}

/// `show --tsv` edited in a spreadsheet and saved as TSV or CSV comes back with `import
/// --paths`: a column per key, a row per file, an empty cell removing the key (issue 35).
@Suite struct TableImportTests {
    func tagedit(_ arguments: String...) async throws -> ToolRunner.Result { try await ToolRunner.run("tagedit", arguments) }

    @Test func aTSVFromShowRoundTripsAndAppliesEdits() async throws {
        let folder = try TemporaryFile.makeDirectory()
        let a = folder + "/a.mp3", b = folder + "/b.m4a"
        try Data(try TemporaryFile.read(TestFixtures.path("id3v24-full.mp3"))).write(to: URL(fileURLWithPath: a))
        try Data(try TemporaryFile.read(TestFixtures.path("aac-itunes-tags-cover.m4a"))).write(to: URL(fileURLWithPath: b))
        let table = try await tagedit("show", "--tsv", "--keys", "TITLE,ARTIST,COMMENT,GENRE", a, b)
        #expect(table.status == 0)
        // The table as it was changes nothing.
        let unchanged = try TemporaryFile.write(Array(table.standardOutput.utf8), name: "same.tsv")
        let same = try await tagedit("import", "--paths", unchanged)
        #expect(same.status == 0 && same.standardError.contains("0 files changed"), "\(same.standardError)")
        // Edited: a new title with a tab in it, two artists, a removed genre.
        var lines = table.standardOutput.split(separator: "\n").map(String.init)
        var cells = lines[1].split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        cells[1] = "New\\tTitle"
        cells[2] = "One; Two"
        cells[4] = ""
        lines[1] = cells.joined(separator: "\t")
        let edited = try TemporaryFile.write(Array((lines.joined(separator: "\n") + "\n").utf8), name: "edited.tsv")
        let result = try await tagedit("import", "--paths", edited)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try await tagedit("get", a, "TITLE").standardOutput == "New\tTitle\n")
        #expect(try await tagedit("get", a, "ARTIST").standardOutput == "One\nTwo\n")
        #expect(try await tagedit("get", a, "GENRE").status == 1)
        #expect(try await tagedit("get", b, "TITLE").standardOutput == "Fixture Title\n")
    }

    /// A value holding "; " (the separator of a cell's values) comes back whole: the table
    /// writes it `\\; `. Before 2026-11-30 an unchanged table split "Love; Actually" in two.
    @Test func aValueHoldingTheSeparatorRoundTrips() async throws {
        let path = try TemporaryFile.write(try TemporaryFile.read(TestFixtures.path("no-tags.mp3")), name: "s.mp3")
        #expect(try await tagedit("set", path, "TITLE=Love; Actually", "ARTIST=A\\B; C", "ARTIST=D").status == 0)
        let table = try await tagedit("show", "--tsv", "--keys", "TITLE,ARTIST", path)
        #expect(table.standardOutput.contains("Love\\; Actually\tA\\\\B\\; C; D"), "\(table.standardOutput)")
        let document = try TemporaryFile.write(Array(table.standardOutput.utf8), name: "same.tsv")
        let same = try await tagedit("import", "--paths", document, "-v")
        #expect(same.status == 0 && same.standardOutput.contains("written: unchanged"), "\(same.standardOutput)")
        #expect(try await tagedit("get", path, "TITLE").standardOutput == "Love; Actually\n")
        #expect(try await tagedit("get", path, "ARTIST").standardOutput == "A\\B; C\nD\n")
    }

    @Test func aCSVWithQuotedCellsApplies() async throws {
        let path = try TemporaryFile.write(try TemporaryFile.read(TestFixtures.path("no-tags.mp3")), name: "c.mp3")
        let csv = "path,TITLE,COMMENT\r\n\"\(path)\",\"Hello, \"\"World\"\"\",\"two\nlines\"\r\n"
        let document = try TemporaryFile.write(Array(csv.utf8), name: "table.csv")
        let result = try await tagedit("import", "--paths", document)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try await tagedit("get", path, "TITLE").standardOutput == "Hello, \"World\"\n")
        #expect(try await tagedit("get", path, "COMMENT").standardOutput == "two\nlines\n")
        let bad = try TemporaryFile.write(Array("path,TITLE\n\(path),a,b\n".utf8), name: "bad.csv")
        let refused = try await tagedit("import", "--paths", bad)
        #expect(refused.status == 65 && refused.standardError.contains("line 2: 3 cells where the header has 2"), "\(refused.standardError)")
    }
}
