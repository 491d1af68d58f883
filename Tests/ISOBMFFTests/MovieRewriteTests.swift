import Foundation
@testable import ISOBMFF
import MediaBytes
import TestSupport
import Testing

/// A copy of a fixture in a temporary directory (fixtures are never written to).
func copyOfMovieFixture(_ name: String) throws -> String {
    try TemporaryFile.write(TemporaryFile.read(TestFixtures.path(name)), name: name)
}

/// The payloads of every `mdat`, in order.
func mediaPayloads(_ path: String) throws -> [[UInt8]] {
    let tree = try AtomTree(contentsOf: path)
    return try tree.atoms.filter { $0.type == "mdat" }.map { Array(try tree.source.read(at: $0.payloadOffset, count: Int($0.payloadSize))) }
}

/// The structural findings (warnings and errors) of the file at `path`.
func structureFindings(_ path: String) throws -> [Diagnostic] {
    AtomStructureCheck.findings(in: try AtomTree(contentsOf: path)).filter { $0.severity >= .warning }
}

func titled(_ file: MovieFile, _ title: String) -> MovieFile {
    var file = file
    file.metadata.movie.setItem(MetadataItem(type: "©nam", values: [.text(title)]))
    return file
}

func readTitle(_ path: String) throws -> [String]? {
    try MovieFile(path: path).metadata.movie.item("©nam")?.texts
}

@Suite struct MovieRewriteTests {
    @Test func unchangedMetadataWritesNothing() throws {
        let path = try copyOfMovieFixture("aac-itunes-tags-cover.m4a")
        let before = try TemporaryFile.read(path)
        let plan = try MovieFile(path: path).save()
        #expect(plan.strategy == .unchanged)
        #expect(try TemporaryFile.read(path) == before)
    }

    @Test func titleThatFitsThePaddingIsWrittenInPlaceAndNothingElseMoves() throws {
        let path = try copyOfMovieFixture("aac-itunes-tags-cover.m4a")
        let before = try TemporaryFile.read(path)
        let file = titled(try MovieFile(path: path), "Fixture Title, twenty more")
        let moov = try #require(file.tree.atoms.first { $0.type == "moov" })
        let plan = try file.save()
        #expect(plan.strategy == .inPlace)
        let after = try TemporaryFile.read(path)
        #expect(after.count == before.count)
        // Only bytes inside moov changed; moov keeps its size (the padding in meta took the growth).
        #expect(Array(after[..<Int(moov.offset)]) == Array(before[..<Int(moov.offset)]))
        #expect(Array(after[Int(moov.endOffset)...]) == Array(before[Int(moov.endOffset)...]))
        // The items after the title shift inside ilst; nothing outside moov is written.
        #expect(plan.bytesWritten <= moov.size)
        #expect(plan.patches.allSatisfy { $0.offset >= moov.offset && $0.offset + UInt64($0.bytes.count) <= moov.endOffset })
        #expect(try readTitle(path) == ["Fixture Title, twenty more"])
        #expect(try structureFindings(path).isEmpty)
        // Every other item is carried over unchanged.
        let reread = try MovieFile(path: path).metadata.movie
        #expect(reread.itemList?.count == file.originalMetadata.movie.itemList?.count)
        #expect(reread.item("covr") == file.originalMetadata.movie.item("covr"))
    }

    @Test func shrinkingInPlaceLeavesTheSpaceAsPadding() throws {
        let path = try copyOfMovieFixture("aac-itunes-tags-cover.m4a")
        let size = try TemporaryFile.read(path).count
        let plan = try titled(try MovieFile(path: path), "T").save()
        #expect(plan.strategy == .inPlace)
        #expect(try TemporaryFile.read(path).count == size)
        #expect(try readTitle(path) == ["T"])
        #expect(try structureFindings(path).isEmpty)
    }

    @Test func movieAtTheEndIsRewrittenWhereItIsAndMediaDoesNotMove() throws {
        let path = try copyOfMovieFixture("moov-after-mdat.m4a")
        let media = try mediaPayloads(path)
        let mdat = try #require(try AtomTree(contentsOf: path).atoms.first { $0.type == "mdat" })
        let long = String(repeating: "long title ", count: 300)
        let plan = try titled(try MovieFile(path: path), long).save()
        #expect(plan.strategy == .movieAtEnd)
        #expect(plan.padding >= 1024)
        let tree = try AtomTree(contentsOf: path)
        #expect(tree.atoms.first { $0.type == "mdat" }?.offset == mdat.offset)
        #expect(try mediaPayloads(path) == media)
        #expect(try readTitle(path) == [long])
        #expect(try structureFindings(path).isEmpty)
        #expect(tree.atoms.last?.type == "free")
    }

    @Test func growingMovieBeforeMediaRewritesTheFileMovesChunkOffsetsAndLeavesPadding() throws {
        let path = try copyOfMovieFixture("moov-before-mdat.m4a")
        let media = try mediaPayloads(path)
        let oldOffsets = try chunkOffsets(path)
        let long = String(repeating: "x", count: 3000)
        let plan = try titled(try MovieFile(path: path), long).save()
        #expect(plan.strategy == .rewrite)
        #expect(!plan.offsetMap.isIdentity)
        #expect(try mediaPayloads(path) == media)
        #expect(try readTitle(path) == [long])
        #expect(try structureFindings(path).isEmpty)
        let delta = try chunkOffsets(path)[0][0] - oldOffsets[0][0]
        #expect(delta > 3000)
        #expect(try chunkOffsets(path) == oldOffsets.map { $0.map { $0 + delta } })
        // The padding written with it takes the next growth in place.
        let next = try titled(try MovieFile(path: path), long + String(repeating: "y", count: 500)).save()
        #expect(next.strategy == .inPlace)
        #expect(try mediaPayloads(path) == media)
        #expect(try structureFindings(path).isEmpty)
        // Never truncated: the whole value is there.
        #expect(try readTitle(path)?.first?.count == 3500)
    }

    @Test func rewriteLeavesNoTemporaryFileBehind() throws {
        let path = try copyOfMovieFixture("moov-before-mdat.m4a")
        _ = try titled(try MovieFile(path: path), String(repeating: "x", count: 3000)).save()
        let directory = (path as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["moov-before-mdat.m4a"])
    }

    @Test func rewriteKeepsPermissions() throws {
        let path = try copyOfMovieFixture("moov-before-mdat.m4a")
        chmod(path, 0o640)
        _ = try titled(try MovieFile(path: path), String(repeating: "x", count: 3000)).save()
        var info = stat()
        stat(path, &info)
        #expect(info.st_mode & 0o777 == 0o640)
    }

    @Test func fastStartMovesTheMovieBeforeTheMedia() throws {
        let path = try copyOfMovieFixture("moov-after-mdat.m4a")
        let media = try mediaPayloads(path)
        let plan = try MovieFile(path: path).save(MovieSaveOptions(fastStart: true))
        #expect(plan.strategy == .rewrite)
        let types = try AtomTree(contentsOf: path).atoms.map(\.type)
        #expect(types.firstIndex(of: "moov")! < types.firstIndex(of: "mdat")!)
        #expect(try mediaPayloads(path) == media)
        #expect(try structureFindings(path).isEmpty)
    }

    @Test func co64OffsetsMoveWithTheMedia() throws {
        let path = try copyOfMovieFixture("co64-chunk-offsets.m4a")
        let old = try chunkOffsets(path)
        let plan = try titled(try MovieFile(path: path), String(repeating: "z", count: 5000)).save()
        #expect(plan.strategy == .rewrite)
        let new = try chunkOffsets(path)
        let delta = new[0][0] - old[0][0]
        #expect(new == old.map { $0.map { $0 + delta } })
        #expect(try AtomTree(contentsOf: path).atom(at: AtomPath(parsing: "moov/trak[0]/mdia/minf/stbl/co64")!) != nil)
        #expect(try structureFindings(path).isEmpty)
    }

    @Test(arguments: ["fragmented.mp4", "fragmented-sidx.mp4"])
    func fragmentedFilesKeepFragmentOffsetsRight(_ name: String) throws {
        let path = try copyOfMovieFixture(name)
        let original = try AtomTree(contentsOf: TestFixtures.path(name))
        let oldPointers = try MovieFile.storedOffsets(in: original)
        let plan = try titled(try MovieFile(path: path), String(repeating: "f", count: 2000)).save()
        #expect(plan.strategy == .rewrite)
        let written = try AtomTree(contentsOf: path)
        let newPointers = try MovieFile.storedOffsets(in: written)
        #expect(newPointers.map(\.type) == oldPointers.map(\.type))
        #expect(newPointers.contains { $0.type == "tfra" })
        for (old, new) in zip(oldPointers, newPointers) {
            #expect(new.values == old.values.map { plan.offsetMap.map($0)! }, "\(new.type)")
        }
        // Each moof moved by the same amount, and tfra points at them.
        let moofs = written.atoms.filter { $0.type == "moof" }.map(\.offset)
        let tfraTargets = Set(newPointers.filter { $0.type == "tfra" }.flatMap(\.values))
        #expect(tfraTargets.isSubset(of: Set(moofs)))
        if name == "fragmented-sidx.mp4" {
            // sidx offsets are relative to each sidx's end: both still reach the first moof.
            let targets = newPointers.filter { $0.type == "sidx" }.flatMap(\.values)
            #expect(targets.count == 2)
            #expect(targets.allSatisfy { $0 == moofs.first })
        }
    }

    @Test func fileWithoutUserDataGetsUdtaMetaAndItemList() throws {
        let path = try TemporaryFile.write(MovieBuilder().build(), name: "plain.m4a")
        var file = try MovieFile(path: path)
        #expect(file.metadata.movie.itemList == nil)
        file.metadata.movie.setItem(MetadataItem(type: "©nam", values: [.text("New")]))
        file.metadata.movie.setItem(MetadataItem(type: "trkn", values: [.pair(index: 2, total: 5, trailingPad: true)]))
        let plan = try file.save()
        #expect(plan.strategy == .rewrite)
        let tree = try AtomTree(contentsOf: path)
        let meta = try #require(tree.atom(at: AtomPath(parsing: "moov/udta/meta")!))
        #expect(MetadataScope.handlerType(of: meta, in: tree) == "mdir")
        #expect(meta.prefixSize == 4)
        #expect(try readTitle(path) == ["New"])
        #expect(try structureFindings(path).isEmpty)
    }

    @Test func quickTimeMetadataKeysAreRewrittenAndAdded() throws {
        for name in ["quicktime-mdta-keys.mov", "quicktime-mdta-keys-moov-meta.mov"] {
            let path = try copyOfMovieFixture(name)
            var file = try MovieFile(path: path)
            var items = try #require(file.metadata.movie.quickTimeMetadata)
            let make = try #require(items.firstIndex { $0.key == "com.apple.quicktime.make" })
            items[make].values = [.text("Changed Make")]
            items.append(QuickTimeMetadataItem(key: "org.example.fixture.added", values: [.text("Added ✓")]))
            file.metadata.movie.quickTimeMetadata = items
            try file.save()
            let reread = try #require(try MovieFile(path: path).metadata.movie.quickTimeMetadata)
            #expect(reread == items, "\(name)")
            #expect(reread.first { $0.key == "org.example.fixture.added" }?.values.first?.text == "Added ✓")
            #expect(reread.first { $0.key == "com.apple.quicktime.make" }?.values.first?.text == "Changed Make")
            #expect(try structureFindings(path).isEmpty)
        }
    }

    @Test func quickTimeMetadataIsCreatedInAMovieWithoutIt() throws {
        let path = try copyOfMovieFixture("quicktime-udta-text.mov")
        var file = try MovieFile(path: path)
        file.metadata.movie.quickTimeMetadata = [QuickTimeMetadataItem(key: "com.apple.quicktime.title", values: [.text("Created")])]
        try file.save()
        let tree = try AtomTree(contentsOf: path)
        let meta = try #require(tree.atom(at: AtomPath(parsing: "moov/meta")!))
        // A QuickTime file's moov/meta has no version and flags.
        #expect(meta.prefixSize == 0)
        #expect(try MovieFile(path: path).metadata.movie.quickTimeMetadata?.first?.values.first?.text == "Created")
    }

    @Test func quickTimeUserDataTextIsWrittenInSeveralLanguages() throws {
        let path = try copyOfMovieFixture("quicktime-udta-text.mov")
        var file = try MovieFile(path: path)
        let texts = [UserDataItem.LocalizedText("English", languageCode: LanguageCode.pack("eng")!), .init("Deutsch", languageCode: LanguageCode.pack("deu")!)]
        let index = try #require(file.metadata.movie.userData.firstIndex { $0.type == "©nam" })
        file.metadata.movie.userData[index] = .text("©nam", texts)
        file.metadata.movie.userData.append(.text("©swr", [.init("tagedit")]))
        try file.save()
        let reread = try MovieFile(path: path).metadata.movie
        #expect(reread.userData("©nam").first?.texts == texts)
        #expect(reread.userData("©swr").first?.texts?.first?.text == "tagedit")
        // Untouched items keep their bytes.
        #expect(reread.userData("©xyz") == file.originalMetadata.movie.userData("©xyz"))
    }

    @Test func threeGPPAssetsAreWritten() throws {
        let path = try copyOfMovieFixture("mobile.3gp")
        var file = try MovieFile(path: path)
        let index = try #require(file.metadata.movie.userData.firstIndex { $0.type == "titl" })
        file.metadata.movie.userData[index] = UserDataItem(asset: ThreeGPPAsset(type: "titl", text: "Neuer Titel", language: "deu"))
        var location = ThreeGPPAsset(type: "loci", text: "", language: "eng")
        location.location = .init(name: "Somewhere", longitude: 2.5, latitude: 48.75)
        file.metadata.movie.userData.append(UserDataItem(asset: location))
        try file.save()
        let reread = try MovieFile(path: path).metadata.movie
        #expect(reread.userData("titl").first?.asset?.text == "Neuer Titel")
        #expect(reread.userData("titl").first?.asset?.language == "deu")
        #expect(reread.userData("loci").first?.asset?.location?.latitude == 48.75)
        #expect(try structureFindings(path).isEmpty)
    }

    @Test func trackLevelMetadataIsWrittenAndOtherTracksAreUntouched() throws {
        let path = try copyOfMovieFixture("video-h264-aac.mp4")
        var file = try MovieFile(path: path)
        file.metadata.tracks[1].userData.append(.text("©nam", [.init("Audio track")]))
        let media = try mediaPayloads(path)
        try file.save()
        let reread = try MovieFile(path: path).metadata
        #expect(reread.tracks[1].userData("©nam").first?.texts?.first?.text == "Audio track")
        #expect(reread.tracks[0] == file.originalMetadata.tracks[0])
        #expect(reread.movie == file.originalMetadata.movie)
        #expect(try mediaPayloads(path) == media)
        #expect(try structureFindings(path).isEmpty)
    }

    @Test func id3InsideMP4IsWrittenAsAnID32Box() throws {
        let path = try copyOfMovieFixture("moov-before-mdat.m4a")
        var file = try MovieFile(path: path)
        let tag: [UInt8] = Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 0]
        file.metadata.movie.id3Tags = [ID3TagAtom(tag: tag, languageCode: LanguageCode.pack("eng")!)]
        try file.save()
        let reread = try MovieFile(path: path).metadata.movie
        #expect(reread.id3Tags == file.metadata.movie.id3Tags)
    }

    @Test func removingAllItemsKeepsAnEmptyListAndNilRemovesTheMeta() throws {
        let path = try copyOfMovieFixture("aac-itunes-tags-cover.m4a")
        var file = try MovieFile(path: path)
        file.metadata.movie.itemList = []
        try file.save()
        #expect(try MovieFile(path: path).metadata.movie.itemList == [])
        var again = try MovieFile(path: path)
        again.metadata.movie.itemList = nil
        try again.save()
        #expect(try MovieFile(path: path).metadata.movie.itemList == nil)
        #expect(try structureFindings(path).isEmpty)
    }

    @Test func quickTimeMovieKeepsEveryOtherAtomByteForByte() throws {
        let path = try copyOfMovieFixture("quicktime-sound-v2-lpcm.mov")
        let original = try AtomTree(contentsOf: path)
        let plan = try titled(try MovieFile(path: path), "QuickTime title").save()
        // moov follows mdat here, so the media does not move and the track is copied whole.
        #expect(plan.offsetMap.isIdentity)
        let written = try AtomTree(contentsOf: path)
        let oldTrak = try #require(original.atom(at: AtomPath(parsing: "moov/trak")!))
        let newTrak = try #require(written.atom(at: AtomPath(parsing: "moov/trak")!))
        let oldBytes = try original.bytes(at: oldTrak.offset, count: Int(oldTrak.size))
        let newBytes = try written.bytes(at: newTrak.offset, count: Int(newTrak.size))
        #expect(oldBytes == newBytes)
        #expect(try readTitle(path) == ["QuickTime title"])
        #expect(try structureFindings(path).isEmpty)
    }

    @Test func writeToAnotherPathLeavesTheSourceUntouched() throws {
        let source = try copyOfMovieFixture("aac-itunes-tags-cover.m4a")
        let before = try TemporaryFile.read(source)
        let output = (source as NSString).deletingLastPathComponent + "/out.m4a"
        let plan = try titled(try MovieFile(path: source), "Elsewhere").write(to: output)
        #expect(plan.strategy == .rewrite)
        #expect(try TemporaryFile.read(source) == before)
        #expect(try readTitle(output) == ["Elsewhere"])
        #expect(try mediaPayloads(output) == mediaPayloads(source))
    }

    // MARK: - Refusals and verification

    @Test func truncatedFileIsNeverWritten() throws {
        let bytes = try TemporaryFile.read(TestFixtures.path("moov-after-mdat.m4a"))
        let path = try TemporaryFile.write(Array(bytes.dropLast(100)), name: "cut.m4a")
        let before = try TemporaryFile.read(path)
        let file = titled(try MovieFile(path: path), "Nope")
        #expect(throws: AtomError(.notWritable)) { try file.save() }
        do {
            try file.save()
        } catch let error as AtomError {
            #expect(error.offset > 0)
            #expect(error.description.contains("moov"))
        }
        #expect(try TemporaryFile.read(path) == before)
    }

    @Test func fileChangedSinceReadingIsNotWritten() throws {
        let path = try copyOfMovieFixture("moov-before-mdat.m4a")
        let file = titled(try MovieFile(path: path), String(repeating: "x", count: 3000))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data([0]))
        try handle.close()
        let before = try TemporaryFile.read(path)
        #expect(throws: (any Error).self) { try file.save() }
        #expect(try TemporaryFile.read(path) == before)
    }

    @Test func verificationRejectsAResultWhoseChunkMoved() throws {
        let path = try copyOfMovieFixture("moov-before-mdat.m4a")
        let file = titled(try MovieFile(path: path), "Title")
        let plan = try file.plan()
        #expect(plan.strategy == .inPlace)
        let stco = try #require(file.tree.atom(at: AtomPath(parsing: "moov/trak/mdia/minf/stbl/stco")!))
        // The planned bytes, plus a chunk offset changed by one.
        var patches = plan.patches
        let value = try file.tree.bytes(at: stco.payloadOffset + 8, count: 4)
        var bumped = Array(value)
        bumped[3] &+= 1
        patches.append((stco.payloadOffset + 8, bumped))
        let result = PatchedByteSource(base: file.tree.source, patches: patches, size: plan.newFileSize)
        #expect(throws: AtomError(.verificationFailed)) { try file.verify(result, plan: plan) }
        // The planned bytes alone verify.
        try file.verify(PatchedByteSource(base: file.tree.source, patches: plan.patches, size: plan.newFileSize), plan: plan)
    }

    /// A movie of 400,000 samples: its `moov` (1.6 MB of sample sizes) is larger than the 1 MiB
    /// a container is read whole up to. A same-length edit of its title reads none of its sample
    /// tables, renders none of them to find what changed, and writes a few bytes.
    @Test func aSameLengthEditOfALongMovieNeitherReadsNorRendersItsTables() throws {
        let path = try TemporaryFile.write([], name: "long.m4a")
        try LargeMovieBuilder.write(to: path, sampleCount: 400_000, mediaSize: 8 << 20)
        try titled(try MovieFile(path: path), "Title A").save()
        let tables = try AtomTree(contentsOf: path)
        let stsz = try #require(tables.atom(at: AtomPath(parsing: "moov/trak/mdia/minf/stbl/stsz")!))
        let sizesBefore = try tables.fieldBytes(of: stsz)

        let source = RecordingByteSource(try FileByteSource(path: path))
        let file = titled(try MovieFile(tree: try AtomTree(source: source), path: path), "Title B")
        let plan = try file.plan()
        #expect(plan.strategy == .inPlace)
        #expect(plan.bytesWritten <= 8)
        try file.verify(PatchedByteSource(base: source, patches: plan.patches, size: plan.newFileSize), plan: plan)
        #expect(source.reads.allSatisfy { !$0.overlaps(stsz.payloadOffset..<stsz.endOffset) })
        #expect(source.reads.reduce(0) { $0 + $1.count } < 256 << 10)

        try file.save()
        #expect(try readTitle(path) == ["Title B"])
        let after = try AtomTree(contentsOf: path)
        let stszAfter = try #require(after.atom(at: AtomPath(parsing: "moov/trak/mdia/minf/stbl/stsz")!))
        #expect(stszAfter.offset == stsz.offset)
        #expect(try after.fieldBytes(of: stszAfter) == sizesBefore)
    }

    /// A rewrite that moves 64 MiB of media or more rounds the default padding up so that the
    /// media moves by a multiple of 64 KiB (`CopyAlignment`: the kernel then copies whole
    /// pages, and a file system with reflinks can share them), and so a padding asked for; a
    /// smaller file gets the padding as asked, and a padding of 0 stays 0.
    @Test func aLargeRewriteMovesTheMediaByAMultipleOf64KiB() throws {
        let longTitle = String(repeating: "t", count: 3000)
        for (mediaSize, aligned) in [(UInt64(64 << 20), true), (UInt64(8 << 20), false)] {
            let path = try TemporaryFile.write([], name: "large.m4a")
            try LargeMovieBuilder.write(to: path, sampleCount: 1000, mediaSize: mediaSize)
            let before = try AtomTree(contentsOf: path)
            let mdat = try #require(before.atoms.first { $0.type == "mdat" })
            let marker: [UInt8] = [0xC0, 0xFF, 0xEE]
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.seek(toOffset: mdat.offset + 16 + mediaSize / 2)
            try handle.write(contentsOf: marker)
            try handle.close()
            let file = titled(try MovieFile(path: path), longTitle)
            let plan = try file.plan()
            #expect(plan.strategy == .rewrite)
            let defaultPadding = MovieSaveOptions().paddingSize(forMovieSize: plan.newMovieSize)
            let shift = Int64(try #require(plan.offsetMap.map(mdat.offset))) - Int64(mdat.offset)
            if aligned {
                #expect(shift % 65536 == 0, "\(shift)")
                #expect(plan.padding >= defaultPadding && plan.padding < defaultPadding + 65536)
            } else {
                #expect(shift % 65536 != 0)
                #expect(plan.padding == defaultPadding)
            }
            // Asked for: rounded up the same way, or exact; none stays none.
            let asked = try file.plan(MovieSaveOptions(padding: 2000))
            let askedShift = Int64(try #require(asked.offsetMap.map(mdat.offset))) - Int64(mdat.offset)
            #expect(aligned ? askedShift % 65536 == 0 && asked.padding >= 2000 && asked.padding < 2000 + 65536 : asked.padding == 2000)
            #expect(try file.plan(MovieSaveOptions(padding: 0)).padding == 0)

            // Saved: the media is where the plan put it, the chunk offset moved with it, and
            // bytes in the middle of the media are still there.
            #expect(try file.save().padding == plan.padding)
            let after = try AtomTree(contentsOf: path)
            let newMdat = try #require(after.atoms.first { $0.type == "mdat" })
            #expect(Int64(newMdat.offset) - Int64(mdat.offset) == shift)
            let co64 = try #require(after.atom(at: AtomPath(parsing: "moov/trak/mdia/minf/stbl/co64")!))
            #expect(Array(try after.fieldBytes(of: co64).suffix(8)) == AtomBuilder.be(newMdat.offset + 16, width: 8))
            #expect(try FileByteSource(path: path).read(at: newMdat.offset + 16 + mediaSize / 2, count: 3) == marker)
            #expect(try readTitle(path) == [longTitle])
        }
    }

    /// With `moov` after the media: moved before it (fast start), the media moves by the new
    /// `moov` and its padding, which is rounded up to keep the media's alignment; rewritten at
    /// the end with a chapter track, whose samples go before the media, the media moves by
    /// those samples, which padding after `moov` cannot align, so the padding stays as it was.
    @Test func onlyMediaAfterThePaddingIsAligned() throws {
        let longTitle = String(repeating: "t", count: 3000)
        let path = try TemporaryFile.write([], name: "movie-last.m4a")
        try LargeMovieBuilder.write(to: path, sampleCount: 1000, mediaSize: 64 << 20, movieFirst: false)
        let before = try AtomTree(contentsOf: path)
        #expect(before.atoms.map(\.type) == ["ftyp", "mdat", "moov"])
        let mdat = try #require(before.atoms.first { $0.type == "mdat" })

        let fastStart = try titled(try MovieFile(path: path), longTitle).plan(MovieSaveOptions(fastStart: true))
        #expect(fastStart.strategy == .rewrite)
        let shift = Int64(try #require(fastStart.offsetMap.map(mdat.offset))) - Int64(mdat.offset)
        #expect(shift > 0 && shift % 65536 == 0, "\(shift)")

        var withChapters = titled(try MovieFile(path: path), longTitle)
        withChapters.chapterTrack = ChapterTrackEdit(timescale: 1000, samples: [.init(start: 0, duration: 1000, title: "One"), .init(start: 1000, duration: 1000, title: "Two")])
        let plan = try withChapters.plan(MovieSaveOptions(allowInPlace: false))
        #expect(plan.strategy == .rewrite)
        let chapterShift = Int64(try #require(plan.offsetMap.map(mdat.offset))) - Int64(mdat.offset)
        #expect(chapterShift > 0 && chapterShift % 65536 != 0, "\(chapterShift)")
        #expect(plan.padding == MovieSaveOptions().paddingSize(forMovieSize: plan.newMovieSize))
        // Saved, both read back with the media in place.
        try withChapters.save(MovieSaveOptions(allowInPlace: false))
        #expect(try readTitle(path) == [longTitle])
        #expect(QuickTimeChapterTrack.read(try AtomTree(contentsOf: path)).tracks.first?.samples.map(\.title) == ["One", "Two"])
        try titled(try MovieFile(path: path), longTitle + "x").save(MovieSaveOptions(fastStart: true))
        let after = try AtomTree(contentsOf: path)
        #expect(after.atoms.map(\.type).prefix(2) == ["ftyp", "moov"])
    }

    @Test func verificationRejectsMetadataThatDoesNotReadBack() throws {
        let path = try copyOfMovieFixture("aac-itunes-tags-cover.m4a")
        let file = titled(try MovieFile(path: path), "Title")
        let plan = try file.plan()
        var other = file
        other.metadata.movie.setItem(MetadataItem(type: "©nam", values: [.text("Other")]))
        let result = PatchedByteSource(base: file.tree.source, patches: plan.patches, size: plan.newFileSize)
        #expect(throws: AtomError(.verificationFailed)) { try other.verify(result, plan: plan) }
    }

    // MARK: - Offsets of every kind

    @Test func itemLocationsOutsideTheMovieMoveWithTheMedia() throws {
        var builder = MovieBuilder()
        builder.chunks = [[UInt8](repeating: 7, count: 32)]
        let base = builder.build()
        let tree = try AtomTree(source: MemoryByteSource(base))
        let mdat = try #require(tree.atoms.first { $0.type == "mdat" })
        // A top-level HEIF-style meta after mdat whose item lives in mdat (iloc v1, offset 4 bytes).
        let iloc = AtomBuilder.fullBox("iloc", version: 1, [0x44, 0x00] + AtomBuilder.be(1, width: 2)
            + AtomBuilder.be(1, width: 2) + AtomBuilder.be(0, width: 2) + AtomBuilder.be(0, width: 2)
            + AtomBuilder.be(1, width: 2) + AtomBuilder.be(mdat.payloadOffset + 4, width: 4) + AtomBuilder.be(16, width: 4))
        let meta = AtomBuilder.atom("meta", [0, 0, 0, 0] + AtomBuilder.fullBox("hdlr", [0, 0, 0, 0] + Array("pict".utf8) + [UInt8](repeating: 0, count: 13)) + iloc)
        let path = try TemporaryFile.write(base + meta, name: "iloc.mp4")
        let plan = try titled(try MovieFile(path: path), String(repeating: "i", count: 500)).save()
        #expect(plan.strategy == .rewrite)
        let written = try AtomTree(contentsOf: path)
        let pointers = try MovieFile.storedOffsets(in: written).filter { $0.type == "iloc" }
        let newMdat = try #require(written.atoms.first { $0.type == "mdat" })
        #expect(pointers.first?.values == [newMdat.payloadOffset + 4])
    }

    @Test func stcoThatWouldPassFourGiBBecomesCo64() throws {
        // A virtual 4 GiB+ movie: moov before a 64-bit mdat whose last chunk sits just below 4 GiB.
        var builder = MovieBuilder()
        builder.chunks = [[1, 2, 3, 4]]
        var head = builder.build()
        let tree0 = try AtomTree(source: MemoryByteSource(head))
        let mdat0 = try #require(tree0.atoms.first { $0.type == "mdat" })
        head.removeLast(Int(mdat0.size))
        let total: UInt64 = (1 << 32) + 4096
        let mdatHeader = [0, 0, 0, 1] + Array("mdat".utf8) + AtomBuilder.be(total - UInt64(head.count), width: 8)
        // Point the one chunk near the end of the 4 GiB range.
        let stcoPath = AtomPath(parsing: "moov/trak/mdia/minf/stbl/stco")!
        let stco = try #require(tree0.atom(at: stcoPath))
        let nearEnd: UInt64 = (1 << 32) - 16
        head.replaceSubrange(Int(stco.payloadOffset + 8)..<Int(stco.payloadOffset + 12), with: AtomBuilder.be(nearEnd, width: 4))
        let source = SparseByteSource(head: head + mdatHeader, size: total)
        let tree = try AtomTree(source: source)
        #expect(tree.diagnostics.isEmpty)
        var file = try MovieFile(tree: tree)
        file.metadata.movie.setItem(MetadataItem(type: "©nam", values: [.text(String(repeating: "g", count: 200))]))
        let plan = try file.plan()
        #expect(plan.strategy == .rewrite)
        let moov = try #require(plan.nodes.first { $0.type == "moov" })
        let written = try AtomTree(source: MemoryByteSource(try moov.bytes(from: tree)))
        let co64 = try #require(written.atom(at: AtomPath(parsing: "moov/trak/mdia/minf/stbl/co64")!))
        let offsets = try FilePointers.offsets(type: "co64", payload: written.fieldBytes(of: co64), atomEnd: co64.endOffset)
        #expect(offsets == [plan.offsetMap.map(nearEnd)!])
        #expect(offsets[0] > UInt64(UInt32.max))
        #expect(written.atom(at: stcoPath) == nil)
    }

    @Test func sparseFileLargerThanFourGiBIsEditedInPlaceAndAtTheEnd() throws {
        // moov after a 5 GiB sparse mdat with a 64-bit header: movie-at-end, then in place.
        let (directory, path) = try sparseMovieAfterLargeMedia(gap: 5 << 30)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try AtomTree(contentsOf: path).diagnostics.isEmpty)

        let first = try titled(try MovieFile(path: path), "Big file").save()
        #expect(first.strategy == .movieAtEnd)
        #expect(first.newFileSize > 5 << 30)
        let second = try titled(try MovieFile(path: path), "Big file, renamed").save()
        #expect(second.strategy == .inPlace)
        #expect(try readTitle(path) == ["Big file, renamed"])
        #expect(try structureFindings(path).isEmpty)
    }

    func chunkOffsets(_ path: String) throws -> [[UInt64]] {
        try MovieFile.storedOffsets(in: AtomTree(contentsOf: path)).filter { ["stco", "co64"].contains($0.type) }.map(\.values)
    }
}

/// A sparse file over 4 GiB in a new temporary directory: `MovieBuilder`'s movie after its
/// media, the media in a 64-bit `mdat` followed by `gap` bytes never written; `edit` changes
/// the `moov` bytes first (their size must stay). Returns the directory and the file's path.
func sparseMovieAfterLargeMedia(gap: UInt64, edit: (inout [UInt8]) -> Void = { _ in }) throws -> (directory: String, path: String) {
    var builder = MovieBuilder()
    builder.movieFirst = false
    let small = builder.build()
    let tree = try AtomTree(source: MemoryByteSource(small))
    let mdat = try #require(tree.atoms.first { $0.type == "mdat" })
    let moov = try #require(tree.atoms.first { $0.type == "moov" })
    let directory = try TemporaryFile.makeDirectory()
    let path = directory + "/big.m4a"
    let ftyp = Array(small[..<Int(mdat.offset)])
    let payload = Array(small[Int(mdat.payloadOffset)..<Int(mdat.endOffset)])
    let header64 = [0, 0, 0, 1] + Array("mdat".utf8) + AtomBuilder.be(16 + UInt64(payload.count) + gap, width: 8)
    // The 64-bit header is 8 bytes longer: move the chunk offsets by 8.
    var movie = Array(small[Int(moov.offset)..<Int(moov.endOffset)])
    let stco = try #require(tree.atom(at: AtomPath(parsing: "moov/trak/mdia/minf/stbl/stco")!))
    let stcoAt = Int(stco.payloadOffset - moov.offset) + 8
    for i in 0..<builder.chunks.count {
        let at = stcoAt + 4 * i
        let value = movie[at..<at + 4].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        movie.replaceSubrange(at..<at + 4, with: AtomBuilder.be(value + 8, width: 4))
    }
    edit(&movie)
    FileManager.default.createFile(atPath: path, contents: Data(ftyp + header64 + payload))
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.truncate(atOffset: UInt64(ftyp.count + header64.count + payload.count) + gap)
    try handle.seekToEnd()
    handle.write(Data(movie))
    try handle.close()
    return (directory, path)
}

/// A source of `size` bytes: `head`, then zeros (a sparse file without the file).
struct SparseByteSource: ByteSource {
    let head: [UInt8]
    let size: UInt64

    init(head: [UInt8], size: UInt64) {
        self.head = head
        self.size = size
    }

    func read(at offset: UInt64, count: Int) throws(ByteSourceError) -> [UInt8] {
        try checkRange(offset: offset, count: count)
        return (0..<count).map { i in
            let position = offset + UInt64(i)
            return position < UInt64(head.count) ? head[Int(position)] : 0
        }
    }
}
