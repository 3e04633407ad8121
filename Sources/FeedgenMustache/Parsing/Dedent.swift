/// Block reindentation (`~inheritance.json` "Block reindentation", "Intrinsic indentation",
/// "Nested block reindentation"): the content of a block whose opening tag stands alone on its
/// line loses its common indentation where it is written, and gets the indentation of the slot
/// where it is rendered.
enum Dedent {
    /// The longest run of spaces and tabs that starts every non-blank line of `text`, and
    /// whether there is any non-blank line.
    static func commonIndent(of text: ArraySlice<UInt8>) -> (indent: [UInt8], hasContent: Bool) {
        var common: [UInt8]? = nil
        var i = text.startIndex
        while i < text.endIndex {
            var k = i
            while k < text.endIndex && isIndentWhitespace(text[k]) { k += 1 }
            let lineIndentEnd = k
            var blank = true
            while k < text.endIndex && text[k] != UInt8(ascii: "\n") {
                if text[k] != UInt8(ascii: "\r") { blank = false }
                k += 1
            }
            if !blank {
                let indent = text[i..<lineIndentEnd]
                if let current = common {
                    var n = 0
                    while n < current.count && n < indent.count && current[n] == indent[indent.startIndex + n] { n += 1 }
                    if n < current.count { common = Array(current.prefix(n)) }
                } else {
                    common = Array(indent)
                }
            }
            i = k + 1
        }
        return (common ?? [], common != nil)
    }

    /// Removes `indent` from the start of every line of `nodes`: line-start whitespace and the
    /// indentation recorded by standalone partials, parents and blocks. Standalone blocks are
    /// already dedented by their own (longer) common indentation, so only their slot
    /// indentation changes.
    static func remove(_ indent: [UInt8], from nodes: inout [Node]) {
        guard !indent.isEmpty else { return }
        for i in nodes.indices {
            switch nodes[i] {
            case .lineStart(var line):
                line.leading = removingPrefix(indent, from: line.leading)
                nodes[i] = .lineStart(line)
            case .section(let box):
                var section = box.value
                remove(indent, from: &section.children)
                nodes[i] = .section(Box(section))
            case .partial(let box):
                var partial = box.value
                partial.indent = removingPrefix(indent, from: partial.indent)
                nodes[i] = .partial(Box(partial))
            case .parent(let box):
                var parent = box.value
                parent.indent = removingPrefix(indent, from: parent.indent)
                for (name, var block) in parent.blocks {
                    remove(indent, from: &block)
                    parent.blocks[name] = block
                }
                nodes[i] = .parent(Box(parent))
            case .block(let box):
                var block = box.value
                remove(indent, from: &block)
                nodes[i] = .block(Box(block))
            case .text, .variable:
                break
            }
        }
    }

    private static func remove(_ indent: [UInt8], from block: inout Block) {
        if block.standalone {
            block.indent = removingPrefix(indent, from: block.indent)
        } else {
            remove(indent, from: &block.children)
        }
    }

    /// `text` without the longest common prefix it shares with `prefix`.
    private static func removingPrefix(_ prefix: [UInt8], from text: [UInt8]) -> [UInt8] {
        var n = 0
        while n < prefix.count && n < text.count && prefix[n] == text[n] { n += 1 }
        return n == 0 ? text : Array(text[n...])
    }
}
