import Foundation
import MediaBytes

/// Movies too large to commit, made in test code: a track of `sampleCount` samples of
/// `sampleSize` bytes each in one chunk, in an `mdat` of `mediaSize` bytes (64-bit size) after
/// the movie (or before it). The file is written sparse: only the atoms take disk space.
public enum LargeMovieBuilder {
    public static func movie(sampleCount: Int, sampleSize: UInt32 = 16, mediaSize: UInt64) -> (head: [UInt8], fileSize: UInt64) {
        typealias A = AtomBuilder
        let count = UInt64(sampleCount)
        var sizes = ByteWriter()
        for i in 0..<sampleCount { sizes.writeUInt32(sampleSize &+ UInt32(i % 3)) }
        func stbl(chunkOffset: UInt64) -> [UInt8] {
            A.container("stbl",
                        A.fullBox("stsd", A.be(0, width: 4)),
                        A.fullBox("stts", A.be(1, width: 4) + A.be(count, width: 4) + A.be(1024, width: 4)),
                        A.fullBox("stss", A.be(2, width: 4) + A.be(1, width: 4) + A.be(count / 2 + 1, width: 4)),
                        A.fullBox("stsc", A.be(1, width: 4) + A.be(1, width: 4) + A.be(count, width: 4) + A.be(1, width: 4)),
                        A.fullBox("stsz", A.be(0, width: 4) + A.be(count, width: 4) + sizes.bytes),
                        A.fullBox("co64", A.be(1, width: 4) + A.be(chunkOffset, width: 8)))
        }
        func moov(chunkOffset: UInt64) -> [UInt8] {
            A.container("moov",
                        A.fullBox("mvhd", A.be(0, width: 8) + A.be(44100, width: 4) + A.be(count * 1024, width: 4) + [UInt8](repeating: 0, count: 80)),
                        A.container("trak",
                                    A.fullBox("tkhd", flags: 3, A.be(0, width: 8) + A.be(1, width: 4) + [UInt8](repeating: 0, count: 68)),
                                    A.container("mdia",
                                                A.fullBox("mdhd", A.be(0, width: 8) + A.be(44100, width: 4) + A.be(count * 1024, width: 4) + A.be(0x55C4, width: 2) + [0, 0]),
                                                A.fullBox("hdlr", A.be(0, width: 4) + Array("soun".utf8) + [UInt8](repeating: 0, count: 12) + [0]),
                                                A.container("minf", stbl(chunkOffset: chunkOffset)))))
        }
        let ftyp = A.ftyp()
        let moovSize = UInt64(moov(chunkOffset: 0).count)
        let mdatOffset = UInt64(ftyp.count) + moovSize
        let head = ftyp + moov(chunkOffset: mdatOffset + 16) + A.be(1, width: 4) + Array("mdat".utf8) + A.be(mediaSize + 16, width: 8)
        return (head, mdatOffset + 16 + mediaSize)
    }

    /// Writes the movie sparse at `path`; with `movieFirst` false, `moov` follows the media.
    public static func write(to path: String, sampleCount: Int, sampleSize: UInt32 = 16, mediaSize: UInt64, movieFirst: Bool = true) throws {
        let (head, size) = movie(sampleCount: sampleCount, sampleSize: sampleSize, mediaSize: mediaSize)
        guard !movieFirst else {
            try Data(head).write(to: URL(fileURLWithPath: path))
            guard truncate(path, off_t(size)) == 0 else { throw CocoaError(.fileWriteUnknown) }
            return
        }
        // ftyp, mdat, then moov with its chunk offset moved to the media's new place.
        let size32 = { (at: Int) in head[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        let ftypSize = size32(0), moovEnd = ftypSize + size32(ftypSize)
        let mdatHeader = Array(head[moovEnd...])
        let mediaStart = UInt64(ftypSize + mdatHeader.count)
        var movie = Array(head[ftypSize..<moovEnd])
        movie.replaceSubrange(movie.count - 8..<movie.count, with: AtomBuilder.be(mediaStart, width: 8))  // co64's one entry ends moov
        try Data(Array(head[..<ftypSize]) + mdatHeader).write(to: URL(fileURLWithPath: path))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: mediaStart + mediaSize)
        try handle.write(contentsOf: movie)
        try handle.close()
    }
}
