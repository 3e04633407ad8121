/// feedgen's version: printed by `feedgen --version`, and part of the build cache's salt (a new
/// version never trusts an old cache).
public enum FeedgenVersion {
    public static let string = "0.1.0"
}
