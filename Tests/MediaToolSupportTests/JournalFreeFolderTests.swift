import Foundation
import MediaBytes
import MediaToolSupport
import TestSupport
import Testing

/// A walk over a library notes the folders it finds without a save journal or a link, and a
/// file opened in one is not looked for a journal beside (two system calls of six); a folder
/// with a journal is not noted, so a save cut short before the walk is still settled when its
/// file is opened; a save here refuses to replace a file whose journal came after the walk.
@Suite struct JournalFreeFolderTests {
    /// A file of 4000 bytes in `folder` whose in-place save was cut short by a crash at its
    /// first write into the file: the file, and the journal left beside it.
    static func cutShortSave(in folder: String) throws -> (file: String, journal: String) {
        let old = [UInt8]((0..<4000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        let ranges: [(offset: UInt64, bytes: [UInt8])] = [(100, [UInt8](repeating: 0xAB, count: 50))]
        let probe = folder + "/probe.bin"
        try Data(old).write(to: URL(fileURLWithPath: probe))
        let recorder = FileFaultInjector()
        try FileFaultInjector.$current.withValue(recorder) { try FileReplacement.patch(probe, ranges: ranges) }
        // The journal is written and flushed, then the file: crash at the file's first write.
        let journalCreated = try #require(recorder.operations.firstIndex(of: .createJournal))
        let journalFlushed = try #require(recorder.operations[journalCreated...].firstIndex(of: .flush))
        let firstWrite = try #require(recorder.operations[journalFlushed...].firstIndex(of: .write))
        let file = folder + "/song.bin"
        try Data(old).write(to: URL(fileURLWithPath: file))
        _ = try? FileFaultInjector.$current.withValue(FileFaultInjector(crashingAt: firstWrite)) { try FileReplacement.patch(file, ranges: ranges) }
        let journal = folder + "/.song.bin.save-journal"
        #expect(FileManager.default.fileExists(atPath: journal), "the crash left no journal")
        return (file, journal)
    }

    @Test func aFolderWithAJournalIsSettledAndOneWithoutIsNotLookedIn() throws {
        // Cut short before the walk: the walk sees the journal, the open settles it.
        let before = try TemporaryFile.makeDirectory()
        let early = try Self.cutShortSave(in: before)
        _ = MediaFileList.expansion([before], recursive: true, extensions: ["bin"])
        _ = try FileByteSource(path: early.file)
        #expect(!FileManager.default.fileExists(atPath: early.journal), "a journal there before the walk is settled")

        // A journal that arrives after the walk (another program's save begun since): the
        // open does not look for it, and a save refuses to replace the file.
        let clean = try TemporaryFile.makeDirectory()
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: clean + "/song.bin"))
        #expect(MediaFileList.expansion([clean], recursive: true, extensions: ["bin"]).paths == [clean + "/song.bin"])
        let elsewhere = try TemporaryFile.makeDirectory()
        let late = try Self.cutShortSave(in: elsewhere)
        #expect(rename(late.file, clean + "/song.bin") == 0 && rename(late.journal, clean + "/.song.bin.save-journal") == 0)
        _ = try FileByteSource(path: clean + "/song.bin")
        #expect(FileManager.default.fileExists(atPath: clean + "/.song.bin.save-journal"), "the open looked for the journal")
        let refused = #expect(throws: FileWriteError.self) {
            try FileReplacement.replace(clean + "/song.bin", write: { try $0.write([9, 9, 9]) }, verify: { _ in })
        }
        #expect(refused?.description.contains("another program's save of it began after it was read") == true, "\(String(describing: refused))")
        #expect(FileManager.default.fileExists(atPath: clean + "/.song.bin.save-journal"))
    }

    @Test func aFolderWithALinkIsNotNotedAndAJournalWrittenHereForgetsOne() throws {
        // A link's file has its journal beside the file it names: its folder is looked in.
        let target = try TemporaryFile.makeDirectory()
        let early = try Self.cutShortSave(in: target)
        let links = try TemporaryFile.makeDirectory()
        #expect(symlink(early.file, links + "/song.bin") == 0)
        _ = MediaFileList.expansion([links], recursive: true, extensions: ["bin"])
        _ = try FileByteSource(path: links + "/song.bin")
        #expect(!FileManager.default.fileExists(atPath: early.journal), "the link's file was not settled")

        // A save of this process cut short in a noted folder: its journal is found again.
        let noted = try TemporaryFile.makeDirectory()
        try Data([1]).write(to: URL(fileURLWithPath: noted + "/other.bin"))
        _ = MediaFileList.expansion([noted], recursive: true, extensions: ["bin"])
        let own = try Self.cutShortSave(in: noted)
        _ = try FileByteSource(path: own.file)
        #expect(!FileManager.default.fileExists(atPath: own.journal), "this process's own journal was not settled")
    }
}
