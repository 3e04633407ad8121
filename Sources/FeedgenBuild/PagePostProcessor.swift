import Foundation
import FeedgenContent
import FeedgenEmit

/// The last pass over rendered pages: links between content files become relative links to
/// their pages, and in watch mode every page (but the section pages shown in the frames of
/// `_previews/index.html`) gets the live-reload script.
struct PagePostProcessor {
    let links: ContentLinks
    let liveReload: Bool

    /// The page with its content links resolved and, in watch mode, the live-reload script.
    func process(_ file: OutputFile) -> OutputFile {
        guard file.path.hasSuffix(".html"), case .text(let html) = file.contents else { return file }
        var text = links.rewrite(html, page: file.path)
        // A preview index reloads with its frames; the section pages in the frames don't
        // each poll for the build id.
        let previewFrame = file.path.hasPrefix(Preview.folder + "/") && file.path != Preview.indexPath
        if liveReload, !previewFrame, let head = text.range(of: "</head>") {
            let script = "<script src=\"\(RelativeURL.root(from: file.path))_feedgen/live-reload.js\"></script>\n"
            text.insert(contentsOf: script, at: head.lowerBound)
        }
        return OutputFile(path: file.path, contents: .text(text))
    }
}

/// Reloading pages opened from `file://` after a rebuild, with no server: the page polls a tiny
/// classic script (`_feedgen/build-id.js`, re-inserted with a cache-busting query) that reports
/// the current build's id; a different id reloads the page. No fetch/XHR, which file:// forbids.
enum LiveReload {
    static let scriptPath = "_feedgen/live-reload.js"
    static let buildIDPath = "_feedgen/build-id.js"

    /// A hash of every other output file's path and content hash, so the id changes exactly
    /// when the output does.
    static func buildID(of files: [(path: String, hash: UInt64)]) -> String {
        var h = StableHasher()
        for file in files {
            h.combine(file.path)
            h.combine(file.hash)
        }
        return String(h.value, radix: 16)
    }

    static func script(buildID: String) -> String {
        """
        /* feedgen watch mode: reloads this page when the site is rebuilt. Not written by normal builds. */
        (function () {
          var loaded = "\(buildID)";
          var base = document.currentScript.src.replace(/live-reload\\.js(\\?.*)?$/, "");
          window.__feedgenBuild = function (id) { if (id !== loaded) { location.reload(); } };
          setInterval(function () {
            var s = document.createElement("script");
            s.src = base + "build-id.js?" + Date.now();
            s.onload = s.onerror = function () { s.remove(); };
            document.head.appendChild(s);
          }, 500);
        })();

        """
    }

    static func buildIDScript(_ id: String) -> String {
        "window.__feedgenBuild && window.__feedgenBuild(\"\(id)\");\n"
    }
}
