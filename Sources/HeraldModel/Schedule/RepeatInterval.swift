/// How often a schedule repeats: a calendar unit, as UILocalNotification's
/// `repeatInterval` (docs/cloudkit-behaviour.md §10). Absent means the schedule fires once.
///
/// On the wire the unit's name; the `NSCalendarUnit` numbers are accepted too (minute 64,
/// hour 32, day 16, weekday 512, week 8192 or the legacy 256, month 8, quarter 2048,
/// year 4), and `0` or `"none"` mean once. Units under a minute are refused.
///
/// `weekday` adds one weekday unit, which Foundation's `Calendar` treats as one day, so
/// a `weekday` schedule repeats **daily**, as UILocalNotification did — not on working days.
public enum RepeatInterval: String, Sendable, Hashable, CaseIterable {
    case minute, hour, day, weekday, week, month, quarter, year

    /// The length of the unit when it is a fixed number of milliseconds (minute, hour,
    /// day, weekday, week); `nil` for the calendar units month, quarter (3 months) and
    /// year, whose length depends on the calendar and the date.
    public var fixedMilliseconds: Int64? {
        switch self {
        case .minute: 60_000
        case .hour: 3_600_000
        case .day, .weekday: 86_400_000
        case .week: 7 * 86_400_000
        case .month, .quarter, .year: nil
        }
    }

    /// The `NSCalendarUnit` raw value.
    public var calendarUnitValue: Int {
        switch self {
        case .minute: 64
        case .hour: 32
        case .day: 16
        case .weekday: 512
        case .week: 8192
        case .month: 8
        case .quarter: 2048
        case .year: 4
        }
    }

    /// Units too short to repeat on, by name and `NSCalendarUnit` value.
    private static let underAMinute: [(name: String, value: Int)] = [("second", 128), ("nanosecond", 32768)]

    /// Reads the wire form: a name, an `NSCalendarUnit` number, or `0` / `"none"` (returns `nil`: once).
    /// - Throws: `ModelError` at `codingPath`: `invalidValue` for a unit under a minute,
    ///   `unknownValue` (listing the accepted names) for anything else.
    public static func wire(_ json: JSONValue, at codingPath: [any CodingKey]) throws(ModelError) -> RepeatInterval? {
        switch json {
        case .null:
            return nil
        case .string("none"), .integer(0):
            return nil
        case .string(let name):
            if let interval = RepeatInterval(rawValue: name) { return interval }
            if underAMinute.contains(where: { $0.name == name }) { throw tooShort(name, at: codingPath) }
        case .integer(let value):
            if value == 256 { return .week }
            if let interval = allCases.first(where: { Int64($0.calendarUnitValue) == value }) { return interval }
            if let unit = underAMinute.first(where: { Int64($0.value) == value }) { throw tooShort(unit.name, at: codingPath) }
        default:
            break
        }
        let accepted = allCases.map(\.rawValue).joined(separator: ", ")
        throw ModelError(
            .unknownValue,
            "unknown repeatInterval \(json.abbreviated()) (expected one of: \(accepted), none or 0, or their NSCalendarUnit numbers)",
            at: codingPath)
    }

    private static func tooShort(_ name: String, at codingPath: [any CodingKey]) -> ModelError {
        ModelError(.invalidValue, "repeatInterval \(name) is under a minute; the shortest is minute", at: codingPath)
    }
}
