import FeedgenDiagnostics
import Foundation

/// "Did you mean" lookups for unknown item keys, memoised for one load: the same few unknown
/// keys (`keywords`, `categories`, …) recur in thousands of files, and the edit-distance search
/// is the costliest step of decoding an item. Safe to share between the loader's workers.
final class KeySuggestions: @unchecked Sendable {
    private let candidates: [String]
    private let lock = NSLock()
    private var cache: [String: String?] = [:]

    init(candidates: [String]) {
        self.candidates = candidates
    }

    /// The known key that `key` is a likely typo of, if any.
    func closest(to key: String) -> String? {
        lock.lock()
        let cached = cache[key]
        lock.unlock()
        if let cached { return cached }
        let hit = Suggestion.closest(to: key, in: candidates)
        lock.lock()
        cache[key] = .some(hit)
        lock.unlock()
        return hit
    }
}
