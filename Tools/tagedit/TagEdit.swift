import ArgumentParser

/// `tagedit`: the tag-editing command line. Its subcommands (show, get, set, pictures,
/// export/import, migrate) arrive with the uniform metadata layer; until then it only
/// describes itself and exits with status 64 for anything else.
@main
struct TagEdit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tagedit",
        abstract: "Edit tags in media files (not yet implemented: use atominspect to look at files).",
        version: "0.1.0"
    )

    func run() throws {
        print(TagEdit.helpMessage())
        throw ExitCode.validationFailure
    }
}
