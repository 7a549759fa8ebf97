import ArgumentParser
import Foundation
import HeraldKafka
import HeraldStages
import Logging

/// `herald subscriptions migrate`: re-keys a `subscriptions` topic written before subscription
/// IDs were per user (`SubscriptionKeyMigration`). Idempotent; prints the counts as JSON.
struct SubscriptionsMigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Re-key the subscriptions topic by owner (container/database/owner/subscriptionID), once.",
        discussion: """
            Reads the whole compacted subscriptions topic, publishes every subscription still under an \
            old key (container/database/subscriptionID) under its owner's key, then tombstones the old \
            keys. Safe to run while Herald runs, and again: a second run finds nothing to do. An old key \
            whose owner saved the subscription again since the upgrade is only tombstoned.
            """)

    @OptionGroup var kafka: KafkaOptions
    @OptionGroup var logging: LoggingOptions

    @Flag(help: "Read and report what would change; send nothing.")
    var dryRun = false

    @Option(help: "How long reading the topic to its end may take (ms, s, m, h), e.g. 2m.")
    var timeout = "120s"

    func validate() throws {
        _ = try DurationArgument.parse(timeout, option: "--timeout")
    }

    func run() async throws {
        logging.bootstrap()
        let logger = Logger(label: "herald.subscriptions.migrate")
        try await reportingFailures {
            let brokers = try kafka.requireBrokers(for: "subscriptions migrate")
            let readTimeout = try DurationArgument.parse(timeout, option: "--timeout")
            let environment = KafkaEnvironment(brokers: brokers, extraProperties: try kafka.extraProperties(), logger: logger)
            let topic = TopicCatalog(prefix: kafka.topicPrefix, partitions: 1).name(TopicCatalog.subscriptions)
            let admin = try KafkaAdmin(configuration: environment.client, logger: logger)
            let metadata = try await admin.topics().first { $0.name == topic && $0.error == nil }
            await admin.close()
            guard let metadata else {
                throw CommandFailure.runtime("no topic \(topic) on \(brokers) (check --topic-prefix)")
            }
            var settings = environment.consumerConfiguration(groupID: "herald-migrate-\(UUID().uuidString)", clientID: "herald-migrate")
            settings.reportsPartitionEnds = true
            let consumer = try KafkaConsumer(configuration: settings, logger: logger)
            let producer = try KafkaProducer(configuration: environment.producerConfiguration(clientID: "herald-migrate"), logger: logger)
            let report: SubscriptionKeyMigration.Report
            do {
                report = try await SubscriptionKeyMigrator(
                    consumer: consumer, producer: producer, topic: topic, partitions: metadata.partitions, logger: logger
                ).run(dryRun: dryRun, timeout: readTimeout)
            } catch {
                await producer.close(timeout: .seconds(1))
                throw CommandFailure.runtime("migrating \(topic): \(error)")
            }
            await producer.close()
            FileHandle.standardError.write(Data("\(topic): \(report)\n".utf8))
            print(String(decoding: try JSONEncoder.sorted.encode(report), as: UTF8.self))
        }
    }
}
