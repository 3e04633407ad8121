import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `(0..<count).map(transform)` computed on all cores. Each index writes only its own slot, so
/// the result is in index order whatever the scheduling. `transform` must be safe to call
/// concurrently (it only reads shared state).
public func parallelMap<T: Sendable>(_ count: Int, _ transform: @Sendable (Int) -> T) -> [T] {
    guard count > 1 else { return (0..<count).map(transform) }
    return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
        let slots = Slots(base: buffer.baseAddress!)
        // Chunks are taken by whichever core is free: 32 per core keep the last one short (the
        // cores finish within ~1/64 of the work of each other on uneven files), and cost a
        // dispatch each, not one per index.
        let chunks = min(count, max(1, max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) * 32))
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let start = count * chunk / chunks
            let end = count * (chunk + 1) / chunks
            for i in start..<end { (slots.base + i).initialize(to: transform(i)) }
        }
        initialized = count
    }
}

/// The result buffer, shared by the workers; each writes disjoint slots.
private struct Slots<T>: @unchecked Sendable {
    let base: UnsafeMutablePointer<T>
}

/// A value made on another core while the caller goes on; ``value`` waits for it. The caller
/// reads it before anything `make` reads may change (a build waits for it before it returns).
public final class Background<T>: @unchecked Sendable {
    private let group = DispatchGroup()
    // Written before `make`'s thread leaves `group`; read only after `group.wait()`.
    private var result: T?

    public init(_ make: @escaping @Sendable () -> T) {
        DispatchQueue.global().async(group: group) { self.result = make() }
    }

    /// The value, once made.
    public var value: T {
        group.wait()
        return result!
    }

    /// The value, once made, moved out: the caller holds its only copy (an array taken so can
    /// be appended to without copying its elements). ``value`` cannot be read after.
    public func take() -> T {
        group.wait()
        defer { result = nil }
        return result!
    }
}
