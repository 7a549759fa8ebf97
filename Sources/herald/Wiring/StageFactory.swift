import HeraldKafka
import HeraldPipeline
import Logging
import ServiceLifecycle

/// Creates the service of each stage that this build contains.
struct StageFactory {
    let environment: KafkaEnvironment
    let catalog: TopicCatalog
    let options: RunOptions
    let readiness: Readiness
    let logger: Logger

    /// The stage's services, or `nil` when the stage is not built yet.
    func make(_ stage: HeraldStage, sharedProducer: KafkaProducer) throws -> [any Service]? {
        switch stage {
        case .match:
            return try makeMatch(sharedProducer: sharedProducer)
        case .compose, .reader, .schedule, .assets:
            return nil
        }
    }

    /// The subscription table loader and the match stage runner.
    private func makeMatch(sharedProducer: KafkaProducer) throws -> [any Service] {
        let table = SubscriptionTable()
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

    func consumer(for stage: HeraldStage) throws -> KafkaConsumer {
        try KafkaConsumer(
            configuration: environment.consumerConfiguration(
                groupID: stage.groupID(prefix: catalog.prefix), clientID: "herald-\(stage.rawValue)-\(options.instanceID)"),
            logger: logger)
    }

    func configuration(for stage: HeraldStage) -> StageConfiguration {
        var configuration = StageConfiguration(
            name: stage.rawValue, inputTopics: stage.inputTopics.map(catalog.name),
            deadLetterTopic: catalog.name(TopicCatalog.deadLetters))
        configuration.exactlyOnce = options.exactlyOnce
        return configuration
    }
}
