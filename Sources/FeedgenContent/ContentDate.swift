/// A date from front matter: a calendar date (`2026-11-29`) or an instant
/// (`2026-11-29T10:00:00+09:00`), kept in the form the author wrote.
///
/// A calendar date is never shifted by a time zone. For ordering, a calendar date counts as its
/// midnight UTC; at equal instants a calendar date sorts before an instant, then smaller UTC
/// offsets first, so the order is total. Nothing here reads the machine's locale or time zone.
public struct ContentDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public enum Value: Sendable, Hashable {
        case calendar(year: Int, month: Int, day: Int)
        /// Seconds since 1970-01-01T00:00:00Z, the fraction in nanoseconds, and the UTC offset
        /// (in seconds) the author wrote, used to show the date and time as written.
        case instant(seconds: Int64, nanoseconds: Int32, utcOffset: Int32)
    }

    public var value: Value

    /// A calendar date; nil when it does not exist (`2026-02-30`).
    public init?(year: Int, month: Int, day: Int) {
        guard Self.isValid(year: year, month: month, day: day) else { return nil }
        value = .calendar(year: year, month: month, day: day)
    }

    /// An instant, shown at `utcOffset` seconds from UTC.
    public init(secondsSinceEpoch: Int64, nanoseconds: Int32 = 0, utcOffset: Int32 = 0) {
        value = .instant(seconds: secondsSinceEpoch, nanoseconds: nanoseconds, utcOffset: utcOffset)
    }

    /// The instant (seconds since the epoch); midnight UTC for a calendar date.
    public var secondsSinceEpoch: Int64 {
        switch value {
        case .calendar(let y, let m, let d): Self.daysFromCivil(y, m, d) * 86_400
        case .instant(let seconds, _, _): seconds
        }
    }

    /// The calendar date as written: for an instant, the date at its own UTC offset.
    public var calendarDate: (year: Int, month: Int, day: Int) {
        switch value {
        case .calendar(let y, let m, let d):
            return (y, m, d)
        case .instant(let seconds, _, let offset):
            let local = seconds + Int64(offset)
            return Self.civil(fromDays: floorDiv(local, 86_400))
        }
    }

    /// The normalised source form: `2026-11-29` or RFC 3339 (`2026-11-29T10:00:00+09:00`,
    /// `Z` for a zero offset, a fraction only when there is one).
    public var iso: String {
        switch value {
        case .calendar(let y, let m, let d):
            return Self.dateString(y, m, d)
        case .instant(let seconds, let nanos, let offset):
            let local = seconds + Int64(offset)
            let (y, m, d) = Self.civil(fromDays: floorDiv(local, 86_400))
            let secondOfDay = Int(local - floorDiv(local, 86_400) * 86_400)
            var s =
                Self.dateString(y, m, d) + "T" + pad(secondOfDay / 3600) + ":" + pad(secondOfDay / 60 % 60) + ":"
                + pad(secondOfDay % 60)
            if nanos > 0 {
                var fraction = String(nanos)
                fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
                while fraction.hasSuffix("0") { fraction.removeLast() }
                s += "." + fraction
            }
            if offset == 0 {
                s += "Z"
            } else {
                let magnitude = Int(abs(offset)) / 60
                s += (offset < 0 ? "-" : "+") + pad(magnitude / 60) + ":" + pad(magnitude % 60)
            }
            return s
        }
    }

    /// "29 November 2026" (English month names, the date as written).
    public var display: String {
        let (y, m, d) = calendarDate
        return "\(d) \(Self.monthNames[m - 1]) \(y)"
    }

    public var description: String { iso }

    public static func < (a: ContentDate, b: ContentDate) -> Bool {
        a.sortKey < b.sortKey
    }

    private var sortKey: (Int64, Int32, Int, Int32) {
        switch value {
        case .calendar: (secondsSinceEpoch, 0, 0, 0)
        case .instant(let seconds, let nanos, let offset): (seconds, nanos, 1, offset)
        }
    }

    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    // MARK: Calendar arithmetic (proleptic Gregorian; Howard Hinnant's algorithms)

    static func isValid(year: Int, month: Int, day: Int) -> Bool {
        guard (1...12).contains(month), day >= 1 else { return false }
        return day <= daysIn(month: month, year: year)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01.
    public static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = floorDiv(y, 400)
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return (Int(y), Int(m), Int(d))
    }

    static func dateString(_ y: Int, _ m: Int, _ d: Int) -> String {
        let year = String(y)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + "-" + pad(m) + "-" + pad(d)
    }
}

private func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }

private func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}
