import Foundation
import HeraldModel

/// A value substituted into a format string (a record field's value, docs/cloudkit-behaviour.md §4:
/// strings, numbers and dates only).
public enum FormatArgument: Sendable, Hashable {
    /// A STRING field (or any text).
    case string(String)
    /// An INT64 field.
    case integer(Int64)
    /// A DOUBLE field.
    case double(Double)
    /// A date as milliseconds since 1970-01-01T00:00:00Z (a CloudKit TIMESTAMP).
    case timestamp(Int64)

    /// The argument as `%@` shows it, with the POSIX locale (no grouping, `.` decimal point):
    /// strings as they are; integers in decimal; doubles in their shortest round-trip form
    /// without a trailing `.0` (`3`, `2.5`, `1e+20`), `nan`, `inf`, `-inf`; timestamps in
    /// ISO 8601 UTC (`2026-11-22T02:34:16Z`, with `.SSS` when the milliseconds are not 0).
    public var text: String {
        switch self {
        case .string(let value):
            return value
        case .integer(let value):
            return String(value)
        case .double(let value):
            if value.isNaN { return "nan" }
            if value.isInfinite { return value < 0 ? "-inf" : "inf" }
            if value == value.rounded(), value.magnitude < 1e15 { return String(Int64(value)) }
            return "\(value)"
        case .timestamp(let milliseconds):
            return Self.iso8601(milliseconds: milliseconds)
        }
    }

    /// The operands that select a plural form: integers and timestamps as integers, doubles
    /// in their shortest decimal form, strings when they spell a decimal number (`"3"`,
    /// `"1.50"`); otherwise `nil`, which selects `other`.
    public var pluralOperands: PluralOperands? {
        switch self {
        case .integer(let value), .timestamp(let value): PluralOperands(value)
        case .double(let value): PluralOperands(value)
        case .string(let value): PluralOperands(decimal: value.trimmingCharacters(in: .whitespaces))
        }
    }

    /// Renders milliseconds since 1970 as ISO 8601 in UTC without Foundation formatters
    /// (proleptic Gregorian calendar, years clamped to 4+ digits as they come).
    static func iso8601(milliseconds: Int64) -> String {
        let (seconds, millis) = milliseconds.dividedFlooring(by: 1000)
        let (days, secondOfDay) = seconds.dividedFlooring(by: 86_400)
        let date = CivilDate(daysSince1970: days)
        func two(_ value: some BinaryInteger) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var text = date.year >= 0 && date.year < 10000
            ? String(repeating: "0", count: 4 - String(date.year).count) + String(date.year)
            : String(date.year)
        text += "-\(two(date.month))-\(two(date.day))T\(two(secondOfDay / 3600)):\(two(secondOfDay % 3600 / 60)):\(two(secondOfDay % 60))"
        if millis != 0 {
            text += "." + String(repeating: "0", count: 3 - String(millis).count) + String(millis)
        }
        return text + "Z"
    }
}

extension Int64 {
    /// Floor division that cannot overflow for a positive divisor.
    fileprivate func dividedFlooring(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        var quotient = self / divisor
        var remainder = self % divisor
        if remainder < 0 {
            quotient -= 1
            remainder += divisor
        }
        return (quotient, remainder)
    }
}
