import MediaBytes

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes to standard error, unbuffered.
public enum StandardError {
    public static func write(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var done = 0
            while done < buffer.count {
                let result = systemWrite(2, buffer.baseAddress! + done, buffer.count - done)
                if result <= 0 { break }
                done += result
            }
        }
    }
}
