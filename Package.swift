// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "swift-media-metadata",
    // FileLock's process-wide table uses the standard library's Mutex (Synchronization).
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "MediaBytes", targets: ["MediaBytes"]),
        .library(name: "ISOBMFF", targets: ["ISOBMFF"]),
        .library(name: "ID3", targets: ["ID3"]),
        .library(name: "APEv2", targets: ["APEv2"]),
        .library(name: "VorbisComment", targets: ["VorbisComment"]),
        .library(name: "Carriers", targets: ["Carriers"]),
        .library(name: "MediaMetadata", targets: ["MediaMetadata"]),
        .executable(name: "atominspect", targets: ["atominspect"]),
        .executable(name: "tagedit", targets: ["tagedit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Documentation only: `swift package generate-documentation` (the DocC catalogs).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Layer 1: bytes. Random-access sources, bounded big-endian reader/writer, FourCC.
        .target(name: "MediaBytes"),
        // Layer 2: ISO-BMFF / QuickTime atoms.
        .target(name: "ISOBMFF", dependencies: ["MediaBytes"]),
        // Layer 2': tag formats: ID3v2 and ID3v1 tags.
        .target(name: "ID3", dependencies: ["MediaBytes"]),
        // Layer 2': tag formats: APEv1/APEv2 tags.
        .target(name: "APEv2", dependencies: ["MediaBytes"]),
        // Layer 2': tag formats: Vorbis comments and FLAC pictures (FLAC, Ogg Vorbis, Opus, Speex).
        .target(name: "VorbisComment", dependencies: ["MediaBytes"]),
        // Layer 2'': carriers, the file layouts that hold tags (MPEG audio / ADTS streams,
        // AIFF and WAV chunks); each holds tag formats of the layer below.
        .target(name: "Carriers", dependencies: ["MediaBytes", "ID3", "APEv2", "VorbisComment"]),
        // Layer 3: uniform metadata keys, format detection, file-level facade.
        .target(name: "MediaMetadata", dependencies: ["MediaBytes", "ISOBMFF", "ID3", "Carriers", "VorbisComment"]),
        // Output formats shared by the command-line tools, kept in a library so they are unit-testable.
        .target(name: "MediaToolSupport", dependencies: ["MediaBytes", "ISOBMFF", "ID3", "Carriers", "MediaMetadata"]),
        // The atom browser's screen model (state + key -> state, state -> lines) and its terminal.
        .target(name: "InspectionBrowser", dependencies: ["MediaToolSupport", "MediaBytes"]),

        .executableTarget(
            name: "atominspect",
            dependencies: [
                "MediaToolSupport", "InspectionBrowser", "ISOBMFF", "MediaMetadata",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tools/atominspect"
        ),
        .executableTarget(
            name: "tagedit",
            dependencies: [
                "MediaToolSupport", "MediaMetadata", "MediaBytes",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tools/tagedit"
        ),

        // Benchmarks (run by Tools/benchmark.sh in release mode; numbers go in the README).
        .executableTarget(name: "atombench", dependencies: ["ISOBMFF", "ID3", "Carriers", "MediaBytes", "MediaToolSupport", "InspectionBrowser", "TestSupport"],
                          path: "Tools/atombench"),

        // Fuzzing: the targets (a library the tests replay findings through) and the driver that
        // Tools/fuzz.sh builds as a libFuzzer binary (a replay tool in a normal build).
        .target(name: "FuzzHarness", dependencies: ["MediaMetadata", "MediaToolSupport", "ISOBMFF", "ID3", "Carriers", "MediaBytes", "TagLibOracle"], path: "Fuzz/Harness"),
        .target(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"),
        .executableTarget(name: "mediafuzz", dependencies: ["FuzzHarness", "CLibFuzzer"], path: "Fuzz/mediafuzz"),

        .target(name: "TestSupport", dependencies: ["MediaBytes"], path: "Tests/TestSupport"),
        // Test-only bridge to the system TagLib (Debian libtag1-dev), the cross-check oracle.
        .target(name: "CTagLibShim", path: "Tests/CTagLibShim", linkerSettings: [.linkedLibrary("tag")]),
        .target(name: "TagLibOracle", dependencies: ["CTagLibShim", "MediaMetadata", "Carriers", "ID3", "MediaBytes"], path: "Tests/TagLibOracle"),
        .testTarget(name: "ID3Tests", dependencies: ["ID3", "Carriers", "MediaBytes", "MediaToolSupport", "TestSupport", "TagLibOracle"]),
        .testTarget(name: "MediaBytesTests", dependencies: ["MediaBytes", "TestSupport"]),
        .testTarget(name: "APEv2Tests", dependencies: ["APEv2", "MediaBytes", "TestSupport"]),
        .testTarget(name: "ISOBMFFTests", dependencies: ["ISOBMFF", "MediaBytes", "TestSupport", "TagLibOracle"]),
        .testTarget(name: "MediaMetadataTests", dependencies: ["MediaMetadata", "MediaBytes", "ID3", "APEv2", "Carriers", "ISOBMFF", "VorbisComment", "TestSupport", "TagLibOracle"]),
        .testTarget(name: "MediaToolSupportTests", dependencies: ["MediaToolSupport", "MediaMetadata", "MediaBytes", "ISOBMFF", "TestSupport"]),
        .testTarget(name: "InspectionBrowserTests", dependencies: ["InspectionBrowser", "MediaToolSupport", "MediaBytes", "TestSupport"]),
        // Damaged and hostile input through every layer (truncation and corruption sweeps).
        .testTarget(name: "RobustnessTests", dependencies: ["FuzzHarness", "MediaMetadata", "ISOBMFF", "ID3", "Carriers", "MediaBytes", "TestSupport"]),
        .testTarget(
            name: "ToolEndToEndTests",
            dependencies: ["TestSupport", "ISOBMFF", "MediaBytes", "Carriers", "MediaMetadata", "MediaToolSupport", "TagLibOracle"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
