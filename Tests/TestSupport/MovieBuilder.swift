import MediaBytes

/// Builds small but complete movies for rewrite tests: `ftyp`, a `moov` with one audio track
/// whose chunks point into `mdat`, and optional metadata, in either order.
public struct MovieBuilder {
    /// Bytes of each chunk's single sample, in order.
    public var chunks: [[UInt8]] = [[1, 2, 3, 4, 5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16, 17, 18]]
    public var movieFirst = true
    /// Children of `moov/udta` (none: no `udta`).
    public var userData: [[UInt8]] = []
    /// Extra children of `moov` after the track.
    public var movieExtras: [[UInt8]] = []
    /// Top-level `free` bytes right after moov (0: none).
    public var paddingAfterMovie = 0
    /// Use `co64` instead of `stco`.
    public var wideOffsets = false
    public var brand: FourCC = "M4A "

    public init() {}

    /// An iTunes `udta/meta` with the given `ilst` items and `free` padding after `ilst`.
    public static func itemListMeta(_ items: [[UInt8]], padding: Int = 0) -> [UInt8] {
        var children = AtomBuilder.fullBox("hdlr", [0, 0, 0, 0] + Array("mdirappl".utf8) + [UInt8](repeating: 0, count: 9))
        children += AtomBuilder.atom("ilst", items.flatMap { $0 })
        if padding >= 8 { children += AtomBuilder.atom("free", [UInt8](repeating: 0, count: padding - 8)) }
        return AtomBuilder.atom("meta", [0, 0, 0, 0] + children)
    }

    /// An item with one UTF-8 `data` value.
    public static func textItem(_ type: FourCC, _ text: String) -> [UInt8] {
        AtomBuilder.atom(type, AtomBuilder.atom("data", [0, 0, 0, 1, 0, 0, 0, 0] + Array(text.utf8)))
    }

    /// The file, with chunk offsets pointing at the chunks in `mdat`.
    public func build() -> [UInt8] {
        let ftyp = AtomBuilder.ftyp(brand, compatible: [brand, "isom"])
        // moov size does not depend on the offsets' values, so build it once to measure.
        let probe = movie(offsets: [UInt64](repeating: 0, count: chunks.count))
        let padding = paddingAfterMovie >= 8 ? AtomBuilder.atom("free", [UInt8](repeating: 0, count: paddingAfterMovie - 8)) : []
        let mediaStart = UInt64(ftyp.count) + (movieFirst ? UInt64(probe.count + padding.count) : 0) + 8
        var offsets: [UInt64] = []
        var position = mediaStart
        for chunk in chunks {
            offsets.append(position)
            position += UInt64(chunk.count)
        }
        let mdat = AtomBuilder.atom("mdat", chunks.flatMap { $0 })
        let moov = movie(offsets: offsets)
        return movieFirst ? ftyp + moov + padding + mdat : ftyp + mdat + moov + padding
    }

    private func movie(offsets: [UInt64]) -> [UInt8] {
        let count = UInt64(chunks.count)
        let stsd = AtomBuilder.fullBox("stsd", AtomBuilder.be(0, width: 4))
        let stts = AtomBuilder.fullBox("stts", AtomBuilder.be(1, width: 4) + AtomBuilder.be(count, width: 4) + AtomBuilder.be(1024, width: 4))
        let stsc = AtomBuilder.fullBox("stsc", AtomBuilder.be(1, width: 4) + AtomBuilder.be(1, width: 4) + AtomBuilder.be(1, width: 4) + AtomBuilder.be(1, width: 4))
        let stsz = AtomBuilder.fullBox("stsz", AtomBuilder.be(0, width: 4) + AtomBuilder.be(count, width: 4) + chunks.flatMap { AtomBuilder.be(UInt64($0.count), width: 4) })
        let stco = wideOffsets
            ? AtomBuilder.fullBox("co64", AtomBuilder.be(count, width: 4) + offsets.flatMap { AtomBuilder.be($0, width: 8) })
            : AtomBuilder.fullBox("stco", AtomBuilder.be(count, width: 4) + offsets.flatMap { AtomBuilder.be($0, width: 4) })
        let stbl = AtomBuilder.container("stbl", stsd, stts, stsc, stsz, stco)
        let minf = AtomBuilder.container("minf", stbl)
        let hdlr = AtomBuilder.fullBox("hdlr", [0, 0, 0, 0] + Array("soun".utf8) + [UInt8](repeating: 0, count: 13))
        let mdhd = AtomBuilder.fullBox("mdhd", [UInt8](repeating: 0, count: 8) + AtomBuilder.be(44100, width: 4) + AtomBuilder.be(3072, width: 4) + [0x55, 0xC4, 0, 0])
        let mdia = AtomBuilder.container("mdia", mdhd, hdlr, minf)
        let tkhd = AtomBuilder.fullBox("tkhd", flags: 3, [UInt8](repeating: 0, count: 80))
        let trak = AtomBuilder.container("trak", tkhd, mdia)
        let mvhd = AtomBuilder.fullBox("mvhd", [UInt8](repeating: 0, count: 96))
        var children = mvhd + trak
        for extra in movieExtras { children += extra }
        if !userData.isEmpty { children += AtomBuilder.atom("udta", userData.flatMap { $0 }) }
        return AtomBuilder.atom("moov", children)
    }
}
