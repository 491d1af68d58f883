import ArgumentParser
import MediaBytes
import MediaMetadata
import MediaToolSupport

/// The commands that work on a library as a whole: renaming by tags, tags from names, numbering.
extension TagEdit {
    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename",
            abstract: "Move files to names made from their tags: tagedit rename --pattern '{ALBUMARTIST}/{ALBUM}/{TRACKNUMBER:02} {TITLE}' FILE...",
            discussion: """
                The pattern is relative to each file's own folder, or to --to DIR. Folders are \
                created; the extension is kept; characters that file systems reject (/ \\ : * ? " < > |, \
                control characters, leading dots, trailing dots and spaces) become _ in values. \
                Every target is checked before anything moves: two files with one target, or a \
                target that exists, refuse the whole batch (exit 73) with every file where it was. \
                Each move is printed as it is made; if one fails, the run stops and says which \
                files moved and which did not.
                """)
        @Argument(help: "Files (directories with --recursive).") var files: [String]
        @Option(help: "The new name, from tag fields ({KEY}, {KEY:02}, {KEY|default}, {?{KEY} - } left out without KEY); / makes folders.") var pattern: String
        @Option(help: "The root folder the pattern is relative to (default: each file's own folder).") var to: String?
        @Flag(help: "Print the moves; move nothing.") var dryRun = false
        @OptionGroup var walking: Walking
        var recursive: Bool { walking.recursive }
        @Flag(help: "Remove the folders the moves emptied (never a folder named on the command line).") var prune = false
        @Option(help: "Files read at once (default: the number of processors); the moves and the output are a serial run's.") var jobs: Int?

        func validate() throws {
            if let jobs, jobs < 1 { throw ValidationError("--jobs is at least 1") }
            do { _ = try TagTemplate(pattern) } catch { throw ValidationError(error.description) }
            guard !pattern.hasPrefix("/") else { throw ValidationError("the pattern is relative: name a root with --to DIR") }
        }

        func run() throws {
            let paths = MediaFileList.expand(files, recursive: recursive)
            var run = FileRun(total: paths.count, batch: recursive)
            var moves: [(from: String, to: String)] = []
            // The targets are worked out on `jobs` threads (reading the tags); nothing moves
            // before every one is known and checked.
            let (pattern, to) = (self.pattern, self.to)
            OrderedParallel.run(count: paths.count, jobs: jobs, work: { index -> Result<String, MetadataError> in
                let path = paths[index]
                do throws(MetadataError) {
                    if Self.isSymbolicLink(path) {
                        throw MetadataError(.badValue, path: path, message: "is a symbolic link: rename the file it points to (moving the link would break it)")
                    }
                    let file = try MediaFile(path: path)
                    let name = try FileNaming.relativePath(pattern, for: file)
                    let ext = TagTemplate.splitExtension(PathNames.lastComponent(path)).ext
                    let root = to ?? PathNames.deletingLastComponent(path)
                    let relative = name + (ext.isEmpty ? "" : "." + ext)
                    return .success(root.isEmpty ? relative : PathNames.appending(relative, to: root))
                } catch {
                    return .failure(error)
                }
            }, progress: { run.progress($0) }, emit: { index, target in
                switch target {
                case .success(let target): moves.append((paths[index], target))
                case .failure(let error): run.fail(error)
                }
            })
            run.clearProgress()
            guard run.failed == 0 else {
                FileRun.standardError("tagedit: nothing moved: \(run.failed) of \(paths.count) files could not be renamed")
                try run.finish(writing: false)
                return
            }
            let pending = moves.filter { Self.standard($0.from) != Self.standard($0.to) }
            let problems = Self.problems(moves: moves, pending: pending)
            guard problems.isEmpty else {
                for problem in problems.sorted() { FileRun.standardError("tagedit: \(problem)") }
                FileRun.standardError("tagedit: nothing moved")
                throw ExitCode(ToolExitCode.permissionDenied.rawValue)
            }
            if dryRun {
                for move in pending { print("\(move.from) -> \(move.to)") }
                FileRun.standardError("\(pending.count) \(pending.count == 1 ? "file" : "files") would move, \(moves.count - pending.count) already named so")
                return
            }
            var moved: [(from: String, to: String)] = []
            for move in pending {
                if let failure = Self.move(move.from, to: move.to) {
                    FileRun.standardError("tagedit: \(move.from): \(failure)")
                    Self.undo(moved)
                    throw ExitCode(ToolExitCode.ioError.rawValue)
                }
                moved.append(move)
                print("\(move.from) -> \(move.to)")
            }
            let pruned = prune ? Self.prune(moved.map { PathNames.deletingLastComponent($0.from) }, keeping: files) : []
            for folder in pruned { print("removed the empty folder \(folder)") }
            if paths.count > 1 || recursive {
                FileRun.standardError("\(moved.count) \(moved.count == 1 ? "file" : "files") moved, \(moves.count - pending.count) already named so"
                                      + (prune ? ", \(pruned.count) empty \(pruned.count == 1 ? "folder" : "folders") removed" : ""))
            }
        }

        /// Removes each of `folders` the moves left empty, and the folders above it they left
        /// empty in turn, never one of `keeping` (the folders named on the command line), the
        /// working folder or the root; returns those removed. `rmdir` removes only an empty
        /// folder, so nothing else can go.
        static func prune(_ folders: [String], keeping: [String]) -> [String] {
            let kept = Set(keeping.map(standard)).union([standard("."), "/"])
            var removed: [String] = []
            for start in Set(folders).sorted(by: { $0.count > $1.count }) {
                var folder = start
                while !folder.isEmpty, !kept.contains(standard(folder)), SystemPath.rmdir(folder) == 0 {
                    removed.append(folder)
                    let parent = PathNames.deletingLastComponent(folder)
                    if parent == folder { break }
                    folder = parent
                }
            }
            return removed
        }

        static func standard(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }

        /// A name as the file system of its folder compares it: in lower case where it ignores
        /// case (APFS, exFAT, SMB: `PathNames.ignoresCase`), so that two targets equal this way
        /// collide there; as it is elsewhere. Lower case is enough: Swift compares and hashes
        /// strings by canonical equivalence, so NFC and NFD spellings are one key.
        static func folded(_ path: String, ignoringCase: (String) -> Bool) -> String {
            let path = standard(path)
            return ignoringCase(PathNames.deletingLastComponent(path)) ? path.lowercased() : path
        }

        static func isSymbolicLink(_ path: String) -> Bool {
            var info = stat()
            return SystemPath.lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
        }

        /// The same file (device and inode) at both paths: a case-only rename on a
        /// case-insensitive file system.
        static func sameFile(_ a: String, _ b: String) -> Bool {
            var first = stat(), second = stat()
            return SystemPath.stat(a, &first) == 0 && SystemPath.stat(b, &second) == 0 && first.st_dev == second.st_dev && first.st_ino == second.st_ino
        }

        /// Why the batch cannot move as planned (empty when it can): targets that collide (also
        /// where a file system ignores case), targets that exist (a dangling link too) or are
        /// another file of the batch, and folders on the way that are files.
        static func problems(moves: [(from: String, to: String)], pending: [(from: String, to: String)]) -> [String] {
            var problems: [String] = []
            var probed: [String: Bool] = [:]
            let ignoringCase = { (folder: String) -> Bool in
                if let known = probed[folder] { return known }
                let answer = PathNames.ignoresCase(folder: folder)
                probed[folder] = answer
                return answer
            }
            for (_, group) in Dictionary(grouping: moves, by: { folded($0.to, ignoringCase: ignoringCase) }) where group.count > 1 {
                let sorted = group.sorted { $0.from < $1.from }
                if Set(group.map(\.to)).count == 1 {
                    problems.append("\(sorted.map(\.from).joined(separator: ", ")) would all become \(group[0].to)")
                } else {
                    // Names that differ in case only, where the file system ignores it.
                    problems.append("\(sorted.map { "\($0.from) -> \($0.to)" }.joined(separator: ", ")): these names differ only in case, which the file system of \(PathNames.deletingLastComponent(group[0].to)) ignores")
                }
            }
            let sources = Set(moves.map { folded($0.from, ignoringCase: ignoringCase) })
            for move in pending {
                var info = stat()
                if sources.contains(folded(move.to, ignoringCase: ignoringCase)) {
                    if !sameFile(move.from, move.to) { problems.append("\(move.from): \(move.to) is another file of this batch") }
                } else if SystemPath.lstat(move.to, &info) == 0 {
                    problems.append("\(move.from): \(move.to) exists")
                }
                var folder = PathNames.deletingLastComponent(move.to)
                while !folder.isEmpty, folder != "/", folder != "." {
                    if SystemPath.lstat(folder, &info) == 0 {
                        if info.st_mode & S_IFMT != S_IFDIR && !MediaFileList.isDirectory(folder) {
                            problems.append("\(move.from): \(folder) is a file, not a folder")
                        }
                        break
                    }
                    folder = PathNames.deletingLastComponent(folder)
                }
            }
            return problems
        }

        /// Moves the files of a failed run back where they were, reporting each it cannot.
        static func undo(_ moved: [(from: String, to: String)]) {
            var stuck: [String] = []
            for move in moved.reversed() where Self.move(move.to, to: move.from) != nil { stuck.append("\(move.from) (now \(move.to))") }
            if stuck.isEmpty {
                FileRun.standardError("tagedit: stopped; the \(moved.count) \(moved.count == 1 ? "file" : "files") moved before the failure \(moved.count == 1 ? "was" : "were") moved back: every file is where it was")
            } else {
                FileRun.standardError("tagedit: stopped; could not move back: \(stuck.joined(separator: ", ")); every other file is where it was")
            }
        }

        /// Moves `from` to `to`, creating its folder; nil on success, else why not. Never
        /// replaces a file that appeared since the check.
        static func move(_ from: String, to: String) -> String? {
            let folder = PathNames.deletingLastComponent(to)
            if !folder.isEmpty {
                if let failure = PathNames.createFolders(folder) { return "cannot create the folder \(folder): \(failure)" }
            }
            // A case-only rename on a case-insensitive file system: the target is the file itself.
            if sameFile(from, to) {
                return SystemPath.rename(from, to) == 0 ? nil : "cannot move to \(to): \(String(cString: strerror(errno)))"
            }
            // link(2) fails when the target exists, so nothing is replaced; on a file system
            // without hard links, rename(2) after a last check.
            if SystemPath.link(from, to) == 0 {
                guard SystemPath.unlink(from) == 0 else { return "moved to \(to) but the old name stays: \(String(cString: strerror(errno)))" }
                return nil
            }
            let linkError = errno
            if linkError == EEXIST { return "\(to) exists" }
            if linkError == EXDEV { return "cannot move to another file system (\(to))" }
            var info = stat()
            guard SystemPath.lstat(to, &info) != 0 else { return "\(to) exists" }
            guard SystemPath.rename(from, to) == 0 else { return "cannot move to \(to): \(String(cString: strerror(errno)))" }
            return nil
        }
    }

    struct FromName: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "from-name",
            abstract: "Set tags from file names: tagedit from-name --pattern '{TRACKNUMBER} - {TITLE}' FILE...",
            discussion: """
                The pattern is matched against the file name without its extension (and, when it \
                has slashes, the folders above: '{ARTIST}/{ALBUM}/{TRACKNUMBER} {TITLE}'). Number \
                fields match digits; {_} matches text to ignore. A file whose name does not match \
                is an error (exit 65) and is left as it was. TRACKNUMBER and DISCNUMBER keep the \
                total the file has.
                """)
        @Argument(help: "Files (directories with --recursive).") var files: [String]
        @Option(help: "The name's layout, from tag fields: '{TRACKNUMBER} - {TITLE}'; a section '{?{TRACKNUMBER} - }' may be missing from a name.") var pattern: String
        @OptionGroup var walking: Walking
        var recursive: Bool { walking.recursive }
        @OptionGroup var options: WriteOptions

        func validate() throws {
            let template: TagTemplate
            do { template = try TagTemplate(pattern) } catch { throw ValidationError(error.description) }
            guard template.fields.contains(where: { $0.key != "_" && !TagTemplate.fileFields.contains($0.key) }) else {
                throw ValidationError("the pattern names no tag: '{TRACKNUMBER} - {TITLE}'")
            }
            guard !template.sectionsHoldFolders else {
                throw ValidationError("a section with a folder ('{?{ALBUM}/}') cannot be read from a name: how many folders belong to the name would be a guess")
            }
        }

        func run() throws {
            let template = try TagTemplate(pattern)
            try FileRun.edit(files, recursive: recursive, options: options) { file throws(MetadataError) in
                // The folders above count by their real names, however the path was given.
                var components = Array(Rename.standard(file.path).split(separator: "/").map(String.init).suffix(template.componentCount))
                components[components.count - 1] = TagTemplate.splitExtension(components[components.count - 1]).name
                let name = components.joined(separator: "/")
                guard let values = template.match(name) else {
                    throw MetadataError(.badValue, path: file.path, message: "the name \"\(name)\" does not match the pattern \"\(pattern)\"")
                }
                for (key, value) in values where !TagTemplate.fileFields.contains(key) {
                    switch key {
                    case MetadataKey.trackNumber.rawValue, MetadataKey.discNumber.rawValue:
                        guard let number = Int(value), number <= 65535 else {
                            throw MetadataError(.badValue, path: file.path, message: "\(key) \"\(value)\" from the name is not a number up to 65535")
                        }
                        if key == MetadataKey.trackNumber.rawValue { file.trackNumber = number } else { file.discNumber = number }
                    default: try file.set(key, [value])
                    }
                }
            }
        }
    }

    struct Number: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "number",
            abstract: "Number tracks: TRACKNUMBER n/total, per folder, in file-name order (or --order tag).",
            discussion: """
                The media files of each folder are numbered from --start in natural name order (2 \
                before 10), or with --order tag by their TRACKNUMBER, then name, each disc \
                (DISCNUMBER) of a folder on its own. The total is the number of files numbered \
                together, unless --no-total. A file that cannot be read fails and is not counted.
                """)
        enum Order: String, ExpressibleByArgument, CaseIterable { case name, tag }

        @Argument(help: "Files and folders (folders are walked).") var files: [String]
        @Option(help: "name (natural order of file names) or tag (per disc, by track number, then name).") var order: Order = .name
        @Option(help: "The first number (0-65535).") var start = 1
        @Flag(help: "Write the number only, without the total.") var noTotal = false
        @OptionGroup var options: WriteOptions

        func validate() throws {
            guard (0...65535).contains(start) else { throw ValidationError("--start is a number from 0 to 65535") }
        }

        /// A file to number: where it is, its disc and track as read.
        struct Entry {
            var path: String
            var group: String
            var track: Int?
        }

        func run() throws {
            let paths = MediaFileList.expand(files, recursive: true)
            var run = FileRun(total: paths.count)
            var groups: [String: [Entry]] = [:]
            var groupOrder: [String] = []
            for path in paths {
                do throws(MetadataError) {
                    let file = try MediaFile(path: path)
                    var group = Rename.standard(PathNames.deletingLastComponent(path).isEmpty ? "." : PathNames.deletingLastComponent(path))
                    if order == .tag { group += "\u{0}disc \(file.discNumber.map(String.init) ?? "-")" }
                    if groups[group] == nil { groupOrder.append(group) }
                    groups[group, default: []].append(Entry(path: path, group: group, track: file.trackNumber))
                } catch {
                    run.fail(error)
                }
            }
            var numbers: [String: String] = [:]
            var ordered: [String] = []
            for group in groupOrder.sorted() {
                let sorted = sort(groups[group]!)
                let last = start + sorted.count - 1
                guard last <= 65535 else { throw ValidationError("numbering \(sorted.count) files from \(start) passes 65535") }
                for (index, entry) in sorted.enumerated() {
                    // `n/`: the number alone, a total the file had removed (`n` would keep it).
                    numbers[entry.path] = noTotal ? "\(start + index)/" : "\(start + index)/\(sorted.count)"
                }
                ordered += sorted.map(\.path)
            }
            // A file that could not be read was reported above; the others are numbered.
            var edited: Int32 = 0
            do {
                let assigned = numbers
            try FileRun.edit(ordered, recursive: false, options: options, failedBefore: run.failed) { file throws(MetadataError) in
                    try file.set(.trackNumber, [assigned[file.path]!])
                }
            } catch let error as ExitCode {
                edited = error.rawValue
            }
            let code = run.exitCode != 0 ? run.exitCode : edited
            if code != 0 { throw ExitCode(code) }
        }

        /// One group's files in the order asked for.
        func sort(_ entries: [Entry]) -> [Entry] {
            func natural(_ a: String, _ b: String) -> Bool {
                PathNames.naturallyPrecedes(PathNames.lastComponent(a), PathNames.lastComponent(b)) ?? (a < b)
            }
            guard order == .tag else { return entries.sorted { natural($0.path, $1.path) } }
            return entries.sorted { a, b in
                let x = a.track ?? Int.max, y = b.track ?? Int.max
                return x != y ? x < y : natural(a.path, b.path)
            }
        }
    }
}
