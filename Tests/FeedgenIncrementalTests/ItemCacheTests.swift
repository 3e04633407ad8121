import FeedgenDiagnostics
import FeedgenStorage
import Foundation
import Synchronization
import Testing

@testable import FeedgenContent
@testable import FeedgenIncremental

/// The item cache (`items.log`) knows the fingerprint of the items it hands back and stores
/// (``ItemFingerprints``); it must be the one computing it from the item gives, and it must not
/// count for an item changed since.
@Suite final class ItemCacheTests {
    /// This test's folder (a new instance runs each test), removed when it ends.
    let folder = NSTemporaryDirectory() + "feedgen-item-cache-\(UUID().uuidString)"
    deinit { try? FileManager.default.removeItem(atPath: folder) }


    static func item() -> Item {
        var item = Item(
            id: "s/a", sourcePath: "content/s/a.md", location: SourceLocation(path: "content/s/a.md", line: 1, column: 1),
            title: "Grüße “smart”", description: "A card.", weight: 3, tags: ["x", "y"],
            html: "<p>Body — with <em>text</em>.</p>\n", hasBody: true, fileName: "a.md")
        item.markdownLinks = [MarkdownLink(destination: "b.md", directory: "content/s")!]
        return item
    }

    @Test func storedAndLoadedItemsKnowTheirFingerprint() throws {
        let path = folder + "/cache/items.log"
        let original = Self.item()
        let computed = ItemCache.fingerprint(original)

        let writer = ItemCache(path: path, salt: 42)
        #expect(writer.fingerprints.known(original) == nil)
        writer.store(7, item: original, diagnostics: [.warning(SourceLocation(path: "content/s/a.md"), "w")])
        #expect(writer.fingerprints.known(original) == computed)
        writer.save()

        let reader = ItemCache(path: path, salt: 42)
        let (loaded, diagnostics) = try #require(reader.lookup(7))
        #expect(loaded == original)
        #expect(diagnostics.map(\.message) == ["w"])
        #expect(reader.fingerprints.known(loaded) == computed)
        #expect(reader.fingerprints.known(original) == nil)  // equal, but not the item loaded
        #expect(reader.fingerprints.fingerprint(loaded) == computed)

        // A changed copy is not the item loaded; its fingerprint is computed from its fields.
        var changed = loaded
        changed.title = "Other"
        #expect(reader.fingerprints.known(changed) == nil)
        #expect(reader.fingerprints.fingerprint(changed) != computed)
        #expect(reader.fingerprints.known(loaded) == computed)  // the copy it came from keeps its own
        var same = loaded
        same.title = loaded.title
        #expect(reader.fingerprints.known(same) == nil)
        #expect(reader.fingerprints.fingerprint(same) == computed)
    }

    /// Both fingerprints are hashed from one encoding in pieces (the body where it is, zeros in
    /// place of the fields the one outside the body leaves out): they must equal the hash of the
    /// item's whole encoding, and of the encoding of a copy without description, body and links,
    /// which is what the build cache and the snapshot stored before.
    @Test func fingerprintsInPiecesAreTheirDefinitions() {
        var noDescription = Self.item()
        noDescription.description = nil
        var long = Self.item()
        long.html = String(repeating: "<p>Ünïcode body, long enough for the streaming hash.</p>\n", count: 200)
        var bare = Self.item()
        bare.html = ""
        bare.markdownLinks = []
        for item in [Self.item(), noDescription, long, bare] {
            var whole = ByteWriter()
            whole.item(item)
            var copy = item
            copy.html = ""
            copy.markdownLinks = []
            copy.description = nil
            var outside = ByteWriter()
            outside.item(copy)
            #expect(ItemCache.fingerprint(item) == StableHasher.hash(whole.bytes))
            #expect(ItemCache.fingerprintOutsideBody(item) == StableHasher.hash(outside.bytes))
            let both = ItemCache.fingerprints(item)
            #expect(both.whole == StableHasher.hash(whole.bytes))
            #expect(both.outside == StableHasher.hash(outside.bytes))
            // Remembered ones are the same.
            let remembered = ItemFingerprints()
            #expect(remembered.fingerprintOutsideBody(item) == StableHasher.hash(outside.bytes))
            #expect(remembered.fingerprint(item) == StableHasher.hash(whole.bytes))
        }
        // An edit of the body alone keeps the fingerprint outside it, not the whole one.
        #expect(ItemCache.fingerprintOutsideBody(long) == ItemCache.fingerprintOutsideBody(Self.item()))
        #expect(ItemCache.fingerprint(long) != ItemCache.fingerprint(Self.item()))
        #expect(ItemCache.fingerprintOutsideBody(noDescription) == ItemCache.fingerprintOutsideBody(Self.item()))
    }

    /// A cached item's front matter is left in the mapped log (its structure checked when the
    /// item is read) and decoded when first read: the same nodes, tags and positions as parsed;
    /// after changing it, its fingerprint is computed again.
    @Test func cachedFrontMatterIsTheParsedOne() throws {
        let path = folder + "/cache/items.log"
        let yaml = "title: Grüße\ntags: [a, b]\nparams:\n  n: !custom 3\n  deep: {x: [1, {y: z}]}\n"
        let parsed = try #require(YAMLParser.parse(yaml, path: "content/s/a.md").node)
        var original = Self.item()
        original.frontMatter = parsed
        let writer = ItemCache(path: path, salt: 42)
        writer.store(7, item: original, diagnostics: [])
        let computed = try #require(writer.fingerprints.known(original))
        writer.save()

        let reader = ItemCache(path: path, salt: 42)
        var (loaded, _) = try #require(reader.lookup(7))
        #expect(loaded.frontMatter == parsed)
        #expect(loaded.frontMatter["params"]?["n"]?.tag == parsed["params"]?["n"]?.tag)
        #expect(loaded.frontMatter["tags"]?.line == 2)
        #expect(loaded == original)
        #expect(ItemCache.fingerprint(loaded) == computed)
        #expect(reader.fingerprints.known(loaded) == computed)
        loaded.frontMatter = YAMLNode(.mapping([]), line: 1, column: 1)
        #expect(reader.fingerprints.known(loaded) == nil)
        #expect(reader.fingerprints.fingerprint(loaded) != computed)
    }

    /// A cached item's body is left in the mapped log until it is read (then decoded once); it
    /// outlives the cache that found it and a new log renamed over the file.
    @Test func cachedBodyIsDecodedWhenReadAndOutlivesTheLog() throws {
        let path = folder + "/cache/items.log"
        let writer = ItemCache(path: path, salt: 42)
        writer.store(7, item: Self.item(), diagnostics: [])
        writer.save()
        var loaded: Item?
        do {
            let reader = ItemCache(path: path, salt: 42)
            loaded = reader.lookup(7)?.0
        }
        let item = try #require(loaded)
        let replacing = ItemCache(path: path, salt: 43)
        replacing.store(8, item: Item(id: "s/b", sourcePath: "content/s/b.md", location: SourceLocation(path: "content/s/b.md"), title: "B"), diagnostics: [])
        replacing.save()
        #expect(ItemCache(path: path, salt: 42).lookup(7) == nil)
        let bodies = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in bodies.withLock { $0.append(item.html) } }
        #expect(bodies.withLock { $0 } == Array(repeating: "<p>Body — with <em>text</em>.</p>\n", count: 8))
        #expect(item == Self.item())
    }

    /// Another salt (another feedgen binary) or a log of the previous format is not read.
    @Test func foreignLogsAreEmpty() throws {
        let path = folder + "/cache/items.log"
        let writer = ItemCache(path: path, salt: 1)
        writer.store(7, item: Self.item(), diagnostics: [])
        writer.save()
        #expect(ItemCache(path: path, salt: 2).lookup(7) == nil)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[4] = 1  // format version 1
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(ItemCache(path: path, salt: 1).lookup(7) == nil)
    }
}
