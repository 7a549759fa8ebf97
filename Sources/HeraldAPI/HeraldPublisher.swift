import HeraldModel

/// Where the API hands what clients ask for: the compacted `subscriptions` and `schedules`
/// topics, the `notification-reads`, `badge-resets` and `locations` topics (docs/ARCHITECTURE.md §1.2). The
/// pipeline implements it with a Kafka producer; tests with memory.
///
/// Every call returns once the message is durably accepted (acknowledged), or throws; the
/// API then answers `SERVICE_UNAVAILABLE` (503) and the client retries. Called
/// concurrently from request handlers.
public protocol HeraldPublisher: Sendable {
    /// Writes `subscription` under its `partitionKey` (an upsert on the compacted topic).
    func publish(subscription: Subscription) async throws
    /// Writes a tombstone (null value) for the subscription's key
    /// (`container/database/owner/subscriptionID`).
    func deleteSubscription(_ subscription: Subscription) async throws
    /// Writes a read mark, keyed by its recipient.
    func publish(read: NotificationRead) async throws
    /// Writes a badge reset, keyed by its recipient.
    func publish(badgeReset: BadgeReset) async throws
    /// Writes `schedule` under its `partitionKey` (an upsert on the compacted topic), on the
    /// partition of its recipient so it is co-partitioned with the user's other topics.
    func publish(schedule: Schedule) async throws
    /// Writes a tombstone for `schedule`'s key, on the same partition as the schedule.
    func deleteSchedule(_ schedule: Schedule) async throws
    /// Writes a device location, keyed by its recipient.
    func publish(location: DeviceLocation) async throws
}
