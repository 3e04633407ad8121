import Foundation
import Testing

@testable import FeedgenCLI
import FeedgenMustache

/// One non-lambda case of the official Mustache spec (`../shared/spec/mustache/*.json`), run
/// through `feedgen template render`'s code path: the template, its data as JSON and its
/// partials are written to a temporary folder and rendered from the files.
struct RenderSpecCase: Sendable, CustomTestStringConvertible {
    let file: String
    let name: String
    let template: String
    let data: MustacheValue
    let partials: [String: String]
    let expected: String

    var testDescription: String { "\(file): \(name)" }

    static let directory = sharedFolder.map { $0 + "/spec/mustache" }

    /// Every case whose data can be a data file, and the names of those that cannot.
    static let loaded: (cases: [RenderSpecCase], lambdas: [String]) = load()

    private static func load() -> (cases: [RenderSpecCase], lambdas: [String]) {
        guard let directory, let files = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            return ([], [])
        }
        var cases: [RenderSpecCase] = []
        var lambdas: [String] = []
        for file in files.sorted() where file.hasSuffix(".json") {
            guard let text = try? String(contentsOfFile: directory + "/" + file, encoding: .utf8),
                let document = try? MustacheValue(json: text, name: file), case .array(let tests)? = document["tests"]
            else {
                cases.append(RenderSpecCase(
                    file: file, name: "unreadable spec file", template: "", data: .null, partials: [:],
                    expected: "\u{0}unreadable"))
                continue
            }
            for test in tests {
                guard case .string(let name)? = test["name"], case .string(let template)? = test["template"],
                    case .string(let expected)? = test["expected"]
                else { continue }
                let data = test["data"] ?? .null
                // `~lambdas.json` gives code (`{"__tag__": "code", "ruby": …}`) where a function goes.
                if data["lambda"]?["__tag__"] != nil {
                    lambdas.append("\(file): \(name)")
                    continue
                }
                var partials: [String: String] = [:]
                if case .object(let object)? = test["partials"] {
                    for (key, value) in object { if case .string(let s) = value { partials[key] = s } }
                }
                cases.append(RenderSpecCase(
                    file: file, name: name, template: template, data: data, partials: partials, expected: expected))
            }
        }
        return (cases, lambdas)
    }
}

/// JSON text for a value (numbers as their stored text, object keys in order).
func jsonText(_ value: MustacheValue) -> String {
    func string(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if c.value < 0x20 { out += String(format: "\\u%04x", c.value) } else { out.unicodeScalars.append(c) }
            }
        }
        return out + "\""
    }
    switch value {
    case .null, .lambda: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .number(let text): return text
    case .string(let s): return string(s)
    case .array(let items): return "[" + items.map(jsonText).joined(separator: ",") + "]"
    case .object(let object): return "{" + object.map { string($0.key) + ":" + jsonText($0.value) }.joined(separator: ",") + "}"
    }
}

/// The spec's cases are skipped (and shown as skipped) when `../shared/spec/mustache` is absent.
private let specMissing = "../shared/spec/mustache not found beside the repository"

@Suite struct TemplateRenderSpecTests {
    @Test(
        "spec case through feedgen template render", .enabled(if: RenderSpecCase.directory != nil, .init(rawValue: specMissing)),
        arguments: RenderSpecCase.loaded.cases)
    func specCase(_ spec: RenderSpecCase) throws {
        let folder = temporaryFolder("feedgen-spec")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var files = ["template.mustache": spec.template, "data.json": jsonText(spec.data)]
        for (name, text) in spec.partials { files["partials/\(name).mustache"] = text }
        writeSite(folder, files)
        let result = try TemplateCommand.render(
            file: folder + "/template.mustache", data: folder + "/data.json",
            partials: spec.partials.isEmpty ? nil : folder + "/partials", strict: false)
        #expect(result.diagnostics.errorCount == 0, "\(result.diagnostics.items)")
        #expect(result.output == spec.expected, "template: \(String(reflecting: spec.template))")
    }

    @Test(.enabled(if: RenderSpecCase.directory != nil, .init(rawValue: specMissing)))
    func specCoverage() {
        let (cases, lambdas) = RenderSpecCase.loaded
        print("""
            skipped \(lambdas.count) lambda cases: a lambda is code, and 'feedgen template render' reads data from \
            a JSON or YAML file, which holds data only (the library runs them with Swift lambdas)
            """)
        #expect(cases.count == 184)
        #expect(lambdas.count == 10)
        #expect(lambdas.allSatisfy { $0.hasPrefix("~lambdas.json: ") })
    }

    @Test func cliPrintsTheOutputAndExitsZero() throws {
        let folder = temporaryFolder("feedgen-render")
        writeSite(folder, [
            "card.mustache": "{{< frame}}{{$body}}<h3>{{title}}</h3>{{/body}}{{/frame}}\n",
            "partials/frame.mustache": "<article>{{$body}}{{/body}}</article>",
            "item.yaml": "title: Tom & \"Jerry\"\nprice: 1.10\n",
        ])
        let result = try TemplateCommand.render(
            file: folder + "/card.mustache", data: folder + "/item.yaml", partials: folder + "/partials", strict: true)
        #expect(result.diagnostics.items == [])
        #expect(result.output == "<article><h3>Tom &amp; &quot;Jerry&quot;</h3></article>\n")
        #expect(CommandLineTool.run(["template", "render", folder + "/card.mustache", "--data", folder + "/item.yaml",
                                     "--partials", folder + "/partials"]) == 0)
    }

    /// JSON numbers render exactly as the data file writes them, as YAML plain scalars do:
    /// integers, trailing zeros, exponents, negatives, in lists and objects. (Before, numbers
    /// with a fraction or exponent were reparsed: `1.50` rendered `1.5`, `1e3` `1000`, `1e400`
    /// `inf`.)
    @Test func jsonNumbersRenderAsWritten() throws {
        let folder = temporaryFolder("feedgen-render")
        writeSite(folder, [
            "t.mustache": "{{price}} {{count}} {{big}} {{e}} {{E}} {{neg}} {{zero}} {{huge}}\n{{#list}}[{{.}}]{{/list}}\n{{o.a}} {{#o}}{{b.c}}{{/o}}\n",
            "d.json": """
                {"price": 1.50, "count": 10, "big": 12345678901234567890, "e": 1e3, "E": -2.5E-7, "neg": -12.30,
                 "zero": -0, "huge": 1e400, "list": [0.10, 10.0, -3, 6.02e+23], "o": {"a": 3.140, "b": {"c": 100.000}}}
                """,
            "d.yaml": "price: 1.50\ncount: 10\nbig: 12345678901234567890\ne: 1e3\nE: -2.5E-7\nneg: -12.30\nzero: -0\n"
                + "huge: 1e400\nlist: [0.10, 10.0, -3, 6.02e+23]\no: {a: 3.140, b: {c: 100.000}}\n",
        ])
        let expected = "1.50 10 12345678901234567890 1e3 -2.5E-7 -12.30 -0 1e400\n[0.10][10.0][-3][6.02e+23]\n3.140 100.000\n"
        for data in ["d.json", "d.yaml"] {
            let result = try TemplateCommand.render(file: folder + "/t.mustache", data: folder + "/" + data, partials: nil, strict: true)
            #expect(result.diagnostics.items == [], "\(data)")
            #expect(result.output == expected, "\(data)")
        }
    }

    @Test func errorsAndWarnings() throws {
        let folder = temporaryFolder("feedgen-render")
        writeSite(folder, [
            "bad.mustache": "<ul>\n  {{#items}}\n</ul>\n",
            "parent.mustache": "{{< frame}}\n<p>lost</p>\n{{/frame}}\n",
            "missing.mustache": "a {{> nowhere}} b",
            "partials/frame.mustache": "[{{$body}}{{/body}}]",
            "data.json": "{\"items\": [1, 2,]}",
            "ok.json": "{}",
            "x.txt": "{}",
        ])
        func run(_ file: String, _ data: String, strict: Bool = false) throws -> (String?, [String]) {
            let r = try TemplateCommand.render(
                file: folder + "/" + file, data: folder + "/" + data, partials: folder + "/partials", strict: strict)
            return (r.output, r.diagnostics.sorted.map { $0.description.replacingOccurrences(of: folder + "/", with: "") })
        }
        let bad = try run("bad.mustache", "data.json")
        #expect(bad.0 == nil)
        #expect(bad.1 == [
            "bad.mustache:2:3: error: unclosed section 'items'",
            "data.json:1:17: error: unexpected character ']', expected a value",
        ])
        let warned = try run("parent.mustache", "ok.json")
        #expect(warned.0 == "[]")
        #expect(warned.1 == [
            "parent.mustache:1:1: warning: parent 'frame' has no blocks, so it renders like the partial {{>frame}}; "
                + "the content inside it is ignored; put what it should replace in a block such as {{$content}}…{{/content}}"
        ])
        #expect(try run("parent.mustache", "ok.json", strict: true).0 == nil)
        #expect(try run("missing.mustache", "ok.json").0 == "a  b")
        let strict = try run("missing.mustache", "ok.json", strict: true)
        #expect(strict.0 == nil)
        #expect(strict.1 == ["missing.mustache:1:3: error: unknown partial 'nowhere'"])
        #expect(CommandLineTool.run(["template", "render", folder + "/bad.mustache", "--data", folder + "/ok.json"]) == 1)
        #expect(CommandLineTool.run(["template", "render", folder + "/bad.mustache", "--data", folder + "/x.txt"]) == 2)
        #expect(throws: UsageError.self) {
            try TemplateCommand.render(file: folder + "/ok.mustache", data: folder + "/ok.json", partials: nil, strict: false)
        }
    }
}
