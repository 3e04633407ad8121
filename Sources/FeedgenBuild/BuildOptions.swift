/// `BuildOptions` (what `feedgen build` and `check` were asked) and `BuildReport` (what a build did).
import Dispatch
import FeedgenContent
import FeedgenDiagnostics
import FeedgenEmit
import FeedgenLayout
import FeedgenResolve
import FeedgenStorage
import Foundation

/// Options of `feedgen build` and `feedgen check` (content-format §9).
public struct BuildOptions: Sendable {
    /// The site folder (absolute or relative to the working directory).
    public var siteRoot: String
    /// The output folder; nil: `output` of feedgen.yaml, relative to the site (default `public`).
    public var output: String?
    public var drafts = false
    public var future = false
    public var expired = false
    /// Warnings become errors.
    public var strict = false
    /// `check` validates everything and writes nothing.
    public var write = true
    /// "Now" for publishDate/expiryDate, in seconds since 1970 (the caller reads the clock).
    public var now: Int64
    /// Watch mode: pages load `_feedgen/live-reload.js`, which reloads them after a rebuild.
    public var liveReload = false
    /// Use the build cache beside the output (``BuildCache``); false (`--clean`) parses, renders
    /// and writes everything.
    public var useCache = true
    /// Also write `_previews/`: every section at the preview widths, light and dark (``Preview``).
    public var previews = false
    /// The process exits after this build (`feedgen build` without `--watch`): the site's
    /// objects are left for the exit to reclaim (``ExitReclaimed``) rather than freed one by one.
    public var exitsAfterBuild = false
    /// Told (one line, ending in a line feed) when the build waits for another build writing
    /// the same output (``BuildLock``); nil: says nothing.
    public var onWaiting: (@Sendable (String) -> Void)?
    /// Shows the build's stage and count (the CLI's terminal line); finished (its line
    /// cleared) before `SiteBuilder.build` (FeedgenIncremental) returns. nil: nothing shown.
    public var progress: (any BuildProgressReporting)?
    /// Long sections defer their off-screen cards (``SiteRenderer/contentVisibility``); false
    /// for the browser benchmark only (`FEEDGEN_NO_CONTENT_VISIBILITY=1`, read by the CLI).
    public var contentVisibility = true
    /// Each stage's wall time, CPU time and peak memory, and why a patch build did not apply,
    /// are printed to stderr (``StageTiming``): a profiling switch (`FEEDGEN_TIMING=1`, read by
    /// the command line only).
    public var timing = false
    /// A test hook (debug builds; Tests/FeedgenBuildTests/CacheRobustnessTests): the build
    /// cache's log of this name (`items.log`, `cards.log`, or `items.log after commit`) is cut
    /// short while the build reads it, as another process could. Set by the CLI from
    /// `FEEDGEN_TEST_CUT_LOG`; nil in every real build.
    public var testCutLog: String?

    /// ``onWaiting`` through ``progress`` when there is one, which clears its line first (every
    /// build: `build` and each `build --watch` rebuild).
    var waitingMessage: (@Sendable (String) -> Void)? {
        guard let onWaiting else { return nil }
        guard let progress else { return onWaiting }
        return { progress.say($0, through: onWaiting) }
    }

    public init(siteRoot: String, output: String? = nil, now: Int64) {
        self.siteRoot = siteRoot
        self.output = output
        self.now = now
    }
}

/// What a build did.
public struct BuildReport: Sendable {
    public var diagnostics = Diagnostics()
    /// 0 success, 1 content errors, 2 usage or configuration errors (content-format §9).
    public var exitStatus: Int32 = 0
    public var pages = 0
    public var feeds = 0
    public var cards = 0
    public var outputPath: String?
    /// `_previews/index.html` in the output folder, when the build wrote previews.
    public var previewsPath: String?
    public var seconds = 0.0
    /// Items taken from the build cache without parsing their files.
    public var cachedItems = 0
    /// Of those, items whose file was not read: its stat was as the last build recorded.
    public var unreadItems = 0
    /// Output files written (the others were already right in the back buffer).
    public var filesWritten = 0
    /// Pages rendered (the others were already right in the back buffer).
    public var pagesRendered = 0
    /// Cards rendered through their templates in a build that writes (the others came from the
    /// build cache's `cards.log`).
    public var cardsRendered = 0
    /// Responsive image variants made and reused (``ImageVariants``).
    public var images = ImageVariants.Stats()
    /// The build patched the previous output (``PatchBuild``) instead of building the site.
    public var patched = false

    public init() {}
}
