import FeedgenContent
import FeedgenEmit
import FeedgenMustache
import FeedgenResolve
import Foundation

/// Renders 10,000 cards with the default card template (`cards/card.mustache`, as built in),
/// each from the context the build gives a card: title, description, date, url (its detail
/// page), image with width and height; every second card has an image and a third a body.
enum RenderBenchmark {
    static let count = 10_000

    static func contexts() -> [MustacheValue] {
        let feed = PreparedFeed(feed: Feed(path: "recipes", title: "Recipes"), sections: [])
        let config = SiteConfig(title: "Recipes")
        let words = ["miso", "soup", "with", "tofu", "and", "spring", "onion", "ready", "in", "ten", "minutes"]
        return (0..<count).map { i in
            let title = "Recipe \(i): " + words[i % words.count].capitalized + " & " + words[(i * 7) % words.count]
            let description = (0..<18).map { words[($0 + i) % words.count] }.joined(separator: " ") + "."
            let item = Item(
                id: "recipes/recipe-\(i)", sourcePath: "content/recipes/recipes/recipe-\(i).md",
                location: .init(path: "content/recipes/recipes/recipe-\(i).md", line: 1, column: 1),
                title: title, description: description,
                date: ContentDate(year: 2026, month: 1 + i % 12, day: 1 + i % 28),
                tags: ["soup", "quick"], html: "<p>\(description)</p>\n", hasBody: i % 3 != 0)
            let image = i % 2 == 0
                ? ImageAsset(
                    source: "/site/content/recipes/recipes/recipe-\(i).png",
                    outputPath: "assets/recipes/recipes/recipe-\(i).png", width: 480, height: 270,
                    alt: "A bowl of \(words[i % words.count])")
                : nil
            return TemplateContext.item(item, feed: feed, page: "recipes/index.html", image: image, eager: i < 4, config: config)
        }
    }

    static func run() {
        guard let template = try? TemplateSet().card(type: "card") else {
            print("render: the built-in card template does not compile")
            return
        }
        let contexts = contexts()
        var bytes = 0
        let ms = medianMilliseconds {
            bytes = 0
            for context in contexts {
                bytes += (try? template.render(context))?.utf8.count ?? 0
            }
        }
        let perSecond = Double(count) / (ms / 1000)
        print(
            "render: 10,000 cards with cards/card.mustache: \(String(format: "%.1f", ms)) ms "
                + "(median of 7; \(Int(perSecond).formatted()) cards/s, \(bytes / 1024) KiB of HTML)")
    }
}
