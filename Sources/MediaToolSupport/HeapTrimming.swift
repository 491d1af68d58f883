#if canImport(Glibc)
import Glibc
#endif

/// The C library's allocator, set up for runs over many files.
public enum HeapTrimming {
    /// Lets glibc's `malloc` keep up to 4 MiB of freed memory at the top of its heap instead of
    /// 128 KiB. Above that threshold it gives the memory back to the system on every `free`,
    /// and the next allocation takes it again, page fault by page fault: `tagedit export`
    /// makes a document of about 100 KiB per file (a cover in Base64, twice) and spent a third
    /// of its time in those faults (1000 files: 122 ms, 82 ms with this). Memory stays flat:
    /// what is kept is reused by the next file. Elsewhere (musl, Darwin) nothing changes.
    public static func keepFreedMemory() {
        #if os(Linux) && canImport(Glibc)
        _ = glibcMallopt(-1 /* M_TRIM_THRESHOLD */, 4 << 20)
        #endif
    }
}

#if os(Linux) && canImport(Glibc)
/// `mallopt(3)`, which Swift's Glibc module does not declare (it is in malloc.h); bound by the
/// linker, so that it is there in the statically linked tools too.
@_silgen_name("mallopt")
private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif
