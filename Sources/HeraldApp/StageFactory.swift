import Foundation
import HeraldAPI
import HeraldDelivery
import HeraldKafka
import HeraldPipeline
import HeraldReader
import Logging
import ServiceLifecycle

/// Builds each stage's services from the configuration: consumers, producers, followers,
/// processors and runners, with the group and client IDs derived in one place.
struct StageFactory {
    let environment: KafkaEnvironment
    let catalog: TopicCatalog
    let configuration: HeraldConfiguration
    let readiness: Readiness
    let logger: Logger
    let sharedProducer: KafkaProducer

    private var instanceID: String { configuration.instanceID }

    /// A consumer outside any group (it assigns partitions itself), unique per instance.
    func ungroupedConsumer(_ name: String) throws -> KafkaConsumer {
        try KafkaConsumer(
            configuration: environment.consumerConfiguration(
                groupID: "\(catalog.prefix)\(name)-\(instanceID)", clientID: "herald-\(name)-\(instanceID)"),
            logger: logger)
    }

    /// A follower that fills `directory` from the whole `users` topic and opens its gate once caught up.
    func usersFollower(_ name: String, consumer: String, into users: UserDirectory) throws -> CompactedTopicFollower {
        CompactedTopicFollower(
            name: name, consumer: try ungroupedConsumer(consumer), producer: sharedProducer,
            topic: catalog.name(TopicCatalog.users), partitions: catalog.partitions,
            deadLetterTopic: catalog.name(TopicCatalog.deadLetters), readiness: readiness, logger: logger,
            onReady: { users.gate.open() },
            apply: { message throws(Rejection.Reason) in try users.apply(message) })
    }

    /// The users directory, its follower, and the compose stage runner.
    func makeCompose() throws -> [any Service] {
        let users = UserDirectory()
        let processor = ComposeProcessor(
            topics: .init(catalog), delivery: Delivery(catalog: configuration.localizations), users: users,
            changelog: changelogReader(for: "compose"), logger: logger, now: configuration.clock)
        return [try usersFollower("users", consumer: "compose-users", into: users), try runner(.compose, processor)]
    }

    /// The reader store and the service that fills it; `notifier` hears of every stream that grew.
    func makeReader(notifier: StreamNotifier) throws -> (services: [any Service], store: NotificationStore) {
        guard let tokenKey = configuration.tokenKey else { throw HeraldAppError(.tokenKey, "is required to run the reader") }
        let signer: ChangeTokenSigner
        do { signer = try ChangeTokenSigner(keyString: tokenKey.value) } catch {
            throw HeraldAppError(.tokenKey, error.reason)
        }
        if tokenKey.isDevelopment {
            logger.warning("signing change tokens with the development key; set --token-key or $HERALD_TOKEN_KEY")
        }
        let directory = configuration.dataDirectory
        do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
            throw HeraldAppError(.dataDirectory, "cannot create \(directory): \(error.localizedDescription)")
        }
        let store = try NotificationStore(path: "\(directory)/reader.sqlite", tokenSigner: signer)
        let service = ReaderService(
            store: store, consumer: try ungroupedConsumer("reader"), producer: sharedProducer,
            topics: .init(catalog),
            partitions: catalog.partitions, deadLetterTopic: catalog.name(TopicCatalog.deadLetters), readiness: readiness,
            logger: logger,
            // The embedded broker's cluster ID is not promised to differ between runs, and its
            // topics start empty each run: a store kept from an earlier run is always rebuilt.
            clusterQualifier: environment.embedded.map { _ in "embedded-\(UUID().uuidString)" },
            onChanges: { changes in notifier.streamsGrew(changes.grownStreams.keys) })
        return ([service], store)
    }

    /// The subscription table, its loader and the match stage runner.
    func makeMatch() throws -> (services: [any Service], table: SubscriptionTable) {
        let (table, loader) = try subscriptionTable(consumer: "match-table")
        let processor = MatchProcessor(
            table: table, matchesTopic: catalog.name(TopicCatalog.matches),
            subscriptionsTopic: catalog.name(TopicCatalog.subscriptions))
        return ([loader, try runner(.match, processor)], table)
    }

    /// A subscription table filled from the whole `subscriptions` topic by its own loader.
    func subscriptionTable(consumer: String) throws -> (SubscriptionTable, SubscriptionTableLoader) {
        let table = SubscriptionTable()
        let loader = SubscriptionTableLoader(
            table: table, consumer: try ungroupedConsumer(consumer), producer: sharedProducer,
            topic: catalog.name(TopicCatalog.subscriptions), partitions: catalog.partitions,
            deadLetterTopic: catalog.name(TopicCatalog.deadLetters), readiness: readiness, logger: logger)
        return (table, loader)
    }

    /// A stage's runner: its group's consumer, its producer and its configuration.
    func runner<Processor: StageProcessor>(_ stage: HeraldStage, _ processor: Processor) throws -> StageRunner<Processor> {
        StageRunner(
            configuration: stageConfiguration(stage), processor: processor, consumer: try consumer(for: stage),
            producer: try producer(for: stage), readiness: readiness, logger: logger)
    }

    /// A stage's producer: the shared one, or its own transactional one with `exactlyOnce`.
    func producer(for stage: HeraldStage) throws -> KafkaProducer {
        guard configuration.exactlyOnce else { return sharedProducer }
        var settings = environment.producerConfiguration(clientID: "herald-\(stage.rawValue)-\(instanceID)")
        settings.transactionalID = "\(catalog.prefix)\(stage.rawValue)-\(instanceID)"
        return try KafkaProducer(configuration: settings, logger: logger)
    }

    /// A consumer of the stage's group; a static member (`group.instance.id`) when the
    /// instance has a stable name.
    func consumer(for stage: HeraldStage) throws -> KafkaConsumer {
        var settings = environment.consumerConfiguration(
            groupID: stage.groupID(prefix: catalog.prefix), clientID: "herald-\(stage.rawValue)-\(instanceID)")
        settings.groupInstanceID = configuration.staticInstanceID
        return try KafkaConsumer(configuration: settings, logger: logger)
    }

    func stageConfiguration(_ stage: HeraldStage) -> StageConfiguration {
        var settings = StageConfiguration(
            name: stage.rawValue, inputTopics: stage.inputTopics.map(catalog.name),
            deadLetterTopic: catalog.name(TopicCatalog.deadLetters))
        settings.exactlyOnce = configuration.exactlyOnce
        settings.stateTopics = Set(TopicCatalog.all.filter(\.compacted).map(catalog.name))
        return settings
    }
}
