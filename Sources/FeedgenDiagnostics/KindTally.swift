/// `KindTally`: how many problems of each kind (``Diagnostic/kind``) a list holds, the summary
/// printed after the first problems of a long list; and what of a list is printed
/// (``Diagnostics/printed(limit:droppingNotes:)``).
import FeedgenStorage

/// The count of each kind of problem in a list of diagnostics, in the order the kinds were
/// first counted. Kept with a build's report and its snapshot, so that a build whose
/// diagnostics are mostly the last build's updates the counts by the few that changed.
public struct KindTally: Sendable, Equatable {
    /// A severity and the ``Diagnostic/kind(of:)`` of a message, equal when their bytes are.
    public struct Kind: Hashable, Sendable {
        public let severity: Severity
        public let text: String
        let digest: UInt64

        public init(severity: Severity, text: String) {
            self.severity = severity
            self.text = text
            digest = StableHasher.digest(text)
        }

        // A String key hashes non-ASCII text through Unicode normalization: a digest of the
        // bytes, made once, instead.
        public func hash(into hasher: inout Hasher) { hasher.combine(digest) }

        public static func == (a: Kind, b: Kind) -> Bool {
            a.digest == b.digest && a.severity == b.severity && a.text.sameBytes(as: b.text)
        }
    }

    public private(set) var kinds: [Kind] = []
    /// Per kind: how many (0 when all of it were removed).
    public private(set) var counts: [Int] = []
    private var slot: [Kind: Int] = [:]

    public init() {}

    public static func == (a: KindTally, b: KindTally) -> Bool { a.kinds == b.kinds && a.counts == b.counts }

    /// Adds `n` problems of `kind` (a negative `n` removes them).
    public mutating func add(_ kind: Kind, _ n: Int) {
        if let k = slot[kind] {
            counts[k] += n
        } else {
            slot[kind] = kinds.count
            kinds.append(kind)
            counts.append(n)
        }
    }

    /// Whether the two count the same kinds the same number of times, in any order.
    public func sameCounts(as other: KindTally) -> Bool {
        func nonZero(_ t: KindTally) -> [Kind: Int] {
            Dictionary(zip(t.kinds, t.counts).filter { $0.1 != 0 }, uniquingKeysWith: +)
        }
        return nonZero(self) == nonZero(other)
    }

    public mutating func add(_ d: Diagnostic) { add(Kind(severity: d.severity, text: Diagnostic.kind(of: d.message)), 1) }

    public mutating func remove(_ d: Diagnostic) { add(Kind(severity: d.severity, text: Diagnostic.kind(of: d.message)), -1) }

    /// The tally of `list`, its kinds in the order they first appear in it.
    public static func counting(_ list: [Diagnostic]) -> KindTally {
        // A message repeats (a missing path linked from many pages): the kind of each distinct
        // one is made once, on every core. Messages are told apart by their bytes.
        // Counted in two halves on two cores for a long list, the second half's then added to
        // the first's: the distinct messages stay in the order they first appear.
        let halves = list.count < 4096 ? 1 : 2
        let counted = parallelMap(halves) { h in
            let half = (list.count + 1) / 2
            let part = halves == 1 ? list[...] : h == 0 ? list[..<half] : list[half...]
            var counted = KindTally()
            counted.slot.reserveCapacity(part.count / 2)
            for d in part { counted.add(Kind(severity: d.severity, text: d.message), 1) }
            return counted
        }
        var messages = counted[0]
        for half in counted.dropFirst() {
            for (k, message) in half.kinds.enumerated() { messages.add(message, half.counts[k]) }
        }
        let distinct = messages.kinds
        let kindsOfDistinct = parallelMap(distinct.count) { k in
            Kind(severity: distinct[k].severity, text: Diagnostic.kind(of: distinct[k].text))
        }
        var tally = KindTally()
        for (k, kind) in kindsOfDistinct.enumerated() { tally.add(kind, messages.counts[k]) }
        return tally
    }

    /// Each kind as printed (`warning: …`) with its count, most frequent first (then by the
    /// kind's bytes); `strict` counts warnings as errors, `droppingNotes` leaves notes out.
    /// Kinds equal as Strings (canonically equivalent) are one, printed as the first one counted:
    /// when the tally's order is not the printed list's (`inPrintedOrder` false), nil then.
    func lines(strict: Bool, droppingNotes: Bool, inPrintedOrder: Bool) -> [(kind: String, count: Int)]? {
        var merged = KindTally()
        for (k, kind) in kinds.enumerated() where counts[k] != 0 && !(droppingNotes && kind.severity == .note) {
            merged.add(strict && kind.severity == .warning ? Kind(severity: .error, text: kind.text) : kind, counts[k])
        }
        var shown: [String] = []
        var totals: [Int] = []
        var slotOf: [String: Int] = [:]
        for (k, kind) in merged.kinds.enumerated() {
            let text = kind.severity.rawValue + ": " + kind.text
            if let s = slotOf[text] {
                guard inPrintedOrder || shown[s].sameBytes(as: text) else { return nil }
                totals[s] += merged.counts[k]
            } else {
                slotOf[text] = shown.count
                shown.append(text)
                totals.append(merged.counts[k])
            }
        }
        return zip(shown, totals).map { (kind: $0, count: $1) }.sorted { a, b in
            a.count != b.count ? a.count > b.count : a.kind.utf8.lexicographicallyPrecedes(b.kind.utf8)
        }
    }
}

/// What a terminal prints of a list of diagnostics (``Diagnostics/printed(limit:droppingNotes:)``).
public struct PrintedDiagnostics {
    /// The first ones, in printing order.
    public let shown: [Diagnostic]
    /// How many there are to print in all.
    public let total: Int
    let order: () -> [Int]
    let make: ([Int]) -> [Diagnostic]
    let tally: KindTally?
    let droppingNotes: Bool

    /// Each kind of problem of all to print (``Diagnostic/kind``, `strict`: warnings as errors)
    /// with its count, most frequent first, then by kind.
    public func kinds(strict: Bool) -> [(kind: String, count: Int)] {
        if let tally, let lines = tally.lines(strict: strict, droppingNotes: droppingNotes, inPrintedOrder: false) { return lines }
        var all = make(order())
        if strict { for k in all.indices where all[k].severity == .warning { all[k].severity = .error } }
        return KindTally.counting(all).lines(strict: false, droppingNotes: false, inPrintedOrder: true)!
    }
}

extension Diagnostics {
    /// What is printed of the list: in ``sorted`` order, without notes when `droppingNotes`; when
    /// there are more than `limit`, the errors first, so that none hides behind warnings. Only
    /// the first `limit` are made (a packed part's others stay packed).
    public func printed(limit: Int, droppingNotes: Bool) -> PrintedDiagnostics {
        let (severities, make) = inOrder()
        let shows = { (k: Int) in !droppingNotes || severities[k] != .note }
        let total = droppingNotes ? severities.count { $0 != .note } : severities.count
        var errorsFirst = false
        if total > limit, let firstOther = severities.indices.first(where: { shows($0) && severities[$0] != .error }) {
            errorsFirst = severities[firstOther...].contains(.error)
        }
        // The places printed in order: all of them only for a count of kinds made here.
        func order(upTo n: Int) -> [Int] {
            var order: [Int] = []
            if errorsFirst {
                for k in severities.indices where severities[k] == .error {
                    if order.count == n { return order }
                    order.append(k)
                }
            }
            for k in severities.indices where shows(k) && !(errorsFirst && severities[k] == .error) {
                if order.count == n { return order }
                order.append(k)
            }
            return order
        }
        return PrintedDiagnostics(
            shown: make(order(upTo: limit)), total: total, order: { order(upTo: Int.max) }, make: make, tally: kinds,
            droppingNotes: droppingNotes)
    }
}
