import MediaBytes

/// Locations of the committed fixtures and the optional shared corpus.
public enum TestFixtures {
    /// The package root, found from this file's location.
    public static let packageRoot: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/TestSupport/Fixtures.swift
        return parts.joined(separator: "/")
    }()

    public static let directory = packageRoot + "/Fixtures"

    public static func path(_ name: String) -> String { directory + "/" + name }

    /// The `../shared/corpus` folder beside the project, when it exists (it does in CI).
    public static let corpusDirectory: String = packageRoot + "/../shared/corpus"
}
