// FeedgenContent: a site folder → a typed, ordered content model with precise diagnostics.
//
// Entry points:
// - `SiteLoader.load(siteRoot:options:)` → `(Site?, Diagnostics)`; `LoadOptions` injects "now"
//   and the --drafts/--future/--expired switches.
// - The model: `Site` → `Feed` → `Section` → `Item` (+ `ItemImage`, `SortOrder`), `SiteConfig`,
//   `ContentDate`.
// - Building blocks, usable alone: `FrontMatter.parse`, `YAMLParser.parse` and
//   `TOMLParser.parse` (→ `YAMLNode`),
//   `Markdown.render` / `Markdown.firstParagraphText`.
//
// Behaviour where content-format.md is silent (documented here for the docs pages):
// - Positions are 1-based lines and columns in the whole file; columns count Unicode scalars;
//   a BOM is not counted; CRLF and lone CR count as one line break each.
// - Front matter opens with `---` on the first line that is not blank and closes with `---` or
//   `...`; `+++` opens TOML (toml++, `TOMLParser`), closed by `+++`; a first character `{` opens
//   a JSON object (`{{` is a Hugo shortcode, so body), read as YAML flow syntax up to its
//   matching `}`. All three give the same `YAMLNode` mapping. A file without front matter is
//   all body.
// - YAML is read with the 1.2 core schema: only true/false are booleans; quoted scalars are
//   strings (`weight: "3"` is an error); a null value (`key:`, `~`) counts as absent. Merge keys
//   (`<<`) are not special. Aliases are expanded by copy (at most 100,000 nodes); nesting is
//   limited to 256 levels; one document per file.
// - Dates: `YYYY-MM-DD` is a calendar date (never shifted); date-times are RFC 3339 or YAML's
//   `YYYY-MM-DD hh:mm:ss [±hh:mm]` form; no offset means UTC. Quoted dates are accepted.
//   A calendar publishDate hides an item until that day starts in the site's `timeZone`; a
//   calendar expiryDate hides it from that day on. `date` alone never hides an item.
// - Sections: a folder with neither `_section.md` nor items is not a section (e.g. images/).
//   Unlisted sections of a feed with a `sections` list follow the listed ones (a warning).
// - Items: `.md` files only (case-sensitive); other files in section folders (images…) are
//   left alone. The default title is the file name without `.md`; an inline item's default
//   title is its id. `description` defaults to the body's first paragraph as plain text.
// - Item ids may use letters and digits of any script, `-`, `_`, `.`, in `/`-separated
//   segments that are not empty and do not start with `.`. When two items claim an id, the one
//   whose default id it is keeps it (else the first by path and line); each other is an error.
//   An item page may not land on a feed's index.html or another feed's item page.
// - `sort: title` compares case-folded titles, then exact bytes, then file paths; `file`
//   compares the path below the section folder byte-wise (uppercase before lowercase).
// - A `_feed.md` with `draft: true` hides its feed (not the feeds below it) unless --drafts.
// - Symbolic links are followed; a folder reached twice is skipped with a warning. `static/`
//   files are listed whatever their names (`.nojekyll` is copied).
