import FeedgenDiagnostics
import FeedgenStorage

/// A site's configuration and the shape of its `content/` folder, listed before any content
/// file is read (``SiteLoader/configuration(siteRoot:)``, then ``SiteLoader/list(_:stampFiles:)``).
public struct ContentListing: Sendable {
    /// The site folder (absolute).
    public let root: String
    /// `feedgen.yaml` (defaults when there is none).
    public let config: SiteConfig
    /// The problems of `feedgen.yaml` (reported by the load).
    let configDiagnostics: [Diagnostic]
    /// nil: the site has no `content/` folder.
    var plan: ContentPlan?

    init(root: String, config: SiteConfig, configDiagnostics: [Diagnostic], plan: ContentPlan?) {
        self.root = root
        self.config = config
        self.configDiagnostics = configDiagnostics
        self.plan = plan
    }

    /// Every item file (site-relative path) in the order the loader reads them, with its
    /// `stat` as listed (nil when it could not be taken).
    public var itemFiles: [(path: String, stamp: FileStamp?)] {
        var files: [(path: String, stamp: FileStamp?)] = []
        for feed in plan?.feeds ?? [] {
            for section in feed.sections {
                for (i, name) in section.itemFiles.enumerated() {
                    files.append((section.folder + "/" + name, i < section.itemStamps.count ? section.itemStamps[i] : nil))
                }
            }
        }
        return files
    }

    /// Whether an item file was modified or had its status changed at `time` (ns since 1970)
    /// or later, or could not be stamped.
    public func hasItemFile(changedSince time: Int64) -> Bool {
        for feed in plan?.feeds ?? [] {
            for section in feed.sections {
                guard section.itemStamps.count >= section.itemFiles.count else { return true }
                for stamp in section.itemStamps[..<section.itemFiles.count] {
                    guard let stamp, stamp.mtime < time, stamp.ctime < time else { return true }
                }
            }
        }
        return false
    }

    /// The feed and section files (`_feed.md`, `_section.md`; site-relative), in plan order.
    public var settingsFiles: [String] {
        var files: [String] = []
        for feed in plan?.feeds ?? [] {
            if let file = feed.feedFile { files.append(file) }
            for section in feed.sections {
                if let file = section.sectionFile { files.append(file) }
            }
        }
        return files
    }

    /// The problems found while listing `content/` (a stray `.md` file, a broken symbolic link,
    /// a `.markdown` file…) and those of `feedgen.yaml`, in the order the load reports them.
    public var diagnostics: [Diagnostic] { configDiagnostics + (plan?.diagnostics ?? []) }

    /// The problems found while listing `content/` (or its absence) are reported by the load,
    /// with the configuration's: whether there are errors among them.
    public var hasErrors: Bool {
        configDiagnostics.contains { $0.severity == .error } || (plan?.diagnostics ?? []).contains { $0.severity == .error }
    }
}
