/// The item codec of `items.log`: ``Item``s, their front matter, dates and diagnostics as
/// ``ByteWriter`` / ``ByteReader`` values; an item's body and front matter read from a mapped
/// log are left there (``EncodedValue``) until first read.
import FeedgenContent
import FeedgenDiagnostics
import FeedgenStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ByteWriter {
    mutating func location(_ l: SourceLocation) {
        string(l.path)
        int(l.line)
        int(l.column)
    }
    mutating func date(_ d: ContentDate) {
        switch d.value {
        case .calendar(let y, let m, let day):
            bytes.append(0)
            int(y); int(m); int(day)
        case .instant(let s, let ns, let offset):
            bytes.append(1)
            int(Int(s)); int(Int(ns)); int(Int(offset))
        }
    }
    mutating func node(_ n: YAMLNode) {
        int(n.line)
        int(n.column)
        optional(n.tag) { $0.string($1) }
        switch n.kind {
        case .scalar(let text, let plain):
            bytes.append(0)
            string(text)
            bool(plain)
        case .sequence(let nodes):
            bytes.append(1)
            int(nodes.count)
            for node in nodes { self.node(node) }
        case .mapping(let pairs):
            bytes.append(2)
            int(pairs.count)
            for pair in pairs {
                node(pair.key)
                node(pair.value)
            }
        }
    }
    mutating func item(_ item: Item) {
        var html = item.html
        _ = html.withUTF8 { itemParts(item, html: $0, copyingHTML: true) }
    }
    /// Where the parts of an item's encoding end that its fingerprint outside the body leaves
    /// out or replaces (``ItemCache/fingerprints(_:)``): the fields before the description, the
    /// description, the fields up to the body, the body's byte count (and bytes, when written),
    /// the fields up to the links.
    struct ItemEnds {
        var head: Int
        var description: Int
        var beforeHTML: Int
        var html: Int
        var beforeLinks: Int
    }
    /// ``item(_:)`` with the body `html`, whose bytes are left out unless `copyingHTML` (its
    /// byte count is written either way): a hash can take them where they are.
    @discardableResult
    mutating func itemParts(_ item: Item, html: UnsafeBufferPointer<UInt8>, copyingHTML: Bool) -> ItemEnds {
        string(item.id)
        string(item.sourcePath)
        location(item.location)
        string(item.title)
        let head = bytes.count
        optional(item.description) { $0.string($1) }
        let description = bytes.count
        optional(item.date) { $0.date($1) }
        optional(item.publishDate) { $0.date($1) }
        optional(item.expiryDate) { $0.date($1) }
        bool(item.draft)
        optional(item.weight) { $0.int($1) }
        optional(item.image) { w, image in
            w.string(image.src)
            w.optional(image.alt) { $0.string($1) }
            w.optional(image.width) { $0.int($1) }
            w.optional(image.height) { $0.int($1) }
            w.location(image.location)
        }
        optional(item.link) { $0.string($1) }
        string(item.type)
        int(item.tags.count)
        for tag in item.tags { string(tag) }
        optional(item.lang) { $0.string($1) }
        int(item.params.count)
        for pair in item.params {
            node(pair.key)
            node(pair.value)
        }
        let beforeHTML = bytes.count
        int(html.count)
        if copyingHTML { bytes.append(contentsOf: html) }
        let htmlEnd = bytes.count
        bool(item.hasBody)
        string(item.fileName)
        node(item.frontMatter)
        let beforeLinks = bytes.count
        int(item.markdownLinks.count)
        for link in item.markdownLinks {
            string(link.target)
            optional(link.fragment) { $0.string($1) }
            location(link.location)
            string(link.destination)
        }
        return ItemEnds(head: head, description: description, beforeHTML: beforeHTML, html: htmlEnd, beforeLinks: beforeLinks)
    }
    mutating func diagnostics(_ list: [Diagnostic]) {
        int(list.count)
        for d in list { diagnostic(d) }
    }
    /// One diagnostic: its severity (``severity(_:)``), place and message.
    mutating func diagnostic(_ d: Diagnostic) {
        severity(d.severity)
        location(d.location)
        string(d.message)
    }
    /// A severity as one byte: 2 error, 1 warning, 0 note.
    mutating func severity(_ s: Severity) { bytes.append(s == .error ? 2 : s == .warning ? 1 : 0) }
}

extension EncodedValue where Value == YAMLNode {
    /// A node as ``ByteWriter/node(_:)`` wrote it (an empty mapping if it cannot be read).
    convenience init(node file: MappedFile, range: Range<Int>) {
        // Its bytes were just read (skipped over): whether they hold the build options' key,
        // asked of every item at every build, is told now, while they are in the cache.
        let holdsBuild = EncodedValue<YAMLNode>.bytes(UnsafeRawBufferPointer(rebasing: file.bytes[range]), contain: Item.buildKey)
        self.init(file: file, range: range, lacking: holdsBuild ? nil : Item.buildKey) { bytes in
            var reader = ByteReader(bytes: bytes, offset: 0, end: bytes.count)
            return reader.node() ?? YAMLNode(.mapping([]), line: 1, column: 1)
        }
    }
}

/// Reads what ``ByteWriter`` wrote; every read checks bounds and returns nil on damage.
extension ByteReader {
    /// A string written by ``ByteWriter/string(_:)``, left in the mapped file when there is one.
    mutating func text() -> ItemText? {
        guard let file else { return string().map(ItemText.init) }
        guard let count = int(), count >= 0, count <= end - offset else { return nil }
        defer { offset += count }
        return .encoded(EncodedValue(text: file, range: offset..<(offset + count)))
    }
    mutating func location() -> SourceLocation? {
        guard let path = string(), let line = int(), let column = int() else { return nil }
        return SourceLocation(path: path, line: line, column: column)
    }
    /// ``location()`` whose path is `known` itself when its bytes are those at `knownRange`
    /// (the same decoding): an item's places name its own file, one String for them all.
    mutating func location(sameAs known: String, at knownRange: Range<Int>) -> SourceLocation? {
        guard let path = string(sameAs: known, at: knownRange), let line = int(), let column = int() else { return nil }
        return SourceLocation(path: path, line: line, column: column)
    }
    /// ``string()``, or `known` when the bytes are those at `knownRange`.
    mutating func string(sameAs known: String, at knownRange: Range<Int>) -> String? {
        guard let range = stringRange() else { return nil }
        if range.count == knownRange.count,
            range.isEmpty || memcmp(bytes.baseAddress! + range.lowerBound, bytes.baseAddress! + knownRange.lowerBound, range.count) == 0
        {
            return known
        }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
    mutating func date() -> ContentDate? {
        guard let kind = byte(), let a = int(), let b = int(), let c = int() else { return nil }
        if kind == 0 { return ContentDate(year: a, month: b, day: c) }
        return ContentDate(secondsSinceEpoch: Int64(a), nanoseconds: Int32(truncatingIfNeeded: b), utcOffset: Int32(truncatingIfNeeded: c))
    }
    mutating func node(depth: Int = 0) -> YAMLNode? {
        guard depth < 512, let line = int(), let column = int(), let tag = optional({ $0.string() }), let kind = byte() else { return nil }
        switch kind {
        case 0:
            guard let text = string(), let plain = bool() else { return nil }
            return YAMLNode(.scalar(text, plain: plain), line: line, column: column, tag: tag)
        case 1:
            guard let count = int(), count >= 0, count <= end - offset else { return nil }
            var nodes: [YAMLNode] = []
            for _ in 0..<count {
                guard let n = node(depth: depth + 1) else { return nil }
                nodes.append(n)
            }
            return YAMLNode(.sequence(nodes), line: line, column: column, tag: tag)
        case 2:
            guard let pairs = pairs(depth: depth + 1) else { return nil }
            return YAMLNode(.mapping(pairs), line: line, column: column, tag: tag)
        default: return nil
        }
    }
    /// Steps over a node written by ``ByteWriter/node(_:)``, checking its structure but making
    /// nothing; false on damage.
    mutating func skipNode(depth: Int = 0) -> Bool {
        func skipString() -> Bool {
            guard let count = int(), count >= 0, count <= end - offset else { return false }
            offset += count
            return true
        }
        guard depth < 512, int() != nil, int() != nil, let hasTag = byte() else { return false }
        if hasTag != 0, !skipString() { return false }
        switch byte() {
        case 0: return skipString() && bool() != nil
        case 1:
            guard let count = int(), count >= 0, count <= end - offset else { return false }
            for _ in 0..<count where !skipNode(depth: depth + 1) { return false }
            return true
        case 2:
            guard let count = int(), count >= 0, count <= end - offset else { return false }
            for _ in 0..<(2 * count) where !skipNode(depth: depth + 1) { return false }
            return true
        default: return false
        }
    }
    /// A node written by ``ByteWriter/node(_:)``, left in the mapped file when there is one
    /// (decoded when first read: an unchanged item's front matter is read only for a few
    /// diagnostics).
    mutating func frontMatter() -> ItemYAML? {
        guard let file else { return node().map(ItemYAML.init) }
        let start = offset
        guard skipNode() else { return nil }
        return .encoded(EncodedValue(node: file, range: start..<offset))
    }
    mutating func pairs(depth: Int = 0) -> [YAMLPair]? {
        guard let count = int(), count >= 0, count <= end - offset else { return nil }
        var pairs: [YAMLPair] = []
        for _ in 0..<count {
            guard let key = node(depth: depth), let value = node(depth: depth) else { return nil }
            pairs.append(YAMLPair(key: key, value: value))
        }
        return pairs
    }
    mutating func item() -> Item? {
        guard let id = string(), let pathRange = stringRange() else { return nil }
        let sourcePath = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[pathRange]), as: UTF8.self)
        guard let itemLocation = location(sameAs: sourcePath, at: pathRange), let title = string(),
            let description = optional({ $0.string() }), let date = optional({ $0.date() }),
            let publishDate = optional({ $0.date() }), let expiryDate = optional({ $0.date() }), let draft = bool(),
            let weight = optional({ $0.int() }),
            let image = optional({ r -> ItemImage? in
                guard let src = r.string(), let alt = r.optional({ $0.string() }), let width = r.optional({ $0.int() }),
                    let height = r.optional({ $0.int() }), let imageLocation = r.location(sameAs: sourcePath, at: pathRange)
                else { return nil }
                return ItemImage(src: src, alt: alt, width: width, height: height, location: imageLocation)
            }),
            let link = optional({ $0.string() }), let type = string(), let tags = strings(),
            let lang = optional({ $0.string() }), let params = pairs(), let html = text(), let hasBody = bool(),
            let fileName = string(), let frontMatter = frontMatter(), let linkCount = int(), linkCount >= 0, linkCount <= end - offset
        else { return nil }
        var links: [MarkdownLink] = []
        links.reserveCapacity(linkCount)
        for _ in 0..<linkCount {
            guard let target = string(), let fragment = optional({ $0.string() }),
                let linkLocation = location(sameAs: sourcePath, at: pathRange),
                let destination = string()
            else { return nil }
            links.append(MarkdownLink(target: target, fragment: fragment, location: linkLocation, destination: destination))
        }
        var item = Item(
            id: id, sourcePath: sourcePath, location: itemLocation, title: title, description: description, date: date,
            publishDate: publishDate, expiryDate: expiryDate, draft: draft, weight: weight, image: image, link: link,
            type: type, tags: tags, lang: lang, params: params, hasBody: hasBody, fileName: fileName,
            frontMatter: YAMLNode(.mapping([]), line: 1, column: 1))
        item.markdownLinks = links
        item.setFrontMatter(frontMatter)
        item.setHTML(html)
        return item
    }
    mutating func diagnostics() -> [Diagnostic]? {
        guard let count = int(), count >= 0, count <= end - offset else { return nil }
        var list: [Diagnostic] = []
        for _ in 0..<count {
            guard let s = severity(), let location = location(), let message = string() else { return nil }
            list.append(Diagnostic(s, location, message))
        }
        return list
    }
    /// ``ByteWriter/severity(_:)``: nil for any other byte.
    mutating func severity() -> Severity? {
        guard let s = byte(), s <= 2 else { return nil }
        return s == 2 ? .error : s == 1 ? .warning : .note
    }
}
