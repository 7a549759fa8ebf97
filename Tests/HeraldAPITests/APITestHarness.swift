import Foundation
import HeraldMatcher
import HeraldModel
import HeraldPush
import HeraldReader
import HeraldTestSupport
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

@testable import HeraldAPI

/// Everything one API test needs: the API over an in-memory store and fakes, a router, and
/// tokens.
struct APITestHarness: Sendable {
    static let container = "iCloud.com.example.notes"
    static let otherContainer = "iCloud.com.example.other"
    static let secret = "herald-api-tests-secret-0123456789abcdef"
    static let changeTokenKey = String(repeating: "0123456789abcdef", count: 4)

    let store: NotificationStore
    let publisher: InMemoryPublisher
    let directory: InMemoryDirectory
    let schedules: InMemorySchedules
    let badges: InMemoryBadges
    let devices: InMemoryDevices
    let notifier: StreamNotifier
    let authenticator: APIAuthenticator
    let api: HeraldAPI
    /// The clock of `readAt` / `requestedAt`: 1 795 300 000 000 ms.
    static let now = Date(timeIntervalSince1970: 1_795_300_000)

    /// - Parameter databasePath: a SQLite file for the store; `nil`: in memory.
    init(
        limits: APILimits = APILimits(), retention: RetentionPolicy = RetentionPolicy(), databasePath: String? = nil,
        deviceRules: DeviceRules = DeviceRules()
    ) async throws {
        let signer = try ChangeTokenSigner(keyString: Self.changeTokenKey)
        store = try databasePath.map { try NotificationStore(path: $0, tokenSigner: signer, retention: retention) }
            ?? NotificationStore.inMemory(tokenSigner: signer, retention: retention)
        directory = InMemoryDirectory()
        schedules = InMemorySchedules()
        publisher = InMemoryPublisher(directory: directory, schedules: schedules)
        badges = InMemoryBadges()
        devices = InMemoryDevices(rules: deviceRules)
        notifier = StreamNotifier()
        authenticator = try await APIAuthenticator(secret: Self.secret)
        api = HeraldAPI(
            store: store, badges: badges, publisher: publisher, directory: directory, schedules: schedules,
            notifier: notifier, authenticator: authenticator, limits: limits, devices: devices, now: { Self.now })
    }

    /// An application whose router holds `ErrorBodyMiddleware` and the API's routes (and
    /// nothing else), served with `HeraldAPI.httpConfiguration` as `herald run` does.
    func application() -> some ApplicationProtocol {
        let router = Router()
        router.add(middleware: ErrorBodyMiddleware())
        api.addRoutes(to: router)
        return Application(router: router, server: .http1(configuration: HeraldAPI.httpConfiguration))
    }

    /// `Authorization` for `user` in `container`.
    func authorization(_ user: String = "_u1", container: String = container, ttl: Duration = .seconds(600)) async throws -> HTTPFields {
        let token = try await authenticator.issueToken(user: user, container: container, ttl: ttl)
        return [.authorization: "Bearer \(token)"]
    }

    /// Appends notifications 0..<count (or the given sequences) to `user`'s stream.
    @discardableResult
    func addNotifications(_ user: String = "_u1", sequences: some Sequence<Int64>, container: String = container) async throws -> StoreChanges {
        let changes = try await store.apply(StoreBatch(notifications: sequences.map { Self.notification(user, $0, container: container) }))
        notifier.streamsGrew(changes.grownStreams.keys)
        return changes
    }

    static func notification(_ recipient: String, _ sequence: Int64, container: String = container) -> HeraldNotification {
        var n = HeraldNotification(
            notificationID: "n-\(recipient)-\(sequence)", notificationType: .database, containerIdentifier: container,
            recipient: recipient, sequence: sequence, createdAt: 1_795_300_000_000 + sequence,
            subscriptionID: "all-changes", subscriptionOwnerUserRecordID: recipient)
        n.databaseScope = .private
        n.alertBody = "change \(sequence)"
        return n
    }

    static func path(_ suffix: String, container: String = container) -> String {
        "/v1/containers/\(container)/\(suffix)"
    }
}

/// The JSON error body.
struct ErrorJSON: Decodable, Equatable {
    var serverErrorCode: String
    var reason: String
    var uuid: String
}

/// A fetch page decoded.
struct PageJSON: Decodable {
    var notifications: [HeraldNotification]
    var serverChangeToken: String
    var moreComing: Bool
}

extension TestResponse {
    /// The body decoded as `type` (a test failure if it does not decode).
    func json<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: Data(body.readableBytesView))
    }

    /// The JSON error body, after checking the status and that it is JSON.
    func error(_ status: HTTPResponse.Status, sourceLocation: SourceLocation = #_sourceLocation) throws -> ErrorJSON {
        #expect(self.status == status, "body: \(String(buffer: body))", sourceLocation: sourceLocation)
        #expect(headers[.contentType] == "application/json", sourceLocation: sourceLocation)
        let error = try json(ErrorJSON.self)
        #expect(!error.uuid.isEmpty, sourceLocation: sourceLocation)
        #expect(!error.reason.isEmpty, sourceLocation: sourceLocation)
        return error
    }

    var text: String { String(buffer: body) }
}

extension ByteBuffer {
    /// JSON bytes of a literal, e.g. `.json(["badge": 3])`.
    static func json(_ value: JSONValue) throws -> ByteBuffer {
        ByteBuffer(bytes: try WireCodec().encode(value))
    }
}

/// What the API published, in order; with `failing`, every publish throws.
final class InMemoryPublisher: HeraldPublisher {
    enum Message: Equatable, Sendable {
        case subscription(Subscription)
        case tombstone(String)
        case read(NotificationRead)
        case badgeReset(BadgeReset)
        case schedule(Schedule)
        /// A schedule tombstone: its key.
        case scheduleTombstone(String)
        case location(DeviceLocation)
    }

    struct Unavailable: Error {}

    private let state = Mutex<(messages: [Message], failing: Bool)>(([], false))
    /// Subscriptions and tombstones are applied to it, as the match stage would.
    let directory: InMemoryDirectory
    /// Schedules and their tombstones are applied to it, as the API's table would.
    let schedules: InMemorySchedules

    init(directory: InMemoryDirectory, schedules: InMemorySchedules = InMemorySchedules()) {
        self.directory = directory
        self.schedules = schedules
    }

    var messages: [Message] { state.withLock { $0.messages } }

    var failing: Bool {
        get { state.withLock { $0.failing } }
        set { state.withLock { $0.failing = newValue } }
    }

    private func record(_ message: Message) throws {
        try state.withLock { state in
            if state.failing { throw Unavailable() }
            state.messages.append(message)
        }
    }

    func publish(subscription: Subscription) async throws {
        try record(.subscription(subscription))
        try directory.upsert(subscription)
    }

    func deleteSubscription(_ subscription: Subscription) async throws {
        try record(.tombstone(subscription.partitionKey))
        directory.remove(key: subscription.partitionKey)
    }

    func publish(read: NotificationRead) async throws { try record(.read(read)) }

    func publish(badgeReset: BadgeReset) async throws { try record(.badgeReset(badgeReset)) }

    func publish(schedule: Schedule) async throws {
        try record(.schedule(schedule))
        schedules.put(schedule)
    }

    func deleteSchedule(_ schedule: Schedule) async throws {
        try record(.scheduleTombstone(schedule.partitionKey))
        schedules.remove(key: schedule.partitionKey)
    }

    func publish(location: DeviceLocation) async throws { try record(.location(location)) }
}

/// The API's schedule table, in memory.
final class InMemorySchedules: ScheduleDirectory {
    private let byKey = Mutex<[String: Schedule]>([:])

    func put(_ schedule: Schedule) {
        byKey.withLock { $0[schedule.partitionKey] = schedule }
    }

    func remove(key: String) {
        _ = byKey.withLock { $0.removeValue(forKey: key) }
    }

    func schedule(forKey key: String) -> Schedule? {
        byKey.withLock { $0[key] }
    }

    func schedules(recipient: String, container: String) -> [Schedule] {
        byKey.withLock { $0.values.filter { $0.recipient == recipient && $0.container == container } }
    }
}

/// The match stage's table, over the matcher's `SubscriptionIndex`.
final class InMemoryDirectory: SubscriptionDirectory {
    private let index = Mutex(SubscriptionIndex())

    func upsert(_ subscription: Subscription) throws(MatcherError) {
        try index.withLock { index throws(MatcherError) in try index.upsert(subscription) }
    }

    func remove(key: String) {
        index.withLock { $0.remove(key: key) }
    }

    func subscription(forKey key: String) -> Subscription? {
        index.withLock { $0.subscription(forKey: key) }
    }

    func subscriptions(container: String, database: DatabaseScope, owner: String) -> [Subscription] {
        index.withLock { index in
            index.all.filter { $0.container == container && $0.database == database && $0.ownerRecordName == owner }
        }
    }

    func validate(_ subscription: Subscription) throws(MatcherError) {
        _ = try index.withLock { index throws(MatcherError) in try index.validate(subscription) }
    }
}

/// Badges by user; `failing` makes reads throw.
final class InMemoryBadges: BadgeReading {
    struct Broken: Error {}

    private let state = Mutex<(badges: [String: Int], failing: Bool)>(([:], false))

    func set(_ badge: Int, for user: String) {
        state.withLock { $0.badges[user] = badge }
    }

    var failing: Bool {
        get { state.withLock { $0.failing } }
        set { state.withLock { $0.failing = newValue } }
    }

    func badge(recipient: String, container: String) async throws -> Int {
        try state.withLock { state in
            if state.failing { throw Broken() }
            return state.badges[recipient] ?? 0
        }
    }
}
