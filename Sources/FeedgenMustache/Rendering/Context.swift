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
        let prints = name.fingerprints
        var i = frames.count - 1
        while i >= 0 {
            if case .object(let object) = frames[i],
                var value = object.value(forKey: first, fingerprint: prints[0])
            {
                var k = 1
                while k < components.count {
                    guard case .object(let inner) = value,
                        let next = inner.value(forKey: components[k], fingerprint: prints[k])
                    else { return nil }
                    value = next
                    k += 1
                }
                return value
            }
            i -= 1
        }
        return nil
    }
}
