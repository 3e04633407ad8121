/// Hugo's build options in an item's front matter, `build:` (or the older `_build:`):
/// `list: never` keeps an item out of every list, `render: never` gives it no page
/// (content-format §5.4).
import FeedgenDiagnostics

extension Item {
    /// The build options' key (`_build` holds it too): a front matter without its bytes has none.
    package static let buildKey = "build"

    /// The `build` mapping of the front matter (`_build` when there is no `build`).
    var buildOptions: YAMLNode? {
        // Most items have neither key: one left encoded is then not decoded (`build` is part of `_build`).
        guard frontMatterMayHold(Self.buildKey) else { return nil }
        return frontMatter["build"] ?? frontMatter["_build"]
    }

    /// Whether the item is a card of its sections, tag pages and syndication feeds: false for
    /// `build: {list: never}` (or `list: false`), Hugo's unlisted page. Its detail page is still
    /// written (reachable by links), unless `render` says no.
    public var isListed: Bool {
        guard let list = buildOptions?["list"] else { return true }
        return !(list.bool == false || list.string == "never")
    }

    /// Reads `build` / `_build` into `item`: `render: never` (or `false`) makes it an item
    /// without a body page (a card without a link, unless it has `link`). Values Hugo does not
    /// define are warnings at them; Hugo's `list: local` and `render: link` are read as
    /// `always`.
    static func applyBuildOptions(_ item: inout Item, reader: inout FieldReader) {
        guard let node = item.buildOptions else { return }
        guard let pairs = node.pairs else {
            reader.warning(node, "'build' must be a mapping such as '{list: never, render: always}'; it is ignored")
            return
        }
        for pair in pairs {
            let key = pair.key.string ?? ""
            let value = pair.value
            let allowed: [String]
            switch key {
            case "list": allowed = ["always", "local", "never"]
            case "render": allowed = ["always", "link", "never"]
            case "publishResources": continue
            default:
                reader.warning(pair.key, "unknown build option '\(key)' is ignored (Hugo's are list, render and publishResources)")
                continue
            }
            guard value.bool != nil || value.string.map(allowed.contains) == true else {
                reader.warning(value, "'\(key)' must be one of \(allowed.joined(separator: ", ")), true or false; it is ignored")
                continue
            }
            if key == "render", value.bool == false || value.string == "never" { item.hasBody = false }
        }
    }
}
