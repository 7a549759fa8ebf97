import HeraldAPI
import HeraldKafka
import HeraldPipeline
import HeraldReader
import Hummingbird
import Logging
import ServiceLifecycle

/// Puts the HTTP API (docs/ARCHITECTURE.md §7) on the router of a process that runs the reader.
enum APIWiring {
    /// Adds the routes; returns the services the API needs besides the HTTP server (a
    /// subscription table when the match stage does not run here, the schedule table's
    /// follower, and the stream closer).
    static func add(
        to router: Router<BasicRequestContext>, store: NotificationStore, parts: RuntimeParts, producer: KafkaProducer,
        environment: KafkaEnvironment, catalog: TopicCatalog, options: RunOptions, readiness: Readiness, logger: Logger
    ) async throws -> [any Service] {
        var services: [any Service] = [StreamCloser(notifier: parts.notifier)]
        let table: SubscriptionTable
        if let shared = parts.table {
            table = shared
        } else {
            table = SubscriptionTable()
            let consumer = try KafkaConsumer(
                configuration: environment.consumerConfiguration(
                    groupID: "\(catalog.prefix)api-table-\(options.instanceID)", clientID: "herald-api-table-\(options.instanceID)"),
                logger: logger)
            services.append(SubscriptionTableLoader(
                table: table, consumer: consumer, producer: producer, topic: catalog.name(TopicCatalog.subscriptions),
                partitions: catalog.partitions, deadLetterTopic: catalog.name(TopicCatalog.deadLetters),
                readiness: readiness, logger: logger))
        }
        let (schedules, scheduleFollower) = try scheduleTable(
            producer: producer, environment: environment, catalog: catalog, options: options, readiness: readiness,
            logger: logger)
        services.append(scheduleFollower)
        let secret = try Secrets.jwtSecret(options.jwtSecret, embedded: environment.embedded != nil)
        if secret.development { logger.warning("API bearer tokens use the development secret; set --jwt-secret or $HERALD_JWT_SECRET") }
        let authenticator: APIAuthenticator
        do {
            authenticator = try await APIAuthenticator(secret: secret.value)
        } catch {
            throw CommandFailure.invalidInput("--jwt-secret: \(error.reason)")
        }
        let api = HeraldAPI(
            store: store, badges: StoreBadges(store: store),
            publisher: KafkaHeraldPublisher(producer: producer, catalog: catalog, table: table, schedules: schedules),
            directory: table, schedules: schedules, notifier: parts.notifier, authenticator: authenticator)
        api.addRoutes(to: router)
        return services
    }

    /// The API's schedule table and the follower that fills it from the whole `schedules`
    /// topic (every partition, no consumer group; invalid records go to dead letters as
    /// stage `api.schedules`). The follower is a readiness condition.
    static func scheduleTable(
        producer: KafkaProducer, environment: KafkaEnvironment, catalog: TopicCatalog, options: RunOptions,
        readiness: Readiness, logger: Logger
    ) throws -> (ScheduleTable, CompactedTopicFollower) {
        let table = ScheduleTable()
        let consumer = try KafkaConsumer(
            configuration: environment.consumerConfiguration(
                groupID: "\(catalog.prefix)api-schedules-\(options.instanceID)",
                clientID: "herald-api-schedules-\(options.instanceID)"),
            logger: logger)
        let follower = CompactedTopicFollower(
            name: "api-schedules", consumer: consumer, producer: producer, topic: catalog.name(TopicCatalog.schedules),
            partitions: catalog.partitions, deadLetterTopic: catalog.name(TopicCatalog.deadLetters),
            deadLetterStage: "api.schedules", readiness: readiness, logger: logger, onReady: { table.gate.open() },
            apply: { message throws(Rejection.Reason) in try table.apply(message) })
        return (table, follower)
    }
}

/// Ends the API's event streams when graceful shutdown begins, so the HTTP server can stop.
struct StreamCloser: Service {
    let notifier: StreamNotifier

    func run() async throws {
        try? await gracefulShutdown()
        notifier.finish()
    }
}
