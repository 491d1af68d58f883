import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program as a child process that the tests can always get back from.
///
/// Foundation's `Process` is not used for this: on Linux it learns that a child ended from a
/// socket the child inherits, so a program that leaves a daemon behind (tmux starts its server
/// this way, Chromium its crash handler) holds that socket open and `waitUntilExit` never
/// returns; reading a pipe to its end has the same problem. Here the child gets nothing but
/// standard input from `/dev/null` and its output in files, every other descriptor is closed,
/// the parent waits for that one process ID, and a child that outlives `timeout` is killed.
public enum ChildProcess {
    public struct Result: Sendable {
        /// The exit status, or 128 + the signal number when the program was killed by a signal.
        public var status: Int32
        public var standardOutput: Data
        public var standardError: Data
        /// True when the program ran past its time limit and was killed.
        public var timedOut: Bool
    }

    /// Runs `program` (an absolute path) with `arguments`; `environment` entries are added to
    /// the test process's own. Standard output is discarded when `keepStandardOutput` is false.
    public static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:],
                           keepStandardOutput: Bool = true, timeout: Double = 600) throws -> Result {
        let directory = NSTemporaryDirectory() + "child-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outputPath = keepStandardOutput ? directory + "/stdout" : "/dev/null"
        let errorPath = directory + "/stderr"

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        closeInheritedDescriptors(&actions)

        // Signals as a freshly started program has them: default actions, none blocked (the
        // test process ignores some, and a child would inherit that; Ctrl-Z would do nothing).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }

        let deadline = Date().addingTimeInterval(timeout)
        var waitStatus: Int32 = 0
        var timedOut = false
        var delay: useconds_t = 1_000
        while true {
            let reaped = waitpid(pid, &waitStatus, WNOHANG)
            if reaped == pid { break }
            if reaped == -1 && errno != EINTR { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECHILD) }
            if !timedOut && Date() >= deadline {
                timedOut = true
                kill(pid, SIGKILL)
            }
            usleep(delay)
            delay = min(delay * 2, 10_000)
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, spelled out: the C macros do not import.
        let signal = waitStatus & 0x7F
        let status = signal == 0 ? (waitStatus >> 8) & 0xFF : 128 + signal
        let output = keepStandardOutput ? (FileManager.default.contents(atPath: outputPath) ?? Data()) : Data()
        let error = FileManager.default.contents(atPath: errorPath) ?? Data()
        return Result(status: status, standardOutput: output, standardError: error, timedOut: timedOut)
    }

    /// Adds "close every descriptor from 3 up" to `actions`: glibc's closefrom action where the
    /// C library has it (2.34 and later; Swift does not import it, so it is looked up), else a
    /// close action for each descriptor open now.
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        #if canImport(Glibc)
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
            let closeFrom = unsafeBitCast(symbol, to: CloseFrom.self)
            if closeFrom(&actions, 3) == 0 { return }
        }
        #endif
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/fd")) ?? []
        for descriptor in open.compactMap(Int32.init) where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
    }
}
