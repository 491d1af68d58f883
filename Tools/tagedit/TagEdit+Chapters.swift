import ArgumentParser
import Foundation
import MediaMetadata
import MediaToolSupport

extension TagEdit {
    struct Chapters: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List and export chapters in every form: QuickTime chapter track, Nero chpl, ID3 CHAP/CTOC.",
            subcommands: [List.self, ExportChapters.self])

        /// `--form`: which form to show; `auto` is what players most read (QuickTime track,
        /// else Nero, else ID3), `all` shows every form.
        static func lists(_ file: MediaFile, form: String) -> (all: [ChapterList], shown: [ChapterList]) {
            let lists = file.chapterLists
            switch form {
            case "auto":
                let first = ChapterForm.all.lazy.compactMap { form in lists.first { $0.form == form } }.first
                return (lists, first.map { [$0] } ?? [])
            case "all":
                return (lists, lists)
            default:
                return (lists, lists.filter { $0.form.rawValue == form })
            }
        }

        static func validate(form: String, allowingAll: Bool) throws {
            let names = ["auto"] + ChapterForm.all.map(\.rawValue) + (allowingAll ? ["all"] : [])
            guard names.contains(form) else {
                throw ValidationError("unknown chapter form \"\(form)\" (\(names.joined(separator: ", ")))")
            }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List chapters as players will show them, with the forms each file has.")
            @Argument(help: "Files (directories with --recursive).") var files: [String]
            @Flag(help: "Print a JSON array with one object per file.") var json = false
            @Option(help: "auto (what players most read), qt, nero, id3 or all.") var form = "auto"
            @Flag(name: .shortAndLong, help: "Walk directories.") var recursive = false

            func validate() throws { try Chapters.validate(form: form, allowingAll: true) }

            func run() throws {
                try FileRun.readEach(FileList.expand(files, recursive: recursive), json: json) { file in
                    let (all, shown) = Chapters.lists(file, form: form)
                    guard json else { return .text(ChapterReport.text(path: file.path, lists: all, shown: shown)) }
                    return .json((shown.isEmpty ? [nil] : shown.map(Optional.some)).map { ChapterReport.listJSON(path: file.path, lists: all, shown: $0) })
                }
            }
        }

        struct ExportChapters: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "export", abstract: "Write a file's chapters as a chapter file.")
            @Argument(help: "The media file.") var file: String
            @Option(help: "mp4chaps, ffmetadata, json, podlove or podcast-json.") var format = "mp4chaps"
            @Option(help: "auto (what players most read), qt, nero or id3.") var form = "auto"
            @Option(help: "Write here instead of standard output.") var output: String?

            func validate() throws {
                try Chapters.validate(form: form, allowingAll: false)
                guard ChapterFileFormat.allCases.contains(where: { $0.rawValue == format }) else {
                    throw ValidationError("unknown chapter file format \"\(format)\" (\(ChapterFileFormat.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
            }

            func run() throws {
                let chapterFormat = ChapterFileFormat(rawValue: format)
                do throws(MetadataError) {
                    let media = try MediaFile(path: file)
                    let (all, shown) = Chapters.lists(media, form: form)
                    let text = chapterFormat.render(shown.first?.chapters ?? [], path: file, lists: shown.isEmpty ? all : shown)
                    if let output {
                        guard FileManager.default.createFile(atPath: output, contents: Data(text.utf8)) else {
                            throw MetadataError(.permissionDenied, path: output, message: "cannot write the chapter file")
                        }
                    } else {
                        print(text, terminator: "")
                    }
                } catch {
                    FileRun.standardError("tagedit: \(error.description)")
                    throw ExitCode(TagEditExitCode.code(for: error))
                }
            }
        }
    }
}
