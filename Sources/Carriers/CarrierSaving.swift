import ID3
import MediaBytes
import VorbisComment

/// What the two tag-carrying file saves (`MPEGStreamFile.save`, `IFFChunkFile.save`) share:
/// opening the file, the in-place write, and the byte comparison of a rewrite.
enum CarrierSaving {
    /// Checks the requested tag version (3 or 4) and opens the file for the save to read (or
    /// takes the caller's, `options.opened`, checked unchanged).
    static func open(_ path: String, options: CarrierSaveOptions) throws(CarrierError) -> FileByteSource {
        if let version = options.version, version != 3 && version != 4 {
            throw CarrierError(.notWritable, message: "\(path): ID3v2 tags are written as v2.3 or v2.4, not v2.\(version)")
        }
        do {
            if let opened = options.opened, opened.path == path {
                try opened.checkUnchanged()
                return opened
            }
            return try FileByteSource(path: path)
        } catch { throw CarrierError(.io, message: error.description) }
    }

    /// What differs between the `kind`s (frames, entries, items) a save meant to write and
    /// those read back, for the verification's message: the first that differs, by position
    /// and as `describe` shows it, or the ones missing or extra; nil when they agree.
    static func disagreement<T: Equatable>(_ kind: String, expected: [T], read: [T], describe: (T) -> String) -> String? {
        guard expected != read else { return nil }
        if let index = (0..<min(expected.count, read.count)).first(where: { expected[$0] != read[$0] }) {
            return "\(kind) \(index + 1) reads as \(describe(read[index])), not \(describe(expected[index]))"
        }
        if read.count < expected.count {
            return "\(expected.count) \(kind)\(expected.count == 1 ? "" : "s") written, \(read.count) read: missing \(expected[read.count...].prefix(3).map(describe).joined(separator: ", "))"
        }
        return "\(expected.count) \(kind)\(expected.count == 1 ? "" : "s") written, \(read.count) read: extra \(read[expected.count...].prefix(3).map(describe).joined(separator: ", "))"
    }

    /// An ID3v2 frame as a verification message names it: its ID and the start of its text.
    static func describe(_ frame: ID3Frame) -> String {
        guard let text = frame.textValues?.joined(separator: "/") else { return frame.id }
        return "\(frame.id) \"\(text.count > 40 ? text.prefix(40) + "…" : text)\""
    }

    /// What differs between the Vorbis comment meant and the one read back; nil when they agree.
    static func disagreement(_ expected: VorbisComment?, read: VorbisComment?) -> String? {
        guard expected != read else { return nil }
        if expected?.vendorBytes != read?.vendorBytes { return "the vendor string reads as \"\(read?.vendor ?? "")\", not \"\(expected?.vendor ?? "")\"" }
        let describe: (VorbisComment.Field) -> String = { field in
            let text = String(decoding: field.bytes.prefix(48), as: UTF8.self)
            return "\"\(text)\(field.bytes.count > 48 ? "…" : "")\""
        }
        return disagreement("comment field", expected: expected?.fields ?? [], read: read?.fields ?? [], describe: describe) ?? "the comment differs"
    }

    /// The writes that put `serialization` (a tag as large as the space it goes in) at `offset`
    /// in `file` in place: the bytes that change, leaving a large frame body that the tag
    /// refers to in `file` where it already is. Nil when frame bodies of more than 16 MiB would
    /// move (a frame before them changed size): a rewrite copies them in the kernel, where in
    /// place they would be read, written and kept in the journal. When some move, `expected`
    /// is read again from the new tag in memory (it refers to bytes of `file` the writes change).
    static func inPlacePatches(_ serialization: ID3TagSerialization, at offset: UInt64, of file: FileByteSource,
                               expected: inout [ID3Frame]) throws -> [(offset: UInt64, bytes: [UInt8])]? {
        // The tag was read through another opening of the same file (the metadata layer's).
        let isFile: (any ByteSource) -> Bool = { ($0 as? FileByteSource)?.isSameVersion(as: file) ?? false }
        let moved = serialization.contents.bytesToMove(at: offset, over: isFile)
        guard moved <= maxMovedInPlace else { return nil }
        let patches = try serialization.contents.patches(at: offset, over: isFile)
        if moved > 0 { expected = try ID3v2Tag(parsing: serialization.bytes).frames }
        return patches
    }

    /// The most bytes of large frames an in-place save moves (more: the file is rewritten).
    static let maxMovedInPlace = 16 << 20

    /// Writes `ranges` into the file at `path` in place through `FileReplacement.patch`,
    /// refusing when the file is no longer `original`, and re-reading the result with `verify`
    /// (the old bytes go back when anything fails). Errors other than ID3 ones become `.io`.
    static func patch(
        _ path: String, ranges: [(offset: UInt64, bytes: [UInt8])], newSize: UInt64?, original: FileByteSource,
        verify: (FileByteSource) throws -> Void
    ) throws {
        do {
            try FileReplacement.patch(path, ranges: ranges, newSize: newSize, expecting: original) { _ in
                try verify(try FileByteSource(path: path))
            }
        } catch let error as CarrierError {
            throw error
        } catch {
            throw CarrierError(.io, message: "\(error)")
        }
    }

    /// Writes the file anew through `FileReplacement.replace` (beside it, verified by `verify`,
    /// renamed over it); errors other than the carriers' own become `.io`. Returns what of the
    /// file's owner and attributes the new file could not keep.
    static func replace(_ path: String, write: (inout FileByteSink) throws -> Void, verify: (String) throws -> Void) throws(CarrierError) -> [String] {
        do {
            return try FileReplacement.replace(path, write: write, verify: verify)
        } catch let error as CarrierError {
            throw error
        } catch {
            throw CarrierError(.io, message: "\(error)")
        }
    }

    /// Checks that the bytes of `range` in `original` are those at `offset` in `written`,
    /// reporting the mebibyte where they first differ; what the save's sink copied and read
    /// back already (`checked`) is not read again.
    static func compare(_ original: any ByteSource, _ range: Range<UInt64>, _ written: any ByteSource, at offset: UInt64, checked: CheckedCopies, path: String) throws {
        if let difference = try original.firstDifference(at: range.lowerBound, from: written, at: offset, count: UInt64(range.count), skipping: checked) {
            let mebibyte = range.lowerBound + difference / (1 << 20) * (1 << 20)
            throw CarrierError(.verificationFailed, offset: mebibyte,
                               message: "\(path): the bytes written differ from the original's in the mebibyte at byte \(mebibyte); the original is unchanged")
        }
    }
}
