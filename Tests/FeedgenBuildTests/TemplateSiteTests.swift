@testable import FeedgenResolve
import Foundation
import Testing

@testable import FeedgenBuild
@testable import FeedgenEmit
import FeedgenContent
import FeedgenDiagnostics
import FeedgenMustache

/// A one-section site: `a` (a card with a body) and `b` (type `fancy`, no body).
func smallSite(_ templates: [String: String] = [:], items: [String: String] = [:]) -> String {
    let root = temporaryFolder()
    var files = [
        "feedgen.yaml": "title: Site\n",
        "content/s/_section.md": "---\ntitle: S\nlayout: list\n---\n",
        "content/s/a.md": "---\ntitle: A\nweight: 1\n---\nBody.\n",
        "content/s/b.md": "---\ntitle: B\nweight: 2\ntype: fancy\n---\n",
    ]
    for (path, text) in templates { files["Templates/" + path] = text }
    for (path, text) in items { files["content/" + path] = text }
    writeSite(root, files)
    return root
}

/// Loads `root` and compiles its templates, as the build does before rendering.
func prepare(_ root: String) -> (report: BuildReport, site: PreparedSite?, templates: TemplateSet?) {
    var report = BuildReport()
    let (site, templates) = Pipeline.prepare(BuildOptions(siteRoot: root, now: fixedNow), report: &report)
    return (report, site, templates)
}

/// The build's errors (warnings, such as template lint, are checked by their own tests).
func errors(_ report: BuildReport) -> [String] {
    report.diagnostics.sorted.filter { $0.severity == .error }.map(\.description)
}

@Suite struct TemplateOverrideTests {
    @Test func everyBuiltinCanBeOverridden() throws {
        #expect(TemplateSet.builtinFiles.keys.sorted() == [
            "cards/card.mustache", "cards/chip.mustache", "cards/weather.mustache", "feed.mustache", "item.mustache",
            "partials/base.mustache", "partials/carousel-roledescription.mustache", "partials/head.mustache",
            "partials/item-count.mustache", "partials/scroll-controls-script.mustache",
            "partials/scroll-controls.mustache", "partials/scroll-gestures-script.mustache", "partials/slide-label.mustache",
            "partials/slide-roledescription.mustache", "section.mustache", "theme.css",
        ])
        let root = smallSite([
            "feed.mustache": "FEED {{feed.title}}\n{{#sections}}{{{html}}}{{/sections}}\n",
            "section.mustache": "SECTION {{section.id}}\n{{{groupsHTML}}}\n",
            "cards/card.mustache": "CARD {{title}}",
            "cards/fancy.mustache": "FANCY {{title}}",
            "item.mustache": "{{< base}}{{$content}}ITEM {{item.title}}{{/content}}{{/base}}",
            "partials/base.mustache": "BASE[{{> head}}|{{$content}}{{/content}}]\n",
            "partials/head.mustache": "HEAD {{page.title}}",
            "theme.css": "body { color: red; }\n",
        ])
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(errors(report) == [])
        let files = snapshot(out)
        let page = { (path: String) in String(decoding: files[path] ?? Data(), as: UTF8.self) }
        #expect(page("index.html") == """
            FEED Site
            SECTION s
              <div class="cl-groups" role="list" aria-labelledby="sec-s">
                <div class="cl-item" role="listitem"><div class="cl-cell" data-item-id="s/a">
            CARD A
                </div></div>
                <div class="cl-item" role="listitem"><div class="cl-cell" data-item-id="s/b">
            FANCY B
                </div></div>
              </div>


            """)
        #expect(page("s/a.html") == "BASE[HEAD A – Site|ITEM A]\n")
        #expect(page("assets/theme.css") == "body { color: red; }\n")
    }

    @Test func theBaseLayoutIsThePageShellOfEveryPage() throws {
        let root = smallSite([
            "partials/base.mustache": """
                <!doctype html>
                <html lang="{{page.lang}}">
                <title>{{page.title}}</title>
                <link rel="stylesheet" href="{{page.root}}assets/theme.css">
                {{$head}}
                {{/head}}
                <body class="mine">
                {{$content}}
                {{/content}}
                </body>
                </html>

                """,
            "feed.mustache": """
                {{< base}}
                {{$head}}
                <meta name="feed" content="{{feed.key}}">
                {{/head}}
                {{$content}}
                <main data-feed="{{feed.key}}">{{#sections}}{{id}}{{/sections}}</main>
                {{/content}}
                {{/base}}

                """,
        ])
        let out = temporaryFolder() + "/public"
        #expect(errors(build(root, output: out)) == [])
        let files = snapshot(out)
        #expect(String(decoding: files["index.html"]!, as: UTF8.self) == """
            <!doctype html>
            <html lang="en">
            <title>Site</title>
            <link rel="stylesheet" href="assets/theme.css">
            <meta name="feed" content="/">
            <body class="mine">
            <main data-feed="/">s</main>
            </body>
            </html>

            """)
        // The built-in item page fills the same shell.
        let item = String(decoding: files["s/a.html"]!, as: UTF8.self)
        #expect(item.hasPrefix("<!doctype html>\n<html lang=\"en\">\n<title>A – Site</title>\n<link rel=\"stylesheet\" href=\"../assets/theme.css\">\n<body class=\"mine\">\n<main class=\"detail\">\n"))
        #expect(item.hasSuffix("</main>\n</body>\n</html>\n"))
    }

    @Test func aSiteCardTypeIsUsedForItemsOfThatType() throws {
        let root = smallSite(["cards/fancy.mustache": "<div class=\"fancy\">{{title}}</div>"])
        let out = temporaryFolder() + "/public"
        let report = build(root, output: out)
        #expect(errors(report) == [])
        let home = String(decoding: snapshot(out)["index.html"]!, as: UTF8.self)
        #expect(home.contains("<div class=\"cl-cell\" data-item-id=\"s/b\">\n<div class=\"fancy\">B</div>\n"))
        #expect(home.contains("<h3 class=\"card-title\"><a href=\"s/a.html\">A</a></h3>"))
    }

    @Test func builtinsUseTripleMustacheOnlyForHTML() throws {
        let templates = try TemplateSet()
        var unescaped: [String] = []
        for path in TemplateSet.builtinFiles.keys.sorted() where path.hasSuffix(".mustache") {
            for r in try #require(templates.template(at: path)).references() where r.kind == .unescapedVariable {
                unescaped.append("\(path): \(r.name)")
            }
        }
        // Markdown rendered by cmark-gfm (html, introHTML, headerHTML) and HTML written by
        // feedgen itself (a section's html, groupsHTML); nothing from front matter as written.
        #expect(unescaped == [
            "feed.mustache: feed.introHTML", "feed.mustache: html", "item.mustache: item.html",
            "section.mustache: section.headerHTML", "section.mustache: groupsHTML",
        ])
    }

    @Test func frontMatterTextIsEscaped() throws {
        let root = smallSite(items: [
            "s/a.md": "---\ntitle: Tom & \"Jerry\" <b>\ndescription: \"'quoted' <i>\"\nlink: \"https://example.org/?a=1&b='2'\"\ntags: [<x>]\n---\nBody.\n"
        ])
        let out = temporaryFolder() + "/public"
        #expect(errors(build(root, output: out)) == [])
        let home = String(decoding: snapshot(out)["index.html"]!, as: UTF8.self)
        #expect(home.contains(#"<h3 class="card-title"><a href="https://example.org/?a=1&amp;b=&#39;2&#39;">Tom &amp; &quot;Jerry&quot; &lt;b&gt;</a></h3>"#))
        #expect(home.contains(#"<p class="card-description">&#39;quoted&#39; &lt;i&gt;</p>"#))
        let item = String(decoding: snapshot(out)["s/a.html"]!, as: UTF8.self)
        #expect(item.contains("<title>Tom &amp; &quot;Jerry&quot; &lt;b&gt; – Site</title>"))
        #expect(item.contains("<li>&lt;x&gt;</li>"))
    }
}

@Suite struct TemplateErrorTests {
    func failedBuild(_ templates: [String: String]) -> (status: Int32, messages: [String]) {
        let report = build(smallSite(templates), output: temporaryFolder() + "/out")
        return (report.exitStatus, errors(report))
    }

    @Test func unclosedSection() {
        let result = failedBuild(["cards/card.mustache": "<article>\n  {{#image}}\n</article>\n"])
        #expect(result.status == 1)
        #expect(result.messages == ["Templates/cards/card.mustache:2:3: error: unclosed section 'image'"])
    }

    @Test func mismatchedSection() {
        let result = failedBuild([
            "feed.mustache": "{{< base}}\n{{$content}}\n<main>\n{{#sections}}\n{{/content}}\n{{/base}}\n"
        ])
        #expect(result.status == 1)
        #expect(result.messages == [
            "Templates/feed.mustache:5:1: error: closing tag 'content' does not match 'sections' opened at 4:1"
        ])
    }

    @Test func unknownPartialsAndParents() {
        let result = failedBuild([
            "partials/head.mustache": "  <meta charset=\"utf-8\">\n  {{> haed}}\n  {{> analytics}}\n",
            "item.mustache": "{{< layout}}{{$content}}x{{/content}}{{/layout}}",
        ])
        #expect(result.status == 1)
        #expect(result.messages == [
            "Templates/item.mustache:1:1: error: unknown parent 'layout': there is no partials/layout.mustache or layout.mustache in Templates/",
            "Templates/partials/head.mustache:2:3: error: unknown partial 'haed': there is no partials/haed.mustache or haed.mustache in Templates/ (did you mean 'head'?)",
            "Templates/partials/head.mustache:3:3: error: unknown partial 'analytics': there is no partials/analytics.mustache or analytics.mustache in Templates/",
        ])
    }

    @Test func badDelimiterChange() {
        let result = failedBuild(["section.mustache": "<section>\n{{=<% %> x=}}\n</section>\n"])
        #expect(result.status == 1)
        #expect(result.messages == [
            "Templates/section.mustache:2:1: error: invalid delimiters '<% %> x': expected two delimiters separated by whitespace, as in {{=<% %>=}}"
        ])
    }

    @Test func everyBrokenTemplateIsReported() {
        let result = failedBuild([
            "cards/card.mustache": "{{#a}}", "cards/chip.mustache": "{{/b}}", "feed.mustache": "{{x",
        ])
        #expect(result.status == 1)
        #expect(result.messages == [
            "Templates/cards/card.mustache:1:1: error: unclosed section 'a'",
            "Templates/cards/chip.mustache:1:1: error: closing tag 'b' does not close any open section",
            "Templates/feed.mustache:1:1: error: unclosed tag: expected '}}'",
        ])
    }

    @Test func unknownDynamicPartialFailsTheRender() throws {
        let (report, site, templates) = prepare(smallSite(["cards/card.mustache": "<div>\n  {{>*params.look}}\n</div>"]))
        #expect(errors(report) == [])
        let renderer = SiteRenderer(site: try #require(site), templates: try #require(templates))
        #expect {
            try renderer.render()
        } throws: { error in
            (error as? TemplateErrors)?.diagnostics.map(\.description) == [
                "Templates/cards/card.mustache:2:3: error: dynamic name '*params.look' does not resolve to a partial name"
            ]
        }
    }
}

@Suite struct TemplateLintTests {
    /// The lint warnings as the build reports them (Pipeline.prepare runs the lint), checked
    /// against calling `lint(for:)` directly.
    func lint(_ templates: [String: String], items: [String: String] = [:]) throws -> [String] {
        let (report, site, set) = prepare(smallSite(templates, items: items))
        #expect(errors(report) == [])
        let direct = try #require(set).lint(for: try #require(site).site).map(\.description)
        let reported = report.diagnostics.items.filter { $0.severity == .warning }.map(\.description)
        #expect(Set(direct).isSubset(of: Set(reported)))
        return direct
    }

    @Test func builtinsAreClean() throws {
        #expect(try TemplateSet().lint() == [])
        #expect(try lint([:], items: ["s/b.md": "---\ntitle: B\n---\n"]) == [])
    }

    @Test func namesNoContextProvides() throws {
        let warnings = try lint([
            "cards/card.mustache": """
                <h3>{{titel}}</h3>
                {{#image}}<img src="{{src}}" alt="{{alt}}" title="{{title}}" data-x="{{caption}}">{{/image}}
                {{params.anything.at.all}}{{#params}}{{whatever}}{{/params}}{{#tags}}{{.}}{{/tags}}
                {{> price}}
                """,
            "cards/fancy.mustache": "{{title}}",
            "partials/price.mustache": "{{params.price}} {{cost}}",
            "feed.mustache": "{{< base}}{{$content}}<main data-feed=\"{{feed.key}}\">{{feed.titel}}</main>{{/content}}{{/base}}",
            "section.mustache": "{{#section}}{{id}}{{itemCount}}{{/section}}{{{groupsHTML}}}{{page.title}}",
            "item.mustache": "{{#item.date}}{{iso}}{{/item.date}}{{item.params.x}}{{item.subtitle}}",
        ])
        #expect(warnings == [
            "Templates/cards/card.mustache:1:5: warning: no value 'titel' in the context of a card template; it renders as nothing (did you mean 'title'?)",
            "Templates/cards/card.mustache:2:70: warning: no value 'caption' in the context of a card template; it renders as nothing",
            "Templates/feed.mustache:1:54: warning: no value 'feed.titel' in the context of the feed template; it renders as nothing (did you mean 'feed.title'?)",
            "Templates/item.mustache:1:53: warning: no value 'item.subtitle' in the context of the item template; it renders as nothing (did you mean 'item.title'?)",
            "Templates/partials/price.mustache:1:18: warning: no value 'cost' in any context where this partial is used; it renders as nothing",
            "Templates/section.mustache:1:60: warning: no value 'page.title' in the context of the section template; it renders as nothing",
        ])
    }

    @Test func aPartialIsCheckedInEveryContextThatIncludesIt() throws {
        // `feed.key` exists on feed pages only, `item.title` on item pages only: both are fine
        // in a partial used by both; `nope` is in neither.
        let warnings = try lint([
            "partials/head.mustache": "{{page.title}}{{feed.key}}{{item.title}}{{nope}}",
        ])
        #expect(warnings == [
            "Templates/partials/head.mustache:1:41: warning: no value 'nope' in any context where this partial is used; it renders as nothing",
            "content/s/b.md:4:7: warning: no template cards/fancy.mustache for type 'fancy'; the card uses cards/card.mustache",
        ])
    }

    @Test func aFeedTemplateWithoutTheBuiltInHeadWarnsAboutNothing() throws {
        // Item pages still use the built-in head partial; its `{{#page.feeds}}` list is empty
        // there but its elements' keys are known, so they are no warning (they were three).
        let warnings = try lint(
            ["feed.mustache": "<!doctype html><title>{{site.title}}</title>{{#sections}}{{{html}}}{{/sections}}"],
            items: ["s/b.md": "---\ntitle: B\n---\nBody.\n"])
        #expect(warnings == [])
    }

    @Test func parentWithoutBlocksIsAWarning() throws {
        let warnings = try lint(["item.mustache": "{{< base}}\n<main>{{item.title}}</main>\n{{/base}}\n"])
        #expect(warnings == [
            "Templates/item.mustache:1:1: warning: parent 'base' has no blocks, so it renders like the partial {{>base}}; the content inside it is ignored; put what it should replace in a block such as {{$content}}…{{/content}}",
            "content/s/b.md:4:7: warning: no template cards/fancy.mustache for type 'fancy'; the card uses cards/card.mustache",
        ])
    }

    @Test func typeWithoutCardTemplate() throws {
        #expect(try lint([:]) == [
            "content/s/b.md:4:7: warning: no template cards/fancy.mustache for type 'fancy'; the card uses cards/card.mustache"
        ])
        #expect(try lint([:], items: ["s/b.md": "---\ntype: wether\n---\n"]) == [
            "content/s/b.md:2:7: warning: no template cards/wether.mustache for type 'wether'; the card uses cards/card.mustache (did you mean 'weather'?)"
        ])
    }
}
