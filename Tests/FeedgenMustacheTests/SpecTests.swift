import Foundation
import Synchronization
import Testing

@testable import FeedgenMustache

/// One test of the official Mustache spec (`github.com/mustache/spec`, `specs/*.json`), read
/// from the shared copy in `../shared/spec/mustache` next to the repository.
struct SpecCase: Sendable, CustomTestStringConvertible {
    let file: String
    let name: String
    let desc: String
    let data: MustacheValue
    let template: String
    let partials: [String: String]
    let expected: String

    var testDescription: String { "\(file): \(name)" }

    /// `<repository>/../shared/spec/mustache`: this file is `<repository>/Tests/FeedgenMustacheTests/SpecTests.swift`.
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("../shared/spec/mustache")
        .standardizedFileURL

    static var directoryExists: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Every case of every spec file, in file order; empty when the folder is absent.
    static let all: [SpecCase] = load()

    private static func load() -> [SpecCase] {
        guard directoryExists,
            let files = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
        else { return [] }
        var cases: [SpecCase] = []
        for file in files.sorted() where file.hasSuffix(".json") {
            do {
                let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                let document = try MustacheValue(json: text, name: file)
                guard case .array(let tests)? = document["tests"] else { continue }
                for test in tests { cases.append(try SpecCase(file: file, json: test)) }
            } catch {
                // Surfaces as a failing case rather than silently fewer tests.
                cases.append(SpecCase(
                    file: file, name: "unreadable spec file", desc: "\(error)", data: .null, template: "",
                    partials: [:], expected: "\u{0}unreadable: \(error)"))
            }
        }
        return cases
    }

    private init(file: String, name: String, desc: String, data: MustacheValue, template: String,
                 partials: [String: String], expected: String) {
        self.file = file
        self.name = name
        self.desc = desc
        self.data = data
        self.template = template
        self.partials = partials
        self.expected = expected
    }

    private init(file: String, json test: MustacheValue) throws {
        func string(_ key: String) throws -> String {
            guard case .string(let s)? = test[key] else { throw SpecFormatError(file: file, key: key) }
            return s
        }
        self.file = file
        self.name = try string("name")
        self.desc = try string("desc")
        self.template = try string("template")
        self.expected = try string("expected")
        var data = test["data"] ?? .null
        // `~lambdas.json` carries code for other languages; replace it with the Swift version.
        if case .object(var object) = data, let code = object["lambda"], code["__tag__"] != nil {
            object["lambda"] = SpecLambdas.lambda(for: name).map { .lambda($0) } ?? .null
            data = .object(object)
        }
        self.data = data
        var partials: [String: String] = [:]
        if case .object(let object)? = test["partials"] {
            for (key, value) in object {
                guard case .string(let s) = value else { throw SpecFormatError(file: file, key: "partials.\(key)") }
                partials[key] = s
            }
        }
        self.partials = partials
    }
}

struct SpecFormatError: Error, CustomStringConvertible {
    let file: String
    let key: String
    var description: String { "\(file): a test has no string '\(key)'" }
}

/// The lambdas of `~lambdas.json`, written in Swift with the semantics of the spec's code
/// (the Ruby, JavaScript and Python versions agree). Built fresh for each run of a case, so a
/// counter starts at zero every time.
enum SpecLambdas {
    static let names: Set<String> = [
        "Interpolation", "Interpolation - Expansion", "Interpolation - Alternate Delimiters",
        "Interpolation - Multiple Calls", "Escaping", "Section", "Section - Expansion",
        "Section - Alternate Delimiters", "Section - Multiple Calls", "Inverted Section",
    ]

    static func lambda(for test: String) -> MustacheLambda? {
        switch test {
        case "Interpolation":
            return .interpolation { "world" }
        case "Interpolation - Expansion":
            return .interpolation { "{{planet}}" }
        case "Interpolation - Alternate Delimiters":
            return .interpolation { "|planet| => {{planet}}" }
        case "Interpolation - Multiple Calls":
            // `proc { $calls ||= 0; $calls += 1 }`: returns the call count, a number.
            let calls = Mutex(0)
            return MustacheLambda { _ in
                .int(calls.withLock { count in
                    count += 1
                    return count
                })
            }
        case "Escaping":
            return .interpolation { ">" }
        case "Section":
            return .section { text in text == "{{x}}" ? "yes" : "no" }
        case "Section - Expansion":
            return .section { text in text + "{{planet}}" + text }
        case "Section - Alternate Delimiters":
            return .section { text in text + "{{planet}} => |planet|" + text }
        case "Section - Multiple Calls":
            return .section { text in "__" + text + "__" }
        case "Inverted Section":
            // `proc { |text| false }`
            return MustacheLambda { _ in .bool(false) }
        default:
            return nil
        }
    }
}

/// Without `../shared/spec/mustache` every test here is skipped, and shown as skipped.
@Suite("Mustache spec", .enabled(if: SpecCase.directoryExists, "../shared/spec/mustache not found beside the repository"))
struct SpecTests {
    @Test("spec case", arguments: SpecCase.all)
    func specCase(_ spec: SpecCase) throws {
        let template = try MustacheTemplate(source: spec.template, name: spec.name)
        let partials = try DictionaryPartials(spec.partials)
        let output = try template.render(spec.data, partials: partials)
        #expect(output == spec.expected, "\(spec.desc)\ntemplate: \(String(reflecting: spec.template))")
    }

    @Test("the spec folder holds cases")
    func specFolder() {
        #expect(!SpecCase.all.isEmpty)
    }

    @Test("every lambda of ~lambdas.json has a Swift version")
    func lambdasCovered() {
        let lambdaCases = SpecCase.all.filter { $0.file == "~lambdas.json" }
        for spec in lambdaCases {
            #expect(SpecLambdas.names.contains(spec.name), "no Swift lambda for \(spec.name)")
        }
    }
}
