/// `releaseElsewhere(_:)`: a large value freed on another thread, off the caller's serial path.
import Dispatch

/// Frees `value` on another thread: tearing down a table of every item's strings then costs
/// the caller nothing. Moves the work only when the caller holds the last reference (pass it
/// with `consume`).
public func releaseElsewhere<T>(_ value: consuming T) {
    let box = ReleaseBox(value)
    DispatchQueue.global(qos: .utility).async { box.value = nil }
}

/// Holds the value until the other thread drops it (the caller never reads it again).
private final class ReleaseBox<T>: @unchecked Sendable {
    var value: T?
    init(_ value: consuming T) { self.value = value }
}
