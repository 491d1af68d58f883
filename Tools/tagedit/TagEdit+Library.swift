import ArgumentParser
import Foundation
import MediaMetadata
import MediaToolSupport

/// The commands that work on a library as a whole: renaming by tags, tags from names, numbering.
extension TagEdit {
    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(
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
        @Option(help: "The new name, from tag fields ({KEY}, {KEY:02}, {KEY|default}); / makes folders.") var pattern: String
        @Option(help: "The root folder the pattern is relative to (default: each file's own folder).") var to: String?
        @Flag(help: "Print the moves; move nothing.") var dryRun = false
        @Flag(name: .shortAndLong, help: "Walk directories.") var recursive = false

        func validate() throws {
            do { _ = try TagTemplate(pattern) } catch { throw ValidationError(error.description) }
            guard !pattern.hasPrefix("/") else { throw ValidationError("the pattern is relative: name a root with --to DIR") }
        }

        func run() throws {
            let paths = MediaFileList.expand(files, recursive: recursive)
            var run = FileRun(total: paths.count, batch: recursive)
            var moves: [(from: String, to: String)] = []
            for path in paths {
                do throws(MetadataError) {
                    let file = try MediaFile(path: path)
                    let name = try FileNaming.relativePath(pattern, for: file)
                    let ext = TagTemplate.splitExtension((path as NSString).lastPathComponent).ext
                    let root = to ?? (path as NSString).deletingLastPathComponent
                    let target = ((root.isEmpty ? "." : root) as NSString).appendingPathComponent(name + (ext.isEmpty ? "" : "." + ext))
                    moves.append((path, target))
                } catch {
                    run.fail(error)
                }
            }
            guard run.failed == 0 else {
                FileRun.standardError("tagedit: nothing moved: \(run.failed) of \(paths.count) files could not be read")
                try run.finish(writing: false)
                return
            }
            let standard = { (path: String) in URL(fileURLWithPath: path).standardizedFileURL.path }
            let pending = moves.filter { standard($0.from) != standard($0.to) }
            var problems: [String] = []
            for (target, group) in Dictionary(grouping: pending, by: { standard($0.to) }) where group.count > 1 {
                problems.append("\(group.map(\.from).sorted().joined(separator: ", ")) would all become \(target)")
            }
            let sources = Set(moves.map { standard($0.from) })
            for move in pending where FileManager.default.fileExists(atPath: move.to) && !sources.contains(standard(move.to)) {
                problems.append("\(move.from): \(move.to) exists")
            }
            // A target that is another file of the batch would need an order of moves (or a
            // swap); refused like an existing file.
            for move in pending where sources.contains(standard(move.to)) {
                problems.append("\(move.from): \(move.to) is another file of this batch")
            }
            guard problems.isEmpty else {
                for problem in problems.sorted() { FileRun.standardError("tagedit: \(problem)") }
                FileRun.standardError("tagedit: nothing moved")
                throw ExitCode(TagEditExitCode.permissionDenied)
            }
            if dryRun {
                for move in pending { print("\(move.from) -> \(move.to)") }
                FileRun.standardError("\(pending.count) \(pending.count == 1 ? "file" : "files") would move, \(moves.count - pending.count) already named so")
                return
            }
            var moved: [String] = []
            for move in pending {
                if let failure = Self.move(move.from, to: move.to) {
                    FileRun.standardError("tagedit: \(move.from): \(failure)")
                    let left = pending.map(\.from).filter { !moved.contains($0) }
                    FileRun.standardError("tagedit: stopped: \(moved.count) of \(pending.count) files moved (printed above); not moved: \(left.joined(separator: ", "))")
                    throw ExitCode(TagEditExitCode.ioError)
                }
                moved.append(move.from)
                print("\(move.from) -> \(move.to)")
            }
            if paths.count > 1 || recursive {
                FileRun.standardError("\(moved.count) \(moved.count == 1 ? "file" : "files") moved, \(moves.count - pending.count) already named so")
            }
        }

        /// Moves `from` to `to`, creating its folder; nil on success, else why not. Never
        /// replaces a file that appeared since the check.
        static func move(_ from: String, to: String) -> String? {
            let folder = (to as NSString).deletingLastPathComponent
            if !folder.isEmpty {
                do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                    return "cannot create the folder \(folder): \(error.localizedDescription)"
                }
            }
            // link(2) fails when the target exists, so nothing is replaced; on a file system
            // without hard links, rename(2) after a last check.
            if link(from, to) == 0 {
                guard unlink(from) == 0 else { return "moved to \(to) but the old name stays: \(String(cString: strerror(errno)))" }
                return nil
            }
            let linkError = errno
            if linkError == EEXIST { return "\(to) exists" }
            if linkError == EXDEV { return "cannot move to another file system (\(to))" }
            guard !FileManager.default.fileExists(atPath: to) else { return "\(to) exists" }
            guard rename(from, to) == 0 else { return "cannot move to \(to): \(String(cString: strerror(errno)))" }
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
        @Option(help: "The name's layout, from tag fields: '{TRACKNUMBER} - {TITLE}'.") var pattern: String
        @Flag(name: .shortAndLong, help: "Walk directories.") var recursive = false
        @OptionGroup var options: WriteOptions

        func validate() throws {
            let template: TagTemplate
            do { template = try TagTemplate(pattern) } catch { throw ValidationError(error.description) }
            guard template.fields.contains(where: { $0.key != "_" && !TagTemplate.fileFields.contains($0.key) }) else {
                throw ValidationError("the pattern names no tag: '{TRACKNUMBER} - {TITLE}'")
            }
        }

        func run() throws {
            let template = try TagTemplate(pattern)
            try FileRun.edit(files, recursive: recursive, options: options) { file throws(MetadataError) in
                var components = Array(file.path.split(separator: "/").map(String.init).suffix(template.componentCount))
                components[components.count - 1] = TagTemplate.splitExtension(components[components.count - 1]).name
                let name = components.joined(separator: "/")
                guard let values = template.match(name) else {
                    throw MetadataError(.badValue, path: file.path, message: "the name \"\(name)\" does not match the pattern \"\(pattern)\"")
                }
                for (key, value) in values where !TagTemplate.fileFields.contains(key) {
                    switch key {
                    case MetadataKey.trackNumber.rawValue: file.trackNumber = Int(value)
                    case MetadataKey.discNumber.rawValue: file.discNumber = Int(value)
                    default: try file.set(key, [value])
                    }
                }
            }
        }
    }

    struct Number: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Number tracks: TRACKNUMBER n/total, per folder, in file-name order (or --order tag).",
            discussion: """
                The files of each folder are numbered from --start in natural name order (2 before \
                10), or with --order tag by their DISCNUMBER, then TRACKNUMBER, then name; the total \
                is the folder's file count unless --no-total.
                """)
        enum Order: String, ExpressibleByArgument, CaseIterable { case name, tag }

        @Argument(help: "Files and folders (folders are walked).") var files: [String]
        @Option(help: "name (natural order of file names) or tag (disc, track, then name).") var order: Order = .name
        @Option(help: "The first number.") var start = 1
        @Flag(help: "Write the number only, without the total.") var noTotal = false
        @OptionGroup var options: WriteOptions

        func run() throws {
            let paths = MediaFileList.expand(files, recursive: true)
            var folders: [String: [String]] = [:]
            var folderOrder: [String] = []
            for path in paths {
                let folder = (path as NSString).deletingLastPathComponent
                if folders[folder] == nil { folderOrder.append(folder) }
                folders[folder, default: []].append(path)
            }
            var numbers: [String: String] = [:]
            var ordered: [String] = []
            for folder in folderOrder {
                let sorted = try sort(folders[folder]!)
                for (index, path) in sorted.enumerated() {
                    numbers[path] = noTotal ? "\(start + index)" : "\(start + index)/\(start + sorted.count - 1)"
                }
                ordered += sorted
            }
            try FileRun.edit(ordered, recursive: false, options: options) { file throws(MetadataError) in
                try file.set(.trackNumber, [numbers[file.path]!])
            }
        }

        /// One folder's files in the order asked for (a file that cannot be read sorts by name
        /// and fails when it is edited).
        func sort(_ paths: [String]) throws -> [String] {
            func natural(_ a: String, _ b: String) -> Bool {
                let order = (a as NSString).lastPathComponent.compare((b as NSString).lastPathComponent, options: [.numeric, .caseInsensitive])
                return order == .orderedSame ? a < b : order == .orderedAscending
            }
            guard order == .tag else { return paths.sorted(by: natural) }
            let keys = paths.map { path -> (String, Int, Int) in
                let file = try? MediaFile(path: path)
                return (path, file?.discNumber ?? Int.max, file?.trackNumber ?? Int.max)
            }
            return keys.sorted { a, b in
                if a.1 != b.1 { return a.1 < b.1 }
                if a.2 != b.2 { return a.2 < b.2 }
                return natural(a.0, b.0)
            }.map(\.0)
        }
    }
}
