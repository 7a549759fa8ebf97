import ArgumentParser
import Foundation

/// Parses a duration argument: a whole number and a unit — `ms`, `s`, `m`, `h` or `d` —
/// such as `500ms`, `90s`, `12h` or `3d`.
enum DurationArgument {
    private static let units: [(suffix: String, seconds: Int64, milliseconds: Int64)] = [
        ("ms", 0, 1), ("s", 1, 0), ("m", 60, 0), ("h", 3_600, 0), ("d", 86_400, 0),
    ]

    /// The duration `text` names.
    /// - Throws: `ValidationError` naming `option` and the accepted forms.
    static func parse(_ text: String, option: String) throws -> Duration {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        let unit = trimmed.dropFirst(digits.count)
        guard !digits.isEmpty, let value = Int64(digits),
            let match = units.first(where: { $0.suffix == unit })
        else {
            throw ValidationError(
                "\(option) expects a whole number and a unit (ms, s, m, h, d), e.g. 3d, 12h, 90s or 500ms; got '\(text)'")
        }
        let (seconds, secondsOverflow) = value.multipliedReportingOverflow(by: match.seconds)
        guard !secondsOverflow, seconds <= Int64.max / 1_000 else {
            throw ValidationError("\(option) is too long: '\(text)'")
        }
        return match.milliseconds > 0 ? .milliseconds(value) : .seconds(seconds)
    }
}
