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
        let count = name.fingerprints.count
        if count == 0 { return frames.last }
        // Through buffer pointers, each object read in place: a lookup retains only the value
        // it returns (copying an object out of its frame retained each of its buffers).
        return name.components.withUnsafeBufferPointer { components in
            name.fingerprints.withUnsafeBufferPointer { prints in
                frames.withUnsafeBufferPointer { frames -> MustacheValue? in
                    var i = frames.count - 1
                    while i >= 0 {
                        if var value = frames[i].member(components[0], fingerprint: prints[0]) {
                            var k = 1
                            while k < count {
                                guard let next = value.member(components[k], fingerprint: prints[k]) else { return nil }
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
        }
    }
}
