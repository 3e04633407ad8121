import FeedgenResolve
import FeedgenStorage
import Foundation
import FeedgenContent
import FeedgenEmit

/// The last pass over rendered pages: links between content files become relative links to
/// their pages, and in watch mode every page (but the section pages shown in the frames of
/// `_previews/index.html`) gets the live-reload script.
package struct PagePostProcessor {
    let links: ContentLinks
    let liveReload: Bool

    package init(links: ContentLinks, liveReload: Bool) { (self.links, self.liveReload) = (links, liveReload) }

    /// The page with its content links resolved and, in watch mode, the live-reload script.
    package func process(_ file: OutputFile) -> OutputFile {
        guard file.path.hasSuffix(".html") else { return file }
        switch file.contents {
        case .text(let html):
            var text = links.rewrite(html, page: file.path)
            if let script = script(for: file.path), let head = text.range(of: "</head>") {
                text.insert(contentsOf: script, at: head.lowerBound)
            }
            return OutputFile(path: file.path, contents: .text(text))
        case .utf8(let html):
            var bytes = links.rewrite(html, page: file.path)
            if let script = script(for: file.path), let head = Self.firstRange(of: Array("</head>".utf8), in: bytes) {
                bytes.insert(contentsOf: script.utf8, at: head.lowerBound)
            }
            return OutputFile(path: file.path, contents: .utf8(bytes))
        case .chunks(let chunks):
            // Content links and the live-reload script are rare on a feed page: only then are
            // its pieces joined and processed as bytes. No link marker spans two pieces: a
            // cached card is a piece of its own, after a line feed and before a line feed or a
            // space, which no marker holds.
            let script = script(for: file.path)
            guard script != nil || (!links.isEmpty && chunks.withPieces({ links.mayRewrite($0) })) else { return file }
            return process(OutputFile(path: file.path, contents: .utf8(chunks.bytes)))
        case .copy:
            return file
        }
    }

    /// ``process(_:)`` of a feed page, and where its cards are then: a page whose content links
    /// were rewritten moved the bytes after each link (the live-reload script, added in watch
    /// mode only, makes the map inexact).
    func process(feedPage file: OutputFile, map: FeedPageMap) -> (OutputFile, FeedPageMap) {
        guard case .chunks(let chunks) = file.contents, script(for: file.path) == nil else {
            var map = map
            map.isExact = false
            return (process(file), map)
        }
        guard !links.isEmpty, chunks.withPieces({ links.mayRewrite($0) }) else { return (file, map) }
        var edits: [(range: Range<Int>, length: Int)] = []
        let bytes = links.rewrite(chunks.bytes, page: file.path, edits: &edits)
        // A position moves by the edits before it (a card holding a link grows by its own): the
        // edits are in page order, so by their running sum, found by binary search (a page of
        // 100,000 cards may hold thousands of links).
        var sums = [0]
        sums.reserveCapacity(edits.count + 1)
        for edit in edits { sums.append(sums[sums.count - 1] + edit.length - edit.range.count) }
        func moved(_ position: Int) -> Int {
            var low = 0
            var high = edits.count
            while low < high {
                let mid = (low + high) / 2
                if edits[mid].range.upperBound <= position { low = mid + 1 } else { high = mid }
            }
            return position + sums[low]
        }
        var map = map
        for s in map.cards.indices {
            for i in map.cards[s].indices { map.cards[s][i] = moved(map.cards[s][i].lowerBound)..<moved(map.cards[s][i].upperBound) }
        }
        return (OutputFile(path: file.path, contents: .utf8(bytes)), map)
    }

    /// The live-reload script element for page `path`, in watch mode. A preview index reloads
    /// with its frames; the section pages in the frames don't each poll for the build id.
    private func script(for path: String) -> String? {
        let previewFrame = path.hasPrefix(Preview.folder + "/") && path != Preview.indexPath
        guard liveReload, !previewFrame else { return nil }
        return "<script src=\"\(RelativeURL.root(from: path))_feedgen/live-reload.js\"></script>\n"
    }

    /// Where `needle` first occurs in `bytes`.
    static func firstRange(of needle: [UInt8], in bytes: [UInt8]) -> Range<Int>? {
        guard let first = needle.first, bytes.count >= needle.count else { return nil }
        var i = 0
        while i <= bytes.count - needle.count {
            if bytes[i] == first, bytes[i..<(i + needle.count)].elementsEqual(needle) { return i..<(i + needle.count) }
            i += 1
        }
        return nil
    }
}

/// Reloading pages opened from `file://` after a rebuild, with no server: the page polls a tiny
/// classic script (`_feedgen/build-id.js`, re-inserted with a cache-busting query) that reports
/// the current build's id; a different id reloads the page. No fetch/XHR, which file:// forbids.
package enum LiveReload {
    static let scriptPath = OutputPaths.liveReloadScript
    static let buildIDPath = OutputPaths.buildID

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
