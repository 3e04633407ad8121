import FeedgenDiagnostics
import Testing

@testable import FeedgenContent

/// Parses `text` and returns the node and the diagnostics as printed.
private func parse(_ text: String, firstLine: Int = 1) -> (YAMLNode?, [String]) {
    let (node, diagnostics) = YAMLParser.parse(text, path: "a.yaml", firstLine: firstLine)
    return (node, diagnostics.map(\.description))
}

@Suite struct YAMLParserTests {
    @Test func scalarsKeepSourceTextAndPositions() throws {
        let (node, errors) = parse("title: Hello\nversion: 1.10\nquoted: \"3\"\n", firstLine: 2)
        #expect(errors == [])
        let root = try #require(node)
        #expect(root.line == 2 && root.column == 1)
        #expect(root["title"]?.string == "Hello")
        #expect(root["version"]?.string == "1.10")
        #expect(root["version"]?.double == 1.1)
        #expect(root["version"]?.line == 3)
        #expect(root["version"]?.column == 10)
        #expect(root["quoted"]?.string == "3")
        #expect(root["quoted"]?.isPlain == false)
        #expect(root["quoted"]?.int == nil)
        #expect(root["missing"] == nil)
        #expect(root.pairs?.map { $0.key.string } == ["title", "version", "quoted"])
    }

    @Test func coreSchemaBooleansOnly() throws {
        let text = """
            a: true
            b: False
            c: TRUE
            d: yes
            e: on
            f: "true"
            g: tRuE
            h: !!bool false
            """
        let root = try #require(parse(text).0)
        #expect(root["a"]?.bool == true)
        #expect(root["b"]?.bool == false)
        #expect(root["c"]?.bool == true)
        #expect(root["d"]?.bool == nil)
        #expect(root["d"]?.string == "yes")
        #expect(root["e"]?.bool == nil)
        #expect(root["f"]?.bool == nil)
        #expect(root["g"]?.bool == nil)
        #expect(root["h"]?.bool == false)
        #expect(root["h"]?.tag == "tag:yaml.org,2002:bool")
    }

    @Test func integersFloatsAndNulls() throws {
        let text = """
            i: 42
            n: -7
            p: +3
            o: 0o17
            x: 0x1F
            bad: 0x-1
            f: 2.5e3
            dot: .5
            inf: -.inf
            s: 12abc
            n1: ~
            n2: null
            n3: NULL
            n4:
            n5: "null"
            v: 1.10
            """
        let root = try #require(parse(text).0)
        #expect(root["i"]?.int == 42)
        #expect(root["n"]?.int == -7)
        #expect(root["p"]?.int == 3)
        #expect(root["o"]?.int == 15)
        #expect(root["x"]?.int == 31)
        #expect(root["bad"]?.int == nil)
        #expect(root["f"]?.int == nil)
        #expect(root["f"]?.double == 2500)
        #expect(root["dot"]?.double == 0.5)
        #expect(root["inf"]?.double == -.infinity)
        #expect(root["i"]?.double == 42)
        #expect(root["s"]?.int == nil)
        #expect(root["s"]?.double == nil)
        for key in ["n1", "n2", "n3", "n4"] { #expect(root[key]?.isNull == true, "\(key)") }
        #expect(root["n5"]?.isNull == false)
        #expect(root["v"]?.int == nil)
        #expect(root["v"]?.string == "1.10")
        // Int's whole range: the smallest was "must be an integer" (its magnitude overflowed).
        let extremes = try #require(parse("lo: -9223372036854775808\nhi: 9223372036854775807\nover: 9223372036854775808\n").0)
        #expect(extremes["lo"]?.int == Int.min)
        #expect(extremes["hi"]?.int == Int.max)
        #expect(extremes["over"]?.int == nil)
    }

    @Test func sequencesAndNestedMappings() throws {
        let text = """
            tags: [a, b]
            items:
              - title: One
                weight: 1
              - title: Two
            """
        let root = try #require(parse(text, firstLine: 2).0)
        #expect(root["tags"]?.elements?.map(\.string) == ["a", "b"])
        let items = try #require(root["items"]?.elements)
        #expect(items.count == 2)
        #expect(items[0].line == 4 && items[0].column == 5)
        #expect(items[0]["weight"]?.int == 1)
        #expect(items[1]["title"]?.string == "Two")
        #expect(items[1].line == 6)
    }

    @Test func syntaxErrorAtProblemMarkWithLineOffset() {
        let (node, errors) = parse("title: a\nbad: b: c\n", firstLine: 2)
        #expect(node == nil)
        #expect(errors == ["a.yaml:3:7: error: YAML: mapping values are not allowed in this context"])
    }

    @Test func columnsCountUnicodeScalars() {
        let (_, errors) = parse("é€😀: a\nb: ü😀x: 1\n")
        #expect(errors == ["a.yaml:2:7: error: YAML: mapping values are not allowed in this context"])
    }

    @Test func tabIndentationHasAClearMessage() {
        #expect(
            parse("a:\n\tb: 2\n", firstLine: 2).1 == [
                "a.yaml:3:1: error: tabs are not allowed in YAML indentation; use spaces"
            ])
        #expect(
            parse("a: 1\n\tb: 2\n").1 == ["a.yaml:2:1: error: tabs are not allowed in YAML indentation; use spaces"])
        #expect(
            parse("a:\n  b: 1\n  \tc: 2\n").1 == [
                "a.yaml:3:3: error: tabs are not allowed in YAML indentation; use spaces"
            ])
    }

    @Test func tabsInsideValuesAreFine() throws {
        let (node, errors) = parse("a: \"x\\ty\"\nb: 'p\tq'\n")
        #expect(errors == [])
        #expect(node?["a"]?.string == "x\ty")
        #expect(node?["b"]?.string == "p\tq")
    }

    @Test func duplicateKeysNameBothLines() throws {
        let (node, errors) = parse("title: A\nweight: 1\ntitle: B\n", firstLine: 2)
        #expect(errors == ["a.yaml:4:1: error: duplicate key 'title' (first defined at line 2)"])
        // The node is still usable: the first value is kept.
        #expect(node?["title"]?.string == "A")
        #expect(node?.pairs?.count == 2)
    }

    /// A merge key (YAML 1.1's `<<`, which Hugo's YAML library applies) is not merged under the
    /// 1.2 core schema: it was kept as a key named "<<" (a param), so `<<: *base` dropped its
    /// title and weight without a word. A quoted "<<" is an ordinary key.
    @Test func mergeKeysAreAnError() {
        let (node, errors) = parse("base: &b {title: T}\n<<: *b\nx: {<<: *b}\n'<<': literal\n")
        #expect(
            errors == [
                "a.yaml:2:1: error: YAML merge keys ('<<') are not supported: they belong to YAML 1.1, and feedgen reads YAML 1.2; write the merged keys out in this mapping",
                "a.yaml:3:5: error: YAML merge keys ('<<') are not supported: they belong to YAML 1.1, and feedgen reads YAML 1.2; write the merged keys out in this mapping",
            ])
        #expect(node?["<<"]?.string == "literal")
    }

    @Test func controlCharactersFromEscapesAreAnError() {
        let (_, errors) = parse("a: \"x\\x01y\"\nb: [\"\\0\", \"tab\\tand\\nnewline\"]\nc: \"\\e\"\n")
        #expect(
            errors == [
                "a.yaml:1:4: error: YAML: this string has the control character U+0001 (from an escape); remove it",
                "a.yaml:2:5: error: YAML: this string has the control character U+0000 (from an escape); remove it",
                "a.yaml:3:4: error: YAML: this string has the control character U+001B (from an escape); remove it",
            ])
    }

    @Test func duplicateKeysInNestedMappings() {
        let (_, errors) = parse("a:\n  x: 1\n  x: 2\nb: {y: 1, y: 2}\n")
        #expect(
            errors == [
                "a.yaml:3:3: error: duplicate key 'x' (first defined at line 2)",
                "a.yaml:4:11: error: duplicate key 'y' (first defined at line 4)",
            ])
    }

    @Test func duplicateKeysInLargeMappings() {
        var text = ""
        for k in 1...20 { text += "k\(k): \(k)\n" }
        text += "k3: again\nk18: again\nk21: new\nk21: twice\n"
        let (node, errors) = parse(text)
        #expect(
            errors == [
                "a.yaml:21:1: error: duplicate key 'k3' (first defined at line 3)",
                "a.yaml:22:1: error: duplicate key 'k18' (first defined at line 18)",
                "a.yaml:24:1: error: duplicate key 'k21' (first defined at line 23)",
            ])
        #expect(node?.pairs?.count == 21)
        #expect(node?["k3"]?.int == 3)
    }

    @Test func aliasesCopyTheAnchoredNode() throws {
        let text = """
            base: &b
              width: 10
              tags: [x]
            copy: *b
            name: &n Ann
            again: *n
            """
        let (node, errors) = parse(text)
        #expect(errors == [])
        let root = try #require(node)
        #expect(root["copy"]?["width"]?.int == 10)
        #expect(root["copy"]?["tags"]?.elements?.first?.string == "x")
        #expect(root["copy"]?.line == 4 && root["copy"]?.column == 7)
        #expect(root["again"]?.string == "Ann")
    }

    /// `<<` (YAML 1.1's merge key) would be read as an ordinary key named `<<`: an error at the
    /// key, its value dropped; a quoted `"<<"` is an ordinary key.
    @Test func mergeKeysInNestedMappingsAreAnError() throws {
        let (node, errors) = parse("base: &b {width: 10}\ncard:\n  <<: *b\n  title: T\n\"<<\": quoted\n")
        #expect(
            errors == [
                "a.yaml:3:3: error: YAML merge keys ('<<') are not supported: they belong to YAML 1.1, and feedgen reads YAML 1.2; write the merged keys out in this mapping"
            ])
        let card = try #require(node?["card"])
        #expect(card.pairs?.map { $0.key.string } == ["title"])
        #expect(node?["<<"]?.string == "quoted")
    }

    /// Core-schema tags type a scalar; others are a warning, and a scalar carrying one is text.
    @Test func tagsOutsideTheCoreSchemaAreAWarning() throws {
        let (node, warnings) = parse("a: !!int \"7\"\nb: !!str 7\nc: ! 8\nd: !!binary aGk=\ne: !point {x: 1}\nf: !custom 9\n")
        #expect(
            warnings == [
                "a.yaml:4:4: warning: YAML tag '!!binary' is not one feedgen reads (it reads the core tags !!str, !!int, !!float, !!bool, !!null, !!seq and !!map); the value is read as text",
                "a.yaml:5:4: warning: YAML tag '!point' is not one feedgen reads (it reads the core tags !!str, !!int, !!float, !!bool, !!null, !!seq and !!map); the tag is ignored",
                "a.yaml:6:4: warning: YAML tag '!custom' is not one feedgen reads (it reads the core tags !!str, !!int, !!float, !!bool, !!null, !!seq and !!map); the value is read as text",
            ])
        let root = try #require(node)
        #expect(root["a"]?.int == 7)
        #expect(root["b"]?.int == nil && root["b"]?.string == "7")
        #expect(root["c"]?.int == nil)
        #expect(root["e"]?["x"]?.int == 1)
        #expect(root["f"]?.int == nil && root["f"]?.string == "9")
    }

    /// A tag on a key says so: it is the key that is read as text, not the value. (Found in
    /// review: '!custom k: v' said "the value is read as text".) Aliases repeat no warning.
    @Test func aTagOnAKeyNamesTheKey() throws {
        let (node, warnings) = parse("!custom k: v\nm: &m {!!binary b: !!binary c}\nn: *m\n")
        let rest = "is not one feedgen reads (it reads the core tags !!str, !!int, !!float, !!bool, !!null, !!seq and !!map)"
        #expect(
            warnings == [
                "a.yaml:1:1: warning: YAML tag '!custom' \(rest); the key is read as text",
                "a.yaml:2:8: warning: YAML tag '!!binary' \(rest); the key is read as text",
                "a.yaml:2:20: warning: YAML tag '!!binary' \(rest); the value is read as text",
            ])
        #expect(try #require(node)["k"]?.string == "v")
    }

    @Test func undefinedAlias() {
        #expect(
            parse("a: *nope\n").1 == ["a.yaml:1:4: error: YAML: alias '*nope' refers to no anchor defined before it"])
    }

    @Test func aliasBombIsBounded() {
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 {
            let refs = Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
            text += "a\(level): &a\(level) [\(refs)]\n"
        }
        let (node, errors) = parse(text)
        #expect(node == nil)
        #expect(errors.count == 1)
        #expect(errors.first?.hasSuffix("error: YAML alias expansion exceeds 100000 nodes") == true)
        #expect(errors.first == "a.yaml:5:45: error: YAML alias expansion exceeds 100000 nodes", "\(errors)")
    }

    @Test func nestingDepthIsBounded() {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(parse(deep).1 == ["a.yaml:1:257: error: YAML nesting exceeds 256 levels"])
        let ok = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
        #expect(parse(ok).1 == [])
    }

    @Test func multipleDocumentsAreAnError() {
        #expect(
            parse("a: 1\n---\nb: 2\n").1 == [
                "a.yaml:2:1: error: YAML: only one document is allowed; remove the second '---'"
            ])
    }

    @Test func emptyAndCommentOnlyTextHasNoNode() {
        #expect(parse("").0 == nil)
        #expect(parse("# only a comment\n").0 == nil)
        #expect(parse("# only a comment\n").1 == [])
    }

    @Test func controlCharacterIsAReaderError() {
        #expect(
            parse("a: b\nc: \u{7}\n", firstLine: 2).1 == ["a.yaml:3:4: error: YAML: control characters are not allowed"]
        )
    }
}
