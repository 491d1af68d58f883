/// The ranges a file sink copied from a file in the kernel and read back equal to their source
/// (`FileByteSink.checkedCopies`): what a save's verification need not compare again.
///
/// A run says: `count` bytes at `sourceOffset` of one source file are, read back, the bytes at
/// `copyOffset` of the copy. Runs are kept in the copy's order (a sink writes front to back),
/// contiguous runs with the same shift merged.
public struct CheckedCopies: Sendable {
    private struct Run: Sendable {
        let source: ObjectIdentifier
        let sourceOffset: UInt64
        let copyOffset: UInt64
        var count: UInt64
        var copyEnd: UInt64 { copyOffset + count }
    }

    private var runs: [Run] = []

    public init() {}

    /// True when nothing was checked.
    public var isEmpty: Bool { runs.isEmpty }

    mutating func add(from source: FileByteSource, at sourceOffset: UInt64, to copyOffset: UInt64, count: UInt64) {
        guard count > 0 else { return }
        let id = ObjectIdentifier(source)
        if let last = runs.last, last.source == id, last.copyEnd == copyOffset, last.sourceOffset + last.count == sourceOffset {
            runs[runs.count - 1].count += count
        } else {
            runs.append(Run(source: id, sourceOffset: sourceOffset, copyOffset: copyOffset, count: count))
        }
    }

    /// The parts of the `count` bytes at `offset` of `source`, meant to be at `copyOffset` of
    /// the copy, that no checked run covers (as ranges of `source`), in order: all of it when
    /// `source` is not the file the runs were copied from.
    func unchecked(_ source: any ByteSource, at offset: UInt64, count: UInt64, copyOffset: UInt64) -> [Range<UInt64>] {
        guard count > 0 else { return [] }
        guard let file = source as? FileByteSource, !runs.isEmpty else { return [offset..<offset + count] }
        let id = ObjectIdentifier(file)
        let copyEnd = copyOffset + count
        // The first run that ends after the range starts (runs are in copy order, disjoint).
        var low = 0, high = runs.count
        while low < high {
            let middle = (low + high) / 2
            if runs[middle].copyEnd <= copyOffset { low = middle + 1 } else { high = middle }
        }
        var result: [Range<UInt64>] = []
        var next = copyOffset  // the first byte of the copy not yet accounted for
        for run in runs[low...] {
            guard run.copyOffset < copyEnd else { break }
            // Only a run of the same source, shifted by the same amount, says these bytes match.
            guard run.source == id, run.copyOffset &- run.sourceOffset == copyOffset &- offset else { continue }
            let coveredStart = max(run.copyOffset, copyOffset), coveredEnd = min(run.copyEnd, copyEnd)
            if coveredStart > next { result.append(offset + (next - copyOffset)..<offset + (coveredStart - copyOffset)) }
            next = max(next, coveredEnd)
        }
        if next < copyEnd { result.append(offset + (next - copyOffset)..<offset + count) }
        return result
    }
}
