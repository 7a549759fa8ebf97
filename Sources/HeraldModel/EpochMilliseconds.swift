import Foundation

/// Instants as Herald's wire formats write them: whole milliseconds since
/// 1970-01-01T00:00:00Z. The one place where a `Date` becomes such a number.
public enum EpochMilliseconds {
    /// The current time, in milliseconds since 1970.
    public static func now() -> Int64 { of(Date()) }

    /// `date` in milliseconds since 1970, rounded down (towards the past) to the millisecond.
    public static func of(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }
}
