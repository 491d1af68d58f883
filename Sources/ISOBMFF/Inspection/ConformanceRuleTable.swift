import MediaBytes

/// The rules of the conformance profiles, one row each: a new rule is a row here.
enum ConformanceRules {
    typealias Breach = ConformanceRule.Breach
    typealias Facts = ConformanceFacts

    static let moviePlayers: [ConformanceProfile] = [.apple, .web, .hls, .cmaf]
    static let fragmentPlayers: [ConformanceProfile] = [.web, .hls, .cmaf]

    static let table: [ConformanceRule] = [
        ConformanceRule(
            id: "ftyp-first", profiles: [.web, .hls, .cmaf, .heif], severity: .error,
            source: "ISO/IEC 14496-12 sections 4.3 and 6.2.3 (the file type box comes first)",
            why: "Players and browsers identify the file by its first box and may refuse one that does not start with 'ftyp'",
            breaches: fileTypeFirst),
        ConformanceRule(
            id: "moov-before-mdat", profiles: [.apple, .web], severity: .warning,
            source: "QuickTime File Format, fast start (the movie atom before the media data)",
            why: "A player fetching the file over the network must read to its end before it can start playing",
            breaches: movieBeforeMediaData),
        ConformanceRule(
            id: "movie-duration", profiles: [.apple, .web], severity: .warning,
            source: "ISO/IEC 14496-12 section 8.2.2.3 (mvhd: the duration of the longest track)",
            why: "Players show and seek by the movie's duration; one that disagrees with the tracks makes the time bar wrong",
            breaches: movieDuration),
        ConformanceRule(
            id: "track-duration", profiles: [.web], severity: .warning,
            source: "ISO/IEC 14496-12 section 8.3.2.3 (tkhd: the sum of the edits, or of the samples converted to the movie timescale)",
            why: "A track whose header disagrees with its edits or samples stops early or runs past the end in some players",
            breaches: trackDuration),
        ConformanceRule(
            id: "media-duration", profiles: [.apple, .web], severity: .warning,
            source: "ISO/IEC 14496-12 sections 8.4.2.3 (mdhd duration) and 8.6.1.2 (stts)",
            why: "The media header's duration is what players trust for the track's length; the samples say otherwise",
            breaches: mediaDuration),
        ConformanceRule(
            id: "chunks-overlap", profiles: moviePlayers, severity: .error,
            source: "ISO/IEC 14496-12 section 8.7.5 (chunk offsets)",
            why: "Two chunks cannot own the same bytes: a player decodes one track's data as another's",
            breaches: chunksOverlap),
        ConformanceRule(
            id: "audio-brand-with-video", profiles: [.apple, .web], severity: .warning,
            source: "ISO/IEC 14496-12 section 4.3 (brands); 'M4A ', 'M4B ' and 'M4P ' are Apple's audio brands",
            why: "Players choose how to treat a file by its brand: Music and iTunes file one with an audio brand as audio and hide its video",
            breaches: audioBrandWithVideo),
        ConformanceRule(
            id: "web-codec", profiles: [.web], severity: .warning,
            source: "the codecs browsers decode in MP4 (RFC 6381 codec names; H.264, HEVC, AV1, VP9, AAC, Opus, FLAC, AC-3, E-AC-3)",
            why: "Most browsers cannot decode this codec: the track plays silent or black",
            breaches: webCodec),
        ConformanceRule(
            id: "external-data-reference", profiles: [.apple, .web, .hls, .cmaf], severity: .error,
            source: "ISO/IEC 14496-12 section 8.7.2 (data references); RFC 8216 section 3.3 forbids them in HLS",
            why: "The media is in another file the player is not given, so it plays nothing",
            breaches: externalDataReference),
        ConformanceRule(
            id: "fragments-without-mvex", profiles: moviePlayers, severity: .error,
            source: "ISO/IEC 14496-12 section 8.8.1 (mvex tells a reader that movie fragments follow)",
            why: "A player that finds no 'mvex' in the movie does not look for fragments and plays only what 'moov' lists",
            breaches: fragmentsWithoutMovieExtends),
        ConformanceRule(
            id: "tfdt-missing", profiles: [.hls, .cmaf], severity: .error,
            source: "RFC 8216 section 3.3 and ISO/IEC 23000-19 (every track fragment carries a 'tfdt')",
            why: "Without a decode time a player that joins the stream at this fragment cannot place its samples on the timeline",
            breaches: decodeTimeMissing),
        ConformanceRule(
            id: "tfdt-continuity", profiles: fragmentPlayers, severity: .warning,
            source: "ISO/IEC 14496-12 section 8.8.12 (tfdt: the sum of the durations of all earlier samples)",
            why: "A gap or overlap between fragments makes players stall, skip or drop frames at the join",
            breaches: decodeTimeContinuity),
        ConformanceRule(
            id: "sidx-references", profiles: fragmentPlayers, severity: .error,
            source: "ISO/IEC 14496-12 section 8.16.3 (segment index: referenced sizes and subsegment durations)",
            why: "Players seek through the index: a wrong size sends them into the middle of a box, a wrong duration to the wrong time",
            breaches: segmentIndexReferences),
        ConformanceRule(
            id: "aux-info-count", profiles: moviePlayers, severity: .error,
            source: "ISO/IEC 23001-7 section 7.2 (senc) and ISO/IEC 14496-12 section 8.7.8 (saiz): one entry per sample of the fragment",
            why: "A decrypting player takes each sample's IV by position: a count that differs from the runs' gives samples the wrong IV",
            breaches: auxiliaryInformationCount),
        ConformanceRule(
            id: "emsg-placement", profiles: [.hls, .cmaf], severity: .warning,
            source: "ISO/IEC 23009-1 section 5.10.3.3 and ISO/IEC 23000-19 (an event message precedes the 'moof' it travels with)",
            why: "Players dispatch events as they reach a fragment: one placed after it arrives late or is dropped",
            breaches: eventMessagePlacement),
        ConformanceRule(
            id: "cmaf-brand", profiles: [.cmaf], severity: .warning,
            source: "ISO/IEC 23000-19 section 7.2 (CMAF structural brands 'cmfc' and 'cmf2')",
            why: "Packagers and players recognise a CMAF track by its brand",
            breaches: commonMediaBrand),
        ConformanceRule(
            id: "cmaf-one-track", profiles: [.cmaf], severity: .error,
            source: "ISO/IEC 23000-19 section 7.3.2.1 (a CMAF header holds one track)",
            why: "A CMAF track file carries one track: packagers take the first and drop the others",
            breaches: commonMediaOneTrack),
        ConformanceRule(
            id: "hls-fragmented", profiles: [.hls], severity: .error,
            source: "RFC 8216 sections 3.1 and 3.3 (MPEG-4 media segments are fragmented MPEG-4)",
            why: "HLS serves MPEG-4 media only as fragments: an unfragmented file cannot be a media segment",
            breaches: streamingFragmented),
        ConformanceRule(
            id: "hls-relative-addressing", profiles: [.hls], severity: .error,
            source: "RFC 8216 section 3.3 (fMP4 segments use movie-fragment relative addressing)",
            why: "An absolute base data offset points at the wrong bytes once the segment is served on its own",
            breaches: streamingRelativeAddressing),
        ConformanceRule(
            id: "hls-video-codec", profiles: [.hls], severity: .error,
            source: "HLS Authoring Specification for Apple Devices, 1.1 (video is H.264 or HEVC)",
            why: "Apple devices play HLS video only as H.264 or HEVC",
            breaches: streamingVideoCodec),
        ConformanceRule(
            id: "hls-h264-profile-level", profiles: [.hls], severity: .warning,
            source: "HLS Authoring Specification for Apple Devices, 1.3 (H.264 at most High profile, level 4.2)",
            why: "Apple devices need not decode H.264 beyond High profile, level 4.2",
            breaches: streamingAVCProfileLevel),
        ConformanceRule(
            id: "heif-brand", profiles: [.heif], severity: .error,
            source: "ISO/IEC 23008-12 section 10.2 (structural brands 'mif1' and 'msf1')",
            why: "Viewers recognise a HEIF file by these brands and do not open one without",
            breaches: imageStructuralBrand),
        ConformanceRule(
            id: "heif-codec-brand", profiles: [.heif], severity: .warning,
            source: "ISO/IEC 23008-12 Annex B ('heic', 'heix' for HEVC images) and the AVIF specification ('avif' for AV1 images)",
            why: "Viewers decide whether they can decode a file by its brands before reading its items",
            breaches: imageCodecBrand),
        ConformanceRule(
            id: "heif-primary-item", profiles: [.heif], severity: .error,
            source: "ISO/IEC 14496-12 section 8.11.4 (pitm) and ISO/IEC 23008-12 section 10.2.1",
            why: "A viewer shows the primary item: without one, or with one that does not exist, it has nothing to show",
            breaches: imagePrimaryItem),
        ConformanceRule(
            id: "heif-item-references", profiles: [.heif], severity: .error,
            source: "ISO/IEC 23008-12 section 9.3.2 (ipma) and ISO/IEC 14496-12 section 8.11.12 (iref)",
            why: "A reference to an item that does not exist leaves a grid with a hole or a thumbnail of nothing",
            breaches: imageItemReferences),
        ConformanceRule(
            id: "heif-property-index", profiles: [.heif], severity: .error,
            source: "ISO/IEC 23008-12 section 9.3.2 (property indexes count the boxes of 'ipco' from 1)",
            why: "A viewer looks properties up by index: one past the end names a property that does not exist",
            breaches: imagePropertyIndex),
        ConformanceRule(
            id: "heif-ispe", profiles: [.heif], severity: .error,
            source: "ISO/IEC 23008-12 section 6.5.3.1 (every image item has an 'ispe' property)",
            why: "Viewers size an image from 'ispe' before decoding it and reject an image item without one",
            breaches: imageSpatialExtents),
        ConformanceRule(
            id: "itunes-data-type", profiles: [.apple], severity: .warning,
            source: "QuickTime File Format, metadata data types; the types and widths iTunes writes",
            why: "Music, iTunes and Apple devices skip an item whose type or width is not the one they write",
            breaches: itemListDataTypes),
        ConformanceRule(
            id: "chapter-track", profiles: [.apple], severity: .warning,
            source: "QuickTime File Format, track references ('chap'): chapters are a disabled text track",
            why: "Chapters are shown from a text track the movie refers to; an enabled one is also played as subtitles",
            breaches: chapterTrack),
    ]

    // MARK: File layout

    static func fileTypeFirst(_ facts: Facts) -> [Breach] {
        // A media segment opens with `styp` or its fragment instead (section 8.16.2).
        guard let first = facts.tree.atoms.first, !(facts.movie == nil && AtomStructureCheck.isMediaSegment(facts.tree)) else { return [] }
        guard let (_, ftyp) = facts.fileType else { return [Breach(first, nil, "the file has no 'ftyp' box")] }
        return first.offset == ftyp.offset ? [] : [Breach(ftyp, AtomPath.root.appending("ftyp"), "'ftyp' at byte \(ftyp.offset) follows '\(first.type)'")]
    }

    static func movieBeforeMediaData(_ facts: Facts) -> [Breach] {
        guard let moov = facts.movie, let mdat = facts.tree.atoms.first(where: { $0.type == "mdat" && $0.payloadSize > 0 }),
              mdat.offset < moov.offset else { return [] }
        return [Breach(moov, AtomPath.root.appending("moov"), "'moov' at byte \(moov.offset) follows the media data ('mdat' at byte \(mdat.offset))")]
    }

    static func audioBrandWithVideo(_ facts: Facts) -> [Breach] {
        guard let (box, atom) = facts.fileType, ["M4A ", "M4B ", "M4P "].contains(box.majorBrand),
              let video = facts.tracks.first(where: { $0.handler == "vide" }) else { return [] }
        return [Breach(atom, AtomPath.root.appending("ftyp"), "the major brand is '\(box.majorBrand)' but \(video.path) is a video track")]
    }

    static func externalDataReference(_ facts: Facts) -> [Breach] {
        facts.dataReferences.filter { !$0.box.isSelfContained }.map {
            Breach($0.atom, $0.path, "the media is in another file" + ($0.box.location.map { " (\"\($0)\")" } ?? ""))
        }
    }

    // MARK: Durations

    /// `a` and `b` differ by more than one tick (what converting between timescales can round).
    static func differ(_ a: UInt64, _ b: UInt64) -> Bool { a > b ? a - b > 1 : b - a > 1 }

    static func seconds(_ ticks: UInt64, _ timescale: UInt32?) -> String {
        guard let timescale, timescale > 0 else { return "\(ticks) ticks" }
        return "\(ticks) (\(FieldValue.seconds(Double(ticks) / Double(timescale))) s)"
    }

    static func movieDuration(_ facts: Facts) -> [Breach] {
        guard !facts.isFragmented, let moov = facts.movie, let header = facts.movieHeader else { return [] }
        let longest = facts.tracks.compactMap(\.header?.duration).max()
        guard let longest, differ(header.duration, longest) else { return [] }
        return [Breach(moov, AtomPath.root.appending("moov").appending("mvhd"),
                       "'mvhd' says \(seconds(header.duration, header.timescale)) but the longest track lasts \(seconds(longest, header.timescale))")]
    }

    static func trackDuration(_ facts: Facts) -> [Breach] {
        guard !facts.isFragmented, let movieScale = facts.movieHeader?.timescale else { return [] }
        return facts.tracks.compactMap { track in
            guard let header = track.header else { return nil }
            let tkhd = track.path.appending("tkhd")
            if let edits = track.edits, !edits.entries.isEmpty {
                let total = edits.entries.reduce(UInt64(0)) { $0 &+ $1.segmentDuration }
                guard differ(total, header.duration) else { return nil }
                return Breach(track.atom, tkhd, "'tkhd' says \(seconds(header.duration, movieScale)) but the edits add up to \(seconds(total, movieScale))")
            }
            guard let media = track.media, media.timescale > 0 else { return nil }
            let (converted, overflow) = media.duration.multipliedReportingOverflow(by: UInt64(movieScale))
            guard !overflow else { return nil }
            let expected = (converted &+ UInt64(media.timescale) / 2) / UInt64(media.timescale)
            guard differ(expected, header.duration) else { return nil }
            return Breach(track.atom, tkhd, "'tkhd' says \(seconds(header.duration, movieScale)) but the media lasts \(seconds(expected, movieScale)) and there is no edit list")
        }
    }

    static func mediaDuration(_ facts: Facts) -> [Breach] {
        guard !facts.isFragmented else { return [] }
        return facts.tracks.compactMap { track in
            guard let media = track.media, let samples = track.sampleDurations, media.duration != samples else { return nil }
            return Breach(track.atom, track.path.appending("mdia").appending("mdhd"),
                          "'mdhd' says \(seconds(media.duration, media.timescale)) but the samples of 'stts' last \(seconds(samples, media.timescale))")
        }
    }

    // MARK: Samples and chunks

    static func chunksOverlap(_ facts: Facts) -> [Breach] {
        var extents: [(start: UInt64, end: UInt64, track: Int, chunk: Int)] = []
        for (number, track) in facts.tracks.enumerated() {
            guard let tables = TrackSampleTables(track.atom, tree: facts.tree), let perChunk = tables.samplesPerChunk else { continue }
            for (index, chunk) in tables.chunkExtents(samplesPerChunk: perChunk).enumerated() where chunk.length > 0 {
                let (end, overflow) = chunk.offset.addingReportingOverflow(chunk.length)
                if !overflow { extents.append((chunk.offset, end, number, index)) }
            }
        }
        extents.sort { ($0.start, $0.end) < ($1.start, $1.end) }
        var breaches: [Breach] = []
        var reach: (end: UInt64, track: Int, chunk: Int)?
        for extent in extents {
            if let before = reach, extent.start < before.end {
                let path = facts.tracks[extent.track].path.description
                breaches.append(Breach(offset: extent.start, path: path,
                                       "chunk \(extent.chunk + 1) of \(path) (bytes \(extent.start)-\(extent.end)) overlaps chunk \(before.chunk + 1) of \(facts.tracks[before.track].path) (ending at byte \(before.end))"))
            }
            if reach == nil || extent.end > reach!.end { reach = (extent.end, extent.track, extent.chunk) }
        }
        return breaches
    }

    static let browserCodecs: Set<FourCC> = ["avc1", "avc3", "hvc1", "hev1", "av01", "vp09", "mp4a", "Opus", "fLaC", "ac-3", "ec-3"]

    static func webCodec(_ facts: Facts) -> [Breach] {
        facts.tracks.filter { $0.handler == "vide" || $0.handler == "soun" }.flatMap { track in
            track.sampleEntries.filter { !browserCodecs.contains($0.format) }.map { entry in
                Breach(entry.atom, track.path, "\(track.path) is '\(entry.format)'")
            }
        }
    }

    // MARK: Fragments

    static func fragmentsWithoutMovieExtends(_ facts: Facts) -> [Breach] {
        guard let moov = facts.movie, !facts.fragments.isEmpty, !facts.hasMovieExtends else { return [] }
        return [Breach(moov, AtomPath.root.appending("moov"), "the file has \(facts.fragments.count) movie fragments but its 'moov' has no 'mvex'")]
    }

    static func decodeTimeMissing(_ facts: Facts) -> [Breach] {
        facts.fragments.flatMap { fragment in
            fragment.trackFragments.filter { $0.decodeTime == nil }.map { Breach($0.atom, $0.path, "the track fragment has no 'tfdt'") }
        }
    }

    /// A track fragment's duration in its media timescale, nil when a sample's duration is not
    /// known (no per-sample duration, no default in `tfhd` or `trex`).
    static func duration(of traf: Facts.TrackFragment, defaults: [UInt32: UInt32]) -> UInt64? {
        let fallback = traf.header?.defaultSampleDuration ?? traf.header.flatMap { defaults[$0.trackID] }
        var total: UInt64 = 0
        for run in traf.runs {
            if run.samples.isEmpty || run.samples.first?.duration == nil {
                guard let fallback else { return nil }
                total &+= UInt64(run.sampleCount) &* UInt64(fallback)
            } else {
                for sample in run.samples { total &+= UInt64(sample.duration ?? 0) }
            }
        }
        return total
    }

    static func timescale(of trackID: UInt32, in facts: Facts) -> UInt32? {
        facts.tracks.first { $0.trackID == trackID }?.media?.timescale
    }

    static func decodeTimeContinuity(_ facts: Facts) -> [Breach] {
        var next: [UInt32: UInt64] = [:]
        var breaches: [Breach] = []
        for fragment in facts.fragments {
            for traf in fragment.trackFragments {
                guard let id = traf.header?.trackID else { continue }
                guard let time = traf.decodeTime else { next[id] = nil; continue }
                if let expected = next[id], expected != time {
                    let scale = timescale(of: id, in: facts)
                    let kind = time > expected ? "a gap of \(seconds(time - expected, scale))" : "an overlap of \(seconds(expected - time, scale))"
                    breaches.append(Breach(traf.atom, traf.path, "track \(id)'s fragment starts at \(time) where the one before ended at \(expected): \(kind)"))
                }
                next[id] = duration(of: traf, defaults: facts.defaultDurations).map { time &+ $0 }
            }
        }
        return breaches
    }

    /// When a track fragment's samples are presented: the earliest presentation time and the
    /// end of the last, in media ticks (decode times from `tfdt` plus composition offsets); nil
    /// without a `tfdt` or when a sample's duration is not known.
    static func presentationSpan(of traf: Facts.TrackFragment, defaults: [UInt32: UInt32]) -> (earliest: Int64, end: Int64)? {
        guard let start = traf.decodeTime, start < UInt64(Int64.max / 2) else { return nil }
        let fallback = traf.header?.defaultSampleDuration ?? traf.header.flatMap { defaults[$0.trackID] }
        var decode = Int64(start)
        var span: (earliest: Int64, end: Int64)?
        func add(_ presented: Int64, _ ends: Int64) {
            span = (min(span?.earliest ?? presented, presented), max(span?.end ?? ends, ends))
        }
        for run in traf.runs {
            // A run of defaults is worked out, not walked: its count is the box's word (up to
            // 2^32 - 1 samples of no bytes each).
            if run.samples.isEmpty {
                guard run.sampleCount > 0 else { continue }
                guard let fallback else { return nil }
                let length = Int64(run.sampleCount) &* Int64(fallback)
                add(decode, decode &+ length)
                decode &+= length
                continue
            }
            // Per-sample fields: as many as the run's bytes hold.
            for sample in run.samples {
                guard let duration = sample.duration ?? fallback else { return nil }
                let presented = decode &+ (sample.compositionTimeOffset ?? 0)
                add(presented, presented &+ Int64(duration))
                decode &+= Int64(duration)
            }
        }
        return span
    }

    static func segmentIndexReferences(_ facts: Facts) -> [Breach] {
        let starts = Set(facts.tree.atoms.map(\.offset))
        var breaches: [Breach] = []
        for (box, atom) in facts.segmentIndexes {
            let path = facts.tree.path(ofAtomAt: atom.offset)
            // Where each reference's bytes are; a reference that does not land on a box ends the walk.
            var ranges: [Range<UInt64>] = []
            var start = atom.endOffset &+ box.firstOffset
            for (number, reference) in box.references.enumerated() {
                let end = start &+ UInt64(reference.size)
                if !starts.contains(start) {
                    breaches.append(Breach(atom, path, "reference \(number + 1) points at byte \(start), where no box starts"))
                    break
                }
                if end > facts.tree.fileSize || end < start {
                    breaches.append(Breach(atom, path, "reference \(number + 1) (bytes \(start)-\(end)) runs past the end of the file (\(facts.tree.fileSize) bytes)"))
                    break
                }
                ranges.append(start..<end)
                start = end
            }
            // Subsegment durations are presentation times (section 8.16.3.3): from the earliest
            // sample presented in one subsegment to the earliest in the next (the last: to the
            // end of its last sample).
            guard let scale = timescale(of: box.referenceID, in: facts), scale > 0, box.timescale > 0 else { continue }
            let spans: [(earliest: Int64, end: Int64)?] = ranges.map { range in
                let trafs = facts.fragments(in: range).flatMap(\.trackFragments).filter { $0.header?.trackID == box.referenceID }
                let each = trafs.map { presentationSpan(of: $0, defaults: facts.defaultDurations) }
                guard !each.isEmpty, !each.contains(where: { $0 == nil }) else { return nil }
                return (each.map { $0!.earliest }.min()!, each.map { $0!.end }.max()!)
            }
            for (number, span) in spans.enumerated() {
                guard let span, !box.references[number].referencesIndex else { continue }
                let next = number + 1 < spans.count ? spans[number + 1]?.earliest : span.end
                guard let next, next >= span.earliest, case let (length, false) = next.subtractingReportingOverflow(span.earliest) else { continue }
                let media = UInt64(length)
                let indexed = UInt64(box.references[number].subsegmentDuration)
                // Compared in both timescales, allowing one index tick of rounding.
                let (left, o1) = media.multipliedReportingOverflow(by: UInt64(box.timescale))
                let (right, o2) = indexed.multipliedReportingOverflow(by: UInt64(scale))
                if !o1, !o2, (left > right ? left - right : right - left) > UInt64(scale) {
                    breaches.append(Breach(atom, path, "reference \(number + 1) says its subsegment lasts \(seconds(indexed, box.timescale)) but track \(box.referenceID)'s samples in it are presented for \(seconds(media, scale))"))
                }
            }
        }
        return breaches
    }

    static func auxiliaryInformationCount(_ facts: Facts) -> [Breach] {
        facts.fragments.flatMap { fragment in
            fragment.trackFragments.flatMap { traf -> [Breach] in
                let samples = traf.sampleCount
                var breaches: [Breach] = []
                if let (count, atom) = traf.auxiliarySizes, count != samples {
                    breaches.append(Breach(atom, traf.path.appending("saiz"), "'saiz' lists \(count) samples but the fragment's runs have \(samples)"))
                }
                if let (count, atom) = traf.encryption, count != samples {
                    breaches.append(Breach(atom, traf.path.appending("senc"), "'senc' lists \(count) samples but the fragment's runs have \(samples)"))
                }
                return breaches
            }
        }
    }

    static func eventMessagePlacement(_ facts: Facts) -> [Breach] {
        let atoms = facts.tree.atoms
        // What may sit between an event message and its fragment.
        let between: Set<FourCC> = ["emsg", "free", "skip", "prft", "styp", "sidx", "ssix", "uuid"]
        // The first box after each place that may not sit between, found in one pass from the end
        // (a run of a million event messages is not walked once per message).
        var nextOther: [Int?] = Array(repeating: nil, count: atoms.count)
        var found: Int?
        for index in atoms.indices.reversed() {
            nextOther[index] = found
            if !between.contains(atoms[index].type) { found = index }
        }
        return atoms.indices.filter { atoms[$0].type == "emsg" }.compactMap { index in
            let following = nextOther[index].map { atoms[$0] }
            guard following?.type != "moof" else { return nil }
            return Breach(atoms[index], facts.tree.path(ofAtomAt: atoms[index].offset),
                          "the event message is followed by " + (following.map { "'\($0.type)' at byte \($0.offset)" } ?? "the end of the file") + ", not a 'moof'")
        }
    }

    // MARK: CMAF and HLS

    static func commonMediaBrand(_ facts: Facts) -> [Breach] {
        guard facts.movie != nil, let (box, atom) = facts.fileType else { return [] }
        let brands = [box.majorBrand] + box.compatibleBrands
        return brands.contains("cmfc") || brands.contains("cmf2") ? [] : [Breach(atom, AtomPath.root.appending("ftyp"), "neither 'cmfc' nor 'cmf2' is among the brands")]
    }

    static func commonMediaOneTrack(_ facts: Facts) -> [Breach] {
        guard let moov = facts.movie, facts.tracks.count != 1 else { return [] }
        return [Breach(moov, AtomPath.root.appending("moov"), "the movie has \(facts.tracks.count) tracks")]
    }

    static func streamingFragmented(_ facts: Facts) -> [Breach] {
        guard facts.movie != nil, !facts.isFragmented else { return [] }
        return [Breach(facts.movie!, AtomPath.root.appending("moov"), "the file is not fragmented (no 'mvex', no 'moof')")]
    }

    static func streamingRelativeAddressing(_ facts: Facts) -> [Breach] {
        facts.fragments.flatMap { fragment in
            fragment.trackFragments.compactMap { traf in
                guard let offset = traf.header?.baseDataOffset else { return nil }
                return Breach(traf.atom, traf.path.appending("tfhd"), "'tfhd' sets an absolute base data offset (\(offset))")
            }
        }
    }

    static let streamingVideoCodecs: Set<FourCC> = ["avc1", "avc3", "hvc1", "hev1", "dvh1", "dvhe"]

    static func streamingVideoCodec(_ facts: Facts) -> [Breach] {
        facts.tracks.filter { $0.handler == "vide" }.flatMap { track in
            track.sampleEntries.filter { !streamingVideoCodecs.contains($0.format) }.map { Breach($0.atom, track.path, "\(track.path) is '\($0.format)'") }
        }
    }

    static func streamingAVCProfileLevel(_ facts: Facts) -> [Breach] {
        facts.tracks.compactMap { track in
            guard let (profile, level) = track.avcProfileLevel, ![66, 77, 88, 100].contains(profile) || level > 42 else { return nil }
            return Breach(track.sampleEntries.first?.atom ?? track.atom, track.path,
                          "\(track.path) is H.264 profile \(profile) level \(Double(level) / 10)")
        }
    }

    // MARK: HEIF

    static func imageBrands(_ facts: Facts) -> Set<FourCC> {
        guard let (box, _) = facts.fileType else { return [] }
        return Set([box.majorBrand] + box.compatibleBrands)
    }

    static func imageStructuralBrand(_ facts: Facts) -> [Breach] {
        // An image file: items, or at least neither a movie nor fragments.
        guard facts.image != nil || (facts.movie == nil && facts.fragments.isEmpty) else { return [] }
        let brands = imageBrands(facts)
        guard brands.isDisjoint(with: ["mif1", "msf1"]) else { return [] }
        return [Breach(offset: facts.fileType?.atom.offset ?? 0, path: facts.fileType == nil ? "" : "ftyp",
                       facts.fileType == nil ? "the file has no 'ftyp' box and so no brands" : "neither 'mif1' nor 'msf1' is among the brands")]
    }

    static func imageCodecBrand(_ facts: Facts) -> [Breach] {
        guard let image = facts.image, let (_, ftyp) = facts.fileType else { return [] }
        let brands = imageBrands(facts)
        let types = Set(image.items.compactMap(\.type))
        var breaches: [Breach] = []
        if types.contains("hvc1"), brands.isDisjoint(with: ["heic", "heix", "heim", "heis", "hevc", "hevx"]) {
            breaches.append(Breach(ftyp, AtomPath.root.appending("ftyp"), "the file has HEVC image items but no HEVC image brand ('heic', 'heix'...)"))
        }
        if types.contains("av01"), brands.isDisjoint(with: ["avif", "avis"]) {
            breaches.append(Breach(ftyp, AtomPath.root.appending("ftyp"), "the file has AV1 image items but no 'avif' brand"))
        }
        return breaches
    }

    static func imagePrimaryItem(_ facts: Facts) -> [Breach] {
        guard let image = facts.image else { return [] }
        let metaPath = AtomPath.root.appending("meta")
        guard let (id, pitm) = image.primary else { return [Breach(image.meta, metaPath, "'meta' has no 'pitm'")] }
        return image.items.contains { $0.id == id } ? [] : [Breach(pitm, metaPath.appending("pitm"), "the primary item \(id) is not in 'iinf'")]
    }

    static func imageItemReferences(_ facts: Facts) -> [Breach] {
        guard let image = facts.image else { return [] }
        let known = Set(image.items.map(\.id))
        var breaches: [Breach] = []
        for association in image.associations where !known.contains(association.itemID) {
            breaches.append(Breach(association.atom, AtomPath.root.appending("meta").appending("iprp").appending("ipma"),
                                   "'ipma' gives properties to item \(association.itemID), which is not in 'iinf'"))
        }
        for (type, box, atom) in image.references {
            let missing = ([box.fromItemID] + box.toItemIDs).filter { !known.contains($0) }
            if !missing.isEmpty {
                breaches.append(Breach(atom, AtomPath.root.appending("meta").appending("iref").appending(type),
                                       "the '\(type)' reference from item \(box.fromItemID) names item \(missing.map(String.init).joined(separator: ", ")), not in 'iinf'"))
            }
        }
        return breaches
    }

    static func imagePropertyIndex(_ facts: Facts) -> [Breach] {
        guard let image = facts.image else { return [] }
        return image.associations.compactMap { association in
            guard let index = association.propertyIndexes.first(where: { Int($0) > image.properties.count }) else { return nil }
            return Breach(association.atom, AtomPath.root.appending("meta").appending("iprp").appending("ipma"),
                          "item \(association.itemID) has property \(index), but 'ipco' holds \(image.properties.count)")
        }
    }

    /// Item types that are images (coded or derived), which need an `ispe`.
    static let imageItemTypes: Set<FourCC> = ["hvc1", "av01", "avc1", "jpeg", "j2k1", "vvc1", "unci", "grid", "iovl", "iden"]

    static func imageSpatialExtents(_ facts: Facts) -> [Breach] {
        guard let image = facts.image else { return [] }
        var properties: [UInt32: [UInt32]] = [:]
        for association in image.associations { properties[association.itemID, default: []] += association.propertyIndexes }
        return image.items.compactMap { item in
            guard let type = item.type, imageItemTypes.contains(type) else { return nil }
            let hasExtents = properties[item.id, default: []].contains { index in
                index >= 1 && Int(index) <= image.properties.count && image.properties[Int(index) - 1].type == "ispe"
            }
            return hasExtents ? nil : Breach(item.atom, facts.tree.path(ofAtomAt: item.atom.offset), "image item \(item.id) ('\(type)') has no 'ispe' property")
        }
    }

    // MARK: Apple

    static func itemListDataTypes(_ facts: Facts) -> [Breach] {
        facts.listItems.compactMap { item in
            let data = item.data
            guard data.typeSet == 0 else { return nil }
            let kind = ItemListValueKind.table[item.type] ?? (item.type.bytes[0] == 0xA9 ? .text : nil)
            guard let kind else { return nil }
            let type = data.typeIndicator
            let found = "'\(item.type)' is stored as type \(type)" + (data.typeName.map { " (\($0))" } ?? "") + ", \(data.value.count) bytes"
            if kind.isText, type != 1 { return Breach(item.atom, item.path, found + "; iTunes writes UTF-8 text (type 1)") }
            if kind.isImage, ![12, 13, 14, 27].contains(type) { return Breach(item.atom, item.path, found + "; iTunes writes JPEG (13) or PNG (14)") }
            if kind.isFlag, type != 21 || data.value.count != 1 { return Breach(item.atom, item.path, found + "; iTunes writes a 1-byte integer (type 21)") }
            if let width = kind.integerWidth, type != 21 || data.value.count != width {
                return Breach(item.atom, item.path, found + "; iTunes writes a \(width)-byte integer (type 21)")
            }
            if kind.isPair, type != 0 || data.value.count != (kind.hasTrailingPad ? 8 : 6) {
                return Breach(item.atom, item.path, found + "; iTunes writes \(kind.hasTrailingPad ? 8 : 6) bytes of implicit type (0)")
            }
            if kind.isGenreCode, type != 0 || data.value.count != 2 { return Breach(item.atom, item.path, found + "; iTunes writes 2 bytes of implicit type (0)") }
            return nil
        }
    }

    static func chapterTrack(_ facts: Facts) -> [Breach] {
        facts.tracks.flatMap { track in
            track.chapterTrackIDs.compactMap { id -> Breach? in
                let tref = track.path.appending("tref").appending("chap")
                guard let chapters = facts.tracks.first(where: { $0.trackID == id }) else {
                    return Breach(track.atom, tref, "\(track.path) refers to chapter track \(id), which does not exist")
                }
                if let handler = chapters.handler, handler != "text", handler != "sbtl" {
                    return Breach(chapters.atom, chapters.path, "chapter track \(id) is a '\(handler)' track, not a text track")
                }
                if chapters.header?.isEnabled == true {
                    return Breach(chapters.atom, chapters.path.appending("tkhd"), "chapter track \(id) is enabled")
                }
                return nil
            }
        }
    }
}
