import Synchronization

/// A template's source as UTF-8 bytes, with its name and line index. Shared (not copied) by
/// every node that needs to go back to the source: sections for lambda text, blocks for the
/// name of the template an override came from.
final class SourceText: Sendable {
    let name: String
    let bytes: [UInt8]
    /// Byte offset of the first character of each line.
    private let lineStarts: [Int]

    init(name: String, text: String) {
        self.name = name
        self.bytes = Array(text.utf8)
        var starts = [0]
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: "\n") { starts.append(i + 1) }
        self.lineStarts = starts
    }

    /// The last position computed (byte offset, line index, column): the parser asks for the
    /// positions of a line's tags in order, and counting each one's column from the start of
    /// its line made a line of n tags cost n² (20,000 tags on one line: 2 s).
    private let last = Mutex<(offset: Int, line: Int, column: Int)>((0, 0, 1))

    /// 1-based line and column (in Unicode scalars) of a byte offset.
    func position(of offset: Int) -> Position {
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        var column = 1
        var i = lineStarts[low]
        let memo = last.withLock { $0 }
        if memo.line == low, memo.offset >= i, memo.offset <= offset {
            (i, column) = (memo.offset, memo.column)
        }
        while i < offset && i < bytes.count {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        last.withLock { $0 = (i, low, column) }
        return Position(line: low + 1, column: column)
    }

    func string(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    func error(_ kind: MustacheError.Kind, _ message: String, at position: Position) -> MustacheError {
        MustacheError(kind, message, templateName: name, line: position.line, column: position.column)
    }
}

/// A 1-based line and column (columns count Unicode scalars).
struct Position: Sendable, Comparable, CustomStringConvertible {
    var line: Int
    var column: Int
    var description: String { "\(line):\(column)" }

    static func < (a: Position, b: Position) -> Bool { (a.line, a.column) < (b.line, b.column) }
}

/// The pair of tag delimiters in effect (Mustache spec, `delimiters.json`).
struct Delimiters: Sendable, Equatable {
    var open: [UInt8]
    var close: [UInt8]

    static let standard = Delimiters(open: Array("{{".utf8), close: Array("}}".utf8))

    var openString: String { String(decoding: open, as: UTF8.self) }
    var closeString: String { String(decoding: close, as: UTF8.self) }
}
