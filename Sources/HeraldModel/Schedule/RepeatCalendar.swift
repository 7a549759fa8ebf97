import Foundation

/// The calendars a schedule may repeat in (`repeatCalendar` on the wire): the names of
/// Foundation's `Calendar.Identifier` cases. Absent on the wire: `gregorian`.
///
/// `ethiopicAmeteAlem` is refused: Foundation on Linux (swift-corelibs, Swift 6.3) reports
/// Gregorian dates for it, so month and year repeats would silently be Gregorian ones.
/// Every case here is checked against known dates by the model tests.
public enum RepeatCalendar: String, WireEnum {
    case gregorian, buddhist, chinese, coptic, ethiopicAmeteMihret, hebrew, iso8601, indian
    case islamic, islamicCivil, japanese, persian, republicOfChina, islamicTabular, islamicUmmAlQura

    public static var wireName: String { "repeatCalendar" }

    /// The Foundation identifier.
    public var identifier: Calendar.Identifier {
        switch self {
        case .gregorian: .gregorian
        case .buddhist: .buddhist
        case .chinese: .chinese
        case .coptic: .coptic
        case .ethiopicAmeteMihret: .ethiopicAmeteMihret
        case .hebrew: .hebrew
        case .iso8601: .iso8601
        case .indian: .indian
        case .islamic: .islamic
        case .islamicCivil: .islamicCivil
        case .japanese: .japanese
        case .persian: .persian
        case .republicOfChina: .republicOfChina
        case .islamicTabular: .islamicTabular
        case .islamicUmmAlQura: .islamicUmmAlQura
        }
    }

    /// Whether month and year arithmetic is the proleptic Gregorian one (`CivilDate`),
    /// which needs no Foundation calendar (the Buddhist, Japanese and Republic of China
    /// calendars only number the years differently).
    public var isGregorianArithmetic: Bool {
        switch self {
        case .gregorian, .iso8601, .buddhist, .japanese, .republicOfChina: true
        default: false
        }
    }

    /// A calendar of this kind in UTC, for "nominal" (wall-clock-as-UTC) arithmetic.
    public var utcCalendar: Calendar {
        var calendar = Calendar(identifier: identifier)
        calendar.timeZone = TimeZone(identifier: "GMT") ?? calendar.timeZone
        return calendar
    }
}
