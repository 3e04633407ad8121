/// An item's width as a function of the container width `W`, over one range of `W` where it is
/// affine: `width = slope × W + offset` (CSS px) for `minWidth ≤ W < maxWidth`.
///
/// Every dimension of the model is a fraction of its container or a constant, so between two
/// adaptive breakpoints an item's width is affine in `W`, except where a `readableContent`
/// reference switches from the margins to the centred readable width (a kink, found by sampling).
public struct WidthRange: Hashable, Sendable, CustomStringConvertible {
    /// CSS px of `W`, inclusive.
    public var minWidth: Double
    /// CSS px of `W`, exclusive; nil for the last range (open to the right).
    public var maxWidth: Double?
    /// CSS px of item width per CSS px of `W`.
    public var slope: Double
    /// CSS px.
    public var offset: Double

    public init(minWidth: Double, maxWidth: Double?, slope: Double, offset: Double) {
        self.minWidth = minWidth
        self.maxWidth = maxWidth
        self.slope = slope
        self.offset = offset
    }

    /// The item width at container width `w`, CSS px.
    public func width(at w: Double) -> Double { slope * w + offset }

    public var description: String {
        "[\(Rect.format(minWidth)), \(maxWidth.map { Rect.format($0) } ?? "∞")): \(Rect.format(slope))·W + \(Rect.format(offset))"
    }
}

/// How wide each item of a section is drawn at every container width (for `sizes` and image
/// variant widths): the solver sampled at the adaptive breakpoints and between them.
public enum ItemWidths {
    /// The widths of `input`'s items for container widths from `minimumWidth` on, by item id.
    ///
    /// The ranges start at `minimumWidth` and at each adaptive rule's `minWidth` above it; a range
    /// whose width is not affine in `W` (a `readableContent` kink) is split where the samples
    /// disagree. Adjacent ranges with the same function are merged. Orthogonal sections report the
    /// cell widths at scroll offset 0 (the width does not depend on the offset).
    ///
    /// - Parameters:
    ///   - environment: the container; its `containerWidth` is ignored (the sampled variable).
    ///   - minimumWidth: the narrowest container considered, CSS px (WCAG 1.4.10: 320).
    ///   - sampleLimit: the last range is sampled up to this width, CSS px, and taken as affine
    ///     beyond it.
    public static func ranges(
        _ input: SectionInput, environment: LayoutEnvironment, minimumWidth: Double = 320,
        sampleLimit: Double = 2560
    ) -> [String: [WidthRange]] {
        guard !input.itemIDs.isEmpty else { return [:] }
        var env = environment
        // Item widths at container width w, by item index (one solve per distinct width).
        var memo: [Double: [Double]] = [:]
        func widths(_ w: Double) -> [Double] {
            if let hit = memo[w] { return hit }
            env.containerWidth = w
            let solved = CompositionalLayout.solve([input], environment: env)
            var byIndex = Array(repeating: 0.0, count: input.itemIDs.count)
            var index: [String: Int] = [:]
            for (i, id) in input.itemIDs.enumerated() where index[id] == nil { index[id] = i }
            for item in solved.sections.first?.items ?? [] {
                if let i = index[item.id] { byIndex[i] = item.frame.width }
            }
            memo[w] = byIndex
            return byIndex
        }
        let safe = environment.safeAreaInsets.leading + environment.safeAreaInsets.trailing
        let breaks = input.layout.rules.map { $0.minWidth + safe }.filter { $0 > minimumWidth }
        let starts = [minimumWidth] + Array(Set(breaks)).sorted()
        // Segments [a, b) on which every item's width is affine, per item: (a, b, slope, offset).
        var result = Array(repeating: [WidthRange](), count: input.itemIDs.count)
        func fit(_ a: Double, _ b: Double, open: Bool, depth: Int) {
            let last = b - 1
            let wa = widths(a), wb = widths(last)
            let probes = [a + (last - a) / 3, a + 2 * (last - a) / 3, (a + last) / 2].map { ($0).rounded(.down) }
            var affine = true
            if last > a {
                for p in probes where p > a && p < last {
                    let wp = widths(p)
                    for i in wa.indices {
                        let slope = (wb[i] - wa[i]) / (last - a)
                        if abs(wa[i] + slope * (p - a) - wp[i]) > 0.01 { affine = false }
                    }
                }
            }
            if !affine, depth < 16, last - a >= 2 {
                let mid = ((a + b) / 2).rounded(.down)
                fit(a, mid, open: false, depth: depth + 1)
                fit(mid, b, open: open, depth: depth + 1)
                return
            }
            for i in wa.indices {
                let slope = last > a ? (wb[i] - wa[i]) / (last - a) : 0
                let r = WidthRange(
                    minWidth: a, maxWidth: open ? nil : b, slope: clean(slope), offset: clean(wa[i] - slope * a))
                // The same function as the range before (a one-px segment: the same value).
                if var previous = result[i].last, abs(previous.width(at: a) - wa[i]) < 0.01,
                    abs(previous.width(at: last) - wb[i]) < 0.01
                {
                    previous.maxWidth = r.maxWidth
                    result[i][result[i].count - 1] = previous
                } else {
                    result[i].append(r)
                }
            }
        }
        for (k, start) in starts.enumerated() {
            let open = k == starts.count - 1
            let end = open ? max(sampleLimit, start + 2) : starts[k + 1]
            fit(start, end, open: open, depth: 0)
        }
        // Where two ranges' functions meet between their samples (a kink), the boundary is
        // the meeting point (both give the same width there).
        for i in result.indices where result[i].count > 1 {
            for k in 1..<result[i].count {
                let (l, r) = (result[i][k - 1], result[i][k])
                // Not at an adaptive breakpoint: the layout itself changes there.
                guard l.slope != r.slope, !starts.contains(r.minWidth) else { continue }
                let x = ((r.offset - l.offset) / (l.slope - r.slope) - 1e-6).rounded(.up)
                if x > l.minWidth, x < r.minWidth, abs(l.width(at: x) - r.width(at: x)) < 0.01 {
                    result[i][k - 1].maxWidth = x
                    result[i][k].minWidth = x
                }
            }
        }
        var byID: [String: [WidthRange]] = [:]
        for (i, id) in input.itemIDs.enumerated() where byID[id] == nil { byID[id] = result[i] }
        return byID
    }

    /// Rounds away floating-point noise (1/3 stays 1/3 to 1e-9).
    static func clean(_ v: Double) -> Double {
        let r = (v * 1e6).rounded() / 1e6
        return abs(r - v) < 1e-7 ? r : v
    }
}
