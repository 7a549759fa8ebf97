import Foundation
import HeraldModel

/// Calendar arithmetic on "nominal" times — wall-clock times written as milliseconds
/// since 1970 read in UTC — so daylight-saving changes never move them: adding a day to
/// 02:30 always gives 02:30.
///
/// Gregorian-style calendars use `CivilDate` (proleptic Gregorian, exact and fast); the
/// others use Foundation's calendar of that kind in UTC. Months and years are added to
/// the date only and the time of day is kept, and a day missing from the target month is
/// clamped to the month's last day (Jan 31 + 1 month = Feb 28 or 29), as `Calendar` does.
struct NominalCalendar: Sendable {
    let kind: RepeatCalendar
    private let foundation: Calendar?

    init(_ kind: RepeatCalendar) {
        self.kind = kind
        self.foundation = kind.isGregorianArithmetic ? nil : kind.utcCalendar
    }

    /// One step of a calendar repeat interval, in months or in years.
    struct Step: Sendable, Hashable {
        var months: Int
        var years: Int

        /// The step of a calendar repeat interval (a quarter is 3 months); `nil` for the fixed-length units.
        init?(_ interval: RepeatInterval) {
            switch interval {
            case .month: (months, years) = (1, 0)
            case .quarter: (months, years) = (3, 0)
            case .year: (months, years) = (0, 1)
            default: return nil
            }
        }
    }

    /// `nominal` plus `k` steps; `nil` past year 9999 or when the calendar cannot say.
    ///
    /// Years are added as years, not as 12 months: a Hebrew or Chinese year can have 13.
    func adding(_ k: Int, _ step: Step, to nominal: Int64) -> Int64? {
        let days = nominal >= 0 ? nominal / Self.day : (nominal + 1) / Self.day - 1
        let timeOfDay = nominal - days * Self.day
        let (months, monthOverflow) = k.multipliedReportingOverflow(by: step.months)
        let (years, yearOverflow) = k.multipliedReportingOverflow(by: step.years)
        guard !monthOverflow, !yearOverflow, months <= 200_000, years <= 10_000 else { return nil }
        let resultDays: Int64
        if let foundation {
            let start = Date(timeIntervalSince1970: Double(days) * 86_400)
            let component: Calendar.Component = years != 0 ? .year : .month
            guard let moved = foundation.date(byAdding: component, value: years != 0 ? years : months, to: start) else {
                return nil
            }
            // A whole number of days from a midnight; rounding absorbs floating-point noise.
            resultDays = Int64((moved.timeIntervalSince1970 / 86_400).rounded())
        } else {
            let date = CivilDate(daysSince1970: days)
            let total = date.year * 12 + date.month - 1 + months + years * 12
            guard total >= 0, total < 10_000 * 12 else { return nil }
            let year = total / 12
            let month = total % 12 + 1
            resultDays = CivilDate(year: year, month: month, day: min(date.day, CivilDate.daysIn(year: year, month: month)))
                .daysSince1970
        }
        let result = resultDays * Self.day + timeOfDay
        return result <= ISO8601Instant.latest ? result : nil
    }

    /// The average length of one step in this calendar, in milliseconds: a first guess
    /// for how many repeats fit in a span.
    func averageMilliseconds(_ step: Step) -> Double {
        let daysPerMonth: Double
        let daysPerYear: Double
        switch kind {
        case .islamic, .islamicCivil, .islamicTabular, .islamicUmmAlQura: (daysPerMonth, daysPerYear) = (29.530589, 354.367)
        case .chinese, .hebrew: (daysPerMonth, daysPerYear) = (29.530589, 365.2425)
        case .coptic, .ethiopicAmeteMihret: (daysPerMonth, daysPerYear) = (365.25 / 13, 365.25)
        default: (daysPerMonth, daysPerYear) = (365.2425 / 12, 365.2425)
        }
        return (daysPerMonth * Double(step.months) + daysPerYear * Double(step.years)) * Double(Self.day)
    }

    static let day: Int64 = 86_400_000
}
