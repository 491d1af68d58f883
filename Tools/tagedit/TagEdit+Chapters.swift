import ArgumentParser
import MediaMetadata
import MediaToolSupport

extension TagEdit {
    struct Chapters: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "chapters",
            abstract: "List, export, set, convert and remove chapters in every form: QuickTime chapter track, Nero chpl, ID3 CHAP/CTOC, Vorbis comment CHAPTERnnn.",
            subcommands: [List.self, ExportChapters.self, SetChapters.self, Convert.self, RemoveChapters.self])

        /// The MP4 forms `--forms`/`--to` names, for `file`: nil is every form the file holds
        /// (`both` for MP4; ID3 files hold only ID3 chapters).
        /// `--forms`/`--to`: `both` is every form the file holds (nil); a form's name is that
        /// form, which a file that cannot hold it refuses.
        static func forms(_ name: String) -> [ChapterForm]? {
            name == "both" ? nil : [ChapterForm(rawValue: name)]
        }

        /// `both` and every form's name (`qt`, `nero`, `id3`, `vorbis`).
        static let formNames = ["both"] + ChapterForm.all.map(\.rawValue)

        static func validate(forms name: String) throws {
            guard formNames.contains(name) else { throw ValidationError("unknown chapter forms \"\(name)\" (\(formNames.joined(separator: ", ")))") }
        }

        /// `--form`: which form to show; `auto` is what players most read (QuickTime track,
        /// else Nero, else ID3, passing over a form without chapters: `shownChapterList`),
        /// `all` shows every form.
        static func lists(_ file: MediaFile, form: String) -> (all: [ChapterList], shown: [ChapterList]) {
            let lists = file.chapterLists
            switch form {
            case "auto":
                return (lists, file.shownChapterList.map { [$0] } ?? [])
            case "all":
                return (lists, lists)
            default:
                return (lists, lists.filter { $0.form.rawValue == form })
            }
        }

        /// The `--form` help: the forms of `ChapterForm.all`, `auto` first.
        static func formHelp(allowingAll: Bool) -> ArgumentHelp {
            let names = ChapterForm.all.map(\.rawValue) + (allowingAll ? ["all"] : [])
            return ArgumentHelp("auto (what players most read), " + names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "") + ".")
        }

        static func validate(form: String, allowingAll: Bool) throws {
            let names = ["auto"] + ChapterForm.all.map(\.rawValue) + (allowingAll ? ["all"] : [])
            guard names.contains(form) else {
                throw ValidationError("unknown chapter form \"\(form)\" (\(names.joined(separator: ", ")))")
            }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "list", abstract: "List chapters as players will show them, with the forms each file has.")
            @Argument(help: "Files (directories with --recursive).") var files: [String]
            @Flag(help: "Print a JSON array with one object per file.") var json = false
            @Option(help: Chapters.formHelp(allowingAll: true)) var form = "auto"
            @OptionGroup var walking: Walking
            var recursive: Bool { walking.recursive }
            @OptionGroup var reading: ReadingJobs
            var jobs: Int? { reading.jobs }

            func validate() throws {
                try Chapters.validate(form: form, allowingAll: true)
            }

            func run() throws {
                let form = self.form
                try FileRun.readEach(MediaFileList.expand(files, recursive: recursive), json: json, jobs: jobs) { file in
                    let (all, shown) = Chapters.lists(file, form: form)
                    guard json else { return .text(ChapterReport.text(path: file.path, lists: all, shown: shown)) }
                    return .json((shown.isEmpty ? [nil] : shown.map(Optional.some)).map { ChapterReport.listJSON(path: file.path, lists: all, shown: $0) })
                }
            }
        }

        struct ExportChapters: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "export", abstract: "Write a file's chapters as a chapter file.")
            @Argument(help: "The media file.") var file: String
            @Option(help: ArgumentHelp(ChapterFileFormat.allCases.map(\.rawValue).joined(separator: ", ") + ".")) var format = "mp4chaps"
            @Option(help: ArgumentHelp(Chapters.formHelp(allowingAll: true).abstract + " all takes --format json: every form, as chapters list --json gives them.")) var form = "auto"
            @Option(help: "Write here instead of standard output.") var output: String?

            func validate() throws {
                try refuseFolderOutput(output)
                try Chapters.validate(form: form, allowingAll: true)
                if form == "all" && format != ChapterFileFormat.json.rawValue {
                    throw ValidationError("--form all takes --format json (the other chapter files hold one list)")
                }
                guard ChapterFileFormat.allCases.contains(where: { $0.rawValue == format }) else {
                    throw ValidationError("unknown chapter file format \"\(format)\" (\(ChapterFileFormat.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
            }

            func run() throws {
                let chapterFormat = ChapterFileFormat(rawValue: format)
                do throws(MetadataError) {
                    let media = try MediaFile(path: file)
                    let (all, shown) = Chapters.lists(media, form: form)
                    // Every form: the objects of chapters list --json --form all for this file
                    // (chapters set --from reads the first).
                    let text = form == "all"
                        ? JSONValue.array(all.map { ChapterReport.listJSON(path: file, lists: all, shown: $0) }).serialized() + "\n"
                        : chapterFormat.render(shown.first?.chapters ?? [], path: file, lists: shown.isEmpty ? all : shown)
                    try FileRun.emit(text, to: output, what: "chapter file")
                } catch {
                    FileRun.standardError("tagedit: \(error.description)")
                    throw ExitCode(ToolExitCode.code(for: error))
                }
            }
        }

        struct SetChapters: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "set", abstract: "Replace the chapters of files with those of a chapter file (mp4chaps, ffmetadata, JSON, Podlove, Podcasting 2.0 JSON).")
            @Argument(help: "Media files (directories with --recursive).") var files: [String]
            @Option(help: "The chapter file.") var from: String
            @Option(help: ArgumentHelp("auto (from the file's content), " + ChapterFileFormat.allCases.map(\.rawValue).joined(separator: ", ") + ".")) var format = "auto"
            @Option(help: "both (every form the file holds: an MP4's QuickTime chapter track and Nero chpl), or one form: qt, nero, id3 or vorbis.") var forms = "both"
            @OptionGroup var walking: Walking
            var recursive: Bool { walking.recursive }
            @OptionGroup var options: WriteOptions

            func validate() throws {
                try Chapters.validate(forms: forms)
                guard format == "auto" || ChapterFileFormat.allCases.contains(where: { $0.rawValue == format }) else {
                    throw ValidationError("unknown chapter file format \"\(format)\" (auto, \(ChapterFileFormat.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
            }

            func run() throws {
                let chapters = try Chapters.readChapterFile(from, format: format)
                try FileRun.edit(files, recursive: recursive, options: options) { file throws(MetadataError) in
                    // `both`, the default, means every form the file holds; a form the file
                    // cannot hold (an MP4 form named for an ID3 file) is refused.
                    try file.setChapters(chapters, forms: Chapters.forms(forms))
                }
            }
        }

        /// The chapters of the chapter file at `path`; a file that does not read ends the run
        /// (exit 66 when missing, 65 when it does not parse, naming the line).
        static func readChapterFile(_ path: String, format: String) throws -> [Chapter] {
            guard let data = StandardInput.readFile(path) else {
                FileRun.standardError("tagedit: \(path): cannot read the chapter file")
                throw ExitCode(ToolExitCode.notFound.rawValue)
            }
            let text = String(decoding: data, as: UTF8.self)
            let chapterFormat = format == "auto" ? ChapterFileFormat.detect(text) : ChapterFileFormat(rawValue: format)
            do {
                let chapters = try chapterFormat.parse(text)
                for note in chapterFormat.unkept(in: text) { FileRun.standardError("tagedit: \(path): note: \(note)") }
                return chapters
            } catch {
                FileRun.standardError("tagedit: \(path): \(chapterFormat.rawValue): \(error.description)")
                throw ExitCode(ToolExitCode.badInput.rawValue)
            }
        }

        struct Convert: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "convert",
                abstract: "Write the chapters a file has (as players read them) in the forms named, and remove the other forms.")
            @Argument(help: "Media files (directories with --recursive).") var files: [String]
            @Option(help: "both (every form the file holds), or one form: qt or nero (MP4), id3 (MP3, AAC, AIFF, WAV), vorbis (FLAC, Ogg).") var to: String
            @OptionGroup var walking: Walking
            var recursive: Bool { walking.recursive }
            @OptionGroup var options: WriteOptions

            func validate() throws { try Chapters.validate(forms: to) }

            func run() throws {
                try FileRun.edit(files, recursive: recursive, options: options) { file throws(MetadataError) in
                    let chapters = file.chapters
                    guard !chapters.isEmpty else { return }
                    try file.setChapters(chapters, forms: Chapters.forms(to))
                }
            }
        }

        struct RemoveChapters: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove chapters: the chapter track with its reference and samples, chpl, CHAP/CTOC, CHAPTERnnn fields.")
            @Argument(help: "Media files (directories with --recursive).") var files: [String]
            @Option(help: "qt, nero, id3, vorbis or all.") var form = "all"
            @OptionGroup var walking: Walking
            var recursive: Bool { walking.recursive }
            @OptionGroup var options: WriteOptions

            func validate() throws {
                guard form == "all" || ChapterForm.all.contains(where: { $0.rawValue == form }) else {
                    throw ValidationError("unknown chapter form \"\(form)\" (\((ChapterForm.all.map(\.rawValue) + ["all"]).joined(separator: ", ")))")
                }
            }

            func run() throws {
                try FileRun.edit(files, recursive: recursive, options: options) { file throws(MetadataError) in
                    _ = file.removeChapters(forms: form == "all" ? nil : [ChapterForm(rawValue: form)])
                }
            }
        }
    }
}
