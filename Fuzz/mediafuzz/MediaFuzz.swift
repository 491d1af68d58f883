// The fuzzing driver. Built two ways:
//
// - normally (`swift build`), it replays inputs: `mediafuzz TARGET FILE...` runs each file
//   through the target and reports findings, which is how a crash from a fuzzing run is
//   reproduced under a debugger;
// - by Tools/fuzz.sh with `-sanitize=fuzzer,address -DFUZZING`, it is a libFuzzer binary:
//   `MEDIAFUZZ_TARGET=atoms mediafuzz [libFuzzer options] [corpus directories]`.
//
// Both builds also answer `mediafuzz --write-seeds TARGET DIRECTORY FILE...`, which writes the
// target's seed inputs made from media files (Tools/fuzz.sh seeds from the fixtures).
import Foundation
import FuzzHarness

#if FUZZING
import CLibFuzzer
#endif

@main
struct MediaFuzz {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--write-seeds" { writeSeeds(Array(arguments.dropFirst())) }
        #if FUZZING
        fuzz()
        #else
        replay(arguments)
        #endif
    }

    static func fail(_ message: String, code: Int32 = 64) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(code)
    }

    static let targetNames = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")

    static func writeSeeds(_ arguments: [String]) -> Never {
        guard arguments.count >= 2, let target = FuzzTarget(rawValue: arguments[0]) else {
            fail("usage: mediafuzz --write-seeds TARGET DIRECTORY FILE...   (targets: \(targetNames))")
        }
        let directory = arguments[1]
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for (index, seed) in target.seeds(from: Array(arguments.dropFirst(2))).enumerated() {
            guard FileManager.default.createFile(atPath: "\(directory)/seed-\(index)", contents: Data(seed)) else {
                fail("cannot write \(directory)/seed-\(index)", code: 73)
            }
        }
        exit(0)
    }

    #if FUZZING
    nonisolated(unsafe) static var selected = FuzzTarget.atoms

    static func fuzz() -> Never {
        guard let name = ProcessInfo.processInfo.environment["MEDIAFUZZ_TARGET"], let target = FuzzTarget(rawValue: name) else {
            fail("set MEDIAFUZZ_TARGET to one of: \(targetNames)")
        }
        selected = target
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
            do {
                try MediaFuzz.selected.run(bytes)
            } catch {
                fatalError("finding in \(MediaFuzz.selected.rawValue): \(error)")
            }
            return 0
        })
    }
    #else
    static func replay(_ arguments: [String]) -> Never {
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name), arguments.count > 1 else {
            fail("usage: mediafuzz TARGET FILE...   (targets: \(targetNames))")
        }
        var findings = 0
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("\(path): cannot read")
                findings += 1
                continue
            }
            let started = Date()
            do {
                try target.run(Array(data))
                print("\(path): ok (\(Int(Date().timeIntervalSince(started) * 1000)) ms)")
            } catch {
                print("\(path): FINDING: \(error)")
                findings += 1
            }
        }
        exit(findings == 0 ? 0 : 1)
    }
    #endif
}
