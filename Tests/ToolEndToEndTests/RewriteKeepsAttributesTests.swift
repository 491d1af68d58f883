import Foundation
import TestSupport
import Testing

@_silgen_name("setxattr")
private func setxattr(_ path: UnsafePointer<CChar>, _ name: UnsafePointer<CChar>, _ value: UnsafeRawPointer?, _ size: Int, _ flags: Int32) -> Int32
@_silgen_name("getxattr")
private func getxattr(_ path: UnsafePointer<CChar>, _ name: UnsafePointer<CChar>, _ value: UnsafeMutableRawPointer?, _ size: Int) -> Int

/// A rewrite (a new file renamed over the old) keeps what the old file had beside its bytes:
/// owner, group, permission bits and extended attributes (desktop tags, security labels,
/// ACLs); what it may not keep it says. Before 2026-11-27 a rewrite dropped every extended
/// attribute, and a rewrite by another user gave the file to that user without a word.
@Suite struct RewriteKeepsAttributesTests {
    static func attribute(_ path: String, _ name: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { getxattr(path, name, $0.baseAddress, $0.count) }
        return count < 0 ? nil : String(decoding: buffer[0..<count], as: UTF8.self)
    }

    static func owner(_ path: String) -> (uid: uid_t, gid: gid_t, mode: mode_t, inode: UInt64) {
        var info = stat()
        _ = stat(path, &info)
        return (info.st_uid, info.st_gid, info.st_mode & 0o7777, UInt64(info.st_ino))
    }

    @Test(arguments: ["aac-itunes-tags-cover.m4a", "id3v24-full.mp3", "wav-id3-info.wav"])
    func ownerModeAndExtendedAttributesSurviveARewrite(_ fixture: String) async throws {
        let path = try TemporaryFile.write(try TemporaryFile.read(TestFixtures.path(fixture)), name: fixture)
        let tags = "red,archive"
        #expect(setxattr(path, "user.xdg.tags", tags, tags.utf8.count, 0) == 0, "setxattr: \(String(cString: strerror(errno)))")
        #expect(chown(path, 1234, 2345) == 0 && chmod(path, 0o640) == 0)
        let before = Self.owner(path)
        let result = try await ToolRunner.run("tagedit", ["set", path, "TITLE=Rewritten", "--rewrite", "-v"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("rewrite"), "\(result.standardOutput)")
        let after = Self.owner(path)
        #expect(after.inode != before.inode, "not a rewrite")
        #expect(after.uid == 1234 && after.gid == 2345 && after.mode == 0o640)
        #expect(Self.attribute(path, "user.xdg.tags") == tags)
        #expect(!result.standardError.contains("could not keep"), "\(result.standardError)")
    }

    @Test func aRewriteByAnotherUserSaysItCouldNotKeepTheOwner() async throws {
        let directory = try TemporaryFile.makeDirectory()
        #expect(chmod(directory, 0o777) == 0)
        let path = directory + "/shared.m4a"
        try Data(try TemporaryFile.read(TestFixtures.path("aac-itunes-tags-cover.m4a"))).write(to: URL(fileURLWithPath: path))
        #expect(chown(path, 1234, 1234) == 0 && chmod(path, 0o666) == 0)
        #expect(setxattr(path, "user.comment", "kept", 4, 0) == 0)
        // The temporary folder's parents must let user 4321 through.
        var parent = (directory as NSString).deletingLastPathComponent
        while parent != "/" && !parent.isEmpty {
            var info = stat()
            if stat(parent, &info) == 0 && info.st_mode & 0o001 == 0 { #expect(chmod(parent, info.st_mode & 0o7777 | 0o001) == 0) }
            parent = (parent as NSString).deletingLastPathComponent
        }
        // The tool copied beside the file: the build folder of a checkout may be closed to
        // other users (a clone made with mode 0700).
        let tool = directory + "/tagedit"
        try FileManager.default.copyItem(atPath: ToolRunner.productsDirectory + "/tagedit", toPath: tool)
        #expect(chmod(tool, 0o755) == 0)
        let result = try await ToolRunner.runProgram("/usr/bin/setpriv", ["--reuid=4321", "--regid=4321", "--clear-groups",
                                                                           tool, "set", path, "TITLE=By another user", "--rewrite"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(Self.owner(path).uid == 4321)
        #expect(result.standardError.contains("note: the rewrite could not keep its owner (user 1234; now user 4321"), "\(result.standardError)")
        // What the user may set is kept all the same.
        #expect(Self.attribute(path, "user.comment") == "kept")
    }
}
