/// Marks standalone lines (Mustache spec: every "Standalone …" test of `comments.json`,
/// `delimiters.json`, `sections.json`, `inverted.json`, `partials.json`, `~inheritance.json`).
///
/// A line is standalone when it holds at least one tag, no interpolation tag, and no text
/// other than spaces and tabs. Its whitespace and its line break are not output, and each of
/// its tags records the line's leading whitespace (the indentation of a standalone partial,
/// parent or block).
///
/// One exception, from `~inheritance.json` "Standalone block": a line holding only an empty
/// block (`{{$name}}{{/name}}` with nothing between the tags) keeps its line break. Such a block
/// is a slot on an indented line of its own; whatever fills it is indented, and the line break
/// ends that line.
enum Standalone {
    static func mark(_ tokens: inout [Token], in bytes: [UInt8]) {
        var lineStart = 0
        while lineStart <= tokens.count {
            var lineEnd = lineStart
            while lineEnd < tokens.count && tokens[lineEnd].kind != .newline { lineEnd += 1 }
            markLine(&tokens, lineStart..<lineEnd, lineBreak: lineEnd < tokens.count ? lineEnd : nil, bytes: bytes)
            lineStart = lineEnd + 1
        }
    }

    private static func markLine(_ tokens: inout [Token], _ line: Range<Int>, lineBreak: Int?, bytes: [UInt8]) {
        var tags: [Int] = []
        for i in line {
            let token = tokens[i]
            if token.kind == .text {
                for k in token.start..<token.end where !isIndentWhitespace(bytes[k]) { return }
            } else {
                if token.isInterpolation { return }
                tags.append(i)
            }
        }
        guard let firstTag = tags.first else { return }

        var indent: [UInt8] = []
        for i in line.lowerBound..<firstTag { indent.append(contentsOf: bytes[tokens[i].start..<tokens[i].end]) }
        for i in line {
            if tokens[i].kind == .text {
                tokens[i].removed = true
            } else {
                tokens[i].standalone = true
                tokens[i].lineIndent = indent
            }
        }

        let isEmptyBlockSlot = tags.count == 2 && tags[1] == tags[0] + 1
            && tokens[tags[0]].kind == .block && tokens[tags[1]].kind == .close
            && tokens[tags[0]].matchKey == tokens[tags[1]].matchKey
        if let lineBreak, !isEmptyBlockSlot { tokens[lineBreak].removed = true }
    }
}
