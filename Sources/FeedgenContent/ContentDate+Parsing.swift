import Foundation

/// Reading front-matter dates in the forms Jekyll and Hugo accept when the order is year, month,
/// day (content-format §5.1), and the message that lists them.
extension ContentDate {
    /// What an invalid date's error says is accepted.
    public static let acceptedForms =
        "expected a date as year-month-day (2026-03-17, 2026-3-7 or 2026/03/17), optionally followed by a time "
        + "(T or spaces, then 9:30, 09:30:15 or 09:30:15.250) and a zone (Z, UTC, GMT, +09:00, +0900 or -08); "
        + "a time without a zone is in the site's timeZone"

    /// Parses a front-matter date:
    ///
    /// - a calendar date `YYYY-M-D` or `YYYY/M/D` (four-digit year; one- or two-digit month and day;
    ///   one separator throughout), never shifted by a time zone;
    /// - a date-time: that date, `T`/`t` or one or more spaces, `h:mm` or `h:mm:ss(.fraction)` (one- or
    ///   two-digit hour), optional spaces, then an optional zone: `Z`/`z`, `UTC`, `GMT`, or `±hh`,
    ///   `±hhmm`, `±hh:mm`. RFC 3339, YAML's timestamps, Ruby's `Time.parse` output
    ///   (`2013-11-22 5:00:00 +0000`, Jekyll) and Hugo's `2006-01-02 15:04:05 -0700` are all of this form.
    ///
    /// A date-time without a zone is wall-clock time in `timeZone` (the site's `timeZone`, as in
    /// Jekyll and Hugo); UTC when nil. Nil for anything else (`17/03/2026`, a stray word).
    public static func parse(_ text: String, timeZone: TimeZone? = nil) -> ContentDate? {
        let b = Array(text.utf8)
        var i = 0
        func digits(_ range: ClosedRange<Int>, more: Bool = false) -> Int? {
            var n = 0
            var count = 0
            while i < b.count, count < range.upperBound, b[i] >= 0x30, b[i] <= 0x39 {
                n = n * 10 + Int(b[i] - 0x30)
                count += 1
                i += 1
            }
            // A longer run of digits than allowed is not this field (unless `more`: `+0900`).
            if !more, i < b.count, b[i] >= 0x30, b[i] <= 0x39 { return nil }
            return count >= range.lowerBound ? n : nil
        }
        func take(_ c: UInt8) -> Bool {
            guard i < b.count, b[i] == c else { return false }
            i += 1
            return true
        }
        func takeWord(_ word: String) -> Bool {
            let w = Array(word.utf8)
            guard i + w.count <= b.count, b[i..<(i + w.count)].elementsEqual(w) else { return false }
            i += w.count
            return true
        }
        guard let year = digits(4...4), i < b.count, b[i] == 0x2D || b[i] == 0x2F else { return nil }
        let separator = b[i]
        i += 1
        guard let month = digits(1...2), take(separator), let day = digits(1...2),
            isValid(year: year, month: month, day: day)
        else { return nil }
        if i == b.count { return ContentDate(year: year, month: month, day: day) }

        if !(take(0x54) || take(0x74)) {  // T, t, or spaces
            guard take(0x20) else { return nil }
            while take(0x20) {}
        }
        guard let hour = digits(1...2), take(0x3A), let minute = digits(2...2), hour < 24, minute < 60 else { return nil }
        var second = 0
        var nanos: Int32 = 0
        if take(0x3A) {
            guard let s = digits(2...2), s <= 60 else { return nil }
            second = s
            if take(0x2E) {
                var count = 0
                var value = 0
                while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                    if count < 9 { value = value * 10 + Int(b[i] - 0x30) }
                    count += 1
                    i += 1
                }
                guard count > 0 else { return nil }
                for _ in min(count, 9)..<9 { value *= 10 }
                nanos = Int32(value)
            }
        }
        while take(0x20) {}
        var offset: Int?
        if i < b.count {
            if take(0x5A) || take(0x7A) || takeWord("UTC") || takeWord("GMT") {
                offset = 0
            } else {
                let negative: Bool
                if take(0x2B) {
                    negative = false
                } else if take(0x2D) {
                    negative = true
                } else {
                    return nil
                }
                guard let oh = digits(2...2, more: true), oh < 24 else { return nil }
                var om = 0
                if i < b.count {
                    _ = take(0x3A)
                    guard let m = digits(2...2), m < 60 else { return nil }
                    om = m
                }
                offset = (oh * 60 + om) * 60 * (negative ? -1 : 1)
            }
        }
        guard i == b.count else { return nil }
        let local = daysFromCivil(year, month, day) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        let utcOffset = offset ?? timeZone.map { zoneOffset($0, wallClock: local) } ?? 0
        return ContentDate(secondsSinceEpoch: local - Int64(utcOffset), nanoseconds: nanos, utcOffset: Int32(utcOffset))
    }

    /// The offset of `zone` (seconds east of UTC) in force at the wall-clock time `local` (seconds
    /// since 1970-01-01 00:00 in that zone). In a gap or overlap of a daylight-saving change, the
    /// offset in force just before it.
    static func zoneOffset(_ zone: TimeZone, wallClock local: Int64) -> Int {
        let guess = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(local)))
        return zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(local - Int64(guess))))
    }
}
