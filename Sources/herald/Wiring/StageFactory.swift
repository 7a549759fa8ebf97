import Foundation
import HeraldDelivery
import HeraldKafka
import HeraldPayload
import HeraldPipeline
import HeraldReader
import Logging
import ServiceLifecycle

/// Creates the service of each stage that this build contains.
struct StageFactory {
    let environment: KafkaEnvironment
    let catalog: TopicCatalog
    let options: RunOptions
    let readiness: Readiness
    let logger: Logger
    let parts: RuntimeParts

    /// The stage's services, or `nil` when the stage is not built yet.
    func make(_ stage: HeraldStage, sharedProducer: KafkaProducer) throws -> [any Service]? {
        switch stage {
        case .match:
            return try makeMatch(sharedProducer: sharedProducer)
        case .compose:
            return try makeCompose(sharedProducer: sharedProducer)
        case .reader:
            return try makeReader(sharedProducer: sharedProducer)
        case .schedule:
            return try makeSchedule(sharedProducer: sharedProducer)
        case .assets:
            return try makeAssets(sharedProducer: sharedProducer)
        }
    }

    /// A consumer outside any group (it assigns partitions itself), unique per instance.
    func ungroupedConsumer(_ name: String) throws -> KafkaConsumer {
        try KafkaConsumer(
            configuration: environment.consumerConfiguration(
                groupID: "\(catalog.prefix)\(name)-\(options.instanceID)", clientID: "herald-\(name)-\(options.instanceID)"),
            logger: logger)
    }

    /// The users directory, its follower, and the compose stage runner.
    private func makeCompose(sharedProducer: KafkaProducer) throws -> [any Service] {
        let users = UserDirectory()
        let follower = CompactedTopicFollower(
            name: "users", consumer: try ungroupedConsumer("compose-users"), producer: sharedProducer,
            topic: catalog.name(TopicCatalog.users), partitions: catalog.partitions,
            deadLetterTopic: catalog.name(TopicCatalog.deadLetters), readiness: readiness, logger: logger, onReady: { users.gate.open() },
            apply: { message throws(Rejection.Reason) in try users.apply(message) })
        let changelog = changelogReader(for: "compose")
        let localizations = try options.localizations.map { try LocalizationDirectory.load($0) }
        let processor = ComposeProcessor(
            topics: .init(catalog),
            delivery: Delivery(catalog: localizations), users: users, changelog: changelog, logger: logger)
        let runner = StageRunner(
            configuration: configuration(for: .compose), processor: processor, consumer: try consumer(for: .compose),
            producer: try producer(for: .compose, shared: sharedProducer), readiness: readiness, logger: logger)
        return [follower, runner]
    }

    /// The reader store and the service that fills it.
    private func makeReader(sharedProducer: KafkaProducer) throws -> [any Service] {
        let key = try Secrets.tokenKey(options.tokenKey, embedded: environment.embedded != nil)
        if key.development { logger.warning("signing change tokens with the development key; set --token-key or $HERALD_TOKEN_KEY") }
        let signer: ChangeTokenSigner
        do { signer = try ChangeTokenSigner(keyString: key.value) } catch { throw CommandFailure.invalidInput("--token-key: \(error.reason)") }
        let dataDir = options.dataDirectory(embedded: environment.embedded != nil) ?? "var/herald"
        try FileManager.default.createDirectory(atPath: dataDir, withIntermediateDirectories: true)
        let store = try NotificationStore(path: "\(dataDir)/reader.sqlite", tokenSigner: signer)
        parts.store = store
        let service = ReaderService(
            store: store, consumer: try ungroupedConsumer("reader"), producer: sharedProducer,
            topics: .init(
                notifications: catalog.name(TopicCatalog.notifications), reads: catalog.name(TopicCatalog.notificationReads),
                composeState: catalog.name(TopicCatalog.composeState)),
            partitions: catalog.partitions, deadLetterTopic: catalog.name(TopicCatalog.deadLetters), readiness: readiness,
            logger: logger,
            // The embedded broker's cluster ID is not promised to differ between runs, and its
            // topics start empty each run: a store kept from an earlier run is always rebuilt.
            clusterQualifier: environment.embedded.map { _ in "embedded-\(UUID().uuidString)" },
            onChanges: { [notifier = parts.notifier] changes in notifier.streamsGrew(changes.grownStreams.keys) })
        return [service]
    }

    /// The subscription table loader and the match stage runner.
    private func makeMatch(sharedProducer: KafkaProducer) throws -> [any Service] {
        let table = SubscriptionTable()
        parts.table = table
        let tableConsumer = try KafkaConsumer(
            configuration: environment.consumerConfiguration(
                groupID: "\(catalog.prefix)match-table-\(options.instanceID)", clientID: "herald-match-table-\(options.instanceID)"),
            logger: logger)
        let loader = SubscriptionTableLoader(
            table: table, consumer: tableConsumer, producer: sharedProducer,
            topic: catalog.name(TopicCatalog.subscriptions), partitions: catalog.partitions,
            deadLetterTopic: catalog.name(TopicCatalog.deadLetters), readiness: readiness, logger: logger)
        let processor = MatchProcessor(
            table: table, matchesTopic: catalog.name(TopicCatalog.matches),
            subscriptionsTopic: catalog.name(TopicCatalog.subscriptions))
        let runner = StageRunner(
            configuration: configuration(for: .match), processor: processor, consumer: try consumer(for: .match),
            producer: try producer(for: .match, shared: sharedProducer), readiness: readiness, logger: logger)
        return [loader, runner]
    }

    /// A stage's producer: the shared one, or its own transactional one with `--exactly-once`.
    func producer(for stage: HeraldStage, shared: KafkaProducer) throws -> KafkaProducer {
        guard options.exactlyOnce else { return shared }
        var settings = environment.producerConfiguration(clientID: "herald-\(stage.rawValue)-\(options.instanceID)")
        settings.transactionalID = "\(catalog.prefix)\(stage.rawValue)-\(options.instanceID)"
        return try KafkaProducer(configuration: settings, logger: logger)
    }

    /// A consumer of the stage's group; a static member (`group.instance.id`) when the
    /// instance has a stable name (`--instance-id` or `$POD_NAME`).
    func consumer(for stage: HeraldStage) throws -> KafkaConsumer {
        var settings = environment.consumerConfiguration(
            groupID: stage.groupID(prefix: catalog.prefix), clientID: "herald-\(stage.rawValue)-\(options.instanceID)")
        settings.groupInstanceID = options.staticInstanceID
        return try KafkaConsumer(configuration: settings, logger: logger)
    }

    func configuration(for stage: HeraldStage) -> StageConfiguration {
        var configuration = StageConfiguration(
            name: stage.rawValue, inputTopics: stage.inputTopics.map(catalog.name),
            deadLetterTopic: catalog.name(TopicCatalog.deadLetters))
        configuration.exactlyOnce = options.exactlyOnce
        configuration.stateTopics = Set(TopicCatalog.all.filter(\.compacted).map(catalog.name))
        return configuration
    }
}
