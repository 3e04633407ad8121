import Foundation

/// Decides whether an item is visible at the injected "now" (content-format §5): a calendar
/// `publishDate`/`expiryDate` is compared with today's date in the site's time zone, an instant
/// with the instant itself. The machine's clock and time zone are never read.
struct PublishWindow: Sendable {
    let now: ContentDate
    /// Today in the site's time zone.
    let today: (year: Int, month: Int, day: Int)

    /// Nil when `timeZone` is not a known IANA name.
    init?(now: ContentDate, timeZone: String) {
        guard let offset = Self.utcOffset(timeZone: timeZone, at: now) else { return nil }
        self.now = now
        let local = ContentDate(secondsSinceEpoch: now.secondsSinceEpoch, utcOffset: Int32(offset))
        today = local.calendarDate
    }

    /// Seconds east of UTC of `timeZone` at `instant`; nil for an unknown zone.
    static func utcOffset(timeZone: String, at instant: ContentDate) -> Int? {
        guard let zone = TimeZone(identifier: timeZone) else { return nil }
        return zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant.secondsSinceEpoch)))
    }

    static func isKnownTimeZone(_ name: String) -> Bool { TimeZone(identifier: name) != nil }

    /// A `publishDate` after now (an instant) or after today (a calendar date).
    func isFuture(_ publishDate: ContentDate) -> Bool {
        switch publishDate.value {
        case .calendar(let y, let m, let d): (y, m, d) > today
        case .instant(let seconds, let nanos, _): (seconds, nanos) > (now.secondsSinceEpoch, now.nanoseconds)
        }
    }

    /// An `expiryDate` at or before now (an instant) or on or before today (a calendar date).
    func isExpired(_ expiryDate: ContentDate) -> Bool {
        switch expiryDate.value {
        case .calendar(let y, let m, let d): (y, m, d) <= today
        case .instant(let seconds, let nanos, _):
            (seconds, nanos) <= (now.secondsSinceEpoch, now.nanoseconds)
        }
    }
}

extension ContentDate {
    /// The fraction of a second of an instant (0 for a calendar date).
    var nanoseconds: Int32 {
        if case .instant(_, let nanos, _) = value { return nanos }
        return 0
    }
}
