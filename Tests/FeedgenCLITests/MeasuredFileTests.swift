import Foundation
import Testing

@testable import FeedgenCLI
import FeedgenDiagnostics

/// `feedgen layout --measured FILE`: every value is checked and every mistake is named.
@Suite struct MeasuredFileTests {
    func problem(_ json: String) -> String? {
        let file = temporaryFolder() + "/m.json"
        try! Data(json.utf8).write(to: URL(fileURLWithPath: file))
        do {
            _ = try LayoutCommand.readMeasurements(file)
            return nil
        } catch let error as LayoutCommand.MeasuredFileError {
            return error.diagnostics.items.map(\.description).joined(separator: "\n").replacingOccurrences(of: file, with: "m.json")
        } catch {
            return "\(error)"
        }
    }

    @Test func validFileReads() throws {
        let file = temporaryFolder() + "/m.json"
        try Data(#"{"items": {"a": {"width": 120, "height": 80.5}}, "headers": {"s": 30}, "footers": {"s": 1e1}}"#.utf8)
            .write(to: URL(fileURLWithPath: file))
        let m = try LayoutCommand.readMeasurements(file)
        #expect(m.items["a"]?.width == 120)
        #expect(m.items["a"]?.height == 80.5)
        #expect(m.headers["s"] == 30)
        #expect(m.footers["s"] == 10)
    }

    @Test func mistakesAreNamedByKeyPath() {
        #expect(problem(#"{"items": {"a": {"width": 10, "height": -3}}}"#) == "m.json: error: 'items.a.height' must be between 0 and 100000 px, found -3")
        #expect(problem(#"{"items": {"a": {"width": "10", "height": 3}}}"#) == "m.json: error: 'items.a.width' must be a number of CSS px")
        #expect(problem(#"{"items": {"a": {"width": 10}}}"#) == "m.json: error: 'items.a.height' must be a number of CSS px")
        #expect(problem(#"{"items": {"a": 5}}"#) == "m.json: error: 'items.a' must be an object {\"width\": W, \"height\": H}")
        #expect(problem(#"{"headers": {"s": 1e9}}"#) == "m.json: error: 'headers.s' must be between 0 and 100000 px, found 1e9")
        #expect(problem(#"{"headers": {"s": 1e400}}"#) == "m.json: error: 'headers.s' must be between 0 and 100000 px, found 1e400")
        #expect(problem(#"{"item": {}}"#) == "m.json: error: 'item' is not a --measured key; use \"items\", \"headers\" or \"footers\"")
        #expect(problem("[1]") == "m.json: error: a --measured file holds a JSON object with \"items\", \"headers\" and/or \"footers\"")
    }

    /// JSON mistakes are located; a repeated id is one, not a silently dropped value.
    @Test func syntaxErrorsAndRepeatedKeysHaveTheirPlace() {
        #expect(problem("{\"items\": ") == "m.json:1:11: error: unexpected end of JSON, expected a value")
        #expect(problem("{\"items\": {\"a\": [1, }}") == "m.json:1:21: error: unexpected character '}', expected a value")
        #expect(
            problem("{\"headers\": {\n  \"s\": 10,\n  \"s\": 12\n}}")
                == "m.json:3:3: error: duplicate key 's' in an object (first at line 2, column 3); keep one of them")
    }

    /// Bytes that are not UTF-8 are an error at them, as in a template's data file. (Found in
    /// review: they became U+FFFD, so an id written with them silently matched no item.)
    @Test func bytesThatAreNotUTF8AreAnError() throws {
        let file = temporaryFolder() + "/m.json"
        try Data("{\"items\": {\n  \"caf\u{E9}".utf8 + [0xFF] + "\": {\"width\": 1, \"height\": 2}}}".utf8)
            .write(to: URL(fileURLWithPath: file))
        #expect(throws: LayoutCommand.MeasuredFileError.self) { _ = try LayoutCommand.readMeasurements(file) }
        do {
            _ = try LayoutCommand.readMeasurements(file)
        } catch let error as LayoutCommand.MeasuredFileError {
            #expect(error.diagnostics.items.map(\.description) == ["\(file):2:8: error: file is not valid UTF-8 (invalid byte at offset 20)"])
        }
    }

    /// The command prints the located error on stderr and exits 1.
    @Test func theCommandExitsOneWithTheLocatedError() throws {
        let root = temporaryFolder()
        writeSite(root, ["content/cards/_section.md": "---\nlayout: list\n---\n", "content/cards/a.md": "---\ntitle: A\n---\n"])
        try Data("{\"items\": {\"a\": {\"width\": 1,}}}".utf8).write(to: URL(fileURLWithPath: root + "/m.json"))
        let result = try runFeedgen(["layout", root, "--width", "390", "--measured", root + "/m.json"])
        #expect(result.status == 1)
        #expect(result.stderr == "\(root)/m.json:1:29: error: expected a string key\n")
    }
}
