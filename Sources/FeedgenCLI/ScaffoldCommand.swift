import Foundation

/// `feedgen init DIR` and `feedgen new SECTION/NAME`.
enum ScaffoldCommand {
    static let initHelp = """
        OVERVIEW: Create a small working site in DIR: a home feed with a list section and a
        carousel section. 'feedgen build DIR' builds it at once.

        USAGE: feedgen init DIR

        ARGUMENTS:
          DIR                       A new or empty folder for the site

        EXIT STATUS: 0 created; 2 usage errors (DIR missing or empty, not an empty folder, or not
        writable: nothing is overwritten).

        """

    static let newHelp = """
        OVERVIEW: Create a new item (a Markdown file with front matter) in a section of the site.

        USAGE: feedgen new SECTION/NAME [--site SITE]

        ARGUMENTS:
          SECTION/NAME              Path below content/ without .md, e.g. today/lunch or recipes/mains/soup

        OPTIONS:
          --site SITE               The site folder (default: the current folder)

        EXIT STATUS: 0 created; 2 usage errors (no site, a bad name, or the file already exists).

        """

    /// The starter site written by `init`: path → text.
    static let starter: [(String, String)] = [
        ("feedgen.yaml", "title: My feed\nlanguage: en\n"),
        ("content/_feed.md", "---\ntitle: Today\nsections: [today, picks]\n---\nWelcome to your card feed.\n"),
        ("content/today/_section.md", "---\ntitle: Today\nlayout: list\n---\n"),
        ("content/today/hello.md", "---\ntitle: Hello\nweight: 1\n---\nThis card grows with its text. Edit `content/today/hello.md` and build again.\n"),
        ("content/today/next.md", "---\ntitle: What next\nweight: 2\n---\nAdd a Markdown file to a section folder to add a card; add a folder to add a section.\n"),
        ("content/picks/_section.md", "---\ntitle: Picks\nlayout: carousel\n---\n"),
        ("content/picks/one.md", "---\ntitle: One\nweight: 1\n---\nThe carousel scrolls sideways.\n"),
        ("content/picks/two.md", "---\ntitle: Two\nweight: 2\n---\nEach card is 160 × 240.\n"),
        ("content/picks/three.md", "---\ntitle: Three\nweight: 3\n---\nChange the layout in _section.md.\n"),
        (".gitignore", "public/\n.public.feedgen-cache/\n"),
    ]

    static func runInit(_ arguments: [String], terminal: inout Terminal) throws -> Int32 {
        let args = try Arguments(arguments, flags: [], options: [], command: "init")
        if args.help {
            terminal.out(initHelp)
            return 0
        }
        // An empty name would be the current folder, which the check below could not list.
        guard args.positionals.count == 1, let dir = args.positionals.first, !dir.isEmpty else {
            throw UsageError("'init' needs one folder: feedgen init DIR")
        }
        let fm = FileManager.default
        var isFolder: ObjCBool = false
        if fm.fileExists(atPath: dir, isDirectory: &isFolder) {
            guard isFolder.boolValue else {
                throw UsageError("'\(dir)' exists and is not a folder; 'init' only writes into a new or empty folder")
            }
            guard let entries = try? fm.contentsOfDirectory(atPath: dir) else {
                throw UsageError("cannot list the folder '\(dir)'")
            }
            guard entries.isEmpty else {
                throw UsageError("'\(dir)' is not empty; 'init' only writes into a new or empty folder")
            }
        }
        for (path, text) in starter {
            let url = URL(fileURLWithPath: dir).appendingPathComponent(path)
            do {
                try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                // Never over a file that appeared meanwhile.
                try Data(text.utf8).write(to: url, options: .withoutOverwriting)
            } catch {
                throw UsageError("cannot write '\(url.path)': \((error as NSError).localizedDescription)")
            }
        }
        terminal.err("feedgen: created a site in \(dir); build it with 'feedgen build \(dir)' and open \(dir)/public/index.html\n")
        return 0
    }

    static func runNew(_ arguments: [String], terminal: inout Terminal) throws -> Int32 {
        let args = try Arguments(arguments, flags: [], options: ["--site"], command: "new")
        if args.help {
            terminal.out(newHelp)
            return 0
        }
        guard args.positionals.count == 1, var name = args.positionals.first else {
            throw UsageError("'new' needs SECTION/NAME, e.g. feedgen new today/lunch")
        }
        if name.hasSuffix(".md") { name.removeLast(3) }
        let parts = name.split(separator: "/").map(String.init)
        guard parts.count >= 2, !parts.contains(where: { $0 == "." || $0 == ".." || $0.hasPrefix("_") || $0.hasPrefix(".") }) else {
            throw UsageError("'\(name)' must be SECTION/NAME below content/, without '..' or names starting with '_' or '.'")
        }
        // The same characters an item id may use (it becomes the page's file name).
        if let bad = name.first(where: { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." || $0 == "/") }) {
            throw UsageError("'\(name)' has '\(bad)', which cannot be part of a page's file name; use letters, digits, '-', '_' and '.' (e.g. today/my-card)")
        }
        let site = args.options["--site"] ?? "."
        let fm = FileManager.default
        guard fm.fileExists(atPath: site + "/content") else {
            throw UsageError("no content/ folder in '\(site)'; run 'new' in a site folder or pass --site")
        }
        let path = site + "/content/" + parts.joined(separator: "/") + ".md"
        guard !fm.fileExists(atPath: path) else { throw UsageError("'\(path)' already exists") }
        let title = parts.last!.replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "_", with: " ")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let text = "---\ntitle: \(title.prefix(1).uppercased() + title.dropFirst())\ndate: \(formatter.string(from: Date()))\ndraft: true\n---\nWrite the card's text here.\n"
        try fm.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        terminal.err("feedgen: created \(path) (draft: build with --drafts to see it)\n")
        return 0
    }
}
