/// The ISO 8601 date-times of the schedule wire formats, parsed and written by hand so
/// the same text means the same instant on every platform.
///
/// Accepted: `YYYY-MM-DDTHH:MM:SS`, optionally `.f` with 1 to 9 fraction digits (kept to
/// the millisecond, the rest truncated), then `Z`, `±HH:MM` or nothing. Without an offset
/// the text is a wall-clock time, which only a caller that knows the time zone can place.
/// Written: UTC with `Z`, `.SSS` only when the milliseconds are not zero.
public enum ISO8601Instant {
    /// What a date-time text denotes.
    public enum Parsed: Sendable, Hashable {
        /// An instant, milliseconds since 1970 (the text had `Z` or an offset).
        case instant(Int64)
        /// A wall-clock time without an offset, as milliseconds since 1970 read in UTC
        /// ("nominal" time): `TimeZone.instant(forWallClock:)` places it.
        case wallClock(Int64)
    }

    /// 9999-12-31T23:59:59.999Z, the latest instant four year digits can write.
    public static let latest: Int64 = 253_402_300_799_999

    /// An example for error messages.
    static let example = "e.g. 2026-03-29T02:30:00Z or 2026-03-29T03:30:00+02:00"

    /// Parses `text`.
    /// - Throws: `ModelError` (`invalidValue`) at `codingPath`, saying what is wrong.
    public static func parse(_ text: String, at codingPath: [any CodingKey] = []) throws(ModelError) -> Parsed {
        var scanner = Scanner(bytes: Array(text.utf8))
        func fail(_ why: String) -> ModelError {
            ModelError(.invalidValue, "\"\(text)\" is not an ISO 8601 date-time: \(why) (\(example))", at: codingPath)
        }
        guard let year = scanner.digits(4), scanner.take(UInt8(ascii: "-")),
            let month = scanner.digits(2), scanner.take(UInt8(ascii: "-")),
            let day = scanner.digits(2), scanner.take(UInt8(ascii: "T")),
            let hour = scanner.digits(2), scanner.take(UInt8(ascii: ":")),
            let minute = scanner.digits(2), scanner.take(UInt8(ascii: ":")),
            let second = scanner.digits(2)
        else { throw fail("expected YYYY-MM-DDTHH:MM:SS") }
        let date = CivilDate(year: year, month: month, day: day)
        guard date.isValid else { throw fail("there is no day \(day) in month \(month) of \(year)") }
        guard hour < 24, minute < 60, second < 60 else { throw fail("the time of day is out of range") }
        var milliseconds = 0
        if scanner.take(UInt8(ascii: ".")) {
            guard let (fraction, count) = scanner.fraction(), count <= 9 else {
                throw fail("expected 1 to 9 digits after the decimal point")
            }
            milliseconds = fraction
        }
        let nominal = date.daysSince1970 * 86_400_000
            + Int64(((hour * 60 + minute) * 60 + second) * 1000 + milliseconds)
        if scanner.atEnd { return .wallClock(nominal) }
        let offsetSeconds: Int
        if scanner.take(UInt8(ascii: "Z")) {
            offsetSeconds = 0
        } else if let sign = scanner.sign(), let hours = scanner.digits(2), scanner.take(UInt8(ascii: ":")),
            let minutes = scanner.digits(2)
        {
            guard hours < 24, minutes < 60 else { throw fail("the offset is out of range") }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        } else {
            throw fail("expected Z or an offset ±HH:MM after the time")
        }
        guard scanner.atEnd else { throw fail("unexpected text after the offset") }
        return .instant(nominal - Int64(offsetSeconds) * 1000)
    }

    /// `2026-03-29T01:30:00Z`, or `2026-03-29T01:30:00.250Z` when there are milliseconds.
    public static func format(_ instant: Int64) -> String {
        let (days, msOfDay) = floorDivision(instant, 86_400_000)
        let date = CivilDate(daysSince1970: days)
        let ms = Int(msOfDay % 1000)
        let seconds = Int(msOfDay / 1000)
        var text = pad(date.year, 4) + "-" + pad(date.month, 2) + "-" + pad(date.day, 2)
        text += "T" + pad(seconds / 3600, 2) + ":" + pad(seconds / 60 % 60, 2) + ":" + pad(seconds % 60, 2)
        if ms != 0 { text += "." + pad(ms, 3) }
        return text + "Z"
    }

    /// Quotient and non-negative remainder.
    static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// Reads ASCII fields from the front of the text.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        var atEnd: Bool { index == bytes.count }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// Exactly `count` decimal digits.
        mutating func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += count
            return value
        }

        /// One or more digits after a decimal point: (their value in milliseconds, how many).
        mutating func fraction() -> (Int, Int)? {
            var milliseconds = 0
            var count = 0
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                if count < 3 { milliseconds = milliseconds * 10 + Int(bytes[index] - UInt8(ascii: "0")) }
                count += 1
                index += 1
            }
            guard count > 0 else { return nil }
            for _ in count..<max(count, 3) { milliseconds *= 10 }
            return (milliseconds, count)
        }

        mutating func sign() -> Int? {
            if take(UInt8(ascii: "+")) { return 1 }
            if take(UInt8(ascii: "-")) { return -1 }
            return nil
        }
    }
}
