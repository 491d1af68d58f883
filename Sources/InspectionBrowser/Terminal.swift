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
    public static func run(_ browser: inout Browser, reopen: () -> Result<FileInspection, any Error>) {
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
