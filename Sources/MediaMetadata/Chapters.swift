/// A point in a file's timeline, exact: a count of `timescale` units (a QuickTime track's
/// media timescale, 10,000,000 for Nero's 100 ns units, 1000 for ID3's milliseconds).
public struct ChapterTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var value: UInt64
    public var timescale: UInt32

    public init(_ value: UInt64, timescale: UInt32) {
        self.value = value
        self.timescale = max(timescale, 1)
    }

    /// A time in milliseconds.
    public static func milliseconds(_ value: UInt64) -> ChapterTime { ChapterTime(value, timescale: 1000) }

    public var seconds: Double { Double(value) / Double(timescale) }

    /// The time in `timescale` units, rounded to the nearest.
    public func converted(to timescale: UInt32) -> UInt64 {
        if timescale == self.timescale { return value }
        let (high, low) = value.multipliedFullWidth(by: UInt64(timescale))
        guard high < UInt64(self.timescale) else { return .max }
        let (quotient, remainder) = UInt64(self.timescale).dividingFullWidth((high, low))
        return remainder * 2 >= UInt64(self.timescale) ? quotient + 1 : quotient
    }

    public static func < (a: ChapterTime, b: ChapterTime) -> Bool {
        a.value.multipliedFullWidth(by: UInt64(b.timescale)) < b.value.multipliedFullWidth(by: UInt64(a.timescale))
    }

    public static func == (a: ChapterTime, b: ChapterTime) -> Bool {
        a.value.multipliedFullWidth(by: UInt64(b.timescale)) == b.value.multipliedFullWidth(by: UInt64(a.timescale))
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(seconds) }

    /// `H:MM:SS.mmm`, as chapter lists print it.
    public var description: String {
        let millis = converted(to: 1000)
        let (hours, rest) = millis.quotientAndRemainder(dividingBy: 3_600_000)
        let (minutes, rest2) = rest.quotientAndRemainder(dividingBy: 60_000)
        let (seconds, ms) = rest2.quotientAndRemainder(dividingBy: 1000)
        func two(_ n: UInt64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let three = ms < 10 ? "00\(ms)" : ms < 100 ? "0\(ms)" : "\(ms)"
        return "\(two(hours)):\(two(minutes)):\(two(seconds)).\(three)"
    }
}

/// One chapter: where it starts and ends, its title, and what else its form holds.
public struct Chapter: Sendable, Hashable {
    public var start: ChapterTime
    /// Where it ends; nil when the form does not say and the file's duration is unknown.
    public var end: ChapterTime?
    public var title: String
    /// ID3 `TIT3` in a `CHAP`.
    public var subtitle: String?
    /// ID3 `WXXX` in a `CHAP`.
    public var url: String?
    /// ID3 `APIC` in a `CHAP`.
    public var image: MediaPicture?
    /// The ID3 element ID (`chp0`), when the chapter came from a `CHAP` frame.
    public var elementID: String?

    public init(start: ChapterTime, end: ChapterTime? = nil, title: String, subtitle: String? = nil, url: String? = nil,
                image: MediaPicture? = nil, elementID: String? = nil) {
        self.start = start
        self.end = end
        self.title = title
        self.subtitle = subtitle
        self.url = url
        self.image = image
        self.elementID = elementID
    }
}

/// A form chapters are stored in. Open: a new container's form is a new constant.
public struct ChapterForm: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The QuickTime chapter track (a `text` track named by `tref/chap`).
    public static let quickTime = ChapterForm(rawValue: "qt")
    /// Nero's `moov/udta/chpl`.
    public static let nero = ChapterForm(rawValue: "nero")
    /// ID3v2 `CHAP` frames, ordered by `CTOC`.
    public static let id3 = ChapterForm(rawValue: "id3")

    /// Vorbis comment fields `CHAPTERnnn=HH:MM:SS.mmm` and `CHAPTERnnnNAME` (FLAC, Ogg).
    public static let vorbis = ChapterForm(rawValue: "vorbis")

    public static let all: [ChapterForm] = [.quickTime, .nero, .id3, .vorbis]

    /// True for a form whose chapters cover the timeline from 0 (a chapter track's samples):
    /// a first chapter after 0 gets an untitled one before it.
    public var coversTimelineFromZero: Bool { self == .quickTime }

    /// What a chapter of this form holds beside its start and title (and end, where the form
    /// has one): ID3 `CHAP` frames hold a subtitle (`TIT3`), a URL (`WXXX`) and an image
    /// (`APIC`, bytes or a link), Vorbis comments a URL (`CHAPTERnnnURL`), the MP4 forms none.
    public var holds: (subtitle: Bool, url: Bool, image: Bool) {
        switch self {
        case .id3: (true, true, true)
        case .vorbis: (false, true, false)
        default: (false, false, false)
        }
    }

    /// What people call it.
    public var name: String {
        switch self {
        case .quickTime: "QuickTime chapter track"
        case .nero: "Nero chapters (chpl)"
        case .id3: "ID3 chapters (CHAP/CTOC)"
        case .vorbis: "Vorbis comment chapters (CHAPTERnnn)"
        default: rawValue
        }
    }

    /// The players that read this form.
    public var readers: String {
        switch self {
        case .quickTime: "Apple Books, Music, QuickTime Player and AV Foundation; ffmpeg and mpv"
        case .nero: "VLC (which prefers it), ffmpeg, mpv, foobar2000"
        case .id3: "podcast apps and MP3 players, ffmpeg; Apple only with a top-level CTOC"
        case .vorbis: "foobar2000, VLC and mpv (Ogg), ffmpeg (Ogg)"
        default: ""
        }
    }

    public var description: String { rawValue }
}

/// The chapters of one form in a file, and what reading them noticed.
public struct ChapterList: Sendable, Hashable {
    public var form: ChapterForm
    public var chapters: [Chapter]
    /// Observations about this list (a count cut, times in another unit, a CHAP no CTOC lists).
    public var notes: [String]

    public init(form: ChapterForm, chapters: [Chapter], notes: [String] = []) {
        self.form = form
        self.chapters = chapters
        self.notes = notes
    }

    /// Where two lists of the same file disagree, in words; empty when they agree (starts
    /// within a millisecond, the same titles).
    public static func disagreements(_ a: ChapterList, _ b: ChapterList) -> [String] {
        if a.chapters.count != b.chapters.count {
            return ["the \(a.form.name) has \(a.chapters.count) chapters, the \(b.form.name) \(b.chapters.count)"]
        }
        var found: [String] = []
        for (index, (x, y)) in zip(a.chapters, b.chapters).enumerated() {
            let apart = x.start.converted(to: 1000) > y.start.converted(to: 1000)
                ? x.start.converted(to: 1000) - y.start.converted(to: 1000) : y.start.converted(to: 1000) - x.start.converted(to: 1000)
            if apart > 1 { found.append("chapter \(index + 1) starts at \(x.start) in the \(a.form.name) and \(y.start) in the \(b.form.name)") }
            if x.title != y.title { found.append("chapter \(index + 1) is \"\(x.title)\" in the \(a.form.name) and \"\(y.title)\" in the \(b.form.name)") }
        }
        return found
    }
}

extension MediaFile {
    /// The chapters as players show them: the QuickTime chapter track when the file has one
    /// (what Apple reads; ffmpeg too), else Nero chapters, else ID3 chapters (`shownChapterList`).
    public var chapters: [Chapter] { shownChapterList?.chapters ?? [] }

    /// The chapter list players show: the first form of `ChapterForm.all` that has chapters.
    /// Players pass over a form they find empty or unusable (a QuickTime chapter track whose
    /// samples cannot be read) to the next, and so does this; the list then says so in its
    /// notes. Nil when the file has no form of chapters; the first (empty) form's list when
    /// none has chapters.
    public var shownChapterList: ChapterList? {
        let lists = chapterLists
        let ordered = ChapterForm.all.flatMap { form in lists.filter { $0.form == form } } + lists.filter { !ChapterForm.all.contains($0.form) }
        guard var shown = ordered.first(where: { !$0.chapters.isEmpty }) else { return ordered.first }
        let passed = ordered.prefix { $0.form != shown.form }.filter(\.chapters.isEmpty)
        for skipped in passed {
            shown.notes.append("the \(skipped.form.name) has no chapters players can read; they show these \(shown.form.name) instead, as this list does")
        }
        return shown
    }

    /// Every form of chapters the file holds, in the order of `ChapterForm.all`, each with
    /// its notes; where two forms disagree, both lists say so.
    public var chapterLists: [ChapterList] {
        var lists = container.chapterLists
        // A form that does not say where a chapter ends (Vorbis comment chapters): each ends
        // where the next begins, the last at the end of the file when its duration is known.
        for i in lists.indices {
            let chapters = lists[i].chapters
            for k in chapters.indices where chapters[k].end == nil {
                lists[i].chapters[k].end = k + 1 < chapters.count ? chapters[k + 1].start : container.duration
            }
        }
        for i in lists.indices {
            for j in lists.indices where j > i {
                lists[i].notes += ChapterList.disagreements(lists[i], lists[j])
            }
        }
        return lists
    }
}
