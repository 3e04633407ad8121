/// A size in CSS px (= UIKit points).
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public static let zero = Size(width: 0, height: 0)
    public var description: String { "\(Rect.format(width))×\(Rect.format(height))" }
}

/// A frame in CSS px: origin at the top-left, y growing downwards (UIKit's convention).
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }

    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width, height: height)
    }

    /// The rectangle shrunk by `insets` (leading = left; the model is computed left-to-right).
    public func inset(by insets: DirectionalEdgeInsets) -> Rect {
        Rect(
            x: x + insets.leading, y: y + insets.top,
            width: width - insets.leading - insets.trailing,
            height: height - insets.top - insets.bottom)
    }

    /// `(x, y, w, h)`, numbers without a trailing `.0`.
    public var description: String {
        "(\(Self.format(x)), \(Self.format(y)), \(Self.format(width)), \(Self.format(height)))"
    }

    static func format(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
        return String(v)
    }
}

/// Insets in CSS px, named by direction like UIKit's `NSDirectionalEdgeInsets`.
/// `leading` is the left edge in left-to-right text and the right edge in right-to-left text;
/// the emitted CSS uses logical properties so the mirroring is the browser's.
public struct DirectionalEdgeInsets: Hashable, Sendable {
    public var top: Double
    public var leading: Double
    public var bottom: Double
    public var trailing: Double

    public init(top: Double = 0, leading: Double = 0, bottom: Double = 0, trailing: Double = 0) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }

    /// The same inset on all four edges.
    public init(all v: Double) { self.init(top: v, leading: v, bottom: v, trailing: v) }

    public static let zero = DirectionalEdgeInsets()
    public var horizontal: Double { leading + trailing }
    public var vertical: Double { top + bottom }
    public var isZero: Bool { self == .zero }
}
