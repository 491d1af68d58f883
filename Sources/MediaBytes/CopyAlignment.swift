/// How much padding a rewrite leaves so that the bytes it copies keep their alignment.
///
/// A rewrite that grows a tag moves everything after it by the growth. When that shift is a
/// multiple of `granule`, each copied byte lands at the same offset modulo 64 KiB as in the
/// original: the kernel copies whole page-cache pages and folios instead of stitching every
/// page of the copy from two of the source (on this project's benchmark machine, Linux 6.18 and
/// ext4, copying and flushing 1 GiB took 0.51 s aligned against 0.70 s shifted by 3000 bytes),
/// and a file system with reflinks (XFS, Btrfs, bcachefs) can share the blocks instead of
/// copying them, which it can only do for whole blocks at the same offset within a block. 64 KiB
/// is a multiple of every common block and page size.
///
/// Only a large copy pays for the extra padding (at most `granule - 1` bytes, under 0.1 % of
/// what is moved); a small file is written with the padding asked for.
public enum CopyAlignment {
    /// The shift that copies at full speed is a multiple of this.
    public static let granule: UInt64 = 64 << 10
    /// Copies of fewer bytes than this are not worth padding for.
    public static let threshold: UInt64 = 64 << 20

    /// The padding to write instead of `padding`: `padding` itself, or up to `granule - 1`
    /// bytes more so that the `count` bytes that, written with `padding`, would move by
    /// `shift` (new offset less old) move by a multiple of `granule`. `padding` is returned as
    /// it is when `count` is under `threshold`, when `shift` is already a multiple, and when it
    /// is 0 (no padding was asked for).
    public static func padding(_ padding: UInt64, shift: Int64, moving count: UInt64) -> UInt64 {
        guard count >= threshold, padding > 0 else { return padding }
        let remainder = UInt64(truncatingIfNeeded: shift) % granule  // two's complement: granule divides 2^64
        return remainder == 0 ? padding : padding + (granule - remainder)
    }
}
