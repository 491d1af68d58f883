import Foundation
import MediaBytes
import TagLibOracle
import TestSupport
import Testing

/// Runs the built `tagedit` and checks its output, exit codes and the files it writes.
@Suite struct TagEditTests {
    func tagedit(_ arguments: String...) async throws -> ToolRunner.Result {
        try await ToolRunner.run("tagedit", arguments)
    }

    func copy(_ fixture: String) throws -> String {
        try TemporaryFile.write(TemporaryFile.read(TestFixtures.path(fixture)), name: fixture)
    }

    @Test func bothToolsPrintOneVersionAndHelpListsEveryExitCode() async throws {
        let tagedit = try await tagedit("--version")
        let atominspect = try await ToolRunner.run("atominspect", ["--version"])
        #expect(tagedit.status == 0 && atominspect.status == 0)
        #expect(tagedit.standardOutput == atominspect.standardOutput)
        #expect(tagedit.standardOutput.split(separator: ".").count == 3)
        let help = try await self.tagedit("--help").standardOutput.replacingOccurrences(of: "\n", with: " ")
        for code in ["0 success", "1 get found no value", "64 usage", "65 unknown key", "66 file not found", "67 unsupported", "68 damaged", "73 read-only", "74 I/O", "75 another program"] {
            #expect(help.contains(code), "\(code)")
        }
    }

    /// `--jobs` defaults to the processors of the machine the tool runs on, so its help (and the
    /// man page made from it at install time) names no number of the machine that built it.
    @Test func theJobsHelpNamesNoMachinesProcessorCount() async throws {
        for command in [["show"], ["set"], ["export"], ["rename"], ["chapters", "list"], ["timed"]] {
            let squeezed = try await ToolRunner.run("tagedit", command + ["--help"]).standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(squeezed.contains("--jobs <jobs>"), "\(command)")
            #expect(squeezed.contains("(default: the number of processors"), "\(command)")
            #expect(!squeezed.contains("(default: \(ProcessInfo.processInfo.activeProcessorCount))"), "\(command)")
        }
        let check = try await ToolRunner.run("atominspect", ["check", "--help"]).standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(check.contains("(default: the number of processors"))
        #expect(!check.contains("(default: \(ProcessInfo.processInfo.activeProcessorCount))"))
    }

    @Test func aJobCountBelowOneIsAUsageError() async throws {
        let result = try await tagedit("show", "--jobs", "0", "x.mp3")
        #expect(result.status == 64)
        #expect(result.standardError.contains("--jobs is at least 1"))
    }

    @Test func aDirectoryWithoutRecursiveSaysToAddIt() async throws {
        let directory = (try copy("no-tags.mp3") as NSString).deletingLastPathComponent
        let result = try await tagedit("show", directory)
        #expect(result.status == 67)
        #expect(result.standardError == "tagedit: \(directory): is a directory; add -r (--recursive) to work on the media files in it\n")
        #expect(try await tagedit("show", "-r", directory).status == 0)
    }

    /// A value or description that starts with a combining mark: `=` or `:` followed by the
    /// mark is one Character, and the assignment is still split at the `=`, the key at the `:`.
    @Test func anAssignmentWhoseValueStartsWithACombiningMarkIsSplitAtItsEqualsSign() async throws {
        let path = try copy("id3v24-full.mp3")
        var result = try await tagedit("set", path, "TITLE=\u{301}x", "COMMENT:\u{655}d=\u{301}c")
        #expect(result.status == 0, "\(result.standardError)")
        result = try await tagedit("get", path, "TITLE")
        #expect(result.standardOutput == "\u{301}x\n")
        result = try await tagedit("get", path, "COMMENT:\u{655}D")
        #expect(result.standardOutput == "\u{301}c\n")
        let frames = try TagLibReading.read(path)?.properties
        #expect(frames?["COMMENT:\u{655}D"] == ["\u{301}c"])
    }

    @Test func getOverSeveralFilesNamesEachFile() async throws {
        let one = try copy("id3v24-full.mp3")
        let two = try copy("aac-itunes-tags-cover.m4a")
        let none = try copy("no-tags.mp3")
        var result = try await tagedit("get", one, two, "ALBUM")
        #expect(result.status == 0, "\(result.standardError)")
        let albums = try await [tagedit("get", one, "ALBUM").standardOutput, tagedit("get", two, "ALBUM").standardOutput]
        #expect(result.standardOutput == "\(one): \(albums[0])\(two): \(albums[1])")
        // A file without the key: the others are printed, the exit code is 1.
        result = try await tagedit("get", one, none, "ALBUM")
        #expect(result.status == 1)
        #expect(result.standardOutput == "\(one): \(albums[0])")
        result = try await tagedit("get", "--json", one, none, "ALBUM")
        #expect(result.status == 1)
        let documents = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        #expect(documents.map { $0["path"] as? String } == [one, none])
        #expect(documents.first?["values"] as? [String] == [String(albums[0].dropLast())])
        #expect(documents.last?["values"] is NSNull)
    }

    @Test func convertRewritesTagsInTheVersionAskedFor() async throws {
        let path = try copy("id3v24-full.mp3")
        #expect(try TemporaryFile.read(path)[3] == 4)
        let title = try await tagedit("get", path, "TITLE").standardOutput
        var result = try await tagedit("convert", path, "--id3v2-version", "3")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("RVA2 dropped"))
        #expect(try TemporaryFile.read(path)[3] == 3)
        #expect(try await tagedit("get", path, "TITLE").standardOutput == title)
        // Already version 3: nothing is written.
        let before = try TemporaryFile.read(path)
        result = try await tagedit("convert", path, "--id3v2-version", "3", "-v")
        #expect(result.standardOutput.contains("unchanged"))
        #expect(try TemporaryFile.read(path) == before)
        // Without a version: a usage error.
        #expect(try await tagedit("convert", path).status == 64)
    }

    /// Line breaks in a value: `show` keeps each value on its line (LF, CR and CR LF written as
    /// `\n`, `\r`, `\r\n`) and prints no control character a terminal would act on (a tab
    /// `\t`, other C0 controls and DEL `\xHH`, C1 controls `\u{HH}`: before 2026-11-30 an
    /// escape sequence in a tag recoloured the terminal); `show --json` escapes them and
    /// quotes, backslashes and control characters so the value reads back exactly.
    @Test func lineBreaksAndEscapesInValuesAreWrittenOnOneLineAndReadBackFromJSON() async throws {
        let path = try copy("aac-itunes-tags-cover.m4a")
        let value = "one\r\ntwo\nthree\rfour \"q\" \\ \u{1}end é\t\u{1B}[31mred\u{7F}\u{97}"
        #expect(try await tagedit("set", path, "COMMENT=\(value)").status == 0)
        let text = try await tagedit("show", path).standardOutput
        #expect(text.contains("one\\r\\ntwo\\nthree\\rfour \"q\" \\ \\x01end é\\t\\x1B[31mred\\x7F\\u{97}\n"), "\(text)")
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) })
        #expect(text.unicodeScalars.split(separator: "\n").count == (try await tagedit("show", TestFixtures.path("aac-itunes-tags-cover.m4a")).standardOutput).unicodeScalars.split(separator: "\n").count)
        let json = try await tagedit("show", "--json", path).standardOutput
        #expect(json.contains("one\\r\\ntwo\\nthree\\rfour \\\"q\\\" \\\\ \\u0001end é\\t\\u001b[31mred"), "\(json)")
        let documents = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect((documents.first?["tags"] as? [String: [String]])?["COMMENT"] == [value])
    }

    @Test func showJSONFollowsThePinnedShape() async throws {
        let missing = "/nonexistent/gone.mp3"
        let result = try await tagedit("show", "--json", TestFixtures.path("aac-itunes-tags-cover.m4a"), TestFixtures.path("id3v24-full.mp3"), missing)
        #expect(result.status == 66)
        let documents = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        #expect(documents.count == 3)
        let m4a = documents[0]
        #expect(Set(m4a.keys) == ["path", "format", "audio", "video", "tags", "items", "pictures", "chapters", "diagnostics"])
        #expect((m4a["diagnostics"] as? [Any])?.isEmpty == true)
        #expect(m4a["format"] as? String == "mp4")
        #expect((m4a["tags"] as? [String: [String]])?["TITLE"] == ["Fixture Title"])
        let items = try #require(m4a["items"] as? [[String: Any]])
        let title = try #require(items.first { $0["identifier"] as? String == "itsk/%A9nam" })
        #expect(title["keySpace"] as? String == "itsk")
        #expect(title["nativeKey"] as? String == "©nam")
        #expect(title["key"] as? String == "TITLE")
        #expect(title["dataType"] as? String == "utf8")
        #expect(title["value"] as? [String] == ["Fixture Title"])
        let pictures = try #require(m4a["pictures"] as? [[String: Any]])
        #expect(pictures.first?["type"] as? String == "front-cover")
        // Described from the summaries: no digest unless --digests asks for one.
        #expect(pictures.allSatisfy { Set($0.keys) == ["type", "mimeType", "description", "size"] })
        let mp3 = documents[1]
        let chapters = try #require(mp3["chapters"] as? [[String: Any]])
        #expect(chapters.first?["title"] as? String == "Chapter 1")
        #expect(chapters.first?["end"] as? Double == 0.25)
        #expect(documents[2]["path"] as? String == missing)
        #expect((documents[2]["error"] as? String)?.isEmpty == false)
    }

    /// `show --json --digests` adds each picture's SHA-256 after its `size`: that of the bytes
    /// `picture extract` writes, as coreutils' `sha256sum` computes it. Without the flag the
    /// document is the same less those members.
    @Test func showJSONDigestsArePicturesSHA256() async throws {
        let path = TestFixtures.path("aac-itunes-tags-cover.m4a")
        let result = try await tagedit("show", "--json", "--digests", path)
        #expect(result.status == 0, "\(result.standardError)")
        let documents = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        let pictures = try #require(documents.first?["pictures"] as? [[String: Any]])
        let directory = try TemporaryFile.makeDirectory()
        let extracted = try await tagedit("picture", "extract", path, "--output", directory)
        let files = extracted.standardOutput.split(separator: "\n").map(String.init)
        #expect(files.count == 2 && pictures.count == 2)
        let sums = try await ToolRunner.runProgram("/usr/bin/sha256sum", files)
        #expect(sums.status == 0)
        #expect(pictures.map { $0["sha256"] as? String } == sums.standardOutput.split(separator: "\n").map { String($0.prefix(64)) })
        // Line by line: each digest follows its picture's size; without it, the size ends the object.
        var lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var digests = 0
        for index in lines.indices.reversed() where lines[index].trimmingCharacters(in: .whitespaces).hasPrefix("\"sha256\": ") {
            #expect(lines[index - 1].trimmingCharacters(in: .whitespaces).hasPrefix("\"size\": ") && lines[index - 1].hasSuffix(","))
            lines[index - 1].removeLast()
            lines.remove(at: index)
            digests += 1
        }
        #expect(digests == 2)
        #expect(try await tagedit("show", "--json", path).standardOutput == lines.joined(separator: "\n"))
        // It adds to --json only.
        #expect(try await tagedit("show", "--digests", path).status == 64)
    }

    @Test func problemsReadLenientlyAreWarningsAndFailWithStrict() async throws {
        // The title frame claims more bytes than the tag has: TagLib and mutagen read nothing
        // from it; the file still opens, and says so.
        var frame = ID3Builder.frame("TIT2", ID3Builder.text(["Title"]))
        frame[7] = 0x7F
        let tag = ID3Builder.tag(frames: [ID3Builder.frame("TPE1", ID3Builder.text(["Artist"])), frame])
        let path = try TemporaryFile.write(tag + ID3Builder.mp3Frame() + ID3Builder.mp3Frame(), name: "broken.mp3")
        var result = try await tagedit("show", path)
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("Artist"))
        #expect(result.standardError.contains("tagedit: \(path): warning: at byte offset 27 (ID3v2/TIT2): frame TIT2 declares"))
        result = try await tagedit("get", path, "ARTIST")
        #expect(result.status == 0)
        #expect(result.standardOutput == "Artist\n")
        #expect(result.standardError.contains("warning: at byte offset 27 (ID3v2/TIT2)"))
        result = try await tagedit("show", "--strict", path)
        #expect(result.status == 68)
        result = try await tagedit("get", "--strict", path, "ARTIST")
        #expect(result.status == 68)
        result = try await tagedit("show", "--json", path)
        #expect(result.status == 0)
        let documents = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        let diagnostic = try #require((documents.first?["diagnostics"] as? [[String: Any]])?.first)
        #expect(diagnostic["severity"] as? String == "warning")
        #expect(diagnostic["offset"] as? Int == 27)
        #expect(diagnostic["path"] as? String == "ID3v2/TIT2")
        #expect(diagnostic["code"] as? String == "invalidFrameSize")
        #expect((diagnostic["message"] as? String)?.contains("TIT2") == true)
    }

    @Test func bothToolsGiveADiagnosticInOneShape() async throws {
        // One diagnostic type from the readers up: the same problem is the same JSON object in
        // `tagedit show --json` and `atominspect --json`, and the same line on standard error
        // (`atominspect` prints it there from its text view).
        var frame = ID3Builder.frame("TIT2", ID3Builder.text(["Title"]))
        frame[7] = 0x7F
        let tag = ID3Builder.tag(frames: [ID3Builder.frame("TPE1", ID3Builder.text(["Artist"])), frame])
        let path = try TemporaryFile.write(tag + ID3Builder.mp3Frame() + ID3Builder.mp3Frame(), name: "broken.mp3")
        func diagnostics(_ json: String, inArray: Bool) throws -> [NSDictionary] {
            let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
            let document = inArray ? (object as? [[String: Any]])?.first : object as? [String: Any]
            return try #require(document?["diagnostics"] as? [NSDictionary])
        }
        let shown = try await tagedit("show", "--json", path)
        let inspected = try await ToolRunner.run("atominspect", ["--json", path])
        #expect(shown.status == 0 && inspected.status == 0)
        let fromTagedit = try diagnostics(shown.standardOutput, inArray: true)
        let fromAtominspect = try diagnostics(inspected.standardOutput, inArray: false)
        #expect(!fromTagedit.isEmpty)
        #expect(fromTagedit == fromAtominspect)
        #expect(fromTagedit.allSatisfy { ($0.allKeys as? [String]).map(Set.init) == ["severity", "code", "offset", "path", "message"] })
        let line = "warning: at byte offset 27 (ID3v2/TIT2): frame TIT2 declares"
        let tree = try await ToolRunner.run("atominspect", [path])
        #expect(shown.standardError.contains("tagedit: \(path): " + line), "\(shown.standardError)")
        #expect(tree.standardError.contains("atominspect: \(path): " + line), "\(tree.standardError)")
    }

    @Test func aDamagedMP3IsRefusedForWritingWithItsOffsetAndPlace() async throws {
        var frame = ID3Builder.frame("TIT2", ID3Builder.text(["Title"]))
        frame[7] = 0x7F
        let bytes = ID3Builder.tag(frames: [ID3Builder.frame("TPE1", ID3Builder.text(["Artist"])), frame]) + ID3Builder.mp3Frame() + ID3Builder.mp3Frame()
        let path = try TemporaryFile.write(bytes, name: "broken.mp3")
        let result = try await tagedit("set", path, "TITLE=New")
        #expect(result.status == 68)
        #expect(result.standardError.contains("\(path): at byte offset 27 (ID3v2/TIT2): frame TIT2 declares"))
        #expect(try TemporaryFile.read(path) == bytes)
    }

    @Test func setAndImportRefuseAnUnknownKeyAlike() async throws {
        let path = try copy("id3v24-full.mp3")
        let before = try TemporaryFile.read(path)
        var result = try await tagedit("set", path, "TITEL=x")
        #expect(result.status == 65)
        #expect(result.standardError.contains("unknown key \"TITEL\""))
        let document = try TemporaryFile.write(Array(#"{"tags": {"TITLE": ["ok"], "TITEL": ["x"]}}"#.utf8), name: "doc.json")
        result = try await tagedit("import", path, document)
        #expect(result.status == 65)
        #expect(result.standardError.contains("unknown key \"TITEL\""))
        #expect(try TemporaryFile.read(path) == before)
    }

    @Test func customKeysMigrateThroughExportAndImport() async throws {
        let mp3 = try copy("no-tags.mp3")
        var result = try await tagedit("set", mp3, "CUSTOM:Session=Take 3")
        #expect(result.status == 0, "\(result.standardError)")
        let document = try TemporaryFile.makeDirectory() + "/export.json"
        result = try await tagedit("export", mp3, "--output", document)
        #expect(result.status == 0)
        let m4a = try copy("moov-before-mdat.m4a")
        result = try await tagedit("import", m4a, document)
        #expect(result.status == 0, "\(result.standardError)")
        result = try await tagedit("get", m4a, "itlk/com.apple.iTunes:Session")
        #expect(result.standardOutput == "Take 3\n")
    }

    @Test func setThenGetAndRemove() async throws {
        let path = try copy("id3v23-utf16.mp3")
        var result = try await tagedit("set", path, "TITLE=Über", "ARTIST=A", "ARTIST=B", "TRACKNUMBER=2/9")
        #expect(result.status == 0, "\(result.standardError)")
        result = try await tagedit("get", path, "title")
        #expect(result.standardOutput == "Über\n")
        result = try await tagedit("get", path, "common/artist")
        // ID3v2.3 holds one string per text frame: the two artists are joined (and a note says so).
        #expect(result.standardOutput == "A / B\n")
        result = try await tagedit("get", path, "id3/TRCK")
        #expect(result.standardOutput == "2/9\n")
        result = try await tagedit("remove", path, "TITLE")
        #expect(result.status == 0)
        result = try await tagedit("get", path, "TITLE")
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
    }

    @Test func errorsHaveDocumentedExitCodesAndLeaveTheFileUnchanged() async throws {
        let path = try copy("aac-itunes-tags-cover.m4a")
        let original = try TemporaryFile.read(path)
        var result = try await tagedit("set", path, "TITEL=x")
        #expect(result.status == 65)
        #expect(result.standardError.contains("unknown key"))
        result = try await tagedit("set", path, "TRACKNUMBER=abc")
        #expect(result.status == 65)
        #expect(result.standardError.split(separator: "\n").first?.contains("TRACKNUMBER=abc") == true)
        result = try await tagedit("set", "/nonexistent/x.m4a", "TITLE=x")
        #expect(result.status == 66)
        let text = try TemporaryFile.write(Array("plain text\n".utf8), name: "notes.txt")
        result = try await tagedit("set", text, "TITLE=x")
        #expect(result.status == 67)
        chmod(path, 0o444)
        result = try await tagedit("set", path, "TITLE=x")
        chmod(path, 0o644)
        #expect(result.status == 73)
        #expect(result.standardError.contains("read-only"))
        #expect(try TemporaryFile.read(path) == original)
    }

    @Test func dryRunPrintsThePlanAndWritesNothing() async throws {
        let path = try copy("moov-after-mdat.m4a")
        let original = try TemporaryFile.read(path)
        let result = try await tagedit("set", "--dry-run", path, "TITLE=Planned")
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("would be written"))
        #expect(try TemporaryFile.read(path) == original)
    }

    @Test func outputWritesANewFileAndLeavesTheSource() async throws {
        let path = try copy("id3v24-full.mp3")
        let original = try TemporaryFile.read(path)
        let output = path + ".new.mp3"
        let result = try await tagedit("set", "--output", output, "--id3v2-version", "3", path, "TITLE=Copy")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try TemporaryFile.read(path) == original)
        #expect(TagLibReading.read(output)?.properties["TITLE"] == ["Copy"])
        #expect(TagLibReading.read(output)?.id3v2Version == 3)
    }

    @Test func recursiveRunsSummariseChangedUnchangedAndFailed() async throws {
        let directory = try TemporaryFile.makeDirectory()
        try FileManager.default.createDirectory(atPath: directory + "/sub", withIntermediateDirectories: true)
        for (name, target) in [("no-tags.mp3", "a.mp3"), ("moov-before-mdat.m4a", "sub/b.m4a"), ("wav-id3-info.wav", "sub/c.wav")] {
            try Data(TemporaryFile.read(TestFixtures.path(name))).write(to: URL(fileURLWithPath: directory + "/" + target))
        }
        try Data([0x00, 0x01, 0x02]).write(to: URL(fileURLWithPath: directory + "/sub/broken.mp3"))
        var result = try await tagedit("set", "--recursive", directory, "ALBUM=Batch")
        #expect(result.status == 67)
        #expect(result.standardError.contains("3 files changed, 0 unchanged, 1 failed"))
        result = try await tagedit("set", "-r", directory, "ALBUM=Batch")
        #expect(result.standardError.contains("0 files changed, 3 unchanged, 1 failed"))
        for file in ["a.mp3", "sub/b.m4a", "sub/c.wav"] {
            #expect(TagLibReading.read(directory + "/" + file)?.properties["ALBUM"] == ["Batch"], "\(file)")
        }
    }

    @Test func picturesAreAddedExtractedAndRemoved() async throws {
        let path = try copy("no-tags.mp3")
        let image = try TemporaryFile.write([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 1, count: 32), name: "cover.png")
        var result = try await tagedit("picture", "add", path, image, "--type", "back-cover", "--description", "Back")
        #expect(result.status == 0, "\(result.standardError)")
        let directory = try TemporaryFile.makeDirectory()
        result = try await tagedit("picture", "extract", path, "--output", directory)
        let extracted = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(extracted.count == 1)
        #expect(extracted.first?.hasSuffix("-back-cover.png") == true)
        #expect(try TemporaryFile.read(extracted[0]) == TemporaryFile.read(image))
        result = try await tagedit("picture", "remove", path, "--type", "back-cover")
        #expect(result.status == 0)
        result = try await tagedit("show", "--json", path)
        #expect(result.standardOutput.contains("\"pictures\": []"))
    }

    @Test func exportThenImportOntoACopyGivesIdenticalMetadata() async throws {
        for fixture in ["aac-itunes-tags-cover.m4a", "id3v24-full.mp3", "wav-id3-info.wav"] {
            let source = TestFixtures.path(fixture)
            let document = try TemporaryFile.makeDirectory() + "/export.json"
            var result = try await tagedit("export", source, "--output", document)
            #expect(result.status == 0)
            let target = try copy(fixture)
            result = try await tagedit("clear", target)
            #expect(result.status == 0)
            result = try await tagedit("import", target, document)
            #expect(result.status == 0, "\(result.standardError)")
            let before = try await tagedit("show", "--json", "--native", source)
            let after = try await tagedit("show", "--json", "--native", target)
            func comparable(_ text: String) throws -> [String: NSObject] {
                var object = try #require((try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])?.first)
                object["path"] = nil
                // ID3v1 is refreshed from the restored ID3v2 tag by the save.
                object["items"] = (object["items"] as? [[String: Any]])?.filter { $0["keySpace"] as? String != "id3v1" }
                return object.mapValues { $0 as! NSObject }
            }
            #expect(try comparable(before.standardOutput) == comparable(after.standardOutput), "\(fixture)")
        }
    }

    /// Several files (or a folder with -r) export as one array of the single-file documents,
    /// in order, on any number of jobs; a file that cannot be read is an error element.
    @Test func exportOfSeveralFilesIsAnArrayOfTheirDocuments() async throws {
        let fixtures = ["aac-itunes-tags-cover.m4a", "id3v24-full.mp3", "wav-id3-info.wav"]
        let folder = try TemporaryFile.makeDirectory()
        var singles: [NSObject] = []
        for (index, fixture) in fixtures.enumerated() {
            let path = folder + "/\(index)-" + fixture
            try Data(try TemporaryFile.read(TestFixtures.path(fixture))).write(to: URL(fileURLWithPath: path))
            let single = try await tagedit("export", path)
            #expect(single.status == 0)
            singles.append(try JSONSerialization.jsonObject(with: Data(single.standardOutput.utf8)) as! NSObject)
        }
        for jobs in ["1", "3"] {
            let result = try await tagedit("export", "-r", folder, "--jobs", jobs)
            #expect(result.status == 0, "\(result.standardError)")
            let array = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [NSObject])
            #expect(array == singles)
        }
        let output = folder + "/all.json"
        let missing = folder + "/missing.mp3"
        let result = try await tagedit("export", folder + "/1-id3v24-full.mp3", missing, "--output", output)
        #expect(result.status == 66)
        #expect(result.standardOutput.isEmpty)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(try TemporaryFile.read(output))) as? [[String: Any]])
        #expect(array.count == 2)
        #expect((array[0] as NSObject) == singles[1])
        #expect(array[1]["path"] as? String == missing && array[1]["error"] != nil)
        // Written beside the target and renamed: nothing is left over.
        #expect(!FileManager.default.fileExists(atPath: folder + "/.all.json.partial"))
    }

    /// A file cut short inside its ID3v2 tag: the refusal names where the file ends, not the
    /// offset the tag's size points to (before 2026-11-30: "at byte offset 2758" for an
    /// 11-byte file).
    @Test func aFileCutInsideItsTagIsRefusedAtItsEnd() async throws {
        let whole = try TemporaryFile.read(TestFixtures.path("id3v24-full.mp3"))
        let path = try TemporaryFile.write(Array(whole.prefix(11)), name: "cut.mp3")
        let result = try await tagedit("set", path, "TITLE=x")
        #expect(result.status == 68, "\(result.standardError)")
        #expect(result.standardError.contains("at byte offset 11") && result.standardError.contains("the file ends at byte 11, inside the tags"), "\(result.standardError)")
        #expect(try TemporaryFile.read(path) == Array(whole.prefix(11)))
    }

    /// `--output` naming the input file or a folder is a usage error (64), as in atominspect,
    /// found before anything is read; a bad number is refused as typed. Before 2026-11-30 they
    /// exited 65 and 74, and `TRACKNUMBER=abc` on a file at 3/12 was refused as "abc/12".
    @Test func badOutputsAndNumbersAreRefusedAsTheUserGaveThem() async throws {
        let path = try copy("id3v24-full.mp3")
        let before = try TemporaryFile.read(path)
        let itself = try await tagedit("set", path, "TITLE=x", "--output", path)
        #expect(itself.status == 64 && itself.standardError.contains("--output names the input file"), "\(itself.standardError)")
        let folder = try await tagedit("set", path, "TITLE=x", "--output", try TemporaryFile.makeDirectory())
        #expect(folder.status == 64 && folder.standardError.contains("--output names a folder"), "\(folder.standardError)")
        let number = try await tagedit("set", path, "TRACKNUMBER=abc")
        #expect(number.status == 65 && number.standardError.contains("TRACKNUMBER=abc: expected a number"), "\(number.standardError)")
        #expect(try TemporaryFile.read(path) == before)
    }

    @Test func copyReportsAndTagLibReadsTheSameValues() async throws {
        let source = TestFixtures.path("id3v24-full.mp3")
        let target = try copy("moov-before-mdat.m4a")
        let result = try await tagedit("copy", source, target)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("copied: TITLE: id3/TIT2 → itsk/%A9nam"))
        #expect(result.standardOutput.contains("converted: TRACKNUMBER"))
        #expect(result.standardOutput.contains("not representable: id3/POPM"))
        let from = try #require(TagLibReading.read(source)).properties
        let to = try #require(TagLibReading.read(target)).properties
        for key in ["TITLE", "ARTIST", "ALBUM", "TRACKNUMBER", "GENRE", "COMPOSER"] { #expect(to[key] == from[key], "\(key)") }
    }

    @Test func keysMarkdownIsTheReferenceDocument() async throws {
        let result = try await tagedit("keys", "--markdown")
        let document = try String(contentsOfFile: TestFixtures.packageRoot + "/Documentation/KeySpace.md", encoding: .utf8)
        #expect(result.standardOutput == document)
        let plain = try await tagedit("keys")
        #expect(plain.standardOutput.contains("TITLE\ttext\titunes ©nam"))
    }

    @Test func importRejectsBadDocumentsWithoutCrashing() async throws {
        let path = try copy("no-tags.mp3")
        let original = try TemporaryFile.read(path)
        for text in [#"{"tags":{"TITLE":"\uD800\u0041"}}"#, #"{"tags":{"TRACKNUMBER":[3]}}"#, #"{"tags":[["TITLE","x"]]}"#, "{", #"{"pictures":[{"type":"front-cover"}]}"#] {
            let document = try TemporaryFile.write(Array(text.utf8), name: "doc.json")
            let result = try await tagedit("import", path, document)
            #expect(result.status < 128, "\(text)")
            if text.contains("D800") {
                #expect(result.status == 0)
                #expect(try await tagedit("get", path, "TITLE").standardOutput == "\u{FFFD}A\n")
                try Data(original).write(to: URL(fileURLWithPath: path))
            } else {
                #expect(result.status == 65, "\(text)")
                #expect(try TemporaryFile.read(path) == original, "\(text)")
            }
        }
    }

    @Test func importingAnExportOfTheOtherFamilyNotesWhatDoesNotFit() async throws {
        let document = try TemporaryFile.makeDirectory() + "/mp3.json"
        _ = try await tagedit("export", TestFixtures.path("id3v24-full.mp3"), "--output", document)
        let target = try copy("moov-before-mdat.m4a")
        let result = try await tagedit("import", target, document)
        #expect(result.status == 0, "\(result.standardError)")
        // A described comment has no MP4 form; a key without an atom of its own is a freeform
        // item named as the key (ARTISTWEBPAGE, refused before 2026-11-27).
        #expect(result.standardError.contains("note: COMMENT:FIXTURE NOTE not imported"), "\(result.standardError)")
        #expect(!result.standardError.contains("ARTISTWEBPAGE"))
        #expect(try await tagedit("get", target, "ARTISTWEBPAGE").status == 0)
        #expect(try await tagedit("get", target, "TITLE").standardOutput == "Fixture Title ♪\n")
        let pictures = try await tagedit("picture", "extract", target, "--output", TemporaryFile.makeDirectory())
        #expect(pictures.standardOutput.split(separator: "\n").count == 2)
    }

    @Test func aRecursiveRunOfOneFileEndsWithASummary() async throws {
        let directory = try TemporaryFile.makeDirectory()
        try Data(TemporaryFile.read(TestFixtures.path("no-tags.mp3"))).write(to: URL(fileURLWithPath: directory + "/one.mp3"))
        let result = try await tagedit("set", "-r", directory, "ALBUM=Solo")
        #expect(result.status == 0)
        #expect(result.standardError.contains("1 file changed, 0 unchanged, 0 failed"))
    }

    @Test func aFileAnotherProcessIsEditingIsRefused() async throws {
        let path = try copy("no-tags.mp3")
        let original = try TemporaryFile.read(path)
        let lock = try FileLock(path)
        let result = try await tagedit("set", path, "TITLE=Second editor")
        _ = consume lock
        #expect(result.status == 75)
        #expect(result.standardError.contains("is being edited by process \(getpid())"))
        #expect(try TemporaryFile.read(path) == original)
        #expect(try await tagedit("set", path, "TITLE=Now").status == 0)
    }

    @Test func aSaveThroughASymbolicLinkUpdatesItsTarget() async throws {
        let target = try copy("id3v23-utf16.mp3")
        let link = (target as NSString).deletingLastPathComponent + "/link.mp3"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        // A long title forces a rewrite (a new file renamed over the old one).
        let title = String(repeating: "Long title ", count: 400)
        #expect(try await tagedit("set", link, "TITLE=\(title)").status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(TagLibReading.read(target)?.properties["TITLE"] == [title])
    }

    @Test func hardLinksShareInPlaceSavesButNotRewrites() async throws {
        let path = try copy("id3v24-full.mp3")
        let other = path + ".hardlink.mp3"
        try FileManager.default.linkItem(atPath: path, toPath: other)
        // A short title fits the tag's padding: written in place, both names see it.
        #expect(try await tagedit("set", path, "TITLE=Short").status == 0)
        #expect(TagLibReading.read(other)?.properties["TITLE"] == ["Short"])
        // A rewrite gives the edited name a new file; the other name keeps the old one.
        let title = String(repeating: "Long title ", count: 400)
        #expect(try await tagedit("set", path, "TITLE=\(title)").status == 0)
        #expect(TagLibReading.read(path)?.properties["TITLE"] == [title])
        #expect(TagLibReading.read(other)?.properties["TITLE"] == ["Short"])
    }
}
