import FeedgenContent
import Foundation
import Synchronization

/// How pages show a date (`date.display`): in the page's language, formatted by Foundation's
/// ICU-backed `Date.FormatStyle` (the long date style: `March 17, 2026` for `en-US`, `17 March
/// 2026` for `en-GB`, `2026年3月17日` for `ja`), in the site's time zone.
///
/// Nothing reads the machine's locale or zone: the locale is the BCP 47 tag given, the calendar
/// Gregorian, the zone the site's `timeZone`. A calendar date (`2026-03-17`) is shown as written in
/// every zone; an instant is shown on its day in the site's zone (`2026-03-17T23:30:00-08:00` is 18
/// March in `Asia/Tokyo`).
public enum DateDisplay {
    /// Styles by language and zone, made once each (a style holds its locale and calendar).
    private static let styles = Mutex<[String: Date.FormatStyle]>([:])

    /// `date` shown for a page in `language` (BCP 47) on a site whose `timeZone` is `timeZone`
    /// (an IANA name; UTC when unknown).
    public static func text(_ date: ContentDate, language: String, timeZone: String) -> String {
        switch date.value {
        case .calendar(let y, let m, let d):
            // Midnight UTC of that day, formatted in UTC: the day as written.
            return style(language: language, timeZone: "UTC")
                .format(Date(timeIntervalSince1970: TimeInterval(ContentDate.daysFromCivil(y, m, d) * 86_400)))
        case .instant(let seconds, _, _):
            return style(language: language, timeZone: timeZone).format(Date(timeIntervalSince1970: TimeInterval(seconds)))
        }
    }

    private static func style(language: String, timeZone: String) -> Date.FormatStyle {
        let key = language + "\u{0}" + timeZone
        if let style = styles.withLock({ $0[key] }) { return style }
        var calendar = Calendar(identifier: .gregorian)
        let zone = TimeZone(identifier: timeZone) ?? TimeZone(identifier: "UTC")!
        calendar.timeZone = zone
        let style = Date.FormatStyle(
            date: .long, time: .omitted, locale: Locale(identifier: language), calendar: calendar, timeZone: zone)
        styles.withLock { $0[key] = style }
        return style
    }
}
