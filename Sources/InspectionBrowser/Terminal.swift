#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

import MediaBytes
import MediaToolSupport

/// The terminal under the browser: raw mode and the alternate screen, restored on every way
/// out (a key, Ctrl-C, SIGTERM/SIGHUP, a thrown error); Ctrl-Z suspends and resumes; a resize
/// redraws. Built on termios and ANSI escape sequences.
public enum Terminal {
    /// Whether standard input and output are both terminals.
    public static var isInteractive: Bool { isatty(0) == 1 && isatty(1) == 1 }

    /// Whether colours may be used: a terminal that has them, and no `NO_COLOR` set
    /// (https://no-color.org: any value, even empty, turns colour off).
    public static var allowsColor: Bool {
        if getenv("NO_COLOR") != nil { return false }
        guard let term = getenv("TERM").map({ String(cString: $0) }) else { return false }
        return term != "dumb" && !term.isEmpty
    }

    /// Columns and rows; 80×24 when the terminal does not say.
    public static func size() -> (width: Int, height: Int) {
        var size = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
            return (Int(size.ws_col), Int(size.ws_row))
        }
        return (80, 24)
    }

    /// Runs `browser` until it quits: draws, reads keys, applies them. `reopen` reads the file
    /// again for `r`.
    /// `tick` is called after every key and every 200 ms without one (work running in the
    /// background reports through it); it returns true when the screen must be drawn again.
    public static func run(_ browser: inout Browser, reopen: () -> Result<FileInspection, any Error>, tick: (inout Browser) -> Bool = { _ in false }) {
        TerminalState.enter()
        defer { TerminalState.leave() }
        var needsDraw = true
        while true {
            if TerminalState.takeResize() || needsDraw {
                let (width, height) = size()
                browser.width = width
                browser.height = height
                draw(&browser)
                needsDraw = false
            }
            var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 200)
            if ready < 0 && errno != EINTR { return }
            if tick(&browser) { needsDraw = true }
            guard ready > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = read(0, &buffer, buffer.count)
            if count == 0 { return }
            guard count > 0 else { continue }
            for key in BrowserKey.decode(Array(buffer[0..<count])) {
                switch browser.handle(key) {
                case .quit:
                    return
                case .redraw:
                    break
                case .suspend:
                    TerminalState.leave()
                    kill(getpid(), SIGTSTP)
                    // Continued: take the terminal back.
                    TerminalState.enter()
                case .reload:
                    switch reopen() {
                    case .success(let file): browser.reload(file)
                    case .failure(let error): browser.say("cannot reload: \(error)")
                    }
                case .openPicture(let picture):
                    browser.say(PictureViewer.open(picture, from: browser.file.source))
                }
            }
            needsDraw = true
        }
    }

    static func draw(_ browser: inout Browser) {
        let lines = browser.lines()
        var frame = "\u{1B}[H"
        for (i, line) in lines.enumerated() {
            frame += line + "\u{1B}[K" + (i < lines.count - 1 ? "\r\n" : "")
        }
        TerminalState.write(frame)
    }
}

/// The saved terminal settings and the signal handlers that put them back.
enum TerminalState {
    nonisolated(unsafe) static var saved = termios()
    nonisolated(unsafe) static var active: Int32 = 0
    nonisolated(unsafe) static var resized: Int32 = 0

    static func enter() {
        var settings = termios()
        guard tcgetattr(0, &settings) == 0 else { return }
        saved = settings
        cfmakeraw(&settings)
        // Keep output processing so that "\r\n" is what moves to the next line.
        settings.c_oflag |= tcflag_t(OPOST)
        tcsetattr(0, TCSANOW, &settings)
        active = 1
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J")
        signal(SIGWINCH) { _ in TerminalState.resized = 1 }
        for number in [SIGTERM, SIGHUP, SIGINT, SIGQUIT] {
            signal(number) { number in
                TerminalState.restore()
                signal(number, SIG_DFL)
                raise(number)
            }
        }
        signal(SIGCONT) { _ in TerminalState.resized = 1 }
    }

    static func leave() {
        restore()
        for number in [SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGWINCH] { signal(number, SIG_DFL) }
    }

    /// Puts the terminal back: safe to call from a signal handler (write and tcsetattr only).
    static func restore() {
        guard active == 1 else { return }
        active = 0
        let text = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
        text.utf8CString.withUnsafeBufferPointer { buffer in
            _ = systemWrite(1, buffer.baseAddress!, buffer.count - 1)
        }
        tcsetattr(0, TCSANOW, &saved)
    }

    static func takeResize() -> Bool {
        defer { resized = 0 }
        return resized == 1
    }

    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                systemWrite(1, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written <= 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}

/// Hands a picture to the desktop's viewer (`o` in the browser): its bytes go to a new file in
/// a new temporary folder (nothing there is replaced; the file stays for the viewer, which may
/// read it after the browser is gone), which `xdg-open` opens when there is a desktop to show
/// it on (`DISPLAY` or `WAYLAND_DISPLAY` set; `open` on macOS). Without one the message says
/// where the file is.
enum PictureViewer {
    static func open(_ picture: InspectionPicture, from source: any ByteSource) -> String {
        let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/atominspect-picture-XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            return "cannot make a folder for the picture in \(base): \(String(cString: strerror(errno)))"
        }
        let folder = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let path = folder + "/picture." + picture.fileExtension
        do {
            try FileReplacement.create(path, copying: UInt64(picture.range.count), from: source, at: picture.range.lowerBound)
        } catch {
            return "cannot write the picture to \(path): \(error)"
        }
        #if os(macOS)
        let viewer = "open"
        #else
        let desktop = [getenv("DISPLAY"), getenv("WAYLAND_DISPLAY")].contains { $0.map { $0.pointee != 0 } ?? false }
        guard desktop else { return "the picture is in \(path) (no desktop here to show it: DISPLAY is not set)" }
        let viewer = "xdg-open"
        #endif
        guard let program = findInPath(viewer) else { return "the picture is in \(path) (\(viewer) was not found to open it)" }
        // Through sh, backgrounded: sh exits at once (no child of the browser is left to
        // reap), the viewer runs on, and its output does not draw over the screen.
        guard spawnAndWait("/bin/sh", ["sh", "-c", "\"$0\" \"$1\" </dev/null >/dev/null 2>&1 &", program, path]) else {
            return "the picture is in \(path) (\(viewer) could not be started)"
        }
        return "opened \(path) with \(viewer)"
    }

    static func findInPath(_ name: String) -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = folder + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    static func spawnAndWait(_ program: String, _ arguments: [String]) -> Bool {
        var pid = pid_t()
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        #if canImport(Darwin)
        let environment = _NSGetEnviron().pointee
        #else
        let environment = environ
        #endif
        guard posix_spawn(&pid, program, nil, nil, argv, environment) == 0 else { return false }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return true
    }
}
