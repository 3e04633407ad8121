import FeedgenDiagnostics
import Testing

@testable import FeedgenContent

/// A section `s` with these files and `sort`, loaded; returns the item ids in order.
private func order(sort: String?, _ files: [String: String]) throws -> [String] {
    var all: [String: String] = [:]
    for (name, frontMatter) in files { all["content/s/" + name] = "---\n\(frontMatter)\n---\n" }
    if let sort { all["content/s/_section.md"] = "---\nsort: \(sort)\n---\n" }
    let site = try TestSite(all)
    let (s, diagnostics) = site.load()
    #expect(diagnostics == [])
    return s?.feeds[0].sections[0].items.map(\.id) ?? []
}

@Suite struct OrderingTests {
    static let files = [
        "a.md": "title: Zebra\ndate: 2026-01-01",
        "b.md": "title: apple\nweight: 2",
        "c.md": "title: Banana\nweight: 1\ndate: 2025-01-01",
        "d.md": "title: Cherry\nweight: 1\ndate: 2026-06-01",
        "e.md": "title: cherry\ndate: 2026-06-01T10:00:00+02:00",
        "f.md": "title: Apple",
        "g.md": "title: Apple",
        "sub/h.md": "weight: -5",
        "Z.md": "title: é",
    ]

    @Test func weightThenDateThenTitleThenFile() throws {
        // weight -5, then weight 1 (newer date first), weight 2; then unweighted: dated newest
        // first, then undated by title (case-folded) and file.
        #expect(
            try order(sort: nil, Self.files)
                == ["s/sub/h", "s/d", "s/c", "s/b", "s/e", "s/a", "s/f", "s/g", "s/Z"])
        #expect(try order(sort: "weight", Self.files) == order(sort: nil, Self.files))
    }

    @Test func dateNewestFirst() throws {
        #expect(
            try order(sort: "date", Self.files)
                == ["s/e", "s/d", "s/a", "s/c", "s/f", "s/g", "s/b", "s/sub/h", "s/Z"])
    }

    @Test func title() throws {
        // Case-folded, then exact bytes ("Apple" < "apple"), then file; "é" after ASCII; no title → file name.
        #expect(
            try order(sort: "title", Self.files)
                == ["s/f", "s/g", "s/b", "s/c", "s/d", "s/e", "s/sub/h", "s/a", "s/Z"])
    }

    @Test func file() throws {
        // Byte-wise: uppercase before lowercase, 'a.md' < 'sub/h.md'.
        #expect(
            try order(sort: "file", Self.files)
                == ["s/Z", "s/a", "s/b", "s/c", "s/d", "s/e", "s/f", "s/g", "s/sub/h"])
    }

    @Test func inlineItemsComeFirstInListOrder() throws {
        let site = try TestSite([
            "content/s/_section.md": "---\nsort: title\nitems:\n  - title: Zed\n  - title: Alpha\n---\n",
            "content/s/b.md": "---\ntitle: Beta\n---\n",
            "content/s/a.md": "---\ntitle: Gamma\n---\n",
        ])
        #expect(site.load().site?.outline() == ["s: s/1, s/2, s/b, s/a"])
    }

    @Test func unknownSort() throws {
        let site = try TestSite(["content/s/_section.md": "---\nsort: dates\n---\n"])
        #expect(
            site.load().diagnostics == [
                "content/s/_section.md:2:7: error: unknown sort 'dates'; expected one of weight, date, title, file (did you mean 'date'?)"
            ])
    }

    @Test func unknownSectionAndFeedKeys() throws {
        let site = try TestSite([
            "content/_feed.md": "---\ntitel: Home\ninterSectionSpacing: -4\n---\n",
            "content/s/_section.md": "---\nlayotu: list\nweight: x\n---\n",
        ])
        let (s, diagnostics) = site.load()
        #expect(s == nil)
        #expect(
            diagnostics == [
                "content/_feed.md:2:1: error: unknown key 'titel' in _feed.md (did you mean 'title'?)",
                "content/_feed.md:3:22: error: 'interSectionSpacing' must not be negative, found '-4'",
                "content/s/_section.md:2:1: error: unknown key 'layotu' in _section.md (did you mean 'layout'?)",
                "content/s/_section.md:3:9: error: 'weight' must be an integer, found 'x'",
            ])
    }

    @Test func feedSettings() throws {
        let site = try TestSite([
            "content/_feed.md": "---\ndescription: All the news\nlang: de\ninterSectionSpacing: 12.5\n---\n",
            "content/s/_section.md": "---\nlang: fr\nlayout:\n  group: {count: 2}\n---\n",
        ])
        let (s, diagnostics) = site.load()
        #expect(diagnostics == [])
        let feed = try #require(s?.feeds.first)
        #expect(feed.description == "All the news")
        #expect(feed.lang == "de")
        #expect(feed.interSectionSpacing == 12.5)
        #expect(feed.introHTML == "")
        #expect(feed.sections[0].lang == "fr")
        #expect(feed.sections[0].layout?["group"]?["count"]?.int == 2)
        #expect(feed.sections[0].items.isEmpty)
    }
}

@Suite struct PublishingTests {
    static let files = [
        "content/s/draft.md": "---\ndraft: true\n---\n",
        "content/s/future.md": "---\npublishDate: 2026-11-30\n---\n",
        "content/s/soon.md": "---\npublishDate: 2026-11-29T12:00:01Z\n---\n",
        "content/s/today.md": "---\npublishDate: 2026-11-29\n---\n",
        "content/s/expired.md": "---\nexpiryDate: 2026-11-29\n---\n",
        "content/s/expiring.md": "---\nexpiryDate: 2026-11-29T12:00:01Z\n---\n",
        "content/s/live.md": "---\nexpiryDate: 2026-11-30\n---\n",
    ]

    @Test func hiddenItemsAreSkippedWithNotes() throws {
        let site = try TestSite(Self.files)
        let (s, diagnostics) = site.load()
        #expect(
            diagnostics == [
                "content/s/draft.md:2:8: note: skipped draft (use --drafts to include)",
                "content/s/expired.md:2:13: note: skipped: expired on 2026-11-29 (use --expired to include)",
                "content/s/future.md:2:14: note: skipped: publishDate 2026-11-30 is in the future (use --future to include)",
                "content/s/soon.md:2:14: note: skipped: publishDate 2026-11-29T12:00:01Z is in the future (use --future to include)",
            ])
        #expect(s?.outline() == ["s: s/expiring, s/live, s/today"])
    }

    @Test func optionsIncludeThem() throws {
        let site = try TestSite(Self.files)
        let (s, diagnostics) = site.load(drafts: true, future: true, expired: true)
        #expect(diagnostics == [])
        #expect(s?.outline() == ["s: s/draft, s/expired, s/expiring, s/future, s/live, s/soon, s/today"])
    }

    @Test func siteTimeZoneDecidesToday() throws {
        // 2026-11-29T23:30Z is already 30 November in Tokyo.
        var files = Self.files
        files["feedgen.yaml"] = "timeZone: Asia/Tokyo\n"
        let site = try TestSite(files)
        let (s, _) = site.load(now: ContentDate.parse("2026-11-29T23:30:00Z")!)
        #expect(s?.outline() == ["s: s/future, s/soon, s/today"])
    }

    @Test func draftFeed() throws {
        let site = try TestSite([
            "content/wip/_feed.md": "---\ndraft: true\n---\n",
            "content/wip/s/a.md": "A",
        ])
        #expect(site.load().site?.feeds.map(\.path) == [""])
        #expect(
            site.load().diagnostics == ["content/wip/_feed.md:2:8: note: skipped draft feed (use --drafts to include)"])
        #expect(site.load(drafts: true).site?.feeds.map(\.path) == ["", "wip"])
    }
}
