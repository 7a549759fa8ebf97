/// When the APNs client mints a new provider token. Apple accepts a token for an hour and
/// answers `TooManyProviderTokenUpdates` to a provider that changes it more often than every
/// 20 minutes; so a token is reused for 50 minutes, and replaced early after an
/// `ExpiredProviderToken` only once it is at least 20 minutes old.
public struct ProviderTokenRule: Sendable, Hashable {
    /// Age at which a token is replaced anyway. Default 50 minutes.
    public var refreshAfter: Duration = .seconds(50 * 60)
    /// The youngest a token may be replaced at. Default 20 minutes.
    public var minimumAge: Duration = .seconds(20 * 60)

    /// The defaults above.
    public init() {}

    /// Whether a token of `age` must be replaced; `rejected` when APNs refused it as expired.
    public func isDue(age: Duration, rejected: Bool) -> Bool {
        age >= refreshAfter || (rejected && age >= minimumAge)
    }
}
