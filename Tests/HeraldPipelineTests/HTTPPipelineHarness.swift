import Foundation
import HeraldAPI
import HeraldDelivery
import HeraldKafka
import HeraldModel
import HeraldPipeline
import HeraldReader
import HeraldTestSupport
import Hummingbird
import HummingbirdTesting
import ServiceLifecycle

/// The whole path with the real HTTP API on the embedded broker: the subscription table and
/// its loader, the match and compose stages, the user directory and the reader, behind a
/// `HeraldAPI` whose publisher writes to Kafka.
struct HTTPPipelineHarness {
    let fixture: PipelineFixture
    let producer: KafkaProducer
    let store: NotificationStore
    let table = SubscriptionTable()
    let notifier = StreamNotifier()
    let authenticator: APIAuthenticator
    let application: Application<RouterResponder<BasicRequestContext>>
    private let services: [any Service]

    init(fixture: PipelineFixture) async throws {
        self.fixture = fixture
        let catalog = fixture.catalog
        producer = try fixture.producer()
        store = try NotificationStore.inMemory(tokenSigner: try ChangeTokenSigner(keyString: String(repeating: "cd", count: 32)))
        let users = UserDirectory()
        let dead = catalog.name(TopicCatalog.deadLetters)
        let (table, notifier, store, producer) = (table, notifier, store, producer)
        services = [
            SubscriptionTableLoader(
                table: table, consumer: try fixture.consumer(group: "table"), producer: producer,
                topic: catalog.name(TopicCatalog.subscriptions), partitions: catalog.partitions, deadLetterTopic: dead,
                readiness: nil, logger: fixture.logger),
            StageRunner(
                configuration: StageConfiguration(name: "match", inputTopics: [catalog.name(TopicCatalog.recordChanges)], deadLetterTopic: dead),
                processor: MatchProcessor(table: table, matchesTopic: catalog.name(TopicCatalog.matches), subscriptionsTopic: catalog.name(TopicCatalog.subscriptions)),
                consumer: try fixture.consumer(group: "match"), producer: producer, logger: fixture.logger),
            CompactedTopicFollower(
                name: "users", consumer: try fixture.consumer(group: "users"), producer: producer,
                topic: catalog.name(TopicCatalog.users), partitions: catalog.partitions, deadLetterTopic: dead,
                readiness: nil, logger: fixture.logger, onReady: { users.gate.open() }, apply: { message throws(Rejection.Reason) in try users.apply(message) }),
            StageRunner(
                configuration: StageConfiguration(
                    name: "compose", inputTopics: [catalog.name(TopicCatalog.matches), catalog.name(TopicCatalog.badgeResets)], deadLetterTopic: dead),
                processor: ComposeProcessor(
                    topics: .init(catalog),
                    delivery: Delivery(), users: users,
                    changelog: ChangelogReader { try fixture.consumer(group: "restore-\(UUID().uuidString)") }),
                consumer: try fixture.consumer(group: "compose"), producer: producer, logger: fixture.logger),
            ReaderService(
                store: store, consumer: try fixture.consumer(group: "reader"), producer: producer,
                topics: .init(
                    notifications: catalog.name(TopicCatalog.notifications), reads: catalog.name(TopicCatalog.notificationReads),
                    composeState: catalog.name(TopicCatalog.composeState)),
                partitions: catalog.partitions, deadLetterTopic: dead, readiness: nil, logger: fixture.logger,
                onChanges: { notifier.streamsGrew($0.grownStreams.keys) }),
        ]
        authenticator = try await APIAuthenticator(secret: String(repeating: "s", count: 40))
        let api = HeraldAPI(
            store: store, badges: StoreBadges(store: store),
            publisher: KafkaHeraldPublisher(producer: producer, catalog: catalog, table: table),
            directory: table, schedules: ScheduleTable(), notifier: notifier, authenticator: authenticator)
        let router = Router()
        api.addRoutes(to: router)
        application = Application(router: router)
    }

    /// The headers of a JSON request by `user` in `container`.
    func headers(user: String, container: String) async throws -> HTTPFields {
        let token = try await authenticator.issueToken(user: user, container: container)
        return [.authorization: "Bearer \(token)", .contentType: "application/json"]
    }

    /// Runs the services around `body`, which gets an HTTP client of the API; stops them after.
    func run(_ body: @Sendable @escaping (any TestClientProtocol) async throws -> Void) async throws {
        let group = ServiceGroup(services: services, logger: fixture.logger)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            try await application.test(.router, body)
            await group.triggerGracefulShutdown()
            notifier.finish()
            try await tasks.waitForAll()
        }
    }
}
