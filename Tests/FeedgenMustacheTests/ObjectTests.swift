import Testing

@testable import FeedgenMustache

/// `MustacheObject` lookups: a linear search by fingerprint up to 16 keys, a hash index above.
@Suite("Objects")
struct ObjectTests {
    @Test func keysThatShareAFingerprintStillDiffer() {
        // Same length and first seven bytes: only the full comparison tells them apart.
        let object: MustacheObject = ["description": 1, "descriptioN": 2, "d": 3, "": 4, "dé": 5]
        #expect(MustacheObject.fingerprint("description") == MustacheObject.fingerprint("descriptioN"))
        #expect(object["description"]?.interpolationText == "1")
        #expect(object["descriptioN"]?.interpolationText == "2")
        #expect(object["d"]?.interpolationText == "3")
        #expect(object[""]?.interpolationText == "4")
        #expect(object["dé"]?.interpolationText == "5")
        #expect(object["descriptionX"] == nil)
        #expect(object["de"] == nil)
    }

    @Test func largeObjectsAreIndexedAndKeepTheirOrder() {
        var object = MustacheObject()
        for i in 0..<40 { object["key\(i)"] = .int(i) }
        #expect(object.count == 40)
        #expect((0..<40).allSatisfy { object["key\($0)"]?.interpolationText == String($0) })
        object["key3"] = nil
        object["key39"] = "last"
        object["new"] = true
        #expect(object["key3"] == nil)
        #expect(object["key4"]?.interpolationText == "4")
        #expect(object["key39"]?.interpolationText == "last")
        #expect(object.keys.prefix(4) == ["key0", "key1", "key2", "key4"])
        #expect(object.keys.last == "new")
        // Shrinking below the limit drops the index; lookups still work.
        for i in 0..<40 where i != 7 { object["key\(i)"] = nil }
        #expect(object.keys == ["key7", "new"])
        #expect(object["key7"]?.interpolationText == "7")
        #expect(object["new"]?.interpolationText == "true")
    }

    @Test func dottedNamesThroughSmallAndLargeObjects() throws {
        var large = MustacheObject()
        for i in 0..<20 { large["k\(i)"] = .int(i) }
        large["inner"] = ["title": "deep"]
        let template = try MustacheTemplate(source: "{{outer.inner.title}} {{outer.k19}} {{#outer}}{{k3}}{{/outer}}")
        #expect(try template.render(["outer": .object(large)]) == "deep 19 3")
    }
}
