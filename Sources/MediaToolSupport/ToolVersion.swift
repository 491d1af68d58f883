/// The version both tools print with `--version`: one place, so that they never disagree.
public enum ToolVersion {
    public static let current = "0.3.0"
}
