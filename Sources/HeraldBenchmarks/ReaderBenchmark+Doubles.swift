import HeraldAPI
import HeraldMatcher
import HeraldModel
import Synchronization

// The reader benchmark's stand-ins for what it does not measure: publishing to Kafka, the
// subscription and schedule directories (the fetch path reads none of them).

/// Publishes nothing.
struct NoPublisher: HeraldPublisher {
    func publish(subscription: Subscription) async throws {}
    func deleteSubscription(_ subscription: Subscription) async throws {}
    func publish(read: NotificationRead) async throws {}
    func publish(badgeReset: BadgeReset) async throws {}
    func publish(schedule: Schedule) async throws {}
    func deleteSchedule(_ schedule: Schedule) async throws {}
    func publish(location: DeviceLocation) async throws {}
}

/// Knows no schedule.
struct NoSchedules: ScheduleDirectory {
    func schedule(forKey key: String) -> Schedule? { nil }
    func schedules(recipient: String, container: String) -> [Schedule] { [] }
}

/// Knows no subscription and accepts every one.
struct NoDirectory: SubscriptionDirectory {
    func subscription(forKey key: String) -> Subscription? { nil }
    func subscriptions(container: String, database: DatabaseScope, owner: String) -> [Subscription] { [] }
    func validate(_ subscription: Subscription) throws(MatcherError) {}
}

/// The server's port, once it listens.
final class PortBox: Sendable {
    private let value = Mutex<Int?>(nil)
    func set(_ port: Int?) { value.withLock { $0 = port } }
    func wait() async throws -> Int {
        for _ in 0..<200 {
            if let port = value.withLock({ $0 }) { return port }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw BenchmarkError("the benchmark's HTTP server did not start")
    }
}
