import Foundation

/// The hidden folder beside the output that holds feedgen's build cache: for `public` it is `.public.feedgen-cache` in the same parent folder. Never inside the output (it would be deployed).
///
/// Image variants live in its `images/` folder (``ImageVariants``). `OutputWriter`'s clean-up
/// removes only `.<name>.feedgen-tmp-<pid>` and `.<name>.feedgen-old-<pid>`, never this folder;
/// deleting it only makes the next build slower.
public enum BuildCache {
    /// - Parameter output: the output folder (absolute, or relative to the working directory).
    /// - Returns: the cache folder's absolute path (it may not exist yet).
    public static func folder(forOutput output: String) -> String {
        let url = URL(fileURLWithPath: output).standardizedFileURL
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).feedgen-cache").path
    }
}
