import Foundation
import HeraldAPI
import HeraldDelivery
import HeraldKafka
import HeraldReader
import HeraldStages
import Logging
import ServiceLifecycle

/// Builds each stage's services from the configuration: consumers, producers, followers,
/// processors and runners, with the group and client IDs derived in one place.
struct StageFactory {
    let environment: KafkaEnvironment
    let configuration: HeraldConfiguration
    /// What every stage, follower and the reader share.
    let context: StageContext
    /// The clients made while the runtime is built, closed if building fails.
    let clients: BuildClients

    /// The context of a process's stages: its consumers outside any group (they assign
    /// partitions themselves) are named `<prefix><purpose>-<instance>`, unique per instance.
    /// - Parameters:
    ///   - producer: the process's shared producer.
    ///   - clients: notes the consumers made while the runtime is built.
    static func context(
        environment: KafkaEnvironment, catalog: TopicCatalog, configuration: HeraldConfiguration, readiness: Readiness,
        logger: Logger, producer: KafkaProducer, clients: BuildClients
    ) -> StageContext {
        let instanceID = configuration.instanceID
        return StageContext(
            catalog: catalog, producer: producer, readiness: readiness, logger: logger, clock: configuration.clock
        ) { purpose in
            clients.consumer(try KafkaConsumer(
                configuration: environment.consumerConfiguration(
                    groupID: "\(catalog.prefix)\(purpose)-\(instanceID)", clientID: "herald-\(purpose)-\(instanceID)"),
                logger: logger))
        }
    }

    private var catalog: TopicCatalog { context.catalog }
    private var logger: Logger { context.logger }
    private var instanceID: String { configuration.instanceID }

    /// A follower that fills `directory` from the whole `users` topic and opens its gate once caught up.
    func usersFollower(_ name: String, consumer: String, into users: UserDirectory) throws -> CompactedTopicFollower {
        try CompactedTopicFollower(
            name: name, consumer: consumer, topic: TopicCatalog.users, context: context, onReady: { users.gate.open() },
            apply: { message throws(Rejection.Reason) in try users.apply(message) })
    }

    /// The users directory, its follower, and the compose stage runner.
    func makeCompose() throws -> [any Service] {
        let users = UserDirectory()
        let processor = ComposeProcessor(
            context: context, delivery: Delivery(catalog: configuration.localizations), users: users,
            maxInputBytes: configuration.maxInputBytes)
        return [try usersFollower("users", consumer: "compose-users", into: users), try runner(.compose, processor)]
    }

    /// The reader store and the service that fills it; `notifier` hears of every stream that grew.
    func makeReader(notifier: StreamNotifier) throws -> (services: [any Service], store: NotificationStore) {
        guard let tokenKey = configuration.tokenKey else { throw HeraldAppError(setting: .tokenKey, reason: "is required to run the reader") }
        let signer: ChangeTokenSigner
        do { signer = try ChangeTokenSigner(keyString: tokenKey.value) } catch {
            throw HeraldAppError(setting: .tokenKey, reason: error.reason)
        }
        if tokenKey.isDevelopment {
            logger.warning("signing change tokens with the development key; set --token-key or $HERALD_TOKEN_KEY")
        }
        let directory = configuration.dataDirectory
        do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
            throw HeraldAppError(setting: .dataDirectory, reason: "cannot create \(directory): \(error.localizedDescription)")
        }
        let store = try NotificationStore(path: "\(directory)/reader.sqlite", tokenSigner: signer, retention: configuration.retention)
        let service = try ReaderService(
            store: store, context: context,
            // The embedded broker's cluster ID is not promised to differ between runs, and its
            // topics start empty each run: a store kept from an earlier run is always rebuilt.
            clusterQualifier: environment.embeddedRunID.map { "embedded-\($0)" },
            onChanges: { changes in notifier.streamsGrew(changes.grownStreams.keys) })
        return ([service], store)
    }

    /// The placed subscription table, its loader and the match stage runner.
    func makeMatch() throws -> (services: [any Service], table: PlacedSubscriptionTable) {
        let table = PlacedSubscriptionTable(partitions: catalog.partitions)
        let loader = try PlacedSubscriptionLoader(table: table, consumer: "match-table", context: context)
        var processor = MatchProcessor(table: table, catalog: catalog, logger: logger)
        processor.maxChangeBytes = configuration.maxInputBytes
        return ([loader, try runner(.match, processor)], table)
    }

    /// The API's subscription directory, in SQLite in the data directory
    /// (`subscriptions.sqlite`, next to the reader's `reader.sqlite`), and its loader.
    /// The data directory must exist (`makeReader` creates it).
    func subscriptionDirectory() throws -> (StoredSubscriptionDirectory, SubscriptionDirectoryLoader) {
        let store: SubscriptionStore
        do { store = try SubscriptionStore(path: "\(configuration.dataDirectory)/subscriptions.sqlite") } catch {
            throw HeraldAppError(setting: .dataDirectory, reason: "cannot open the subscription directory: \(error)")
        }
        let directory = StoredSubscriptionDirectory(store: store, partitions: catalog.partitions)
        let loader = try SubscriptionDirectoryLoader(
            directory: directory, context: context,
            // As the reader's store: the embedded broker's topics start empty each run.
            clusterQualifier: environment.embeddedRunID.map { "embedded-\($0)" })
        return (directory, loader)
    }

    /// A stage's runner: its group's consumer, its producer and its configuration.
    /// - Parameter worker: which of the stage's group members in this process (the push
    ///   stage may run several, `PushProcessor.Settings.workers`); 0 is named as the stage,
    ///   the others `<stage>.<worker + 1>` (readiness `stage.push.2`, metrics, client IDs).
    func runner<Processor: StageProcessor>(
        _ stage: HeraldStage, _ processor: Processor, worker: Int = 0
    ) throws -> StageRunner<Processor> {
        var settings = StageConfiguration(stage, catalog: catalog)
        settings.exactlyOnce = configuration.exactlyOnce
        if stage == .push { settings.pipelinedBatchSize = configuration.push.settings.maxBatchSize }
        if worker > 0 { settings.name += ".\(worker + 1)" }
        return StageRunner(
            configuration: settings, processor: processor, consumer: try consumer(for: stage, worker: worker),
            producer: try producer(for: stage), context: context)
    }

    /// A stage's own transactional producer with `exactlyOnce`; `nil`: the shared one.
    func producer(for stage: HeraldStage) throws -> KafkaProducer? {
        guard configuration.exactlyOnce else { return nil }
        var settings = environment.producerConfiguration(clientID: "herald-\(stage.rawValue)-\(instanceID)")
        settings.transactionalID = "\(catalog.prefix)\(stage.rawValue)-\(instanceID)"
        return clients.producer(try KafkaProducer(configuration: settings, logger: logger))
    }

    /// A consumer of the stage's group; a static member (`group.instance.id`) when the
    /// instance has a stable name.
    func consumer(for stage: HeraldStage, worker: Int = 0) throws -> KafkaConsumer {
        let suffix = worker > 0 ? "-\(worker + 1)" : ""
        var settings = environment.consumerConfiguration(
            groupID: stage.groupID(prefix: catalog.prefix), clientID: "herald-\(stage.rawValue)-\(instanceID)\(suffix)")
        // Each member of a group in this process is a static member of its own.
        settings.groupInstanceID = configuration.staticInstanceID.map { $0 + suffix }
        // A crash can repeat the pushes of the batch in hand: the push stage takes smaller ones.
        if stage == .push { settings.maxBatchSize = configuration.push.settings.maxBatchSize }
        return clients.consumer(try KafkaConsumer(configuration: settings, logger: logger))
    }
}
