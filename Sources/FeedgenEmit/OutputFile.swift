/// One file of the built site, relative to the output folder.
public struct OutputFile: Sendable, Hashable {
    public enum Contents: Sendable, Hashable {
        /// Generated text, written as UTF-8.
        case text(String)
        /// A copy of a file of the site (absolute path).
        case copy(from: String)
    }

    /// Relative to the output folder, `/`-separated (`recipes/index.html`).
    public var path: String
    public var contents: Contents

    public init(path: String, contents: Contents) {
        self.path = path
        self.contents = contents
    }
}

/// An item image resolved by the build: where it is copied and its intrinsic size.
public struct ImageAsset: Sendable, Hashable {
    /// Absolute path of the source file.
    public var source: String
    /// Output path relative to the output folder.
    public var outputPath: String
    public var width: Int?
    public var height: Int?
    public var alt: String

    public init(source: String, outputPath: String, width: Int?, height: Int?, alt: String) {
        self.source = source
        self.outputPath = outputPath
        self.width = width
        self.height = height
        self.alt = alt
    }
}
