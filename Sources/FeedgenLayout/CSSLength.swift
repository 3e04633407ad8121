/// A CSS length that is linear in the query container's width and the viewport height:
/// `cqw × 1cqw + svh × 1svh + px` (CSS Values 4 `calc()`; container units per CSS Containment 3,
/// which measure the container's content box).
///
/// Every non-estimated dimension of the model is such a length, so one expression serves every
/// container width and the browser computes what the solver computes.
public struct CSSLength: Hashable, Sendable {
    /// Multiples of `1cqw` (1% of the query container's content-box width).
    public var cqw: Double
    /// Multiples of `1svh`.
    public var svh: Double
    public var px: Double

    public init(cqw: Double = 0, svh: Double = 0, px: Double = 0) {
        self.cqw = cqw
        self.svh = svh
        self.px = px
    }

    public static func px(_ v: Double) -> CSSLength { CSSLength(px: v) }
    /// The query container's full width.
    public static let containerWidth = CSSLength(cqw: 100)
    public static let viewportHeight = CSSLength(svh: 100)

    public static func + (a: CSSLength, b: CSSLength) -> CSSLength {
        CSSLength(cqw: a.cqw + b.cqw, svh: a.svh + b.svh, px: a.px + b.px)
    }

    public static func - (a: CSSLength, b: CSSLength) -> CSSLength {
        CSSLength(cqw: a.cqw - b.cqw, svh: a.svh - b.svh, px: a.px - b.px)
    }

    public static func * (f: Double, a: CSSLength) -> CSSLength {
        CSSLength(cqw: f * a.cqw, svh: f * a.svh, px: f * a.px)
    }

    /// The value at a container width and viewport height (CSS px).
    public func value(containerWidth: Double, viewportHeight: Double) -> Double {
        cqw * containerWidth / 100 + svh * viewportHeight / 100 + px
    }

    /// `12px`, or `calc(85cqw - 4px)` style text (CSS px, up to 6 decimals).
    public var css: String { css(width: .cqw) }

    /// How the container width is written.
    public enum WidthUnit: Hashable, Sendable {
        /// `1cqw`: inside the query container whose content box is the reference.
        case cqw
        /// `1%` of the element's own content box width (grid track sizes on the container).
        case percent
        /// A CSS expression of the reference width, e.g. `100cqw - 8px - 8px`.
        case expression(String)
    }

    /// The text with the width written as `width` says.
    public func css(width: WidthUnit) -> String {
        var terms: [String] = []
        if cqw != 0 {
            switch width {
            case .cqw: terms.append(Self.number(cqw) + "cqw")
            case .percent: terms.append(Self.number(cqw) + "%")
            case .expression(let e):
                terms.append(cqw == 100 ? "(\(e))" : Self.number(cqw / 100) + " * (\(e))")
            }
        }
        if svh != 0 { terms.append(Self.number(svh) + "svh") }
        if px != 0 || terms.isEmpty { terms.append(Self.number(px) + "px") }
        if terms.count == 1, !terms[0].contains(" ") { return terms[0] }
        var text = terms[0]
        for term in terms.dropFirst() {
            text += term.hasPrefix("-") ? " - " + term.dropFirst() : " + " + term
        }
        return "calc(" + text + ")"
    }

    /// This length divided by `n`.
    public static func / (a: CSSLength, n: Double) -> CSSLength { (1 / n) * a }

    /// A number with at most 6 decimals, never in exponent notation (`0.333333`, `-4`, `12.5`).
    static func number(_ v: Double) -> String {
        let scaled = (v * 1_000_000).rounded()
        guard scaled != 0, scaled.isFinite, abs(scaled) < 9e17 else { return "0" }
        let magnitude = Int64(abs(scaled))
        var text = String(magnitude / 1_000_000)
        let fraction = magnitude % 1_000_000
        if fraction != 0 {
            var digits = String(fraction)
            digits = String(repeating: "0", count: 6 - digits.count) + digits
            while digits.last == "0" { digits.removeLast() }
            text += "." + digits
        }
        return scaled < 0 ? "-" + text : text
    }
}

