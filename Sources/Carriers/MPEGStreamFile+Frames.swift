import MediaBytes

extension MPEGStreamFile {
    /// One row of the frame table: where an audio frame is, its size, bit rate and whether it
    /// carries a CRC.
    public struct FrameSummary: Sendable, Hashable {
        public var offset: UInt64
        public var size: UInt32
        /// kbit/s: the header's for MPEG audio, the frame's own (its bits over its 1024
        /// samples' time) for ADTS.
        public var bitrate: UInt16
        public var hasCRC: Bool
    }

    /// Every audio frame from the first, each header read (the audio is read a MiB at a time;
    /// nothing is decoded): where the frames stop before the stream's end (a cut, a hole, junk
    /// after the last frame), and whether the Xing header's frame count agrees with the
    /// frames. A frame is one whose header matches the first frame's version, layer and sample
    /// rate (ADTS: object type and sample rate). Rows beyond `maxRows` are counted and not kept.
    public func walkFrames(maxRows: Int = 2_000_000) -> (frames: [FrameSummary], count: Int, diagnostics: [Diagnostic]) {
        guard let kind else { return ([], 0, []) }
        let end = audio.upperBound
        var rows: [FrameSummary] = []
        var diagnostics: [Diagnostic] = []
        var count = 0
        var buffer: [UInt8] = []
        var bufferStart: UInt64 = 0
        // Where a read failed (a bad sector, the file cut since it was opened): the walk stops.
        var failedRead: (offset: UInt64, message: String)?
        // `length` bytes at `offset` from the buffer, refilled when it lacks them from a little
        // before (a search for the next frame looks a frame ahead, then goes on a byte later:
        // the margin keeps that from reading the MiB again).
        func bytes(at offset: UInt64, _ length: Int) -> ArraySlice<UInt8>? {
            guard offset + UInt64(length) <= end else { return nil }
            if offset < bufferStart || offset + UInt64(length) > bufferStart + UInt64(buffer.count) {
                let start = max(audio.lowerBound, offset >= 16 << 10 ? offset - (16 << 10) : 0)
                guard failedRead == nil else { return nil }
                let read: [UInt8]
                do { read = try source.read(at: start, count: Int(min(UInt64(1 << 20), end - start))) } catch {
                    failedRead = (start, error.description)
                    return nil
                }
                buffer = read
                bufferStart = start
            }
            let start = Int(offset - bufferStart)
            return buffer[start..<start + length]
        }
        func frame(at offset: UInt64) -> (length: Int, bitrate: Int, crc: Bool)? {
            switch kind {
            case .mp3:
                guard let first = mpegHeader, let bytes = bytes(at: offset, 4), let header = MPEGAudioFrameHeader(bytes), let length = header.frameLength, length > 4,
                      header.version == first.version, header.layer == first.layer, header.sampleRate == first.sampleRate else { return nil }
                return (length, header.bitrate, header.hasCRC)
            case .aac:
                guard let first = adtsHeader, let bytes = bytes(at: offset, 7), let header = ADTSFrameHeader(bytes),
                      header.sampleRate == first.sampleRate, header.audioObjectType == first.audioObjectType else { return nil }
                let rate = header.sampleRate ?? 0
                return (header.frameLength, header.frameLength * 8 * rate / 1024 / 1000, header.hasCRC)
            }
        }
        func report(_ severity: Diagnostic.Severity, _ code: CarrierError.Code, at offset: UInt64, _ message: String) {
            guard diagnostics.count < 1000 else { return }
            diagnostics.append(Diagnostic(severity, code, area: kind == .aac ? "ADTS" : "MPEG audio", offset: offset, element: "frame \(count)", message: message))
        }
        var at = audio.lowerBound
        // True when the walk stopped before the stream's end: the frame count is not the
        // stream's then.
        var stoppedEarly = false
        while at < end {
            guard let found = frame(at: at) else {
                if failedRead != nil { break }
                // Not a frame here: the next place two frames follow each other, within a MiB.
                var next = at + 1
                var resumed: UInt64?
                while next < end, next - at < 1 << 20, failedRead == nil {
                    // A frame sync first (cheap, from the buffer), then the two headers.
                    if let sync = bytes(at: next, 2), sync[sync.startIndex] == 0xFF, sync[sync.startIndex + 1] & 0xE0 == 0xE0,
                       let candidate = frame(at: next), frame(at: next + UInt64(candidate.length)) != nil || next + UInt64(candidate.length) == end {
                        resumed = next
                        break
                    }
                    next += 1
                }
                if failedRead != nil { break }
                guard let resumed else {
                    stoppedEarly = next < end
                    report(.warning, .malformed, at: at, stoppedEarly
                        ? "more than 1 MiB that is not audio frames starts here; the rest of the stream (\(end - at) bytes) is not walked"
                        : "the last \(end - at) bytes of the stream are not audio frames (junk after the last frame, or a damaged one)")
                    break
                }
                report(.warning, .malformed, at: at, "\(resumed - at) bytes that are not an audio frame (a hole in the stream); the frames go on at byte offset \(resumed)")
                at = resumed
                continue
            }
            if at + UInt64(found.length) > end {
                report(.warning, .truncated, at: at, "the last frame claims \(found.length) bytes; the stream ends \(end - at) bytes into it (cut short)")
                break
            }
            if rows.count < maxRows {
                rows.append(FrameSummary(offset: at, size: UInt32(found.length), bitrate: UInt16(clamping: found.bitrate), hasCRC: found.crc))
            }
            count += 1
            at += UInt64(found.length)
        }
        // The Xing/Info frame holds no audio; its count is of the frames after it (some
        // encoders count it too). A stream shorter than the header's byte count was cut,
        // which the reader reports already; its frames are then fewer by nature.
        if let failedRead {
            stoppedEarly = true
            diagnostics.append(Diagnostic(.error, .io, area: kind == .aac ? "ADTS" : "MPEG audio", offset: failedRead.offset, element: "frame \(count)",
                                          message: "cannot read the stream here (\(failedRead.message)); the frames after it are not counted"))
        }
        let cut = xingHeader?.byteCount.map { UInt64($0) > UInt64(audio.count) } ?? false
        if !cut, !stoppedEarly, let declared = xingHeader?.frameCount, count > 0, Int(declared) != count - 1, Int(declared) != count {
            diagnostics.append(Diagnostic(.warning, .malformed, area: "MPEG audio", offset: audio.lowerBound, element: "Xing header",
                                          message: "the \(xingHeader?.tag ?? "Xing") header says \(declared) frames; the stream has \(count - 1) after it: players that trust it show a wrong duration and seek to the wrong place"))
        }
        return (rows, count, diagnostics)
    }
}
