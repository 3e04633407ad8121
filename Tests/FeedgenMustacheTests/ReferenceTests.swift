import Testing

@testable import FeedgenMustache

/// `references()` and `warnings()`: what a template names, and where, without rendering it.
@Suite("References")
struct ReferenceTests {
    @Test func everyNamingTagWithItsSectionsAndPosition() throws {
        let template = try MustacheTemplate(source: """
            <h1>{{title}}</h1>{{{html}}}
            {{#image}}
              <img src="{{src}}">{{^alt}}{{missing}}{{/alt}}
            {{/image}}
            {{#a.b}}{{#c}}{{&d.e}}{{> card}}{{/c}}{{/a.b}}{{>*kind}}{{! comment }}
            """)
        #expect(template.references().map(\.description) == [
            "1:5 variable title", "1:19 unescapedVariable html",
            "2:1 section image", "3:13 variable src", "3:22 invertedSection alt", "3:30 variable missing",
            "5:1 section a.b", "5:9 section c", "5:15 unescapedVariable d.e", "5:23 partial card",
            "5:47 partial *kind",
        ])
        let sections = template.references().map(\.sections)
        #expect(sections == [[], [], [], ["image"], ["image"], ["image"], [], ["a.b"], ["a.b", "c"], ["a.b", "c"], []])
        #expect(template.references().filter(\.isContextLookup).map(\.name) == [
            "title", "html", "image", "src", "alt", "missing", "a.b", "c", "d.e", "kind",
        ])
    }

    @Test func parentsListOnlyTheirBlocks() throws {
        let template = try MustacheTemplate(source: """
            {{#page}}
            {{<base}}
            {{$content}}<p>{{text}}</p>{{/content}}
            {{ignored}}
            {{/base}}
            {{/page}}
            {{$slot}}default {{x}}{{/slot}}
            """)
        #expect(template.references().map(\.description) == [
            "1:1 section page", "2:1 parent base", "3:1 block content", "3:16 variable text", "7:1 block slot",
            "7:18 variable x",
        ])
        #expect(template.references()[3].sections == ["page"])
    }

    @Test func parentWithoutBlocks() throws {
        let empty = try MustacheTemplate(source: "a\n  {{<base}}{{/base}}\n")
        #expect(empty.warnings().map(\.description) == [
            "2:3: warning: parent 'base' has no blocks, so it renders like the partial {{>base}}; put what it "
                + "should replace in a block such as {{$content}}…{{/content}}"
        ])
        #expect(empty.warnings().map(\.kind) == [.parentWithoutBlocks])

        let withText = try MustacheTemplate(source: "{{<base}}\n<main>{{x}}</main>\n{{/base}}")
        #expect(withText.warnings().map(\.message) == [
            "parent 'base' has no blocks, so it renders like the partial {{>base}}; the content inside it is "
                + "ignored; put what it should replace in a block such as {{$content}}…{{/content}}"
        ])
    }

    @Test func contentOutsideBlocks() throws {
        let template = try MustacheTemplate(source: "{{<base}}\n{{$a}}x{{/a}}\n  <p>lost</p>\n{{! fine }}\n{{/base}}")
        #expect(template.warnings().map(\.description) == [
            "3:3: warning: content inside parent 'base' but outside its blocks is ignored; move it into a block"
        ])
        #expect(template.warnings().map(\.kind) == [.contentOutsideBlocks])
    }

    @Test func wellFormedInheritanceHasNoWarnings() throws {
        let template = try MustacheTemplate(source: "{{<base}}\n  {{$content}}\n  x\n  {{/content}}\n{{/base}}\n")
        #expect(template.warnings().isEmpty)
        #expect(try MustacheTemplate(source: "{{#a}}{{<*p}}{{$b}}{{/b}}{{/*p}}{{/a}}").warnings().isEmpty)
    }
}
