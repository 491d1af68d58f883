// The system modules every file of the tool uses, imported once for the whole module.
// FoundationEssentials, not Foundation: no ICU in the binary, half the start-up.
#if canImport(FoundationEssentials)
@_exported import FoundationEssentials
#else
@_exported import Foundation
#endif
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#endif

import MediaToolSupport

/// `print` for this tool: a path's bytes that are not UTF-8 shown as `\xHH`
/// (`StandardOutput.print`). An unqualified `print` in this module is this one.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    StandardOutput.print(items.map { "\($0)" }.joined(separator: separator), terminator: terminator)
}
