/// Body images as `<picture>`s (issue #19 §3, docs/content-format.md §8.2): in an item's body on
/// its page and in a `_feed.md` intro, an image with variants (``ImageVariantTable/bodies``) gets
/// the markup card images have; its `src` stays the content-link marker, which the last pass
/// makes relative and gives `width`/`height` (``ContentLinks/rewrite(_:page:)``).
import FeedgenContent
import FeedgenResolve
import FeedgenStorage

extension SiteRenderer {
    /// `html` (rendered Markdown with content-link markers) as the page at `page` shows it: each
    /// `<img src="feedgen-md:…" alt="…" />` whose image has variants becomes
    /// `<picture><source type="image/webp" srcset="…" sizes="auto, …"><img src="feedgen-md:…" alt="…" srcset="…" sizes="auto, …" loading="lazy" decoding="async" /></picture>`
    /// (no `<source>` for a WebP image; `srcset` relative to `page`, `sizes` the body column's
    /// with `auto` first, as a lazy card image's). Returned as it is when no image has variants.
    func responsiveBody(_ html: String, page: String) -> String {
        guard !images.bodies.isEmpty, !html.isEmpty else { return html }
        let opening = "<img src=\"" + Markdown.contentLinkScheme
        guard html.containsBytes(opening) else { return html }
        var out = ""
        var rest = html[...]
        while let hit = rest.range(of: opening) {
            // cmark writes `<img src="…" alt="…" title="…" />`, its attribute values escaped (no
            // `"` or `>` inside them).
            guard let quote = rest[hit.upperBound...].firstIndex(of: "\""), let close = rest[quote...].firstIndex(of: ">") else { break }
            var target = rest[hit.upperBound..<quote]
            if let suffix = target.firstIndex(where: { $0 == "#" || $0 == "?" }) { target = target[..<suffix] }
            guard let value = site.contentPages[MarkdownLink.decodePercent(String(target))],
                case let (path, _, verbatim) = BodyPaths.parse(value), !verbatim,
                let image = images.bodies[String(path)], let list = image.detailSizes
            else {
                out += rest[..<hit.upperBound]
                rest = rest[hit.upperBound...]
                continue
            }
            var tag = rest[hit.lowerBound..<close]
            if tag.hasSuffix("/") { tag = tag.dropLast() }
            while tag.hasSuffix(" ") { tag = tag.dropLast() }
            let sizes = "auto, " + list
            let original = TemplateContext.originalMimeType(String(path))
            out += rest[..<hit.lowerBound]
            out += "<picture>"
            if original != "image/webp" {
                out += "<source type=\"image/webp\" srcset=\"\(TemplateContext.srcset(image.variants, type: "image/webp", page: page))\" sizes=\"\(sizes)\">"
            }
            out += tag
            let own = TemplateContext.srcset(image.variants, type: original, page: page)
            if !own.isEmpty { out += " srcset=\"\(own)\"" }
            out += " sizes=\"\(sizes)\" loading=\"lazy\" decoding=\"async\" /></picture>"
            rest = rest[rest.index(after: close)...]
        }
        out += rest
        return out
    }

    /// The variants of `item`'s body images, by the content link's target (a detail page's
    /// inputs: a changed image has new variant names).
    func bodyImages(of item: Item) -> [String: ResponsiveImage] {
        var found: [String: ResponsiveImage] = [:]
        for link in item.markdownLinks where link.isPath {
            guard let value = site.contentPages[link.target] else { continue }
            let (path, _, verbatim) = BodyPaths.parse(value)
            guard !verbatim, let image = images.bodies[String(path)] else { continue }
            found[link.target] = image
        }
        return found
    }
}
