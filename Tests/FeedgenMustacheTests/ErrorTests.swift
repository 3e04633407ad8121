import Testing

@testable import FeedgenMustache

/// Errors carry the exact message and the 1-based line:column of the offending tag.
@Suite("Errors")
struct ErrorTests {
    private func compileError(_ source: String, name: String = "page.mustache") -> MustacheError? {
        do {
            _ = try MustacheTemplate(source: source, name: name)
            return nil
        } catch {
            return error
        }
    }

    private func renderError(
        _ source: String, partials: [String: String] = [:], data: MustacheValue = [:], strict: Bool = false
    ) throws -> MustacheError? {
        let template = try MustacheTemplate(source: source, name: "page.mustache")
        do {
            _ = try template.render(data, partials: try DictionaryPartials(partials), strictPartials: strict)
            return nil
        } catch {
            return error
        }
    }

    /// Positions are counted on from the last one asked for on the same line (a line of many
    /// tags was quadratic); asked in any order they stay exact, in Unicode scalars.
    @Test func positionsOnALongLineInAnyOrder() throws {
        let line = String(repeating: "é{{x}}", count: 2_000)
        let source = SourceText(name: "t", text: "a\n" + line + "\n")
        let lineStart = 2
        // Each `é` is 2 bytes and 1 scalar; each `{{x}}` 5 bytes and 5 scalars.
        func offset(ofTag k: Int) -> Int { lineStart + k * 7 + 2 }
        func column(ofTag k: Int) -> Int { k * 6 + 2 }
        for k in [0, 1, 2, 1_999, 5, 1_000, 999, 1_000, 0] {
            #expect(source.position(of: offset(ofTag: k)) == Position(line: 2, column: column(ofTag: k)))
        }
        #expect(source.position(of: 1) == Position(line: 1, column: 2))
        #expect(source.position(of: offset(ofTag: 7)) == Position(line: 2, column: column(ofTag: 7)))
        // An error in the last of 20,000 tags on one line, at its exact column.
        let error = try #require(compileError(String(repeating: "{{a}}", count: 20_000) + "{{/b}}"))
        #expect("\(error)".contains("1:100001"))
    }

    @Test func unclosedSection() throws {
        let error = try #require(compileError("<ul>\n  {{#items}}\n  <li>{{name}}</li>\n</ul>\n"))
        #expect(error.kind == .unclosedSection)
        #expect(error.message == "unclosed section 'items'")
        #expect((error.line, error.column) == (2, 3))
        #expect(error.description == "page.mustache:2:3: error: unclosed section 'items'")
    }

    @Test func unclosedInvertedSectionParentAndBlock() throws {
        #expect(compileError("{{^empty}}")?.message == "unclosed inverted section 'empty'")
        #expect(compileError("{{<layout}}")?.message == "unclosed parent 'layout'")
        #expect(compileError("{{<*layout}}")?.message == "unclosed parent '*layout'")
        #expect(compileError("{{$body}}")?.message == "unclosed block 'body'")
    }

    @Test func innermostUnclosedSectionIsReported() throws {
        let error = try #require(compileError("{{#a}}\n{{#b}}\n"))
        #expect(error.message == "unclosed section 'b'")
        #expect((error.line, error.column) == (2, 1))
    }

    @Test func mismatchedClosingTag() throws {
        let error = try #require(compileError("{{#people}}\n  {{name}}\n{{/persons}}\n"))
        #expect(error.kind == .mismatchedClosingTag)
        #expect(error.message == "closing tag 'persons' does not match 'people' opened at 1:1")
        #expect((error.line, error.column) == (3, 1))
    }

    @Test func closingTagWithoutSection() throws {
        let error = try #require(compileError("text {{/done}}"))
        #expect(error.kind == .unexpectedClosingTag)
        #expect(error.message == "closing tag 'done' does not close any open section")
        #expect((error.line, error.column) == (1, 6))
    }

    @Test func badDelimiters() throws {
        let one = try #require(compileError("x\n  {{=a=}}"))
        #expect(one.kind == .invalidDelimiters)
        #expect(one.message == "invalid delimiters 'a': expected two delimiters separated by whitespace, as in {{=<% %>=}}")
        #expect((one.line, one.column) == (2, 3))

        let three = try #require(compileError("{{=<% %> |=}}"))
        #expect(three.message == "invalid delimiters '<% %> |': expected two delimiters separated by whitespace, as in {{=<% %>=}}")

        let unterminated = try #require(compileError("ab {{=<% %>}}"))
        #expect(unterminated.kind == .invalidDelimiters)
        #expect(unterminated.message == "unclosed set-delimiter tag: expected '=}}'")
        #expect((unterminated.line, unterminated.column) == (1, 4))
    }

    @Test func badDelimitersAfterADelimiterChange() throws {
        let error = try #require(compileError("{{=<% %>=}}\n<%= x =%>"))
        #expect(error.message.hasPrefix("invalid delimiters 'x'"))
        #expect((error.line, error.column) == (2, 1))
    }

    @Test func unclosedTag() throws {
        let error = try #require(compileError("Hello, {{name!\n"))
        #expect(error.kind == .unclosedTag)
        #expect(error.message == "unclosed tag: expected '}}'")
        #expect((error.line, error.column) == (1, 8))
        #expect(compileError("{{{name}}")?.message == "unclosed tag: expected '}}}'")
        #expect(compileError("{{=<% %>=}}<%name")?.message == "unclosed tag: expected '%>'")
    }

    @Test func emptyTag() throws {
        let error = try #require(compileError("a {{ }} b"))
        #expect(error.kind == .emptyTag)
        #expect(error.message == "empty tag: expected a name")
        #expect((error.line, error.column) == (1, 3))
        #expect(compileError("{{#}}{{/}}")?.kind == .emptyTag)
        #expect(compileError("{{>*}}")?.kind == .emptyTag)
    }

    @Test func columnsCountUnicodeScalars() throws {
        let error = try #require(compileError("été – {{#x}}"))
        #expect((error.line, error.column) == (1, 7))
    }

    @Test func unknownPartialInStrictMode() throws {
        let error = try #require(try renderError("<p>\n  {{> footer }}\n", strict: true))
        #expect(error.kind == .unknownPartial)
        #expect(error.message == "unknown partial 'footer'")
        #expect((error.line, error.column) == (2, 3))
        #expect(error.description == "page.mustache:2:3: error: unknown partial 'footer'")
    }

    @Test func unknownPartialRendersNothingByDefault() throws {
        #expect(try renderError("<p>{{>footer}}</p>") == nil)
        let template = try MustacheTemplate(source: "<p>{{>footer}}{{<layout}}{{/layout}}</p>")
        #expect(try template.render([:]) == "<p></p>")
    }

    @Test func unknownParentAndDynamicNamesInStrictMode() throws {
        let parent = try #require(try renderError("{{<layout}}{{$a}}x{{/a}}{{/layout}}", strict: true))
        #expect(parent.message == "unknown partial 'layout'")
        #expect((parent.line, parent.column) == (1, 1))

        let dynamic = try #require(try renderError("{{>*kind}}", data: ["kind": "card"], strict: true))
        #expect(dynamic.message == "unknown partial 'card'")

        let unresolved = try #require(try renderError("x{{>*kind}}", strict: true))
        #expect(unresolved.message == "dynamic name '*kind' does not resolve to a partial name")
        #expect((unresolved.line, unresolved.column) == (1, 2))
    }

    @Test func errorInsidePartialNamesThePartial() throws {
        let error = try #require(try renderError(
            "{{>card}}", partials: ["card": "<div>\n{{>missing}}</div>"], strict: true))
        #expect(error.description == "card:2:1: error: unknown partial 'missing'")
    }

    @Test func partialRecursionBound() throws {
        let error = try #require(try renderError("{{>self}}", partials: ["self": "x\n {{>self}}"]))
        #expect(error.kind == .recursionLimit)
        #expect(error.message == "partial recursion deeper than 100")
        #expect(error.templateName == "self")
        #expect((error.line, error.column) == (2, 2))
    }

    /// Found by fuzzing (Fuzz/FuzzMustache): an override holding a block of its own name used to
    /// recurse until the stack overflowed.
    @Test func selfFillingBlockIsBounded() throws {
        let error = try #require(try renderError(
            "{{<q}}{{$b}}[{{$b}}y{{/b}}]{{/b}}{{/q}}", partials: ["q": "{{$b}}x{{/b}}"]))
        #expect(error.kind == .recursionLimit)
        #expect(error.message == "block recursion deeper than 100")
        #expect((error.line, error.column) == (1, 7))
    }

    @Test func recursionOneHundredDeepIsAllowed() throws {
        // A tree 99 levels deep renders the partial 100 times in a nest: still fine.
        var tree: MustacheValue = ["nodes": []]
        for _ in 0..<99 { tree = ["nodes": [tree]] }
        let template = try MustacheTemplate(source: "{{>node}}")
        let partials = try DictionaryPartials(["node": "<{{#nodes}}{{>node}}{{/nodes}}>"])
        let output = try template.render(tree, partials: partials)
        #expect(output == String(repeating: "<", count: 100) + String(repeating: ">", count: 100))
        tree = ["nodes": [tree]]
        #expect(throws: MustacheError.self) { try template.render(tree, partials: partials) }
    }

    /// 100,000 nested sections overflowed the stack (SIGSEGV in the warnings walk), and nested
    /// sections on one line took n² time to find their positions.
    @Test(.timeLimit(.minutes(1))) func sectionNestingBound() throws {
        let allowed = String(repeating: "{{#a}}", count: 100) + "x" + String(repeating: "{{/a}}", count: 100)
        let template = try MustacheTemplate(source: allowed)
        #expect(try template.render(["a": true]) == "x")
        #expect(template.warnings().isEmpty)
        let error = try #require(compileError(String(repeating: "{{#a}}", count: 100_000) + String(repeating: "{{/a}}", count: 100_000)))
        #expect(error.kind == .nestingLimit)
        #expect(error.description == "page.mustache:1:601: error: sections nested deeper than 100 levels")
        #expect(compileError(String(repeating: "{{^a}}\n", count: 50) + String(repeating: "{{$b}}\n", count: 51))?.description
            == "page.mustache:101:1: error: sections nested deeper than 100 levels")
        // Positions of deeply nested sections on one line stay exact, found in linear time.
        let line = String(repeating: "{{#a}}", count: 99) + "{{#b}}" + String(repeating: "{{/a}}", count: 99)
        #expect(compileError(line)?.description == "page.mustache:1:601: error: closing tag 'a' does not match 'b' opened at 1:595")
    }

    /// A partial that includes itself inside 40 sections, 100 times, overflowed the stack.
    @Test func sectionsThroughPartialsAreBounded() throws {
        let nest = String(repeating: "{{#a}}", count: 40) + "{{>p}}" + String(repeating: "{{/a}}", count: 40)
        let error = try #require(try renderError("{{>p}}", partials: ["p": nest], data: ["a": true]))
        #expect(error.description == "p:1:1: error: sections nested deeper than 1000 levels through partials")
    }

    @Test func parentRecursionBound() throws {
        let error = try #require(try renderError("{{<self}}{{/self}}", partials: ["self": "{{<self}}{{/self}}"]))
        #expect(error.message == "partial recursion deeper than 100")
    }

    @Test func lambdaErrors() throws {
        struct Boom: Error, CustomStringConvertible { var description: String { "boom" } }
        let failing = MustacheLambda { _ in throw Boom() }
        let error = try #require(try renderError("\n {{#wrap}}x{{/wrap}}", data: ["wrap": .lambda(failing)]))
        #expect(error.kind == .lambdaFailed)
        #expect(error.message == "lambda 'wrap' failed: boom")
        #expect((error.line, error.column) == (2, 2))

        let invalid = MustacheLambda.interpolation { "{{#open}}" }
        let bad = try #require(try renderError("{{value}}", data: ["value": .lambda(invalid)]))
        #expect(bad.message == "lambda 'value' returned an invalid template: unclosed section 'open' (at 1:1 of its result)")

        let selfRendering = MustacheLambda.interpolation { "{{again}}" }
        let deep = try #require(try renderError("{{again}}", data: ["again": .lambda(selfRendering)]))
        #expect(deep.message == "lambda recursion deeper than 100")
    }

    @Test func invalidJSON() throws {
        do {
            _ = try MustacheValue(json: "{\n  \"a\": [1, 2,]\n}", name: "site.json")
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .invalidJSON)
            #expect(error.description == "site.json:2:14: error: unexpected character ']', expected a value")
        }
        #expect(throws: MustacheError.self) { try MustacheValue(json: "\"\\x\"") }
        #expect(throws: MustacheError.self) { try MustacheValue(json: "[1] 2") }
        #expect(throws: MustacheError.self) { try MustacheValue(json: "01") }
        #expect(throws: MustacheError.self) { try MustacheValue(json: "\"\\ud800\"") }
    }

    /// A key repeated in one object is an error at the repeat (no value silently dropped); the
    /// same key in two objects is not; NFC and NFD spellings of one text are one key.
    @Test func duplicateJSONKeys() throws {
        func message(_ json: String) -> String? {
            do {
                _ = try MustacheValue(json: json, name: "data.json")
                return nil
            } catch {
                return error.description
            }
        }
        #expect(
            message("{\n  \"title\": \"A\",\n  \"title\": \"B\"\n}")
                == "data.json:3:3: error: duplicate key 'title' in an object (first at line 2, column 3); keep one of them")
        #expect(
            message("{\"caf\u{E9}\": 1, \"cafe\u{301}\": 2}")
                == "data.json:1:13: error: duplicate key 'cafe\u{301}' (spelled in another Unicode normalization form) in an object (first at line 1, column 2); keep one of them")
        #expect(message("[{\"a\": 1}, {\"a\": 2}, {\"b\": {\"a\": 3}, \"a\": 4}]") == nil)
        // Past the linear-search size of an object, too.
        let many = (0..<40).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        #expect(message("{\(many), \"k7\": 0}") == "data.json:1:422: error: duplicate key 'k7' in an object (first at line 1, column 65); keep one of them")
    }
}
