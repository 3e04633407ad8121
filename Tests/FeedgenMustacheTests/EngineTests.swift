import Synchronization
import Testing

@testable import FeedgenMustache

private func render(
    _ source: String, _ data: MustacheValue = [:], partials: [String: String] = [:]
) throws -> String {
    try MustacheTemplate(source: source, name: "test").render(data, partials: try DictionaryPartials(partials))
}

/// Behaviour the spec leaves open, pinned down here.
@Suite("Engine")
struct EngineTests {
    // MARK: Indentation

    @Test func standalonePartialIndentationComposes() throws {
        let output = try render("  {{>a}}\n", partials: ["a": "x\n  {{>b}}\n", "b": "y\nz\n"])
        #expect(output == "  x\n    y\n    z\n")
    }

    @Test func inlinePartialInsideIndentedPartialIsNotIndented() throws {
        // As if the indentation were prepended to the partial's source: `{{>b}}` is inline there.
        let output = try render("  {{>a}}\n", partials: ["a": "x {{>b}}\n", "b": "y\nz"])
        #expect(output == "  x y\nz\n")
    }

    @Test func emptyLinesAreNotIndented() throws {
        let output = try render("  {{>a}}\n", partials: ["a": "x\n\ny\n \n"])
        #expect(output == "  x\n\n  y\n   \n")
    }

    @Test func sectionLinesInIndentedPartial() throws {
        let output = try render(
            "<ul>\n  {{>items}}\n</ul>\n", ["items": [1, 2]],
            partials: ["items": "{{#items}}\n<li>{{.}}</li>\n{{/items}}\n"])
        #expect(output == "<ul>\n  <li>1</li>\n  <li>2</li>\n</ul>\n")
    }

    @Test func interpolatedTextIsNeverIndented() throws {
        let output = try render("  {{>a}}\n", ["text": "1\n2"], partials: ["a": "{{text}}\n"])
        #expect(output == "  1\n2\n")
    }

    @Test func standaloneParentWithBlocks() throws {
        let output = try render(
            "<body>\n  {{<card}}\n  {{$title}}Hi{{/title}}\n  {{/card}}\n</body>\n",
            partials: ["card": "<div>\n  <h2>{{$title}}{{/title}}</h2>\n</div>\n"])
        #expect(output == "<body>\n  <div>\n    <h2>Hi</h2>\n  </div>\n</body>\n")
    }

    @Test func layoutWithBlockOnItsOwnLines() throws {
        let layout = "<html>\n  <body>\n    {{$content}}\n    {{/content}}\n  </body>\n</html>\n"
        let page = "{{<layout}}\n{{$content}}\n<p>{{a}}</p>\n<p>b</p>\n{{/content}}\n{{/layout}}\n"
        let output = try render(page, ["a": "A"], partials: ["layout": layout])
        #expect(output == "<html>\n  <body>\n    <p>A</p>\n    <p>b</p>\n  </body>\n</html>\n")
    }

    @Test func emptyBlockSlotOnItsLineKeepsTheLineBreak() throws {
        // `~inheritance.json` "Standalone block": the slot line's break is kept, so content that
        // ends with its own line break is followed by an empty line.
        let layout = "<main>\n  {{$content}}{{/content}}\n</main>\n"
        #expect(try render("{{<layout}}{{$content}}x{{/content}}{{/layout}}", partials: ["layout": layout])
            == "<main>\n  x\n</main>\n")
        #expect(try render("{{<layout}}{{$content}}\nx\n{{/content}}{{/layout}}", partials: ["layout": layout])
            == "<main>\n  x\n\n</main>\n")
    }

    @Test func dynamicParent() throws {
        let output = try render(
            "{{<*layout}}{{$title}}T{{/title}}{{/*layout}}", ["layout": "page"],
            partials: ["page": "<h1>{{$title}}{{/title}}</h1>"])
        #expect(output == "<h1>T</h1>")
    }

    // MARK: Values

    @Test func truthiness() throws {
        let template = "{{#v}}yes{{/v}}{{^v}}no{{/v}}"
        let cases: [(MustacheValue, String)] = [
            (false, "no"), (nil, "no"), ([], "no"), (true, "yes"), ("", "yes"), (0, "yes"),
            ("0", "yes"), ([:], "yes"), ([false], "yes"),
        ]
        for (value, expected) in cases {
            #expect(try render(template, ["v": value]) == expected, "\(value)")
        }
    }

    @Test func interpolationOfEachKind() throws {
        let data: MustacheValue = [
            "t": true, "f": false, "n": nil, "list": [1, 2], "object": ["a": 1], "d": 2.50, "i": -3,
        ]
        #expect(try render("{{t}}|{{f}}|{{n}}|{{list}}|{{object}}|{{d}}|{{i}}", data) == "true|false||||2.5|-3")
    }

    @Test func escaping() throws {
        #expect(try render("{{v}}", ["v": "<a href='x'>&\"</a>"]) == "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;")
        #expect(try render("{{v}}", ["v": "héllo – ✓"]) == "héllo – ✓")
    }

    @Test func objectKeepsOrder() {
        var object: MustacheObject = ["b": 1, "a": 2, "c": 3]
        object["a"] = 4
        object["d"] = 5
        object["b"] = nil
        #expect(object.keys == ["a", "c", "d"])
        #expect(object["a"].map { $0.interpolationText } == "4")
        #expect(object["d"].map { $0.interpolationText } == "5")
        #expect(object["b"] == nil)
    }

    /// A key written in NFD finds a value stored in NFC and the reverse (Swift `String`
    /// equality), in small objects (compared in order) as in large ones (hashed); other
    /// non-ASCII keys stay apart.
    @Test func keysCompareAsTextInEveryObjectSize() throws {
        for size in [1, 3, 40] {
            var object = MustacheObject()
            for k in 0..<(size - 1) { object["k\(k)"] = .int(k) }
            object["caf\u{E9}"] = "nfc"
            #expect(object["cafe\u{301}"]?.interpolationText == "nfc", "\(size) keys")
            #expect(object["caf\u{E8}"] == nil, "\(size) keys")
            #expect(object["cafe"] == nil, "\(size) keys")
            let template = try MustacheTemplate(source: "{{cafe\u{301}}}|{{caf\u{E9}}}")
            #expect(try template.render(.object(object)) == "nfc|nfc", "\(size) keys")
        }
    }

    /// Three characters are canonically equivalent to an ASCII one (KELVIN SIGN U+212A to 'K',
    /// GREEK QUESTION MARK U+037E to ';', GREEK VARIA U+1FEF to '`'), so an ASCII key and a
    /// non-ASCII key can be one key; a small object found them only when hashed (over 16 keys).
    @Test func asciiKeysMatchTheirCanonicalTwinsInEveryObjectSize() throws {
        for size in [1, 3, 40] {
            var object = MustacheObject()
            for k in 0..<(size - 1) { object["k\(k)"] = .int(k) }
            object["\u{212A}elvin"] = "kelvin"
            object["a;b"] = "semicolon"
            #expect(object["Kelvin"]?.interpolationText == "kelvin", "\(size) keys")
            #expect(object["a\u{37E}b"]?.interpolationText == "semicolon", "\(size) keys")
            #expect(object["kelvin"] == nil, "\(size) keys")
            let template = try MustacheTemplate(source: "{{Kelvin}}|{{a\u{37E}b}}")
            #expect(try template.render(.object(object)) == "kelvin|semicolon", "\(size) keys")
            object["Kelvin"] = "replaced"
            #expect(object.count == size + 1, "\(size) keys: one key, not two")
        }
    }

    /// ``MustacheObject/asciiTwins`` lists every character Swift's `String` equality takes for
    /// an ASCII one (in the standard library's Unicode version).
    @Test func theAsciiTwinsAreAllOfThem() {
        let ascii = Set((0..<128).map { String(UnicodeScalar(UInt8($0))) })
        var twins: [UInt32: UInt8] = [:]
        for value in UInt32(0x80)...0x10FFFF {
            guard let scalar = UnicodeScalar(value), ascii.contains(String(scalar)) else { continue }
            twins[value] = ascii.first { $0 == String(scalar) }?.utf8.first
        }
        #expect(twins == MustacheObject.asciiTwins)
    }

    @Test func jsonNumbersAndStrings() throws {
        let value = try MustacheValue(json: """
            {"z": 1.0, "a": 1.210, "e": 1e3, "neg": -0, "big": 12345678901234567890, "tiny": 1.5e-7,
             "s": "caf\\u00e9 \\ud83d\\ude00 \\"q\\" \\n"}
            """)
        guard case .object(let object) = value else {
            Issue.record("not an object")
            return
        }
        #expect(object.keys == ["z", "a", "e", "neg", "big", "tiny", "s"])
        let text = object.map { "\($0.key)=\($0.value.interpolationText)" }.joined(separator: ",")
        #expect(text == "z=1,a=1.21,e=1000,neg=0,big=12345678901234567890,tiny=1.5e-07,s=café 😀 \"q\" \n")
    }

    /// `.asWritten` keeps every number's source text, in lists and objects too; the same
    /// document read the default way is in shortest form (`1e400` overflows a Double: `inf`).
    @Test func jsonNumbersAsWritten() throws {
        let json = """
            {"i": 10, "d": 10.0, "z": 1.50, "neg": -0, "negd": -0.0, "e": 1e3, "E": 1E+3, "tiny": 2.5e-7, "huge": 1e400,
             "big": 12345678901234567890, "long": 123456789.123456789, "list": [0.10, -12.30e2], "o": {"p": 3.140}}
            """
        func text(_ value: MustacheValue) -> String {
            switch value {
            case .array(let items): "[" + items.map(text).joined(separator: " ") + "]"
            case .object(let object): "{" + object.map { "\($0.key)=\(text($0.value))" }.joined(separator: ",") + "}"
            default: value.interpolationText
            }
        }
        #expect(text(try MustacheValue(json: json, numbers: .asWritten)) == """
            {i=10,d=10.0,z=1.50,neg=-0,negd=-0.0,e=1e3,E=1E+3,tiny=2.5e-7,huge=1e400,big=12345678901234567890,\
            long=123456789.123456789,list=[0.10 -12.30e2],o={p=3.140}}
            """)
        #expect(text(try MustacheValue(json: json)) == """
            {i=10,d=10,z=1.5,neg=0,negd=0,e=1000,E=1000,tiny=2.5e-07,huge=inf,big=12345678901234567890,\
            long=123456789.12345679,list=[0.1 -1230],o={p=3.14}}
            """)
        // Invalid numbers are errors either way.
        for bad in ["01", "1.", "-", "1e", ".5", "+1"] {
            #expect(throws: MustacheError.self) { try MustacheValue(json: "[\(bad)]", numbers: .asWritten) }
        }
    }

    // MARK: Lambdas

    @Test func sectionLambdaTextExcludesStandaloneTagLines() throws {
        let seen = Mutex<[String]>([])
        let wrap = MustacheLambda.section { text in
            seen.withLock { $0.append(text) }
            return "<b>" + text + "</b>"
        }
        let output = try render("{{#wrap}}\n{{name}}\n{{/wrap}}\n", ["wrap": .lambda(wrap), "name": "N"])
        #expect(output == "<b>N\n</b>")
        #expect(seen.withLock { $0 } == ["{{name}}\n"])
    }

    @Test func interpolationLambdaUsesDefaultDelimitersAndEscapes() throws {
        // The result is rendered (escaping `{{a}}`), then escaped again as `{{l}}`'s value.
        let lambda = MustacheLambda.interpolation { "{{a}}{{{a}}}" }
        #expect(try render("{{=<% %>=}}<%l%>|<%&l%>", ["l": .lambda(lambda), "a": "<"]) == "&amp;lt;&lt;|&lt;<")
    }

    // MARK: Introspection

    @Test func variableNames() throws {
        let template = try MustacheTemplate(source: """
            {{title}} {{{raw}}} {{&amp}} {{! comment }}{{#items}}{{.}}{{name.first}}{{/items}}
            {{^empty}}{{/empty}}{{>static}}{{>*dynamic.name}}{{$block}}{{inBlock}}{{/block}}
            {{<parent}}{{$b}}{{override}}{{/b}}ignored {{notSeen}}{{/parent}}
            """)
        #expect(template.variableNames() == [
            "title", "raw", "amp", "items", "name.first", "empty", "dynamic.name", "inBlock", "override",
        ])
    }
}
