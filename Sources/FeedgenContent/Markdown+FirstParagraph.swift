/// The first paragraph of a rendered Markdown document as plain text: an item's default
/// description, before ``SummaryLength`` cuts it.
import CCmark

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Markdown {
    /// Walks the tree with cmark's iterator; collects the first paragraph's text, its runs of
    /// white space (from breaks next to spaces, tabs in text) written as one space.
    static func firstParagraph(in document: OpaquePointer) -> String? {
        guard let iterator = cmark_iter_new(document) else { return nil }
        defer { cmark_iter_free(iterator) }
        var depth = 0  // > 0 while inside the first paragraph
        // The literals' bytes go straight into the collapsed text (no String per node), in a
        // buffer written without an array's per-byte checks.
        var capacity = 512
        var collapsed = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { collapsed.deallocate() }
        var count = 0
        var pendingSpace = false
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            if depth == 0 {
                // A footnote's text is not the body's first paragraph (cmark-gfm moves the
                // definitions to the end; a body of footnotes alone has no description).
                if type == CMARK_NODE_FOOTNOTE_DEFINITION, event == CMARK_EVENT_ENTER {
                    cmark_iter_reset(iterator, node, CMARK_EVENT_EXIT)
                } else if type == CMARK_NODE_PARAGRAPH, event == CMARK_EVENT_ENTER {
                    depth = 1
                }
                continue
            }
            if type == CMARK_NODE_PARAGRAPH, event == CMARK_EVENT_EXIT { break }
            guard event == CMARK_EVENT_ENTER else { continue }
            switch type {
            case CMARK_NODE_TEXT, CMARK_NODE_CODE:
                guard let literal = cmark_node_get_literal(node) else { continue }
                let length = strlen(literal)
                if count + length + 1 > capacity {  // each byte and one pending space at most
                    capacity = max(2 * capacity, count + length + 1)
                    let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
                    grown.update(from: collapsed, count: count)
                    collapsed.deallocate()
                    collapsed = grown
                }
                let bytes = UnsafeRawPointer(literal).assumingMemoryBound(to: UInt8.self)
                for k in 0..<length {
                    let byte = bytes[k]
                    if byte == 0x20 || byte == 0x09 || byte == 0x0A {
                        pendingSpace = count > 0
                    } else {
                        if pendingSpace {
                            collapsed[count] = 0x20
                            count += 1
                        }
                        pendingSpace = false
                        collapsed[count] = byte
                        count += 1
                    }
                }
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
                pendingSpace = count > 0
            default:
                break
            }
        }
        guard depth > 0, count > 0 else { return nil }
        return String(validUTF8: UnsafeBufferPointer(start: collapsed, count: count))
    }
}
