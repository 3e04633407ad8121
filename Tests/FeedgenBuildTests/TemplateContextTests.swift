@testable import FeedgenResolve
import Foundation
import Testing

@testable import FeedgenBuild
@testable import FeedgenEmit
import FeedgenContent
import FeedgenMustache

/// The context keys templates get are exactly the documented ones (`TemplateContext.schema`,
/// docs/templates.md), as built for the sample site.
@Suite struct TemplateContextTests {
    /// Every dotted path of `value` (list elements under the list's own path).
    func paths(_ value: MustacheValue, _ prefix: String = "", into result: inout Set<String>) {
        switch value {
        case .object(let object):
            for (key, child) in object {
                let path = prefix.isEmpty ? key : prefix + "." + key
                result.insert(path)
                paths(child, path, into: &result)
            }
        case .array(let items):
            for item in items { paths(item, prefix, into: &result) }
        default:
            break
        }
    }

    /// The keys built for the sample site, per kind of template (params' own keys left out).
    func builtKeys() throws -> [TemplateContext.Kind: Set<String>] {
        var keys: [TemplateContext.Kind: Set<String>] = [:]
        try builtKeys(repositoryRoot, into: &keys)
        // The sample has no section long enough for pages of its own (`feed.pager`).
        let paged = temporaryFolder() + "/site"
        var files = ["content/s/_section.md": "---\ntitle: S\npaginate: 1\n---\n"]
        for i in 1...2 { files["content/s/\(i).md"] = "---\ntitle: \(i)\n---\nBody.\n" }
        writeSite(paged, files)
        try builtKeys(paged, into: &keys)
        for kind in TemplateContext.Kind.allCases {
            keys[kind] = keys[kind]!.filter { !TemplateContext.schema(for: kind).isOpen($0) || $0.hasSuffix("params") }
        }
        return keys
    }

    /// Adds the context keys the templates are given for the site at `root` to `keys`.
    func builtKeys(_ root: String, into keys: inout [TemplateContext.Kind: Set<String>]) throws {
        let (report, prepared, templates) = prepare(root)
        #expect(errors(report) == [])
        let site = try #require(prepared)
        // Variants as a build makes them (into a throw-away cache).
        var diagnostics = report.diagnostics
        let images = ImageVariants.make(site, cacheFolder: temporaryFolder(), diagnostics: &diagnostics).images
        #expect(!diagnostics.hasErrors)
        var renderer = SiteRenderer(site: site, templates: try #require(templates))
        renderer.images = images
        for feed in site.feeds {
            paths(try renderer.feedContext(feed), into: &keys[.feed, default: []])
            for s in feed.sections {
                paths(try renderer.sectionContext(s, feed: feed, page: feed.pagePath), into: &keys[.section, default: []])
                if SiteRenderer.scrolling(s).slideshow {
                    paths(TemplateContext.slideLabel(index: 1, count: s.section.items.count, strings: UIStrings(language: "en")), into: &keys[.slideLabel, default: []])
                    // Role descriptions are rendered with the built-in text only.
                    paths(["text": "carousel"], into: &keys[.roleDescription, default: []])
                }
                // Every section's, as if it had a footer (the sample site may have none).
                paths(TemplateContext.itemCount(s.section.items.count, strings: UIStrings(language: "en")), into: &keys[.itemCount, default: []])
                for item in s.section.items {
                    let image = site.images[PreparedSite.imageKey(feed: feed, item: item)]
                    paths(TemplateContext.item(
                              item, feed: feed, page: feed.pagePath, image: image, variants: images.card(feed: feed, item: item), eager: false,
                              strings: renderer.stringsContext(lang: item.lang ?? feed.feed.lang), config: site.site.config),
                          into: &keys[.card, default: []])
                    if item.hasBody { paths(renderer.detailContext(item, feed: feed), into: &keys[.item, default: []]) }
                }
            }
        }
    }

    @Test func everyKeyBuiltIsDocumentedAndEveryDocumentedKeyIsBuilt() throws {
        let built = try builtKeys()
        for kind in TemplateContext.Kind.allCases {
            let schema = TemplateContext.schema(for: kind).paths
            #expect(built[kind]!.subtracting(schema).sorted() == [], "undocumented keys in \(kind) contexts")
            #expect(schema.subtracting(built[kind]!) == [], "documented keys never built for \(kind)")
        }
    }

    @Test func docsListEveryKey() throws {
        let docs = try String(contentsOfFile: repositoryRoot + "/docs/templates.md", encoding: .utf8)
        for kind in TemplateContext.Kind.allCases {
            for path in TemplateContext.schema(for: kind).paths.sorted() {
                // An item page's `item.*` keys are the card keys, documented once.
                let documented = kind == .item && path.hasPrefix("item.") ? String(path.dropFirst(5)) : path
                #expect(docs.contains("`\(documented)`"), "docs/templates.md does not mention `\(documented)` (\(kind))")
            }
        }
    }
}
