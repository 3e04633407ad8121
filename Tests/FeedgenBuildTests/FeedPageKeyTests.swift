/// Feed pages kept by their key (``RenderMemo/feedKey(_:site:)``): after an edit that changes
/// what a feed page shows but none of its cards (a section's title, a feed's field, the pages
/// beside it, another feed's title, a tag), the page is rendered again, and the output is a clean
/// build's byte for byte; a page whose inputs did not change is not rendered.
import Foundation
import Testing

@testable import FeedgenBuild
@testable import FeedgenContent
@testable import FeedgenEmit
@testable import FeedgenIncremental
@testable import FeedgenLayout
@testable import FeedgenResolve

@Suite struct FeedPageKeyTests {
    /// A home feed with an intro, a paginated `news` section (seven items, three to a page, two
    /// of them tagged) and a `notes` section; a second feed `more` (a subfeed link on the home page).
    static func makeSite() -> String {
        let site = temporaryFolder("feedgen-feedkeys") + "/site"
        var files: [String: String] = [
            "feedgen.yaml": "title: Keys\nbaseURL: https://example.org/\n",
            "content/_feed.md": "---\ntitle: Home\n---\nThe intro.\n",
            "content/news/_section.md": "---\ntitle: News\nlayout: list\npaginate: 3\n---\n",
            "content/notes/_section.md": "---\ntitle: Notes\nlayout: grid\n---\n",
            "content/notes/a.md": "---\ntitle: Note A\n---\nA note linking [news 2](../news/n2.md).\n",
            "content/more/_feed.md": "---\ntitle: More\n---\n",
            "content/more/extra/_section.md": "---\ntitle: Extra\n---\n",
            "content/more/extra/one.md": "---\ntitle: One\n---\nOne.\n",
        ]
        for i in 1...7 {
            let tags = i == 1 ? "tags: [alpha]\n" : i == 2 ? "tags: [beta]\n" : ""
            files["content/news/n\(i).md"] = "---\ntitle: News \(i)\nweight: \(i)\n\(tags)---\nBody of news \(i).\n"
        }
        writeSite(site, files)
        return site
    }

    /// Builds twice, applies each of `edits` with a build after it, then compares the output
    /// with a clean build's. Returns the last incremental build's report.
    @discardableResult
    static func expectIdentical(
        _ edits: [(String) throws -> Void], sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> BuildReport {
        let site = makeSite()
        let out = site + "/../public"
        #expect(IncrementalBuildTests.build(site, out).exitStatus == 0, sourceLocation: sourceLocation)
        var last = IncrementalBuildTests.build(site, out)
        #expect(last.exitStatus == 0, sourceLocation: sourceLocation)
        for edit in edits {
            try edit(site)
            last = IncrementalBuildTests.build(site, out)
            #expect(last.exitStatus == 0, "\(last.diagnostics.items)", sourceLocation: sourceLocation)
        }
        let clean = site + "/../clean"
        let reference = IncrementalBuildTests.build(site, clean, useCache: false)
        #expect(reference.exitStatus == 0, sourceLocation: sourceLocation)
        let a = IncrementalBuildTests.tree(out)
        let b = IncrementalBuildTests.tree(clean)
        #expect(a.keys.sorted() == b.keys.sorted(), sourceLocation: sourceLocation)
        for (path, bytes) in b where a[path] != bytes {
            Issue.record("\(path) differs from a clean build's", sourceLocation: sourceLocation)
        }
        #expect(last.diagnostics.items.map(\.description) == reference.diagnostics.items.map(\.description), sourceLocation: sourceLocation)
        return last
    }

    static func replace(_ site: String, _ path: String, _ old: String, _ new: String) throws {
        try IncrementalBuildTests.replace(site, path, old, new)
    }

    /// A title edit of an item on the second page of `news`: its detail page and that feed page
    /// are rendered, no other page (the cards of the others are unchanged).
    @Test func onlyThePageOfAChangedCardIsRendered() throws {
        let report = try Self.expectIdentical([{ try Self.replace($0, "content/news/n5.md", "title: News 5", "title: Fifth") }])
        #expect(!report.patched)
        #expect(report.pagesRendered == 2)
    }

    @Test func sectionTitle() throws {
        try Self.expectIdentical([{ try Self.replace($0, "content/news/_section.md", "title: News", "title: Headlines") }])
    }

    /// A section without own pages: its title is on the home page only.
    @Test func sectionTitleOnTheFeedPageOnly() throws {
        try Self.expectIdentical([{ try Self.replace($0, "content/notes/_section.md", "title: Notes", "title: Jottings") }])
    }

    @Test func seeAllLabel() throws {
        try Self.expectIdentical([{ try Self.replace($0, "content/news/_section.md", "paginate: 3\n", "paginate: 3\nseeAll: Every story\n") }])
    }

    @Test func feedDescriptionAndIntro() throws {
        try Self.expectIdentical([
            { try Self.replace($0, "content/_feed.md", "title: Home\n", "title: Home\ndescription: A description\n") },
            { try Self.replace($0, "content/_feed.md", "The intro.", "Another intro.") },
        ])
    }

    /// The last page of `news` goes: the pagers of the pages before it change, not their cards.
    @Test func aNeighbourPageGoes() throws {
        try Self.expectIdentical([{ try FileManager.default.removeItem(atPath: $0 + "/content/news/n7.md") }])
    }

    /// A new last page of `news`.
    @Test func aNeighbourPageComes() throws {
        try Self.expectIdentical([{ writeSite($0, ["content/news/n8.md": "---\ntitle: News 8\nweight: 8\n---\nEight.\n"]) }])
    }

    /// The home page's link to the `more` feed shows its title.
    @Test func anotherFeedsTitle() throws {
        try Self.expectIdentical([{ try Self.replace($0, "content/more/_feed.md", "title: More", "title: Extras") }])
    }

    /// A tag added to another item: a new tag page, and the tagged items' pages.
    @Test func aTagAddedToAnotherItem() throws {
        try Self.expectIdentical([
            { try Self.replace($0, "content/news/n6.md", "weight: 6\n", "weight: 6\ntags: [alpha, gamma]\n") },
            { try Self.replace($0, "content/news/n6.md", "tags: [alpha, gamma]\n", "") },
        ])
    }

    /// A content link's target moves: the linking card's bytes change through the link table.
    @Test func aLinkTargetMoves() throws {
        try Self.expectIdentical([
            { site in
                try FileManager.default.moveItem(atPath: site + "/content/news/n2.md", toPath: site + "/content/news/second.md")
                try Self.replace(site, "content/notes/a.md", "n2.md", "second.md")
            }
        ])
    }

    /// A patched feed page (a body edit), then the edit undone beside a change that needs a full
    /// build: the page's key is the one before the patch, but its bytes are the patched ones.
    @Test func aPatchedPageIsNotKeptByAnOlderKey() throws {
        try Self.expectIdentical([
            { try Self.replace($0, "content/news/n2.md", "Body of news 2.", "A new body of news 2.") },
            { site in
                try Self.replace(site, "content/news/n2.md", "A new body of news 2.", "Body of news 2.")
                try Self.replace(site, "content/notes/_section.md", "title: Notes", "title: Jottings")
            },
            { try Self.replace($0, "content/notes/_section.md", "title: Jottings", "title: Notes") },
        ])
    }

    @Test func layoutAndTemplate() throws {
        try Self.expectIdentical([
            { try Self.replace($0, "content/news/_section.md", "layout: list", "layout: grid") },
            { writeSite($0, ["Templates/cards/card.mustache": "<article class=\"card\"><h3>{{title}}</h3></article>\n"]) },
        ])
    }

    /// The stored fields of the values a feed page's key hashes field by field
    /// (``RenderKeys/feedKey(_:site:)``): a field added to one of them must be added to the key.
    @Test func theKeyHashesEveryField() {
        func fields(_ value: Any) -> [String] { Mirror(reflecting: value).children.compactMap(\.label) }
        let section = Section(id: "s")
        let feed = Feed(path: "", title: "T")
        #expect(fields(feed) == [
            "path", "folder", "sourcePath", "title", "description", "lang", "introHTML", "introLinks", "interSectionSpacing",
            "sections", "frontMatter", "homeFile",
        ])
        #expect(fields(section) == [
            "id", "sourcePath", "title", "weight", "layout", "sort", "lang", "controls", "headerHTML", "headerLinks", "items",
            "frontMatter",
        ])
        let prepared = PreparedSection(section: section, layout: LayoutPreset.list.expansion, preset: .list)
        #expect(fields(prepared) == ["section", "layout", "preset", "detailItems", "drawnIDs", "seeAll"])
        #expect(fields(PreparedFeed(feed: feed, sections: [])) == ["feed", "sections", "ownPage"])
        let own = OwnPage(kind: .tag("t"), origin: 0, folder: "f", number: 1, count: 1, total: 1, source: .init(path: "p"))
        #expect(fields(own) == ["kind", "origin", "folder", "number", "count", "total", "source"])
        #expect(fields(SeeAllLink(url: "u", path: "p", label: nil)) == ["url", "path", "label"])
        let link = MarkdownLink(destination: "a.md", directory: "content")
        #expect(link.map(fields) == ["target", "fragment", "location", "destination"])
        #expect(fields(FeedPageInputs(
            path: "", feed: PreparedFeed(feed: feed, sections: []), drawnIDs: [], cardKeys: [], introHTML: "",
            contentVisibility: true)) == ["path", "feed", "drawnIDs", "cardKeys", "introHTML", "contentVisibility"])
        // The layout's tree (``RenderKeys/combine(_:into:)-(AdaptiveSection,_)``).
        let layout = LayoutPreset.grid.expansion
        #expect(fields(layout) == ["base", "rules"])
        #expect(fields(AdaptiveSection.Rule(minWidth: 1, section: layout.base)) == ["minWidth", "section"])
        #expect(fields(layout.base) == [
            "group", "contentInsets", "interGroupSpacing", "orthogonalScrollingBehavior", "contentInsetsReference", "header", "footer",
            "background",
        ])
        #expect(fields(layout.base.group) == ["direction", "size", "content", "interItemSpacing", "contentInsets"])
        let item = LayoutItem(size: LayoutSize(width: .absolute(1), height: .absolute(1)))
        #expect(fields(item) == ["size", "contentInsets", "edgeSpacing"])
        #expect(fields(item.size) == ["width", "height"])
        #expect(fields(EdgeSpacing()) == ["leading", "top", "trailing", "bottom"])
        #expect(fields(DirectionalEdgeInsets.zero) == ["top", "leading", "bottom", "trailing"])
        #expect(fields(BoundarySupplementaryItem()) == ["height", "pinToVisibleBounds"])
    }
}
