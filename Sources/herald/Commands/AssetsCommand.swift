import ArgumentParser
import Foundation
import HeraldAssets
import HeraldKafka
import HeraldModel
import HeraldStages
import Logging

/// `herald assets …`: the asset ledger's view of stored files.
struct AssetsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assets", abstract: "Inspect the asset ledger.", subcommands: [Stats.self])

    struct Stats: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print stored vs referenced bytes of assets, as JSON.",
            discussion: """
                Reads the compacted asset-ledger topic to its end. Stored bytes count each file \
                once (including files awaiting collection); referenced bytes count it once per \
                referring record, what storing per record would cost.
                """)

        @OptionGroup var kafka: KafkaOptions
        @OptionGroup var logging: LoggingOptions

        @Option(help: "How long to wait for the topic to be read to its end, in seconds.")
        var timeout = 60

        func run() async throws {
            logging.bootstrap()
            let logger = Logger(label: "herald.assets")
            try await reportingFailures {
                let brokers = try kafka.requireBrokers(for: "assets stats")
                let environment = KafkaEnvironment(brokers: brokers, extraProperties: try kafka.extraProperties(), logger: logger)
                let topic = TopicCatalog(prefix: kafka.topicPrefix, partitions: 1).name(TopicCatalog.assetLedger)
                let partitions = try await Self.partitions(of: topic, environment: environment, logger: logger)
                let reader = ChangelogReader {
                    try KafkaConsumer(
                        configuration: environment.consumerConfiguration(
                            groupID: "herald-assets-stats-\(UUID().uuidString)", clientID: "herald-assets-stats"),
                        logger: logger)
                }
                let entries = try await reader.read(topic: topic, partitions: partitions, timeout: .seconds(timeout))
                var stats = AssetStats()
                var unreadable = 0
                let codec = WireCodec()
                for (key, stored) in entries {
                    do {
                        stats.add(try codec.decode(AssetLedgerEntry.self, from: stored.value))
                    } catch {
                        unreadable += 1
                        logger.warning("skipping \(topic)[\(stored.partition)] key \(key): \(error)")
                    }
                }
                let report = Report(topic: topic, stats: stats, unreadableEntries: unreadable)
                print(String(decoding: try JSONEncoder.sorted.encode(report), as: UTF8.self))
            }
        }

        /// The partition numbers of `topic`.
        /// - Throws: `CommandFailure` when the topic does not exist.
        private static func partitions(of topic: String, environment: KafkaEnvironment, logger: Logger) async throws -> [Int32] {
            let admin = try KafkaAdmin(configuration: environment.client, logger: logger)
            let topics: [TopicMetadata]
            do { topics = try await admin.topics() } catch {
                await admin.close()
                throw CommandFailure.runtime("cannot read the topics of \(environment.bootstrapServers): \(error)")
            }
            await admin.close()
            guard let metadata = topics.first(where: { $0.name == topic && $0.error == nil }) else {
                throw CommandFailure.runtime("no topic '\(topic)' on this cluster; create Herald's topics with `herald topics --ensure`")
            }
            return metadata.partitions.sorted()
        }
    }

    /// What `herald assets stats` prints.
    struct Report: Encodable {
        var topic: String
        var stats: AssetStats
        var unreadableEntries: Int

        private enum CodingKeys: String, CodingKey {
            case topic, unreadableEntries
            case assets, storedBytes, references, referencedBytes, awaitingCollection, awaitingCollectionBytes
        }

        /// The stats' members at the top level, beside the topic.
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(topic, forKey: .topic)
            try c.encode(unreadableEntries, forKey: .unreadableEntries)
            try c.encode(stats.assets, forKey: .assets)
            try c.encode(stats.storedBytes, forKey: .storedBytes)
            try c.encode(stats.references, forKey: .references)
            try c.encode(stats.referencedBytes, forKey: .referencedBytes)
            try c.encode(stats.awaitingCollection, forKey: .awaitingCollection)
            try c.encode(stats.awaitingCollectionBytes, forKey: .awaitingCollectionBytes)
        }
    }
}
