import ArgumentParser
import Dispatch
import Synchronization
import InspectionBrowser
import MediaToolSupport

extension AtomInspect {
    struct Browse: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "browse",
            abstract: "Browse a file in the terminal: the tree, the selected node's fields and its bytes side by side.",
            discussion: """
                Needs a terminal on standard input and output (use 'atominspect tree' in scripts). \
                Press ? inside for the keys.
                """
        )

        @OptionGroup var options: FileOptions

        @Argument(help: "A second file to compare with: ] and [ step through the differences.")
        var other: String?

        func run() throws {
            guard Terminal.isInteractive else {
                fail("browse needs a terminal on standard input and output; use 'atominspect tree \(options.file)' instead",
                     path: nil, code: ExitStatus.noTerminal)
            }
            let file = open(options)
            let (width, height) = Terminal.size()
            let strict = options.strict
            var browser = Browser(file: file, width: width, height: height, useColor: Terminal.allowsColor)
            // The comparison with a second file runs in the background: the first file is on
            // the screen at once, the status line says how far the comparison has got, and the
            // tree marks what differs when it is done.
            let second = other.map { open(FileOptions(file: $0, strict: strict)) }
            var comparison: BackgroundComparison?
            if let other, let second { comparison = BackgroundComparison(file, second, name: other) }
            browser.other = second
            browser.comparisonPending = comparison?.status
            let options = self.options
            Terminal.run(&browser, reopen: {
                Result { () throws(InspectionFailure) in try FileInspection.open(options.file, strict: options.strict) }.mapError { $0 as any Error }
            }, tick: { browser in
                guard let comparison, browser.comparison == nil else { return false }
                if let diff = comparison.result {
                    browser.setComparison(diff)
                    browser.say("compared with \(comparison.name): \(diff.changes.count) difference\(diff.changes.count == 1 ? "" : "s") (] and [ step through them)")
                    return true
                }
                let status = comparison.status
                guard status != browser.comparisonPending else { return false }
                browser.comparisonPending = status
                return true
            })
        }
    }
}

/// `InspectionDiff` of two files made on another thread, its progress and result read by the
/// browser's loop.
final class BackgroundComparison: Sendable {
    let name: String
    let total: UInt64
    private let state = Mutex<(compared: UInt64, result: InspectionDiff?)>((0, nil))

    init(_ a: FileInspection, _ b: FileInspection, name: String) {
        self.name = name
        total = max(a.source.size, b.source.size)
        DispatchQueue.global().async { [self] in
            let diff = InspectionDiff(a, b, progress: { compared in self.state.withLock { $0.compared = compared } })
            self.state.withLock { $0.result = diff }
        }
    }

    var result: InspectionDiff? { state.withLock { $0.result } }

    var status: String {
        let compared = state.withLock { $0.compared }
        let shown = compared == 0 ? "" : ": \(DiffProgress.gibibytes(compared)) of \(DiffProgress.gibibytes(total)) GiB"
        return "comparing with \(name)\(shown) (] and [ step through the differences when it is done)"
    }
}
