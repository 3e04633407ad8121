import Testing

@testable import FeedgenContent

@Suite struct ContentDateTests {
    @Test func calendarDate() throws {
        let date = try #require(ContentDate.parse("2026-11-29"))
        #expect(date.value == .calendar(year: 2026, month: 11, day: 29))
        #expect(date.iso == "2026-11-29")
        #expect(date.display == "29 November 2026")
        #expect(date.secondsSinceEpoch == 1_795_910_400)
    }

    @Test(arguments: [
        ("2026-11-29T10:00:00Z", "2026-11-29T10:00:00Z", Int64(1_795_946_400), "29 November 2026"),
        ("2026-11-29t10:00:00z", "2026-11-29T10:00:00Z", 1_795_946_400, "29 November 2026"),
        ("2026-11-29T10:00:00+09:00", "2026-11-29T10:00:00+09:00", 1_795_914_000, "29 November 2026"),
        ("2026-11-29T01:30:00-08:00", "2026-11-29T01:30:00-08:00", 1_795_944_600, "29 November 2026"),
        ("2026-11-29 10:00:00", "2026-11-29T10:00:00Z", 1_795_946_400, "29 November 2026"),
        ("2026-11-29 10:00:00 +0100", "2026-11-29T10:00:00+01:00", 1_795_942_800, "29 November 2026"),
        ("2026-11-29T10:00", "2026-11-29T10:00:00Z", 1_795_946_400, "29 November 2026"),
        ("2026-11-29T10:00:00.250Z", "2026-11-29T10:00:00.25Z", 1_795_946_400, "29 November 2026"),
        ("2025-01-15T23:29:46-08:00", "2025-01-15T23:29:46-08:00", 1_737_012_586, "15 January 2025"),
        ("1969-12-31T23:59:59Z", "1969-12-31T23:59:59Z", -1, "31 December 1969"),
        ("2024-02-29T00:00:00+00:00", "2024-02-29T00:00:00Z", 1_709_164_800, "29 February 2024"),
    ])
    func instants(source: String, iso: String, seconds: Int64, display: String) throws {
        let date = try #require(ContentDate.parse(source))
        #expect(date.iso == iso)
        #expect(date.secondsSinceEpoch == seconds)
        #expect(date.display == display)
    }

    @Test(arguments: [
        "", "2026", "2026-13-01", "2026-02-30", "2025-02-29", "29/11/2026", "2026-11-29T25:00:00Z",
        "2026-11-29T10:61:00Z", "2026-11-29T10:00:00+9", "2026-11-29T10:00:00X", "2026-11-29T", "tomorrow",
        "2026-11-29T10:00:00.Z",
    ])
    func invalid(source: String) {
        #expect(ContentDate.parse(source) == nil)
    }

    @Test func orderingByInstant() throws {
        let day = try #require(ContentDate.parse("2026-11-29"))
        let midnight = try #require(ContentDate.parse("2026-11-29T00:00:00Z"))
        let tokyoMorning = try #require(ContentDate.parse("2026-11-29T08:00:00+09:00"))  // 23:00Z the day before
        let later = try #require(ContentDate.parse("2026-11-29T10:00:00Z"))
        #expect(tokyoMorning < day)
        #expect(day < midnight)  // same instant: the calendar date first
        #expect(midnight < later)
        #expect([later, day, tokyoMorning, midnight].sorted() == [tokyoMorning, day, midnight, later])
        #expect(tokyoMorning.display == "29 November 2026")
    }

    @Test func leapYearsAndFarDates() throws {
        #expect(ContentDate.parse("2000-02-29") != nil)
        #expect(ContentDate.parse("1900-02-29") == nil)
        #expect(try #require(ContentDate.parse("0001-01-01")).display == "1 January 1")
        #expect(try #require(ContentDate.parse("0001-01-01")).iso == "0001-01-01")
        for days in [-800_000, -1, 0, 1, 19_000, 2_000_000] as [Int64] {
            let (y, m, d) = ContentDate.civil(fromDays: days)
            #expect(ContentDate.daysFromCivil(y, m, d) == days)
        }
    }
}
