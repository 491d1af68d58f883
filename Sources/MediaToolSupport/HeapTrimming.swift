#if canImport(Glibc)
import Glibc
#endif

/// The C library's allocator, set up for runs over many files.
public enum HeapTrimming {
    /// Lets glibc's `malloc` keep freed memory for the next file instead of handing it back to
    /// the system at once. By default it returns the free top of its heap whenever that exceeds
    /// 128 KiB, and serves blocks over 128 KiB with `mmap` of their own; it raises both limits
    /// as it sees larger blocks freed, up to 32 MiB for `mmap` and twice that for trimming. A
    /// run over many files allocates and frees the same sizes file after file, and every block
    /// handed back came in again page fault by page fault: `tagedit export` makes a document of
    /// about 100 KiB per file (a cover in Base64, twice) and spent a third of its time in those
    /// faults (1000 files: 122 ms, 82 ms with this). This sets both limits where glibc's own
    /// adjustment ends (setting one turns that adjustment off): `mmap` from 32 MiB (512 KiB on
    /// 32-bit systems), trimming above twice that. Memory stays bounded: what is kept was in
    /// use, and the next file reuses it (each allocator arena keeps at most that much; a
    /// worker thread has an arena of its own). Elsewhere (musl, Darwin) nothing changes.
    /// Returns true when glibc took both settings.
    @discardableResult
    public static func keepFreedMemory() -> Bool {
        #if os(Linux) && canImport(Glibc)
        let mmapThreshold: Int32 = MemoryLayout<Int>.size == 8 ? 32 << 20 : 512 << 10
        let tookMmap = glibcMallopt(-3 /* M_MMAP_THRESHOLD */, mmapThreshold) == 1
        let tookTrim = glibcMallopt(-1 /* M_TRIM_THRESHOLD */, 2 * mmapThreshold) == 1
        return tookMmap && tookTrim
        #else
        return false
        #endif
    }
}

#if os(Linux) && canImport(Glibc)
/// `mallopt(3)`, which Swift's Glibc module does not declare (it is in malloc.h); bound by the
/// linker, so that it is there in the statically linked tools too.
@_silgen_name("mallopt")
private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif
