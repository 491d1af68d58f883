import Foundation
import TestSupport
import Testing

/// `export` over several files streams one JSON array, and a large picture's Base64 is read
/// from its file only as the array goes out. A file changed after it was read and before its
/// document is written must cut the array short (exit 74, an error naming the file), never
/// fill the document with bytes of the new version.
@Suite struct ExportCutShortTests {
    /// An MP3 whose ID3v2.4 tag holds a title and a picture of `size` bytes of `fill` (left
    /// in the file when read: over `ID3v2Tag.deferThreshold`).
    static func mp3(title: String, pictureSize size: Int, fill: UInt8) -> [UInt8] {
        let picture = [0] + Array("image/jpeg".utf8) + [0, 3, 0] + [UInt8](repeating: fill, count: size)
        let tag = ID3Builder.tag(frames: [ID3Builder.frame("TIT2", ID3Builder.text([title])), ID3Builder.frame("APIC", picture)])
        return tag + (0..<8).flatMap { _ in ID3Builder.mp3Frame() }  // `audio` below counts these
    }

    @Test func aFileChangedWhileTheArrayIsWrittenCutsItShort() async throws {
        let folder = try TemporaryFile.makeDirectory()
        let first = folder + "/a.mp3", second = folder + "/b.mp3"
        // The first document (Base64 of 512 KiB) fills the pipe and the output buffer, so the
        // tool waits to write it while the second file is already read.
        let firstBytes = Self.mp3(title: "First", pictureSize: 512 << 10, fill: 0x11)
        let secondBytes = Self.mp3(title: "Second", pictureSize: 64 << 10, fill: 0x22)
        var cutShort = 0
        for attempt in 1...3 {
            try Data(firstBytes).write(to: URL(fileURLWithPath: first))
            try Data(secondBytes).write(to: URL(fileURLWithPath: second))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: ToolRunner.productsDirectory + "/tagedit")
            process.arguments = ["export", "--jobs", "2", first, second]
            let output = Pipe(), errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            // Nothing is read from the pipe until the second file has changed: same size,
            // other picture bytes, a new modification time.
            try await Task.sleep(for: .seconds(Double(attempt)))
            var changed = secondBytes
            let audio = 8 * ID3Builder.mp3Frame().count
            for i in (changed.count - audio - (64 << 10))..<(changed.count - audio) { changed[i] = 0x33 }
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: second))
            try handle.write(contentsOf: changed)
            try handle.close()
            let document = output.fileHandleForReading.readDataToEndOfFile()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let text = String(decoding: document, as: UTF8.self)
            let oldPicture = Data([0x22, 0x22, 0x22]).base64EncodedString(), newPicture = Data([0x33, 0x33, 0x33]).base64EncodedString()
            // Whatever the timing, the second file's document is of one version of it: never
            // the new picture bytes beside the old ones (nor, cut short, any of them).
            #expect(!(text.contains(oldPicture) && text.contains(newPicture)), "attempt \(attempt): two versions in one document")
            if process.terminationStatus == 74 {
                #expect(!text.contains(newPicture), "attempt \(attempt): the new bytes went out before the cut")
                #expect(message.contains("cut short") && message.contains("b.mp3"), "\(message)")
                #expect((try? JSONSerialization.jsonObject(with: document)) == nil, "a document cut short is not valid JSON")
                #expect(text.contains(Data(repeating: 0x11, count: 3).base64EncodedString()), "the first file's document went out")
                cutShort += 1
                break
            }
            // The second file was read after it changed: the array is whole and valid.
            #expect(process.terminationStatus == 0, "attempt \(attempt): \(message)")
            #expect((try? JSONSerialization.jsonObject(with: document)) is [Any], "attempt \(attempt)")
        }
        #expect(cutShort == 1, "the second file was never read before it changed")
    }
}
