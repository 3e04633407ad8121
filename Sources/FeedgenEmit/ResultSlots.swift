/// `ResultSlots`: per-index results written from `concurrentPerform` workers.
import Foundation

/// Per-index result slots written from `concurrentPerform` workers.
public final class ResultSlots<T>: @unchecked Sendable {
    private var storage: [Result<T, any Error>?]
    private let lock = NSLock()

    public init(count: Int) { storage = Array(repeating: nil, count: count) }

    public func set(_ i: Int, _ value: Result<T, any Error>) {
        lock.withLock { storage[i] = value }
    }

    public var values: [Result<T, any Error>] { storage.map { $0! } }
}
