import ArgumentParser
import MediaBytes
import MediaMetadata
import MediaToolSupport

/// `tagedit`: reads and edits the tags of the formats with metadata (`MediaFormat.definitions`) through
/// one key space. The interface is pinned (the TagEditTool article of the MediaMetadata
/// documentation); scripts depend on it.
@main
struct TagEdit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tagedit",
        abstract: "Read and edit the tags of \(MediaFormat.names(where: \.hasMetadata)) files through one key space.",
        discussion: """
            Keys are TagLib's property names (TITLE, ARTIST, TRACKNUMBER...), matched without regard \
            to case; AV Foundation common keys (common/title) are aliases; every native item is also \
            named by an identifier such as itsk/%A9nam, id3/TXXX:CATALOGNUMBER or \
            mdta/com.apple.quicktime.title. `tagedit keys` lists the table.

            \(ToolExitCode.helpText)
            """,
        version: ToolVersion.current,
        subcommands: [
            Show.self, Get.self, SetValues.self, AddValues.self, RemoveKeys.self, Clear.self, ConvertTags.self, Picture.self,
            Export.self, Import.self, Copy.self, Chapters.self, Timed.self, Number.self, Rename.self, FromName.self, Keys.self,
        ]
    )

    static func main() {
        HeapTrimming.keepFreedMemory()
        StandardOutput.bufferBulkOutput()
        // Paths are bytes: arguments that are not UTF-8 are kept (PathBytes), not replaced.
        main(PathBytes.arguments())
    }
}

/// `-r`: the option of every command that takes folders.
struct Walking: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Walk directories.") var recursive = false
}

/// `--jobs` of the commands that read files at once and print as a serial run would.
struct ReadingJobs: ParsableArguments {
    @Option(help: "Files read at once (default: the number of processors); the output is a serial run's.") var jobs: Int?

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs is at least 1") }
    }
}

/// Options of every command that writes.
struct WriteOptions: ParsableArguments {
    @Flag(name: .long, help: "Print each key's old and new values and how the file would be written; write nothing.")
    var dryRun = false

    @Option(name: .long, help: "Write the result to this new file and leave the source untouched (one input file only).")
    var output: String?

    @Option(name: .customLong("id3v2-version"), help: "Write ID3v2 tags as version 3 or 4 (default: the tag's own; 4 for new tags).")
    var id3v2Version: UInt8?

    @Flag(name: .long, help: "Always write the whole file anew and rename it over the original, even when the change fits in place: atomic against a crash or power loss, slower for large files.")
    var rewrite = false

    @Flag(name: .shortAndLong, help: "Print how each file was written, and each key's old and new values.")
    var verbose = false

    @Flag(name: .long, help: "With --dry-run or --verbose: print each file's plan and changes as JSON (an array).")
    var json = false

    @Option(name: .long, help: ArgumentHelp("Before changing a file, write its export document into this folder (tagedit import --paths DIR/*.json undoes the batch).", valueName: "dir"))
    var backup: String?

    @Option(help: "Files worked on at once (default: the number of processors; 1: one after another). Output and exit code are those of a serial run.")
    var jobs: Int?

    func validate(files: [String]) throws {
        if let version = id3v2Version, version != 3 && version != 4 {
            throw ValidationError("--id3v2-version must be 3 or 4")
        }
        try refuseFolderOutput(output)
        if let output {
            if files.count != 1 { throw ValidationError("--output needs exactly one input file") }
            if FileByteSink.isSameFile(output, files[0]) {
                throw ValidationError("--output names the input file; leave it out to change the file in place")
            }
        }
        if let jobs, jobs < 1 { throw ValidationError("--jobs is at least 1") }
        if json && !dryRun && !verbose { throw ValidationError("--json shows the plan of --dry-run or --verbose; give one of them") }
    }

    /// Whether each file's changes are shown (and so taken before and after the edit).
    var previews: Bool { dryRun || verbose }

    var saveOptions: MediaFile.SaveOptions {
        // Each file is saved once and let go: no need to read it again.
        MediaFile.SaveOptions(dryRun: dryRun, output: output, id3Version: id3v2Version, allowInPlace: !rewrite, rereadAfterSaving: false)
    }
}

/// `--output` naming a folder is a usage error (64), as in atominspect, found before anything
/// is read (not an I/O error once the work is done).
func refuseFolderOutput(_ output: String?) throws {
    if let output, output != "-", MediaFileList.isDirectory(output) {
        throw ValidationError("--output names a folder (\(PathBytes.display(output))); name a file in it")
    }
}

/// Runs a command over files with progress and a summary; remembers the first failure's code.
struct FileRun {
    var changed = 0
    var unchanged = 0
    var failed = 0
    /// Audio files the walks passed over (formats tagedit does not edit), for the summary.
    var skipped: [String] = []
    var exitCode: Int32 = 0
    let total: Int
    let showProgress: Bool
    let started = Date()

    /// True for runs over several files or directories: they end with a summary.
    let isBatch: Bool

    init(total: Int, batch: Bool = false) {
        self.total = total
        isBatch = batch || total > 1
        showProgress = total > 1 && isatty(2) == 1
    }

    /// What went wrong with a write, without the path (which the message names already).
    static func reason(_ error: any Error) -> String {
        (error as? FileWriteError)?.reason ?? "\(error)"
    }

    /// Says on standard error which audio files a walk passed over (a read-only run has no summary).
    static func reportSkipped(_ skipped: [String]) {
        guard !skipped.isEmpty else { return }
        standardError("tagedit: \(skipped.count) \(skipped.count == 1 ? "file" : "files") skipped (\(MediaFileList.describe(skipped: skipped))): formats tagedit does not read")
    }

    /// One line on standard error, whatever a file's name or a value in it holds (`TerminalText`).
    static func standardError(_ text: String) {
        StandardError.write(text.escapingControls + "\n")
    }

    /// With `strict`, a file read with problems fails as damaged (exit 68), naming the first.
    static func failIfStrict(_ file: MediaFile, strict: Bool) throws(MetadataError) {
        if strict, let first = file.diagnostics.first(where: \.isProblem) {
            throw MetadataError(.malformed, path: file.path, offset: first.offset,
                                message: "damaged at byte offset \(first.offset) (\(first.place)): \(first.message)")
        }
    }

    /// The jobs for a run over `paths`: one when two of them name the same file (through a
    /// link, `./`, or an overlapping folder), so that a file is never edited by two threads
    /// and a serial run's order of edits is kept.
    static func jobs(_ requested: Int?, for paths: [String]) -> Int {
        guard paths.count > 1 else { return 1 }
        let requested = requested ?? OrderedParallel.defaultJobs
        guard requested > 1 else { return 1 }
        var seen: Set<[UInt64]> = []
        for path in paths {
            var info = stat()
            guard SystemPath.stat(path, &info) == 0 else { continue }
            if !seen.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted { return 1 }
        }
        return requested
    }

    /// What a read-only command makes of one file: JSON documents, or text for people, and
    /// whether the file lacked what was asked for (`get`: exit 1).
    struct Report: Sendable {
        /// The JSON documents, encoded where the report was made (on a worker thread).
        var documents: [EncodedJSON] = []
        var text = ""
        var absent = false
        /// What failed after the rest of the work was done (a picture file that exists, beside
        /// those written): each is reported after `text`, and the file counts as failed.
        var failures: [MetadataError] = []

        static func json(_ documents: [JSONValue]) -> Report { Report(documents: documents.map(JSONArrayOutput.encode)) }
        /// One document, written by `write` straight into its bytes.
        static func json(_ write: (inout JSONWriter) throws(MetadataError) -> Void) throws(MetadataError) -> Report {
            Report(documents: [try JSONArrayOutput.encode(write)])
        }
        static func text(_ text: String) -> Report { Report(text: text) }
    }

    /// Opens each of `paths` (`strict`: a file read with problems fails) and prints what
    /// `report` makes of it: text, or, with `json`, the elements of one array (a file that
    /// fails is `{"path", "error"}` there). Files are read on `jobs` threads; the output, the
    /// warnings and the exit code are those of a serial run, in the same order. Returns true
    /// when a report said its file lacked the value; ends the run with its exit code.
    @discardableResult
    static func readEach(_ paths: [String], json: Bool, strict: Bool = false, jobs: Int? = 1, whenCutShort: () -> Void = {},
                         _ report: @escaping @Sendable (MediaFile) throws(MetadataError) -> Report) throws -> Bool {
        try forEach(paths, json: json, strict: strict, jobs: jobs, whenCutShort: whenCutShort) { path in
            var warnings: [String] = []
            do throws(MetadataError) {
                let file = try MediaFile(path: path)
                warnings = TagReport.problemLines(file)
                try failIfStrict(file, strict: strict)
                return (warnings, .success(try report(file)))
            } catch {
                return (warnings, .failure(error))
            }
        }
    }

    /// Runs `work` on each of `paths` on `jobs` threads and prints what it reports, in the
    /// order of `paths`: text, or with `json` the elements of one array (a file that fails is
    /// `{"path", "error"}` there); its warnings go to standard error (with `strict`, a file that
    /// fails does not repeat them). Ends the run with its exit code; returns true when a report
    /// said its file lacked the value. When a document could not be written whole (the file
    /// it took a picture's Base64 from could no longer be read), `whenCutShort` is called and
    /// the run fails (74): the output is not valid JSON.
    @discardableResult
    static func forEach(_ paths: [String], json: Bool, strict: Bool = false, jobs: Int? = 1, whenCutShort: () -> Void = {},
                        _ work: @escaping @Sendable (String) -> (warnings: [String], result: Result<Report, MetadataError>)) throws -> Bool {
        var run = FileRun(total: paths.count)
        var documents = JSONArrayOutput()
        var absent = false
        OrderedParallel.run(count: paths.count, jobs: jobs, work: { work(paths[$0]) }, progress: { run.progress($0) }, emit: { index, outcome in
            run.clearProgress()
            switch outcome.result {
            case .success(let report):
                for line in outcome.warnings { standardError("tagedit: " + line) }
                for document in report.documents { documents.append(encoded: document) }
                if !report.text.isEmpty { print(report.text, terminator: "") }
                for failure in report.failures { run.fail(failure) }
                absent = absent || report.absent
            case .failure(let error):
                // A file that fails under --strict fails for its warnings alone.
                if !strict { for line in outcome.warnings { standardError("tagedit: " + line) } }
                if json { documents.append(TagReport.errorJSON(path: paths[index], error: error)) }
                run.fail(error)
            }
        })
        if json {
            documents.finish()
            if let failure = documents.failure {
                whenCutShort()
                run.fail(MetadataError(.io, message: failure))
            }
        }
        try run.finish(writing: false)
        return absent
    }

    /// Writes a JSON document and a line break to `output`, or to standard output without one
    /// (the Base64 of a picture still in its file read and encoded as it goes out).
    static func emit(_ document: EncodedJSON, to output: String?, what: String) throws(MetadataError) {
        do {
            if let output { try document.create(output) } else { try document.print() }
        } catch let error as ByteSourceError {
            // The file a picture was to be read from changed or went since it was read.
            // (A regular file named by `output` is left as it was: the document went beside it.)
            if let output { throw MetadataError(.io, path: output, message: "cannot write the \(what): a picture could not be read again: \(error.description)") }
            throw MetadataError(.io, message: "the \(what) is cut short: a picture could not be read again: \(error.description)")
        } catch {
            if let output { throw MetadataError(.permissionDenied, path: output, message: "cannot write the \(what): \(Self.reason(error))") }
            throw MetadataError(.io, message: "the \(what) is cut short: \(error)")
        }
    }

    /// Writes a document `tagedit` produced to `output`, or to standard output without one.
    static func emit(_ text: String, to output: String?, what: String) throws(MetadataError) {
        guard let output else { return print(text, terminator: "") }
        do { try FileReplacement.create(output, bytes: Array(text.utf8)) } catch {
            throw MetadataError(.permissionDenied, path: output, message: "cannot write the \(what): \(Self.reason(error))")
        }
    }

    mutating func fail(_ error: MetadataError) {
        clearProgress()
        if let path = error.path, MediaFileList.isDirectory(path) {
            Self.standardError("tagedit: \(path): is a directory; add -r (--recursive) to work on the media files in it")
        } else {
            Self.standardError("tagedit: \(error.description)")
        }
        failed += 1
        if exitCode == 0 { exitCode = ToolExitCode.code(for: error) }
    }

    /// The progress bar, drawn once the run has taken more than half a second.
    func progress(_ done: Int) {
        guard showProgress, Date().timeIntervalSince(started) > 0.5 else { return }
        let width = 30
        let filled = total == 0 ? width : done * width / total
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        StandardError.write("\r[\(bar)] \(done)/\(total)")
    }

    func clearProgress() {
        guard showProgress, Date().timeIntervalSince(started) > 0.5 else { return }
        StandardError.write("\r\u{1B}[K")
    }

    /// Prints the summary of a writing run and ends it with the right exit code.
    func finish(writing: Bool, dryRun: Bool = false) throws {
        clearProgress()
        if writing && (isBatch || failed > 0) {
            let verb = dryRun ? "would change" : "changed"
            let skippedText = skipped.isEmpty ? "" : ", \(skipped.count) skipped (\(MediaFileList.describe(skipped: skipped)): formats tagedit does not edit)"
            Self.standardError("\(changed) \(changed == 1 ? "file" : "files") \(verb), \(unchanged) unchanged, \(failed) failed" + skippedText)
        }
        if exitCode != 0 { throw ExitCode(exitCode) }
    }

    /// Runs `body` holding the lock of `path` (from reading to the end of the save, so two
    /// editors never interleave); a file that cannot be opened gets its own error from `body`.
    /// Without `taking` (a save into a new file, which leaves `path` as it is) no lock is taken.
    static func locked<T>(_ path: String, taking: Bool = true, _ body: () throws(MetadataError) -> T) throws(MetadataError) -> T {
        guard taking else { return try body() }
        let lock: FileLock
        do {
            lock = try FileLock(path)
        } catch {
            if error.isHeldElsewhere { throw MetadataError(.locked, path: path, message: error.reason) }
            return try body()
        }
        let result = try body()
        _ = consume lock
        return result
    }

    /// Opens, edits and saves each file; `edit` changes the file in memory. Files are edited on
    /// `options.jobs` threads, each locked, verified and saved as in a serial run; what is
    /// printed, the summary and the exit code are a serial run's, in the same order.
    /// `failedBefore`: files the command could not read before it came to edit the others
    /// (`number` reads every file first), counted in the summary.
    static func edit(_ paths: [String], recursive: Bool, options: WriteOptions, failedBefore: Int = 0,
                     edit: @escaping @Sendable (inout MediaFile) throws(MetadataError) -> Void) throws {
        let expansion = MediaFileList.expansion(paths, recursive: recursive)
        let files = expansion.paths
        try options.validate(files: files)
        var run = FileRun(total: files.count, batch: recursive || failedBefore > 0)
        run.failed = failedBefore
        run.skipped = expansion.skipped
        if options.verbose {
            for path in expansion.skipped { print("\(path): skipped: tagedit does not edit \(MediaFileList.describe(skipped: [path]).dropFirst(2)) files") }
        }
        let saveOptions = options.saveOptions, version = options.id3v2Version, previews = options.previews
        var documents = JSONArrayOutput()
        // No backup for a dry run, nor for --output (the source is not changed).
        let backup = options.dryRun || options.output != nil ? nil : options.backup
        // The folders of the batch's renames are flushed to disk once each, at its end, before
        // the summary (FolderFlush says why each file is still old or new after a crash).
        FolderFlush.batch {
            OrderedParallel.run(count: files.count, jobs: jobs(options.jobs, for: files), work: { index -> Result<(SavePlan, EditPreview?), MetadataError> in
                do throws(MetadataError) {
                    return .success(try locked(files[index], taking: saveOptions.output == nil) { () throws(MetadataError) -> (SavePlan, EditPreview?) in
                        var file = try MediaFile(path: files[index])
                        file.id3Version = version
                        // The backup of the file as read, on disk before anything changes (the
                        // file is locked from here to the end of the save).
                        let backupNote = try backup.flatMap { folder throws(MetadataError) in try EditBackup.write(file, into: folder) }
                        let before = previews ? try EditPreview.Snapshot(file) : nil
                        try edit(&file)
                        let preview = try before.map { before throws(MetadataError) in EditPreview(before: before, after: try EditPreview.Snapshot(file)) }
                        var plan = try file.save(saveOptions)
                        if let backupNote { plan.notes.insert(backupNote, at: 0) }
                        return (plan, preview)
                    })
                } catch {
                    return .failure(error)
                }
            }, progress: { run.progress($0) }, emit: { index, result in
                let path = files[index]
                switch result {
                case .success(let (plan, preview)):
                    if plan.changed { run.changed += 1 } else { run.unchanged += 1 }
                    if options.json {
                        var members: [(String, JSONValue)] = [
                            ("path", .string(PathBytes.display(path))), ("changed", .bool(plan.changed)), ("written", .bool(!options.dryRun && plan.changed)),
                            ("method", .string("\(plan.method)")), ("summary", .string(plan.summary)),
                        ]
                        members += preview?.jsonMembers ?? []
                        members.append(("notes", .array(plan.notes.map(JSONValue.string))))
                        documents.append(.object(members))
                    } else if previews {
                        run.clearProgress()
                        print("\(path): \(options.dryRun ? "would be written" : "written"): \(plan.method) (\(plan.summary))")
                        for line in preview?.lines ?? [] { print(line) }
                    }
                    for note in plan.notes { run.clearProgress(); standardError("tagedit: \(path): note: \(note)") }
                case .failure(let error):
                    if options.json { documents.append(.object([("path", .string(PathBytes.display(path))), ("error", .string(error.description))])) }
                    run.fail(error)
                }
            })
        }
        if options.json { documents.finish() }
        try run.finish(writing: true, dryRun: options.dryRun)
    }
}
