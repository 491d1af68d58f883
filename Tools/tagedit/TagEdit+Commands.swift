import ArgumentParser
import MediaBytes
import MediaMetadata
import MediaToolSupport

extension TagEdit {
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the tags of files (text, or JSON with --json).")

        @Argument(help: "Files (directories with --recursive).") var files: [String]
        @Flag(help: "Print a JSON array with one object per file.") var json = false
        @Flag(help: "With --json: add each picture's SHA-256 (\"sha256\"), which reads every picture's bytes.") var digests = false
        @Flag(help: "Also list every native item with its identifier.") var native = false
        @OptionGroup var walking: Walking
        var recursive: Bool { walking.recursive }
        @Flag(help: "Fail (exit 68) for a file read with problems, which are otherwise warnings on standard error.") var strict = false
        @Option(help: "Print one line per file from a template: '{ARTIST} - {TITLE}', {TRACKNUMBER:02} zero-pads, {KEY|default} fills a missing key, {?{KEY} - } is left out without KEY, {path} {filename} {basename} {ext} name the file.")
        var format: String?
        @Flag(help: "Print tab-separated values for spreadsheets: a header line, then the path and the --keys of each file.") var tsv = false
        @Option(help: "The columns of --tsv, comma-separated (default: the common keys).") var keys: String?
        @OptionGroup var reading: ReadingJobs
        var jobs: Int? { reading.jobs }

        func validate() throws {
            if [json, format != nil, tsv].filter({ $0 }).count > 1 { throw ValidationError("choose one of --json, --format and --tsv") }
            if keys != nil && !tsv { throw ValidationError("--keys names the columns of --tsv") }
            if digests && !json { throw ValidationError("--digests adds picture digests to the JSON listing: use it with --json") }
            if let format { do { _ = try TagTemplate(format) } catch { throw ValidationError(error.description) } }
        }

        func run() throws {
            let expansion = MediaFileList.expansion(files, recursive: recursive)
            let paths = expansion.paths
            defer { FileRun.reportSkipped(expansion.skipped) }
            if let format {
                let template = try TagTemplate(format)
                try FileRun.readEach(paths, json: false, strict: strict, jobs: jobs) { file throws(MetadataError) in
                    .text(try template.line(file))
                }
                return
            }
            if tsv {
                let columns = keys.map { $0.split(separator: ",").map { String($0).trimmingCharacters(" ") } }
                    ?? MetadataKey.common.map(\.rawValue)
                print((["path"] + columns).map(TagReport.tsvField).joined(separator: "\t"))
                try FileRun.readEach(paths, json: false, strict: strict, jobs: jobs) { file throws(MetadataError) in
                    .text(try TagReport.tsvRow(file, columns: columns))
                }
                return
            }
            let (json, native, digests) = (self.json, self.native, self.digests)
            try FileRun.readEach(paths, json: json, strict: strict, jobs: jobs) { file throws(MetadataError) in
                json ? try .json { writer throws(MetadataError) in try TagReport.writeJSON(file, digests: digests, to: &writer) } : .text(try TagReport.text(file, native: native))
            }
        }
    }

    struct Get: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "get",
            abstract: "Print the values of a key: one per line for one file, 'FILE: value' lines (or --json) for several (exit 1 when a file has none).")
        @Argument(help: "The files (directories with --recursive), then a uniform key, alias, custom key or identifier.") var arguments: [String]
        @Flag(help: "Print a JSON array: {\"path\", \"key\", \"values\"} per file (values null when absent).") var json = false
        @OptionGroup var reading: ReadingJobs
        var jobs: Int? { reading.jobs }
        @OptionGroup var walking: Walking
        var recursive: Bool { walking.recursive }
        @Flag(help: "Fail (exit 68) for a file read with problems, which are otherwise warnings on standard error.") var strict = false

        func validate() throws {
            guard arguments.count >= 2 else { throw ValidationError("name a file and a key: tagedit get FILE... KEY") }
        }

        /// The values of `key` in `media`; pictures as one line describing each.
        static func values(_ media: MediaFile, _ key: String) throws(MetadataError) -> [String]? {
            if MetadataKeyTable.definition(key)?.kind == .picture {
                let pictures = try media.pictures
                return pictures.isEmpty ? nil : pictures.map {
                    TagReport.describe($0.summary)
                }
            }
            return try media.values(key)
        }

        func run() throws {
            let key = arguments.last!
            let paths = MediaFileList.expand(Array(arguments.dropLast()), recursive: recursive)
            let several = paths.count > 1 || recursive
            let json = self.json
            let absent = try FileRun.readEach(paths, json: json, strict: strict, jobs: jobs) { media throws(MetadataError) -> FileRun.Report in
                let values = try Self.values(media, key) ?? []
                var report = json
                    ? FileRun.Report.json([.object([("path", .string(PathBytes.display(media.path))), ("key", .string(key)), ("values", values.isEmpty ? .null : .array(values.map(JSONValue.string)))])])
                    : .text(values.map { several ? "\(media.path): \($0)\n" : "\($0)\n" }.joined())
                report.absent = values.isEmpty
                return report
            }
            if absent { throw ExitCode(ToolExitCode.findings.rawValue) }
        }
    }

    /// Splits `FILE... KEY=VALUE...` arguments.
    static func assignments(_ arguments: [String]) throws -> (files: [String], values: [(key: String, values: [String])]) {
        var files: [String] = []
        var values: [(key: String, values: [String])] = []
        for argument in arguments {
            // Split scalar by scalar: a value that starts with a combining mark (`TITLE=\u{301}x`)
            // makes `=\u{301}` one Character, and the `=` must still end the key.
            let scalars = argument.unicodeScalars
            if let equals = scalars.firstIndex(of: "="), !MediaFileList.exists(argument) {
                let key = String(String.UnicodeScalarView(scalars[..<equals]))
                let value = String(String.UnicodeScalarView(scalars[scalars.index(after: equals)...]))
                guard !key.isEmpty else { throw ValidationError("\"\(argument)\": expected KEY=VALUE") }
                if let index = values.firstIndex(where: { $0.key.uppercased() == key.uppercased() }) {
                    values[index].values.append(value)
                } else {
                    values.append((key, [value]))
                }
            } else {
                guard values.isEmpty else { throw ValidationError("\"\(argument)\": files come before KEY=VALUE assignments") }
                files.append(argument)
            }
        }
        guard !files.isEmpty else { throw ValidationError("no file given") }
        guard !values.isEmpty else { throw ValidationError("no KEY=VALUE given") }
        return (files, values)
    }

    /// The arguments of `set` and `add`, which differ only in what they do with the values.
    struct Assignments: ParsableArguments {
        @Argument(help: "Files, then KEY=VALUE assignments.") var arguments: [String]
        @OptionGroup var walking: Walking
        var recursive: Bool { walking.recursive }
        @OptionGroup var options: WriteOptions

        func run(appending: Bool) throws {
            let (files, assignments) = try TagEdit.assignments(arguments)
            // A total (TRACKTOTAL) goes after its number (TRACKNUMBER=3 would drop it otherwise).
            let ordered = assignments.filter { !MetadataKey.isTotal($0.key) } + assignments.filter { MetadataKey.isTotal($0.key) }
            try FileRun.edit(files, recursive: recursive, options: options) { file throws(MetadataError) in
                for (key, values) in ordered {
                    if appending { try file.add(key, values) } else { try file.set(key, values) }
                }
            }
        }
    }

    struct SetValues: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "set", abstract: "Replace values: tagedit set FILE... KEY=VALUE... (repeat a key for several values; KEY= removes).")
        @OptionGroup var assignments: Assignments
        func run() throws { try assignments.run(appending: false) }
    }

    struct AddValues: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Append values: tagedit add FILE... KEY=VALUE...")
        @OptionGroup var assignments: Assignments
        func run() throws { try assignments.run(appending: true) }
    }

    struct RemoveKeys: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove keys: tagedit remove FILE... KEY...")
        @Argument(help: "Files (existing paths, or names with a media extension), then keys.") var arguments: [String]
        @OptionGroup var walking: Walking
        var recursive: Bool { walking.recursive }
        @OptionGroup var options: WriteOptions

        func run() throws {
            let files = arguments.prefix { MediaFileList.looksLikeMediaFile($0) }
            let keys = Array(arguments.dropFirst(files.count))
            guard !files.isEmpty else { throw ValidationError("no file given") }
            guard !keys.isEmpty else { throw ValidationError("no key given") }
            try FileRun.edit(Array(files), recursive: recursive, options: options) { file throws(MetadataError) in
                for key in keys { try file.remove(key) }
            }
        }
    }

    struct ConvertTags: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "convert",
            abstract: "Rewrite ID3v2 tags as version 3 or 4 (tagedit convert --id3v2-version 3 FILE...), add or strip the ID3v1 tag of MP3/AAC files (--id3v1 add|remove); tags already so are left alone.")
        @Argument(help: "Files (directories with --recursive).") var files: [String]
        @OptionGroup var walking: Walking
        var recursive: Bool { walking.recursive }
        @Option(help: ArgumentHelp("Add an ID3v1 tag (holding what the ID3v2 tag says) or remove it (MP3 and AAC).", valueName: "add|remove"))
        var id3v1: String?
        @OptionGroup var options: WriteOptions

        func validate() throws {
            if let id3v1, id3v1 != "add" && id3v1 != "remove" { throw ValidationError("--id3v1 is add or remove") }
            guard options.id3v2Version != nil || id3v1 != nil else { throw ValidationError("name the version (--id3v2-version 3 or 4), or --id3v1 add|remove") }
        }

        func run() throws {
            // The save writes the tag in the version asked for when it differs.
            let id3v1 = self.id3v1
            try FileRun.edit(files, recursive: recursive, options: options) { media throws(MetadataError) in
                if let id3v1 { try media.setID3v1(present: id3v1 == "add") }
            }
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "clear", abstract: "Remove all metadata, keeping the media.")
        @Argument(help: "Files.") var files: [String]
        @OptionGroup var walking: Walking
        var recursive: Bool { walking.recursive }
        @OptionGroup var options: WriteOptions

        func run() throws {
            try FileRun.edit(files, recursive: recursive, options: options) { file throws(MetadataError) in file.removeAll() }
        }
    }

    struct Picture: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "picture", abstract: "Add, extract or remove embedded pictures.", subcommands: [AddPicture.self, ExtractPictures.self, RemovePictures.self])

        static func type(_ name: String?) throws -> PictureType? {
            guard let name else { return nil }
            guard let type = PictureType(named: name) else {
                throw ValidationError("unknown picture type \"\(name)\" (front-cover, back-cover, artist, ... or a number 0-255)")
            }
            return type
        }

        struct AddPicture: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "add", abstract: "Embed an image: tagedit picture add FILE... --image IMAGE [--replace] (or tagedit picture add FILE IMAGE)")
            @Argument(help: "The media files (directories with --recursive); without --image, one file and then the image.") var files: [String]
            @Option(help: "The image: JPEG, PNG, GIF, BMP or WebP (told by its first bytes).") var image: String?
            @Option(help: "The picture type (front-cover, back-cover, artist, ...).") var type = "front-cover"
            @Option(help: "A description.") var description = ""
            @Flag(help: "Replace the pictures of this type instead of adding another.") var replace = false
            @OptionGroup var walking: Walking
            var recursive: Bool { walking.recursive }
            @OptionGroup var options: WriteOptions

            func validate() throws {
                if image == nil && files.count != 2 {
                    throw ValidationError("name the image with --image IMAGE (or give one FILE and then its IMAGE)")
                }
            }

            func run() throws {
                var files = self.files
                let image = self.image ?? files.removeLast()
                let pictureType = try Picture.type(type) ?? .frontCover
                guard let data = StandardInput.readFile(image) else {
                    FileRun.standardError("tagedit: \(image): cannot read the image")
                    throw ExitCode(ToolExitCode.notFound.rawValue)
                }
                let bytes = [UInt8](data)
                guard let mime = MediaPicture.mimeType(sniffing: bytes) else {
                    FileRun.standardError("tagedit: \(image): not a JPEG, PNG, GIF, BMP or WebP image")
                    throw ExitCode(ToolExitCode.badInput.rawValue)
                }
                try FileRun.edit(files, recursive: recursive, options: options) { media throws(MetadataError) in
                    // Where pictures have no type (MP4 cover art), replacing replaces all of them.
                    if replace { media.removePictures(type: media.picturesHaveTypes ? pictureType : nil) }
                    try media.addPicture(MediaPicture(type: pictureType, mimeType: mime, description: description, data: bytes))
                }
            }
        }

        struct ExtractPictures: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "extract", abstract: "Write the embedded pictures to NAME-N-TYPE.EXT files in a folder (printing their paths); an existing file is kept unless --force.")
            @Argument(help: "The media files (directories with --recursive).") var files: [String]
            @Option(help: "The directory to write to (default: the current one).") var output = "."
            @Flag(help: "Overwrite picture files that exist.") var force = false
            @OptionGroup var walking: Walking
            var recursive: Bool { walking.recursive }

            func run() throws {
                guard MediaFileList.isDirectory(output) else {
                    FileRun.standardError("tagedit: \(output): no such folder to write the pictures to")
                    throw ExitCode(ToolExitCode.notFound.rawValue)
                }
                // Names written in this run: two files of one name in different folders would
                // otherwise overwrite each other's pictures, --force or not.
                let writtenNow = WrittenPaths()
                let (output, force) = (self.output, self.force)
                // One file after another: which of two same-named files is refused must not
                // depend on timing.
                try FileRun.readEach(MediaFileList.expand(files, recursive: recursive), json: false, jobs: 1) { media throws(MetadataError) in
                    let base = TagTemplate.splitExtension(PathNames.lastComponent(media.path)).name
                    var report = FileRun.Report()
                    // A picture still in the file is copied from it in the kernel, never held whole.
                    // One that cannot be written is reported, and the file's others are still written.
                    for (index, picture) in try media.pictureContents.enumerated() {
                        let path = PathNames.appending("\(base)-\(index + 1)-\(picture.summary.typeName).\(picture.summary.fileExtension)", to: output)
                        if !writtenNow.insert(path) {
                            report.failures.append(MetadataError(.permissionDenied, path: path, message: "was written for another file of this run (same name): extract each folder to its own --output"))
                        } else if !force && MediaFileList.exists(path) {
                            report.failures.append(MetadataError(.permissionDenied, path: path, message: "exists; --force overwrites it"))
                        } else {
                            do {
                                try FileReplacement.create(path, contents: picture.contents)
                                report.text += path + "\n"
                            } catch {
                                report.failures.append(MetadataError(.permissionDenied, path: path, message: "cannot write the picture: \(FileRun.reason(error))"))
                            }
                        }
                    }
                    return report
                }
            }
        }

        struct RemovePictures: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove embedded pictures (all, or those of --type).")
            @Argument(help: "The media files (directories with --recursive).") var files: [String]
            @Option(help: "Only pictures of this type.") var type: String?
            @OptionGroup var walking: Walking
            var recursive: Bool { walking.recursive }
            @OptionGroup var options: WriteOptions

            func run() throws {
                let pictureType = try Picture.type(type)
                try FileRun.edit(files, recursive: recursive, options: options) { media throws(MetadataError) in media.removePictures(type: pictureType) }
            }
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export", abstract: "Write a lossless JSON document of all metadata (native items and pictures included).",
            discussion: "One file gives one document (the object `import` reads); several files, or a folder with -r, give a JSON array of them in path order, a file that cannot be read being {\"path\", \"error\"} there, as with show --json. Each picture's bytes are in the document once, in \"pictures\"; a native item that holds a picture refers to it by index (document version 2; import reads versions 1 and 2).")
        @Argument(help: "The media files (directories with --recursive).") var files: [String]
        @Option(help: "Write the document here instead of standard output.") var output: String?
        @Flag(help: "Add each picture's SHA-256 (\"sha256\").") var digests = false
        @OptionGroup var walking: Walking
        var recursive: Bool { walking.recursive }
        @OptionGroup var reading: ReadingJobs
        var jobs: Int? { reading.jobs }

        func validate() throws { try refuseFolderOutput(output) }

        func run() throws {
            let paths = MediaFileList.expand(files, recursive: recursive)
            let digests = self.digests
            guard paths.count == 1 && !recursive else {
                // Several documents: an array, streamed; with --output naming a file, into a
                // temporary file beside it, renamed over it at the end, so a reader never sees
                // half of it; a device or a FIFO is written through (OutputTarget).
                func cannotWrite(_ output: String, _ reason: String = String(cString: strerror(errno))) -> ExitCode {
                    FileRun.standardError("tagedit: \(output): cannot write the document: \(reason)")
                    return ExitCode(ToolExitCode.permissionDenied.rawValue)
                }
                var partial: String?
                var renamedOver: String?
                var keptPermissions: mode_t?
                if let output {
                    let target: OutputTarget
                    do { target = try OutputTarget.resolve(output) } catch { throw cannotWrite(output, FileRun.reason(error)) }
                    switch target {
                    case .file(let file, let existing):
                        // A name of this process's own, created exclusively (never an existing file).
                        partial = PathNames.appending(".\(PathNames.lastComponent(file)).\(getpid()).partial", to: PathNames.deletingLastComponent(file))
                        renamedOver = file
                        var info = stat()
                        if existing && SystemPath.stat(file, &info) == 0 { keptPermissions = info.st_mode & 0o7777 }
                    case .stream(let device):
                        partial = device
                    case .descriptor(let descriptor):
                        // The descriptor itself (reopening /dev/fd/N would truncate a file that
                        // a shell opened for appending).
                        if descriptor != 1 && (!StandardOutput.flush() || dup2(descriptor, 1) < 0) { throw cannotWrite(output) }
                    }
                }
                if let output, let partial, !StandardOutput.redirect(to: partial, exclusive: renamedOver != nil) { throw cannotWrite(output) }
                var cutShort = false
                let result = Result {
                    try FileRun.readEach(paths, json: true, jobs: jobs, whenCutShort: { cutShort = true }) { file throws(MetadataError) in
                        try .json { writer throws(MetadataError) in try TagReport.writeExportDocument(file, digests: digests, to: &writer) }
                    }
                }
                if let output {
                    guard StandardOutput.flush() else { throw cannotWrite(output) }
                    // A document cut short is not renamed over anything.
                    if cutShort, let partial, renamedOver != nil { SystemPath.unlink(partial) }
                    if !cutShort, let partial, let renamedOver {
                        // The replaced file's permission bits kept, the document on disk before
                        // its name changes, and the rename made durable.
                        guard StandardOutput.sync(permissions: keptPermissions), SystemPath.rename(partial, renamedOver) == 0 else {
                            let failure = cannotWrite(output)
                            SystemPath.unlink(partial)
                            throw failure
                        }
                        PathNames.syncFolder(of: renamedOver)
                    }
                }
                _ = try result.get()
                return
            }
            do throws(MetadataError) {
                var writer = JSONWriter(indentLevel: 0, capacity: 4096)
                try TagReport.writeExportDocument(try MediaFile(path: paths[0]), digests: digests, to: &writer)
                try FileRun.emit(writer.encoded(), to: output, what: "document")
            } catch {
                FileRun.standardError("tagedit: \(error.description)")
                throw ExitCode(ToolExitCode.code(for: error))
            }
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Apply a JSON document: an export of a file of the same family restores every native item; otherwise its tags and pictures are set.",
            discussion: """
                tagedit import FILE DOCUMENT applies one document to FILE. With --paths, each DOCUMENT (an export document, \
                an array of them as export -r writes it, the backups --backup wrote, or a TSV/CSV table as show --tsv \
                writes it: a path column, a column per key, values separated by "; ", an empty cell removing the key) is \
                applied to the file its path names: tagedit import --paths BACKUP/*.json undoes a batch.
                """)
        @Argument(help: "FILE DOCUMENT, or with --paths the documents (- for standard input).") var arguments: [String]
        @Flag(help: "Apply each document to the file its \"path\" names.") var paths = false
        @OptionGroup var options: WriteOptions

        func validate() throws {
            if paths {
                if arguments.isEmpty { throw ValidationError("--paths takes one or more documents") }
            } else if arguments.count != 2 {
                throw ValidationError("give FILE DOCUMENT, or --paths DOCUMENT...")
            }
        }

        /// The documents of `name` (a file, or - for standard input), or exits.
        static func read(_ name: String) throws -> [TagReport.ImportDocument] {
            let data = name == "-" ? StandardInput.readAll() : StandardInput.readFile(name)
            guard let data else {
                FileRun.standardError("tagedit: \(name): cannot read the document")
                throw ExitCode(ToolExitCode.notFound.rawValue)
            }
            let text = String(decoding: data, as: UTF8.self)
            do {
                // JSON (a document or an array of them), else a TSV/CSV table.
                if let first = text.unicodeScalars.first(where: { !$0.properties.isWhitespace && $0 != "\u{FEFF}" }), first != "{" && first != "[" {
                    return try TagReport.importTable(text)
                }
                return try TagReport.importDocuments(try JSONValue.parse(text))
            } catch {
                FileRun.standardError("tagedit: \(name): \(error)")
                throw ExitCode(ToolExitCode.badInput.rawValue)
            }
        }

        func run() throws {
            var byPath: [String: TagReport.ImportDocument] = [:]
            var files: [String] = []
            if paths {
                for name in arguments {
                    for document in try Self.read(name) {
                        guard let path = document.path else {
                            FileRun.standardError("tagedit: \(name): a document without \"path\" cannot be applied by path")
                            throw ExitCode(ToolExitCode.badInput.rawValue)
                        }
                        // A later document for the same file wins.
                        if byPath.updateValue(document, forKey: path) == nil { files.append(path) }
                    }
                }
            } else {
                let documents = try Self.read(arguments[1])
                guard documents.count == 1, let document = documents.first else {
                    FileRun.standardError("tagedit: \(arguments[1]): \(documents.count) documents; apply an array by path with --paths")
                    throw ExitCode(ToolExitCode.badInput.rawValue)
                }
                files = [arguments[0]]
                byPath[arguments[0]] = document
            }
            let documents = byPath
            try FileRun.edit(files, recursive: false, options: options) { media throws(MetadataError) in
                guard let parsed = documents[media.path] else { return }
                try Self.apply(parsed, to: &media)
            }
        }

        static func apply(_ parsed: TagReport.ImportDocument, to media: inout MediaFile) throws(MetadataError) {
            if parsed.isTableRow {
                for (key, values) in parsed.tags { try media.set(key, values) }
                for key in parsed.removals { _ = try media.remove(key) }
                return
            }
            let sameFamily = parsed.format.map { MediaFile.family(of: MediaFormat(rawValue: $0)) == media.family } ?? false
            var tags = parsed.tags
            var report = MigrationReport()
            if sameFamily, let native = parsed.native {
                // The native items include the pictures; tags edited by hand in the document
                // win over them.
                report = try media.replaceAll(with: native)
                // The ID3v1 tag the file had (after `clear` removed it): back, holding what the
                // restored ID3v2 tag says, as every save keeps it (an MP3's document applied to
                // a WAV or AIFF file, which holds none, leaves it out).
                if parsed.hasID3v1 {
                    do { try media.setID3v1(present: true) } catch { if error.code != .notRepresentable { throw error } }
                }
                let current = media.tags
                tags = tags.filter { current[$0.key.uppercased()] != $0.values && current[$0.key] != $0.values }
            }
            report.entries += try media.importTags(tags, pictures: sameFamily && parsed.native != nil ? [] : parsed.pictures, customKeys: parsed.customKeys).entries
            if let chapters = parsed.chapters {
                report.entries += try media.applyChapters(chapters, restoring: sameFamily && parsed.native != nil, forms: sameFamily ? parsed.chapterForms : nil)
            }
            for entry in report.entries where entry.outcome == .notRepresentable {
                FileRun.standardError("tagedit: \(media.path): note: \(entry.key) not imported: \(entry.detail)")
            }
        }
    }

    struct Copy: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "copy", abstract: "Copy metadata from SOURCE into DEST (any two formats) and report what was copied, converted or left out.")
        @Argument(help: "The file to copy from.") var source: String
        @Argument(help: "The file to copy into.") var destination: String
        @OptionGroup var options: WriteOptions

        func run() throws {
            let from: MediaFile
            do throws(MetadataError) {
                from = try MediaFile(path: source)
            } catch {
                FileRun.standardError("tagedit: \(error.description)")
                throw ExitCode(ToolExitCode.code(for: error))
            }
            try FileRun.edit([destination], recursive: false, options: options) { to throws(MetadataError) in
                let report = try to.copyMetadata(from: from)
                for entry in report.entries { print("\(entry.outcome.rawValue): \(entry.key): \(entry.detail)") }
                print("\(report.count(.copied)) copied, \(report.count(.converted)) converted, \(report.count(.notRepresentable)) not representable, \(report.count(.leftOut)) left out")
            }
        }
    }

    struct Keys: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "keys", abstract: "Print the key-space table (--markdown: the reference document).")
        @Flag(help: "Print the Markdown reference matrix (Documentation/KeySpace.md).") var markdown = false

        func run() throws {
            if markdown {
                print(KeySpaceReference.markdown(), terminator: "")
                return
            }
            for row in MetadataKeyTable.rows {
                var forms: [String] = []
                if !row.iTunes.isEmpty { forms.append("itunes " + row.iTunes.map(\.description).joined(separator: ",")) }
                if let type = row.userData { forms.append("udta \(type)") }
                if let key = row.quickTimeKey { forms.append("mdta \(key)") }
                if let type = row.threeGPP { forms.append("3gpp \(type)") }
                if let form = row.id3 { forms.append("id3 \(form)" + (row.id3v23.map { " (v2.3 \($0))" } ?? "")) }
                if let id = row.riffInfo { forms.append("riff \(id)") }
                print("\(row.key)\t\(row.kind.rawValue)\t\(forms.joined(separator: "; "))")
            }
        }
    }
}
