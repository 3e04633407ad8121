/// `BodyPaths`: every body path that is not a link to a Markdown file — images, files beside
/// an item, files in `static/`, root-relative pages (`/docs/x/`), permalink-style folders
/// (`../other-post/`) — resolved to an output file, the files beside items copied, problems
/// reported at the link (issue #19 §3, issue #22 §3, content-format §5.4).
import FeedgenContent
import FeedgenDiagnostics
import FeedgenStorage
import Foundation

public enum BodyPaths {
    /// What the body paths of a site lead to.
    public struct Resolution: Sendable {
        /// Marker target → output file (``value(path:size:)``), for ``ContentLinks``.
        public var pages: [String: String] = [:]
        /// Files beside items that the output gets a copy of: output path → absolute source.
        public var files: [String: String] = [:]
        /// Files (absolute) whose appearance would change what a path resolves to (an incremental
        /// build must not patch when one appears).
        public var absent: [String] = []
        /// Every link's target, by index: the checks after this stage look each target up once.
        var targets = LinkTargets()
        /// The links' problems, in link order, made on another core (``takeProblems()``).
        var pending: Background<[Diagnostic]>?
        /// The links' problems, in link order (waits for them), moved out: read once.
        func takeProblems() -> [Diagnostic] { pending?.take() ?? [] }
    }

    /// A ``ContentLinks/pages`` value: the output path, and for an image the size its `<img>`
    /// gets (`width`/`height`, CSS px), after a NUL (output paths never hold one).
    public static func value(path: String, size: (width: Int, height: Int)?) -> String {
        size.map { path + "\u{0}\($0.width)x\($0.height)" } ?? path
    }

    /// A ``ContentLinks/pages`` value for a path that names nothing: the destination's path as
    /// written, after U+0001 — kept in the page (with a warning) rather than made `#`, which
    /// as an image's `src` would load the page itself.
    public static func verbatim(_ destination: String) -> String { "\u{1}" + LinkResolver.split(destination).path }

    /// The output path and image size of a ``value(path:size:)``; for a ``verbatim(_:)`` value,
    /// the path as written and `verbatim` true.
    public static func parse(_ value: String) -> (path: Substring, size: Substring?, verbatim: Bool) {
        // On bytes: U+0001 and NUL are control characters, each a Character of its own (a
        // combining mark after one starts the next), so their byte indices are Character
        // boundaries, and a search by Character (~100 instructions a character) finds the same.
        let utf8 = value.utf8
        if utf8.first == 1 { return (value[utf8.index(after: utf8.startIndex)...], nil, true) }
        guard let nul = utf8.firstIndex(of: 0) else { return (Substring(value), nil, false) }
        return (value[..<nul], value[utf8.index(after: nul)...], false)
    }

    /// Resolves the body paths of `feeds` (items, `_feed.md` intros, `_section.md` texts) and
    /// the folder links that `contentPages` has no page for (`names`: the feeds' page names,
    /// when already made). Problems, in ``Resolution/problems``: a path above the output root is
    /// an error at the link; one that names no file or page is a warning (`--strict`: an error).
    static func resolve(
        feeds: [PreparedFeed], contentPages: [String: String], names: PageNames? = nil, site: Site, realRoot: String
    ) -> Resolution {
        // Each target is resolved once, on every core (a target's outcome depends on the
        // target alone: files are looked at with `stat`); the links are then taken in order.
        // Whether a link is resolved here depends on its target alone too: asked once per target.
        // Every distinct target gets an index (``LinkTargets``); its slot is its index in
        // `targets`, -1 when not resolved here.
        var interner = TargetInterner()
        var slotOfIndex: [Int] = []
        var targets: [MarkdownLink] = []
        var targetIsPath: [Bool] = []
        var ofLink: [Int32] = []  // each link's target's index, in ``forEachLink(_:item:_:)``'s order
        var resolved = 0  // links whose slot is not -1
        forEachLink(feeds) { link in
            let (index, isNew) = interner.index(of: link.pointee.target)
            if isNew {
                let isPath = link.pointee.isPath
                let slot = isPath || (link.pointee.target.hasSuffix("/") && contentPages[link.pointee.target] == nil) ? targets.count : -1
                if slot >= 0 {
                    targets.append(link.pointee)
                    targetIsPath.append(isPath)
                }
                slotOfIndex.append(slot)
            }
            ofLink.append(index)
            if slotOfIndex[Int(index)] >= 0 { resolved += 1 }
        }
        var out = Resolution()
        out.targets.targets = interner.targets
        out.targets.ofLink = ofLink
        guard resolved > 0 else { return out }
        let (unique, isPath) = (targets, targetIsPath)
        var resolver = Resolver(names: names ?? PageNames(feeds: feeds), site: site, realRoot: realRoot)
        // The warning's message is made with the outcome, for the target's first link (it
        // quotes the destination as written: a later link written otherwise gets its own, from
        // the same tail).
        func resolveAll(_ indices: [Int], with resolver: Resolver) -> [Target] {
            parallelMap(indices.count) { i -> Target in
                let k = indices[i]
                var own = resolver
                let outcome = own.resolve(unique[k])
                var tail: String?
                if isPath[k], case .missing = outcome { tail = missingTail(unique[k].target) }
                return Target(outcome: outcome, absent: own.absent, tail: tail, needsPosts: own.needsPosts)
            }
        }
        var outcomes = resolveAll(Array(unique.indices), with: resolver)
        // A target that may be a date permalink is resolved again once those are made.
        let again = outcomes.indices.filter { outcomes[$0].needsPosts }
        if !again.isEmpty {
            resolver.names.addPosts(feeds)
            for (k, target) in zip(again, resolveAll(again, with: resolver)) { outcomes[k] = target }
        }
        // Every file looked for, once each, in order.
        let absent = sortedOnce(outcomes.flatMap(\.absent))
        // What each target leads to (the same for every link to it), then each link's problem.
        var kinds: [Problem] = []
        kinds.reserveCapacity(unique.count)
        for (slot, target) in unique.enumerated() {
            switch outcomes[slot].outcome {
            case .page(let path, let size):
                out.pages[target.target] = value(path: path, size: size)
                kinds.append(.none)
            case .copy(let path, let source, let size):
                out.pages[target.target] = value(path: path, size: size)
                out.files[path] = source
                kinds.append(.none)
            case .missing where isPath[slot]:
                out.pages[target.target] = verbatim(target.destination)
                kinds.append(.missing(first: quoted(target.destination, outcomes[slot].tail!), tail: outcomes[slot].tail!))
            case .missing:
                // A folder link is reported by ContentLinks (a folder without a feed page).
                kinds.append(.none)
            case .outside:
                kinds.append(.outside)
            case .problem(let message):
                kinds.append(.problem(message))
            }
        }
        // The links again, in the same order (not copied into an array), on another core: the
        // caller goes on with the link check meanwhile.
        let (problemKinds, linkTargets, slotOf) = (kinds, ofLink, slotOfIndex)
        out.pending = Background {
            // Counted first: the list is made at its size (tens of thousands of warnings when a
            // site's paths name nothing).
            let reported = problemKinds.map { if case .none = $0 { false } else { true } }
            var count = 0
            for index in linkTargets {
                let slot = slotOf[Int(index)]
                if slot >= 0, reported[slot] { count += 1 }
            }
            var problems: [Diagnostic] = []
            problems.reserveCapacity(count)
            var k = 0
            forEachLink(feeds) { link in
                let slot = slotOf[Int(linkTargets[k])]
                k += 1
                guard slot >= 0 else { return }
                switch problemKinds[slot] {
                case .none:
                    return
                case .outside:
                    problems.append(.error(
                        link.pointee.location,
                        "link '\(link.pointee.destination)' leads outside the output folder (above content/ or the site root); link to a file inside the site"))
                case .missing(let first, let tail):
                    let destination = link.pointee.destination
                    problems.append(.warning(link.pointee.location, destination == unique[slot].destination ? first : quoted(destination, tail)))
                case .problem(let message):
                    problems.append(.error(link.pointee.location, message))
                }
            }
            return problems
        }
        out.absent = absent
        return out
    }

    /// What ``resolve(feeds:contentPages:names:site:realRoot:)`` found for one
    /// target: its outcome, the files whose appearance would change it, and for a path that
    /// names nothing its warning's ``missingTail(_:)``.
    struct Target: Sendable {
        var outcome: Outcome
        var absent: [String]
        var tail: String?
        /// Whether the outcome is not known yet: a name looked up was date-shaped
        /// (``PageNames/page(_:needsPosts:)``).
        var needsPosts: Bool
    }

    /// The problem each link to a target gets.
    private enum Problem: Sendable {
        case none
        case outside
        case missing(first: String, tail: String)
        case problem(String)
    }

    /// Calls `body` with every Markdown link of `feeds` (intros', section texts' and items', in
    /// page order), without copying them into an array: a pointer to each, valid during the call.
    static func forEachLink(
        _ feeds: [PreparedFeed], item: (_ feed: Int, _ section: Int, _ item: Int) -> Void = { _, _, _ in },
        _ body: (UnsafePointer<MarkdownLink>) -> Void
    ) {
        // Through a pointer: `body` reads the fields it needs in place (an array's subscript and
        // a `for … in` copy each link, retaining its four strings, and so did a link passed from
        // a buffer pointer's subscript to a closure that reads it).
        func each(_ links: [MarkdownLink]) {
            links.withUnsafeBufferPointer { links in
                guard let base = links.baseAddress else { return }
                for k in links.indices { body(base + k) }
            }
        }
        for f in feeds.indices {
            each(feeds[f].feed.introLinks)
            for s in feeds[f].sections.indices {
                let section = feeds[f].sections[s].section
                each(section.headerLinks)
                for i in section.items.indices {
                    item(f, s, i)
                    each(section.items[i].markdownLinks)
                }
            }
        }
    }

    /// The warning at a body path that names nothing (``Resolver/resolve(_:)``'s `.missing`):
    /// where it was looked for follows from the target alone.
    package static func missingMessage(_ link: MarkdownLink) -> String {
        quoted(link.destination, missingTail(link.target))
    }

    /// ``missingMessage(_:)`` after the destination: the same for every link to `t`.
    static func missingTail(_ t: String) -> String {
        var looked = "\(t) and a page named so"
        if t.hasPrefix("/") || t.hasPrefix("static/") {
            let p = t.dropFirst(t.hasPrefix("/") ? 1 : "static/".count)
            looked = "static/\(p), a page named /\(p) and content/\(p)"
        }
        return "' names no file or page (looked for \(looked)); fix the path or remove it"
    }

    /// `'destination` followed by `tail`, written at its size in one allocation: a warning per
    /// link of a site that links many missing paths.
    static func quoted(_ destination: String, _ tail: String) -> String {
        String(unsafeUninitializedCapacity: 1 + destination.utf8.count + tail.utf8.count) { out in
            out[0] = UInt8(ascii: "'")
            var at = 1
            func put(_ part: String) {
                let rest = UnsafeMutableBufferPointer(rebasing: out[at...])
                at += part.utf8.withContiguousStorageIfAvailable { bytes in
                    _ = rest.initialize(fromContentsOf: bytes)
                    return bytes.count
                } ?? rest.initialize(fromContentsOf: part.utf8)
            }
            put(destination)
            put(tail)
            return at
        }
    }

    enum Outcome: Sendable {
        case page(String, size: (width: Int, height: Int)?)
        case copy(String, source: String, size: (width: Int, height: Int)?)
        case outside
        case missing
        case problem(String)
    }

    /// The rules, in order, for one target.
    struct Resolver: Sendable {
        var names: PageNames
        let site: Site
        let realRoot: String
        let staticFiles: Set<String>
        /// Files looked for and not found (duplicates possible; the caller keeps one of each).
        var absent: [String] = []
        /// Whether a name looked up needed the date permalinks, not made yet.
        var needsPosts = false

        init(names: PageNames, site: Site, realRoot: String) {
            self.names = names
            self.site = site
            self.realRoot = realRoot
            self.staticFiles = Set(site.staticFiles)
        }

        mutating func resolve(_ link: MarkdownLink) -> Outcome {
            let t = link.target
            if t.hasPrefix("/") {
                // Root-relative: `static/` first (as Hugo serves it), then a page, then a file
                // of `content/` (a page bundle's resource).
                let p = String(t.dropFirst())
                guard !p.hasPrefix("../"), p != ".." else { return .outside }
                if let found = staticFile(p) { return found }
                absent.append(site.root + "/static/" + p)
                if let page = names.page(rootRelative: p, needsPosts: &needsPosts) { return .page(page, size: nil) }
                if let found = contentFile("content/" + p) { return found }
                absent.append(site.root + "/content/" + p)
                return .missing
            }
            // Relative: from the site folder. `static/…` (a path climbing out of content/ into
            // static/) is the output root too; anything else above content/ is outside.
            if t.hasPrefix("static/") { return resolve(link.retargeted("/" + t.dropFirst("static/".count))) }
            guard t.hasPrefix("content/") else { return .outside }
            if let found = contentFile(t) { return found }
            if let page = names.page(t, needsPosts: &needsPosts) { return .page(page, size: nil) }
            absent.append(site.root + "/" + t)
            return .missing
        }

        /// The `static/` file (or folder's `index.html`) `p` names.
        func staticFile(_ p: String) -> Outcome? {
            let file = p.isEmpty || p.hasSuffix("/") ? p + "index.html" : p
            if staticFiles.contains(file) {
                return .page(file, size: imageSize(site.root + "/static/" + file, name: p))
            }
            if !p.hasSuffix("/"), staticFiles.contains(p + "/index.html") { return .page(p + "/index.html", size: nil) }
            return nil
        }

        /// The file of `content/` that `t` names, copied to `assets/` as item images are (a
        /// folder's `index.html`). A Markdown file is not a file to copy (it is a page or not).
        func contentFile(_ t: String) -> Outcome? {
            guard MarkdownLink.markdownExtensionLength(t) == 0 else { return nil }
            var rel = t
            var info = stat()
            // `existingPath` stats the path itself: nil when nothing is there (no second stat).
            guard let path = LinkResolver.existingPath(site.root + "/" + t), stat(path, &info) == 0 else { return nil }
            var source = path
            if (info.st_mode & S_IFMT) == S_IFDIR {
                source = path + "/index.html"
                rel = (t.hasSuffix("/") ? t : t + "/") + "index.html"
                guard stat(source, &info) == 0 else { return nil }
            }
            guard (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            let real = URL(fileURLWithPath: source).resolvingSymlinksInPath().path
            guard real.hasPrefix(realRoot + "/") else {
                return .problem("'\(t)' is a symbolic link that leads outside the site folder (to \(real)); copy the file into the site")
            }
            let output = "assets/" + rel.dropFirst("content/".count)
            guard Self.isImage(rel) else { return .copy(output, source: source, size: nil) }
            switch ImageProbe.checkedHeader(
                path: source, name: String(t.split(separator: "/").last ?? ""), maxPixels: site.config.imageMaxPixels,
                maxFileSize: site.config.imageMaxFileSize)
            {
            case .failure(let problem): return .problem(problem.message)
            case .success(let header): return .copy(output, source: source, size: header.map { ($0.width, $0.height) })
            }
        }

        /// The size of the image at `path` (nil for a file that is no image feedgen reads).
        func imageSize(_ path: String, name: String) -> (width: Int, height: Int)? {
            guard Self.isImage(name) else { return nil }
            if case .success(let header?) = ImageProbe.checkedHeader(
                path: path, name: name, maxPixels: site.config.imageMaxPixels, maxFileSize: site.config.imageMaxFileSize)
            {
                return (header.width, header.height)
            }
            return nil
        }

        /// Whether `name` ends in an image extension feedgen reads (PNG, JPEG, GIF, WebP, SVG).
        static func isImage(_ name: String) -> Bool {
            guard let dot = name.lastIndex(of: ".") else { return false }
            return ["png", "jpg", "jpeg", "gif", "webp", "svg"].contains(name[name.index(after: dot)...].lowercased())
        }
    }
}

extension MarkdownLink {
    /// The same link naming `target`.
    func retargeted(_ target: String) -> MarkdownLink {
        var copy = self
        copy.target = target
        return copy
    }
}
