/// ``ForeignSyntaxPass``'s code spans: where a run of backticks opens one and where it closes
/// (CommonMark 6.1), each closing run's search remembered for the paragraph.
import CFileSystem

extension ForeignSyntaxPass {
    /// A code span opens at a run of backticks that a run of the same length closes later in
    /// the paragraph (CommonMark 6.1), and closes at that run.
    mutating func backticks() {
        let count = run(of: 0x60, at: i)
        if codeSpan == count {
            codeSpan = 0
        } else if codeSpan == 0, closingRun(count, from: i + count) {
            codeSpan = count
        }
        copy(count)
    }

    mutating func closingRun(_ count: Int, from start: Int) -> Bool {
        let known = count < Self.shortRuns ? shortClosingRuns[count] : closingRuns[count]
        if let r = known, r.from <= start, start <= r.stop { return r.found != nil }
        let r = scanClosingRun(count, from: start)
        if count < Self.shortRuns { shortClosingRuns[count] = r } else { closingRuns[count] = r }
        return r.found != nil
    }

    /// ``closingRun(_:from:)`` without the memory: the run's start, or where the paragraph ends
    /// (a line of only spaces and tabs). The bytes between newlines and backticks are skipped
    /// sixteen at a time (``nextSpecial(in:from:)``'s search).
    func scanClosingRun(_ count: Int, from start: Int) -> SearchResult {
        b.withUnsafeBufferPointer { p in
            let n = p.count
            var j = start
            var lineBlank = false  // true after a newline, until a byte other than a space or tab
            while j < n {
                if lineBlank {
                    while j < n, p[j] == 0x20 || p[j] == 0x09 { j += 1 }
                    guard j < n else { break }
                    if p[j] != 0x0A { lineBlank = false }
                }
                if !lineBlank {
                    j += feedgen_first_of4(p.baseAddress! + j, n - j, 0x0A, 0x60, 0x60, 0x60)
                    guard j < n else { break }
                }
                if p[j] == 0x0A {
                    if lineBlank { return SearchResult(from: start, stop: j, found: nil) }
                    lineBlank = true
                    j += 1
                    continue
                }
                let m = run(of: 0x60, at: j)
                if m == count { return SearchResult(from: start, stop: j, found: j) }
                j += m
            }
            return SearchResult(from: start, stop: n, found: nil)
        }
    }
}
