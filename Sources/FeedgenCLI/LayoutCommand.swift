import FeedgenBuild
import FeedgenContent
import FeedgenDiagnostics
import FeedgenEmit
import FeedgenLayout
import FeedgenMustache
import FeedgenResolve
import Foundation

/// `feedgen layout`: the model's frames at one container width, like UIKit's layout attributes.
/// The JSON is documented in docs/layout-json.md.
enum LayoutCommand {
    static let help = """
        OVERVIEW: Print the layout model's geometry at container width W (CSS px): per section its
        frame, per item its frame, per orthogonal section its content width and snap offsets.

        USAGE: feedgen layout [SITE] --width W [--feed PATH] [--viewport-height H]
                              [--measured FILE | --text-estimates] [--json]

        ARGUMENTS:
          SITE                      The site folder (default: the current folder)

        OPTIONS:
          --width W                 Container (page column) width in CSS px
          --feed PATH               The feed: '' or '/' for the home feed (default), 'recipes', …
          --viewport-height H       Visible height for fractionalHeight (default 844)
          --measured FILE           JSON of measured sizes for estimated dimensions:
                                    {"items": {"ID": {"width": W, "height": H}},
                                     "headers": {"SECTION": H}, "footers": {"SECTION": H}}
          --text-estimates          Size estimated dimensions by the cards' text-length
                                    estimates (what content-visibility reserves)
          --json                    JSON on stdout (default: a readable table)
          -h, --help                Show this help

        EXIT STATUS: 0 printed; 1 content or --measured file errors (path:line:column: error: …);
        2 usage errors or no site.

        """

    static func run(_ arguments: [String], terminal: inout Terminal) throws -> Int32 {
        let args = try Arguments(
            arguments, flags: ["--json", "--text-estimates"], options: ["--width", "--feed", "--viewport-height", "--measured"], command: "layout")
        if args.help {
            terminal.out(help)
            return 0
        }
        guard let widthText = args.options["--width"] else { throw UsageError("'layout' needs --width W (CSS px)") }
        guard let width = Double(widthText), width > 0, width <= 100_000 else {
            throw UsageError("--width must be a positive number of CSS px up to 100000, found '\(widthText)'")
        }
        var viewport = 844.0
        if let v = args.options["--viewport-height"] {
            guard let h = Double(v), h > 0 else { throw UsageError("--viewport-height must be a positive number, found '\(v)'") }
            viewport = h
        }
        var measurements = Measurements()
        if let file = args.options["--measured"] {
            do {
                measurements = try readMeasurements(file)
            } catch let error as MeasuredFileError {
                terminal.print(error.diagnostics)
                return 1
            }
        }
        var report = BuildReport()
        let options = BuildOptions(siteRoot: args.positionals.first ?? ".", now: Int64(Date().timeIntervalSince1970))
        let (prepared, templates) = Pipeline.prepare(options, report: &report)
        terminal.quiet = true
        terminal.print(report.diagnostics)
        guard let prepared, let templates, !report.diagnostics.hasErrors else { return report.exitStatus == 0 ? 1 : report.exitStatus }
        var feedPath = args.options["--feed"] ?? ""
        while feedPath.hasPrefix("/") { feedPath.removeFirst() }
        while feedPath.hasSuffix("/") { feedPath.removeLast() }
        // A section's or tag's own page is named by its folder (`recipes/recipes/page/2`, `tags/soup`).
        func name(_ feed: PreparedFeed) -> String {
            feed.ownPage == nil ? feed.feed.path : String(feed.pagePath.dropLast("/index.html".count))
        }
        guard let feed = prepared.feeds.first(where: { name($0) == feedPath || ($0.ownPage == nil && $0.feed.folder == feedPath) }) else {
            let names = prepared.feeds.map { name($0).isEmpty ? "/" : name($0) }
            throw UsageError("no feed '\(feedPath)'; feeds: \(names.joined(separator: ", "))")
        }
        // The design tokens the CSS reads for contentInsetsReference (docs/layout.md, U-7).
        let env = prepared.layoutEnvironment(feed, width: width, viewportHeight: viewport)
        if args.flags.contains("--text-estimates") {
            if args.options["--measured"] != nil { throw UsageError("--measured and --text-estimates exclude each other") }
            do {
                measurements = try SiteRenderer(site: prepared, templates: templates).textEstimates(feed: feed, environment: env)
            } catch {
                var problems = Diagnostics()
                problems.append(contentsOf: error.diagnostics)
                terminal.print(problems)
                return 1
            }
        }
        let resolved = CompositionalLayout.solve(feed.sections.map(\.input), environment: env, measurements: measurements)
        if args.flags.contains("--json") {
            // A section is drawn right to left when its own language is, or else the page's
            // (section.mustache sets `dir` only for a right-to-left section language).
            let rtl = feed.sections.map {
                SiteRenderer.isRightToLeft($0.section.lang) || SiteRenderer.isRightToLeft(feed.feed.lang)
            }
            terminal.out(LayoutJSON.encode(resolved, feed: feed.key, rightToLeft: rtl) + "\n")
        } else {
            terminal.out(LayoutJSON.table(resolved))
        }
        return 0
    }

    /// A `--measured` file that is not JSON, or not of the documented shape.
    struct MeasuredFileError: Error {
        var diagnostics = Diagnostics()
    }

    /// Reads a `--measured` file (docs/layout-json.md). Every value is checked: sizes are finite
    /// numbers from 0 to ``LayoutDecoder/maxLength`` (CSS px).
    ///
    /// - Throws: ``UsageError`` when the file cannot be read (exit 2); ``MeasuredFileError``
    ///   (exit 1) for bytes that are not UTF-8, a JSON syntax error or a repeated key
    ///   (`FILE:line:column: error: …`) and for
    ///   a wrong shape or value (`FILE: error: …` naming the key path, `items.a.height`).
    static func readMeasurements(_ file: String) throws -> Measurements {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw UsageError("cannot read --measured file '\(file)'")
        }
        var problem = MeasuredFileError()
        if let bad = SourceFile.invalidUTF8(in: [UInt8](data), shownAs: file) {
            problem.diagnostics.append(bad)
            throw problem
        }
        let root: MustacheValue
        do {
            root = try MustacheValue(json: String(decoding: data, as: UTF8.self), name: file, numbers: .asWritten)
        } catch {
            problem.diagnostics.error(SourceLocation(path: file, line: error.line, column: error.column), error.message)
            throw problem
        }
        func fail(_ message: String) -> MeasuredFileError {
            problem.diagnostics.error(SourceLocation(path: file), message)
            return problem
        }
        guard case .object(let top) = root else {
            throw fail("a --measured file holds a JSON object with \"items\", \"headers\" and/or \"footers\"")
        }
        func size(_ value: MustacheValue?, _ path: String) throws -> Double {
            guard case .number(let text)? = value, let v = Double(text) else {
                throw fail("'\(path)' must be a number of CSS px")
            }
            guard v.isFinite, v >= 0, v <= LayoutDecoder.maxLength else {
                throw fail("'\(path)' must be between 0 and \(Int(LayoutDecoder.maxLength)) px, found \(text)")
            }
            return v
        }
        func object(_ key: String) throws -> [(key: String, value: MustacheValue)] {
            guard let value = top[key] else { return [] }
            guard case .object(let entries) = value else { throw fail("'\(key)' must be an object keyed by id") }
            return entries.sorted { $0.key < $1.key }
        }
        for key in top.keys.sorted() where !["items", "headers", "footers"].contains(key) {
            throw fail("'\(key)' is not a --measured key; use \"items\", \"headers\" or \"footers\"")
        }
        var m = Measurements()
        for (id, value) in try object("items") {
            guard case .object(let v) = value else { throw fail("'items.\(id)' must be an object {\"width\": W, \"height\": H}") }
            m.items[id] = Size(width: try size(v["width"], "items.\(id).width"), height: try size(v["height"], "items.\(id).height"))
        }
        for (id, value) in try object("headers") { m.headers[id] = try size(value, "headers.\(id)") }
        for (id, value) in try object("footers") { m.footers[id] = try size(value, "footers.\(id)") }
        return m
    }
}

/// The JSON form of a resolved layout, with keys in a fixed order (deterministic output).
enum LayoutJSON {
    static func number(_ v: Double) -> String {
        guard v.isFinite else { return "null" }  // JSON has no infinities
        let r = (v * 1_000_000).rounded() / 1_000_000
        return r == r.rounded() && abs(r) < 1e15 ? String(Int(r)) : String(r)
    }

    static func rect(_ r: Rect?) -> String {
        guard let r else { return "null" }
        return "{\"x\": \(number(r.x)), \"y\": \(number(r.y)), \"width\": \(number(r.width)), \"height\": \(number(r.height))}"
    }

    static func string(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default:
                if c.value < 0x20 { out += String(format: "\\u%04x", c.value) } else { out.unicodeScalars.append(c) }
            }
        }
        return out + "\""
    }

    /// `rightToLeft[i]`: section `i` is drawn right to left. Its frames are then mirrored about
    /// the container (`x' = W − x − width`, as the page draws them) and its snap offsets are the
    /// `scrollLeft` values of a right-to-left scroller (`−offset`: 0 at the start, negative
    /// towards the end); `maxOffset` stays the distance. docs/layout-json.md.
    static func encode(_ layout: ResolvedLayout, feed: String, rightToLeft: [Bool] = []) -> String {
        let W = layout.environment.containerWidth
        var out = "{\n  \"feed\": \(string(feed)),\n  \"width\": \(number(layout.environment.containerWidth)),\n"
        out += "  \"viewportHeight\": \(number(layout.environment.viewportHeight)),\n"
        out += "  \"contentHeight\": \(number(layout.contentHeight)),\n  \"sections\": ["
        for (i, s) in layout.sections.enumerated() {
            let rtl = i < rightToLeft.count && rightToLeft[i]
            func rect(_ r: Rect?) -> String {
                guard rtl, let r else { return Self.rect(r) }
                return Self.rect(Rect(x: W - r.x - r.width, y: r.y, width: r.width, height: r.height))
            }
            out += i == 0 ? "\n" : ",\n"
            out += "    {\n      \"id\": \(string(s.id)),\n      \"direction\": \"\(rtl ? "rtl" : "ltr")\",\n"
            out += "      \"frame\": \(rect(s.frame)),\n"
            out += "      \"header\": \(rect(s.headerFrame)),\n      \"footer\": \(rect(s.footerFrame)),\n"
            out += "      \"background\": \(rect(s.backgroundFrame)),\n"
            out += "      \"orthogonalScrollingBehavior\": \(string(s.layout.orthogonalScrollingBehavior.rawValue)),\n"
            if let o = s.orthogonal {
                out += "      \"orthogonal\": {\"behavior\": \(string(o.behavior.rawValue)), \"scroller\": \(rect(o.scrollerFrame)), "
                out += "\"contentWidth\": \(number(o.contentWidth)), "
                out += "\"maxOffset\": \(number(o.maxOffset)), \"snapOffsets\": [\(o.snapOffsets.map { number(rtl ? -$0 : $0) }.joined(separator: ", "))]},\n"
            } else {
                out += "      \"orthogonal\": null,\n"
            }
            out += "      \"groups\": [\(s.groups.map(rect).joined(separator: ", "))],\n"
            out += "      \"items\": ["
            for (j, item) in s.items.enumerated() {
                out += j == 0 ? "\n" : ",\n"
                out += "        {\"id\": \(string(item.id)), \"frame\": \(rect(item.frame)), \"slot\": \(rect(item.slot)), \"group\": \(item.groupIndex)}"
            }
            out += s.items.isEmpty ? "]\n    }" : "\n      ]\n    }"
        }
        out += layout.sections.isEmpty ? "]\n}" : "\n  ]\n}"
        return out
    }

    static func table(_ layout: ResolvedLayout) -> String {
        var out = "container width \(number(layout.environment.containerWidth)), content height \(number(layout.contentHeight))\n"
        for s in layout.sections {
            out += "section \(s.id) \(s.frame)"
            if let o = s.orthogonal {
                out += " \(o.behavior.rawValue): content width \(number(o.contentWidth)), snaps [\(o.snapOffsets.map(number).joined(separator: ", "))]"
            }
            out += "\n"
            for item in s.items { out += "  \(item.id) \(item.frame)\n" }
        }
        return out
    }
}
