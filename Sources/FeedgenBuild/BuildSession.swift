/// The build's concurrent hand-offs: the output session opened on another thread, the gate that gives it to the feed-page thread, the cache saves left to the caller, the item cache box and a counter.
import Dispatch
import FeedgenContent
import FeedgenDiagnostics
import FeedgenEmit
import FeedgenLayout
import FeedgenResolve
import FeedgenStorage
import Foundation

extension Pipeline {
    /// Cache files to save once the output is exchanged, handed to the caller to run beside
    /// other work (the snapshot's) rather than one after another; whatever is left runs when
    /// the build ends (``BuildRun/end()``).
    public final class DeferredSaves: @unchecked Sendable {
        private let lock = NSLock()
        private var work: [@Sendable () -> Void] = []

        public init() {}

        func add(_ save: @escaping @Sendable () -> Void) { lock.withLock { work.append(save) } }

        /// The saves not yet run, taken (each runs once).
        public func take() -> [@Sendable () -> Void] {
            lock.withLock {
                defer { work = [] }
                return work
            }
        }
    }

    /// The output's session for the feed thread, once the main thread has prepared the back
    /// buffer (or failed to).
    final class SessionGate: @unchecked Sendable {
        private let ready = DispatchGroup()
        private let lock = NSLock()
        private var result: Result<OutputWriter.Session?, any Error>?

        init() { ready.enter() }

        /// Gives the session (the first call only; later ones are ignored).
        func open(_ result: Result<OutputWriter.Session?, any Error>) {
            let first = lock.withLock {
                guard self.result == nil else { return false }
                self.result = result
                return true
            }
            if first { ready.leave() }
        }

        /// Waits for ``open(_:)``. - Throws: the error it was given.
        package func session() throws -> OutputWriter.Session? {
            ready.wait()
            return try lock.withLock { result }?.get()
        }
    }

    /// An ``OutputWriter/Session`` opened on another thread.
    public final class SessionOpening: @unchecked Sendable {
        public let output: String
        /// Whether the output was exactly as its last build wrote it when this build looked
        /// (``OutputWriter/examine(output:)``, before anything was written); nil: not looked at.
        package var outputAsWritten: Bool?
        /// The output as that look found it, when it was as written (its files vouch for their
        /// hard links in the back buffer); dropped once the session is open.
        package var verifiedOutput: OutputWriter.VerifiedTree?
        private var result: Result<OutputWriter.Session, any Error>?
        private let group = DispatchGroup()

        /// A test hook (``BuildOptions/testCutLog``).
        private let cutCardsLog: Bool

        /// Opens the card cache (none without a memo).
        private let memo: (any BuildMemo)?

        init(output: String, memo: (any BuildMemo)?, cutCardsLog: Bool = false) {
            (self.output, self.memo, self.cutCardsLog) = (output, memo, cutCardsLog)
        }

        private var cards: (any CardMemo)?
        private let cardsRead = DispatchGroup()
        /// Whether the card cache is being read (set before ``cardCache()`` is called).
        private var readingCards = false

        /// Opens the session, then reads the output's card cache (`cards.log`), which the feed
        /// pages need first: on this thread, which is done with the session before the content
        /// is loaded, rather than on the build's critical path. `readCards: false` (a patch
        /// build, which needs no card cache): only ``readCards(useCache:)`` reads it.
        /// `ownThread`: on a thread of its own, not a dispatch worker (the workers may all be
        /// busy by then: the snapshot's records on every core, feed pages waiting for this very
        /// session); a build that starts it while it loads finds them idle.
        func start(useCache: Bool, readCards: Bool = true, ownThread: Bool = false) {
            started = true
            if readCards {
                readingCards = true
                cardsRead.enter()
            }
            let open = { @Sendable in
                self.result = Result { try OutputWriter.Session(output: self.output, useCache: useCache, verified: self.verifiedOutput) }
                self.verifiedOutput = nil
            }
            if ownThread {
                group.enter()
                Thread {
                    open()
                    self.group.leave()
                    if readCards { self.readCardCache(useCache: useCache) }
                }.start()
            } else {
                DispatchQueue.global().async(group: group) {
                    open()
                    guard readCards else { return }
                    DispatchQueue.global().async { self.readCardCache(useCache: useCache) }
                }
            }
        }

        /// Whether ``start(useCache:readCards:)`` was called (on the build's thread only).
        private var started = false

        /// Starts opening the session with the cache (``start(useCache:readCards:)``, without the
        /// card cache) unless it was started already: a patch build opens it only when it has
        /// something to write.
        package func startIfIdle() {
            if !started { start(useCache: true, readCards: false) }
        }

        /// Starts reading the card cache on another thread, when ``start(useCache:readCards:)``
        /// did not (a patch build that did not apply).
        func readCards(useCache: Bool) {
            guard !readingCards else { return }
            readingCards = true
            cardsRead.enter()
            DispatchQueue.global().async { self.readCardCache(useCache: useCache) }
        }

        private func readCardCache(useCache: Bool) {
            cards = memo?.openCards(cacheFolder: BuildCache.folder(forOutput: output), read: useCache, cutAfterMapping: cutCardsLog)
            cardsRead.leave()
        }

        /// Waits for the card cache read after the session was opened; nil when none was started.
        func cardCache() -> (any CardMemo)? {
            guard readingCards else { return nil }
            cardsRead.wait()
            return cards
        }

        /// Waits for the session. - Throws: what opening it threw.
        package func session() throws -> OutputWriter.Session? {
            group.wait()
            return try result?.get()
        }
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func increment() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    /// The build's item cache, made once the configuration (and so the output folder) is known.
    final class ItemCacheBox: @unchecked Sendable {
        /// What opens the build cache's stores (none: nothing is reused).
        let memo: (any BuildMemo)?
        var value: (any ItemMemo)?
        init(memo: (any BuildMemo)?) { self.memo = memo }
        /// The build cache's lock (``BuildLock``).
        let lock = BuildLock()
        /// The output's session, opened early (see `prepare`).
        var opening: SessionOpening?
    }
}
