/// The context stack (Mustache spec, `interpolation.json` and `sections.json` overviews).
struct Context {
    private var frames: [MustacheValue]

    init(_ root: MustacheValue) {
        frames = [root]
        frames.reserveCapacity(16)
    }

    mutating func push(_ value: MustacheValue) { frames.append(value) }
    mutating func pop() { frames.removeLast() }

    /// Resolves a name:
    /// 1. `.` is the top of the stack.
    /// 2. The first part is looked up from the top of the stack down, in the first object that
    ///    has it as a key (even with a `null` value).
    /// 3. Each further part is looked up in the previous result only; any miss yields `nil`
    ///    ("Dotted Names - Broken Chain Resolution", "Dotted Names - Context Precedence").
    func lookup(_ name: Name) -> MustacheValue? {
        let components = name.components
        guard let first = components.first else { return frames.last }
        var found: MustacheValue? = nil
        for frame in frames.reversed() {
            if case .object(let object) = frame, let value = object[first] {
                found = value
                break
            }
        }
        guard var value = found else { return nil }
        for component in components.dropFirst() {
            guard case .object(let object) = value, let next = object[component] else { return nil }
            value = next
        }
        return value
    }
}
