import ID3
import ISOBMFF
import MediaBytes

extension MediaFile {
    /// The chapter forms this file can hold, in the order `setChapters` writes them by default
    /// (MP4: the QuickTime chapter track and Nero `chpl`; MP3, ADTS, AIFF, WAV: ID3 `CHAP`/`CTOC`).
    public var chapterForms: [ChapterForm] { type(of: container).chapterForms }

    /// Replaces the file's chapters with `chapters`, written in `forms` (nil: every form the
    /// file can hold; the other forms are removed), for the next `save`; returns notes on what
    /// was adjusted.
    ///
    /// The chapters are put in order of their starts; two that start at the same time, a start
    /// past the end of the file, or a form the file cannot hold is refused (`.badValue`,
    /// `.notRepresentable`). Written as a QuickTime chapter track, a first chapter that starts
    /// after 0 gets an untitled chapter before it (the track's samples cover the timeline from
    /// 0), and above 255
    /// chapters `chpl` is left out (its count is one byte).
    @discardableResult
    public mutating func setChapters(_ chapters: [Chapter], forms: [ChapterForm]? = nil) throws(MetadataError) -> [String] {
        let available = chapterForms
        let requested = forms ?? available
        if let missing = requested.first(where: { !available.contains($0) }) {
            throw MetadataError(.notRepresentable, path: path,
                                message: "\(format.rawValue.uppercased()) files hold no \(missing.name); they hold \(available.map(\.name).joined(separator: " and "))")
        }
        var notes: [String] = []
        var list = chapters.enumerated().sorted { $0.element.start == $1.element.start ? $0.offset < $1.offset : $0.element.start < $1.element.start }.map(\.element)
        if list != chapters { notes.append("chapters put in order of their starts") }
        for (a, b) in zip(list, list.dropFirst()) where a.start == b.start {
            throw MetadataError(.badValue, path: path, message: "two chapters start at \(a.start) (\"\(a.title)\" and \"\(b.title)\")")
        }
        if let duration = container.duration, duration.value > 0, let late = list.first(where: { !($0.start < duration) }) {
            throw MetadataError(.badValue, path: path, message: "chapter \"\(late.title)\" starts at \(late.start), at or after the end of the file (\(duration))")
        }
        var targets = requested
        if targets.contains(where: \.coversTimelineFromZero), let first = list.first, first.start.value > 0 {
            list.insert(Chapter(start: ChapterTime(0, timescale: first.start.timescale), end: first.start, title: ""), at: 0)
            notes.append("the first chapter starts at \(first.start): an untitled chapter from 0 is added, as a chapter track covers the timeline from its start")
        }
        if targets.contains(.nero), list.count > 255 {
            guard targets.count > 1 else {
                throw MetadataError(.notRepresentable, path: path, message: "Nero chapters (chpl) hold at most 255 chapters, not \(list.count)")
            }
            targets.removeAll { $0 == .nero }
            notes.append("\(list.count) chapters: Nero chapters (chpl) are left out, as they hold at most 255 (VLC would hide the rest)")
        }
        // What a form cannot hold is said, not dropped in silence.
        for form in targets {
            let holds = form.holds
            for (what, held, count) in [("subtitles", holds.subtitle, list.filter { $0.subtitle != nil }.count),
                                        ("URLs", holds.url, list.filter { $0.url != nil }.count),
                                        ("images", holds.image, list.filter { $0.image != nil }.count)] where !held && count > 0 {
                notes.append("\(count) chapter\(count == 1 ? "'s" : "s'") \(what) not kept in the \(form.name): it holds no \(what)")
            }
        }
        do {
            // The forms not written lose their chapters, so that no form says something else.
            for form in available where !targets.contains(form) {
                _ = container.removeChapters(form: form)
            }
            for form in targets { notes += try container.setChapters(list, form: form) }
        } catch {
            throw MetadataError.wrapping(error, path: path)
        }
        appendNotes(notes)
        return notes
    }

    /// Removes the file's chapters in `forms` (nil: every form) for the next `save`; returns
    /// the forms that had chapters.
    @discardableResult
    public mutating func removeChapters(forms: [ChapterForm]? = nil) -> [ChapterForm] {
        var removed: [ChapterForm] = []
        for form in forms ?? ChapterForm.all where chapterForms.contains(form) {
            if container.removeChapters(form: form) { removed.append(form) }
        }
        return removed
    }
}

extension Chapter {
    /// Where each chapter of `chapters` (in order) ends: its own end when it has one after its
    /// start, else the next chapter's start, else `duration`, else a second after its start.
    static func ends(of chapters: [Chapter], duration: ChapterTime?) -> [ChapterTime] {
        chapters.enumerated().map { index, chapter in
            if index + 1 < chapters.count { return chapters[index + 1].start }
            if let end = chapter.end, chapter.start < end { return end }
            if let duration, chapter.start < duration { return duration }
            return ChapterTime(chapter.start.converted(to: 1000) + 1000, timescale: 1000)
        }
    }
}

// MARK: - MP4

extension MovieMetadataStore {
    /// The movie's duration (`mvhd`), when it has one.
    var duration: ChapterTime? {
        movieTime.flatMap { $0.timescale > 0 && $0.duration > 0 ? ChapterTime($0.duration, timescale: $0.timescale) : nil }
    }

    /// Writes `chapters` as Nero chapters: `chpl` version 1 in the movie's user data, starts in
    /// 100 ns units, titles in UTF-8 cut to 255 bytes.
    mutating func setNeroChapters(_ chapters: [Chapter]) -> [String] {
        var notes: [String] = []
        var writer = ByteWriter(capacity: 9 + chapters.count * 40)
        writer.writeUInt32(0x0100_0000)  // version 1, no flags
        writer.writeUInt32(0)
        writer.writeUInt8(UInt8(chapters.count))
        for chapter in chapters {
            writer.writeUInt64(chapter.start.converted(to: 10_000_000))
            let title = TextDecoding.utf8Bytes(of: chapter.title, maxBytes: 255)
            if title.count < chapter.title.utf8.count { notes.append("chpl: the title \"\(chapter.title)\" is cut to 255 bytes") }
            writer.writeUInt8(UInt8(title.count))
            writer.writeBytes(title)
        }
        let item = UserDataItem(type: "chpl", payload: writer.bytes)
        if let index = scope.userData.firstIndex(where: { $0.type == "chpl" }) {
            scope.userData[index] = item
            scope.userData.removeAll { $0.type == "chpl" && $0.payload != item.payload }
        } else {
            scope.userData.append(item)
        }
        return notes
    }

    /// Removes `chpl`; false when there was none.
    mutating func removeNeroChapters() -> Bool {
        let before = scope.userData.count
        scope.userData.removeAll { $0.type == "chpl" }
        return scope.userData.count != before
    }
}

extension ChapterTrackEdit {
    /// The chapter track for `chapters` (in order, the first at 0): in the least common
    /// multiple of their timescales, so that every time stays exact, when that fits 32 bits and
    /// so does each duration; else in milliseconds.
    init(_ chapters: [Chapter], duration: ChapterTime?) {
        let ends = Chapter.ends(of: chapters, duration: duration)
        func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 { b == 0 ? a : gcd(b, a % b) }
        let common = Set(chapters.map(\.start.timescale) + ends.map(\.timescale)).reduce(UInt64(1)) { lcm, scale in
            lcm > UInt64(UInt32.max) ? lcm : lcm / gcd(lcm, UInt64(scale)) * UInt64(scale)
        }
        var timescale: UInt32 = common <= UInt64(UInt32.max) ? UInt32(common) : 1000
        func samples(_ scale: UInt32) -> [QuickTimeChapterTrack.Sample] {
            zip(chapters, ends).map { chapter, end in
                let start = chapter.start.converted(to: scale)
                let stop = max(end.converted(to: scale), start + 1)
                return QuickTimeChapterTrack.Sample(start: start, duration: stop - start, title: chapter.title)
            }
        }
        var result = samples(timescale)
        if result.contains(where: { $0.duration > UInt64(UInt32.max) }) {
            timescale = 1000
            result = samples(timescale)
        }
        self.init(timescale: timescale, samples: result)
    }
}

// MARK: - ID3

extension ID3MetadataStore {
    /// Writes `chapters` as ID3 chapters: one `CHAP` per chapter (element IDs `chp0`...,
    /// start and end in milliseconds, each ending at its own end where it has one that does
    /// not pass the next start, else at the next start, the last at `duration`; byte offsets unused,
    /// `TIT2` and where given `TIT3`, `WXXX` and `APIC`), listed in order by one top-level
    /// `CTOC` (`toc`); every earlier `CHAP` and `CTOC` is replaced.
    mutating func setID3Chapters(_ chapters: [Chapter], duration: ChapterTime?) -> [String] {
        _ = removeID3Chapters()
        let ends = Chapter.ends(of: chapters, duration: duration)
        var ids: [String] = []
        var used: Set<String> = []
        for chapter in chapters {
            var id = chapter.elementID ?? ""
            if id.isEmpty || id.utf8.count > 255 || used.contains(id) || id.contains("\0") {
                var n = used.count
                repeat { id = "chp\(n)"; n += 1 } while used.contains(id)
            }
            used.insert(id)
            ids.append(id)
        }
        for (index, chapter) in chapters.enumerated() {
            var subframes = [ID3Frame(id: "TIT2", content: .text(encoding: encoding(for: [chapter.title]), values: [chapter.title]))]
            if let subtitle = chapter.subtitle { subframes.append(ID3Frame(id: "TIT3", content: .text(encoding: encoding(for: [subtitle]), values: [subtitle]))) }
            if let url = chapter.url { subframes.append(ID3Frame(id: "WXXX", content: .userURL(encoding: .latin1, description: "", url: url))) }
            if let image = chapter.image {
                subframes.append(ID3Frame(id: "APIC", content: .picture(encoding: encoding(for: [image.description]), mimeType: image.mimeType,
                                                                      pictureType: image.type.rawValue, description: image.description, data: ID3Payload(image.data))))
            }
            let start = UInt32(clamping: chapter.start.converted(to: 1000))
            // A chapter's own end where it has one before the next start (`CHAP` frames may
            // leave gaps between chapters); else the next start, or the file's end.
            let next = index + 1 < chapters.count ? chapters[index + 1].start : nil
            let own = chapter.end.flatMap { end in chapter.start < end && next.map { !($0 < end) } ?? true ? end : nil }
            let end = UInt32(clamping: (own ?? ends[index]).converted(to: 1000))
            tag.frames.append(ID3Frame(id: "CHAP", content: .chapter(elementID: ids[index], startTime: start, endTime: max(end, start),
                                                                     startOffset: .max, endOffset: .max, subframes: subframes)))
        }
        var tocID = "toc"
        while used.contains(tocID) { tocID += "_" }
        tag.frames.append(ID3Frame(id: "CTOC", content: .tableOfContents(elementID: tocID, isTopLevel: true, isOrdered: true, children: ids, subframes: [])))
        return []
    }

    /// Removes every `CHAP` and `CTOC`; false when there were none.
    mutating func removeID3Chapters() -> Bool {
        let before = tag.frames.count
        tag.frames.removeAll { $0.id == "CHAP" || $0.id == "CTOC" }
        return tag.frames.count != before
    }
}
