import FeedgenMustache

/// The Mustache parser and renderer: any template either compiles or throws a positioned error,
/// and a compiled template renders against a small context without trapping.

func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let context: MustacheValue = ["a": "x", "b": [1, 2, 3], "c": ["d": true], "e": false]
    let partials = try? DictionaryPartials(["p": "{{a}}{{>p}}", "q": "{{$b}}x{{/b}}"])
    if let template = try? MustacheTemplate(source: text, name: "fuzz") {
        _ = try? template.render(context, partials: partials ?? DictionaryPartials([:]))
    }
    return 0
}
