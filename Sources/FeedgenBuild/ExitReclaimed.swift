import Foundation

/// Values that a build run by a process about to exit leaves for the exit to reclaim, instead of
/// freeing them object by object (what clang's `-disable-free` does for its ASTs). A site's
/// model is hundreds of thousands of small objects (items, their strings, cached card
/// fragments): releasing them one by one took 30–50 ms of a 10,000-item incremental build, about a
/// tenth of it. Only for one-shot builds (``BuildOptions/exitsAfterBuild``): `--watch` builds
/// again and again in one process, so it must free.
package enum ExitReclaimed {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var values: [Any] = []

    /// Keeps `value` alive until the process exits.
    package static func keep(_ value: Any) {
        lock.withLock { values.append(value) }
    }
}
