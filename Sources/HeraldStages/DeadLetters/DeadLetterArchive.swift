import Foundation
import HeraldKafka
import Logging

/// The dead-letter topic as an operator's tool sees it (`herald dead-letters list|replay`,
/// in the Kafka Connect tradition): every dead letter stored when asked, and a replay of
/// the originals to their source topics once the cause is fixed.
public struct DeadLetterArchive: Sendable {
    public let client: KafkaClientConfiguration
    public let topic: String
    private let logger: Logger

    /// The archive of `catalog`'s dead-letter topic.
    public init(client: KafkaClientConfiguration, catalog: TopicCatalog, logger: Logger) {
        self.client = client
        topic = catalog.name(TopicCatalog.deadLetters)
        self.logger = logger
    }

    /// What `list` found.
    public struct Listing: Sendable {
        /// The dead letters that match, by partition then offset.
        public var records: [DeadLetter.Record]
        /// Messages of the topic without Herald's dead-letter headers (not listed).
        public var unreadable: Int
        /// Further copies of a listed dead letter (same stage and source coordinates), not
        /// listed. At-least-once delivery writes one again when a stage redoes a batch
        /// whose offsets were not committed (a crash, or a rebalance that refused the
        /// commit), so the coordinates, not the records, identify a bad input.
        public var copies: Int = 0
    }

    /// Every dead letter stored at the time of the call that matches `filter`, once per bad
    /// input (stage and source coordinates; see `Listing.copies`).
    /// - Throws: `KafkaError` when the cluster cannot be reached; `PipelineError` when the
    ///   topic does not exist or is not read to its end within `timeout`.
    public func list(_ filter: DeadLetterFilter, timeout: Duration = .seconds(30)) async throws -> Listing {
        let messages = try await readToEnd(timeout: timeout)
        var listing = Listing(records: [], unreadable: 0)
        var seen: Set<String> = []
        for message in messages.sorted(by: { ($0.partition, $0.offset) < ($1.partition, $1.offset) }) {
            guard let record = DeadLetter.Record(message) else {
                listing.unreadable += 1
                continue
            }
            guard filter.matches(record) else { continue }
            let input = "\(record.stage)\u{0}\(record.sourceTopic)\u{0}\(record.sourcePartition)\u{0}\(record.sourceOffset)"
            if seen.insert(input).inserted {
                listing.records.append(record)
            } else {
                listing.copies += 1
            }
        }
        return listing
    }

    /// What `replay` did.
    public struct ReplayReport: Sendable {
        /// Dead letters that matched the filter.
        public var matched = 0
        /// Originals re-produced (or, with a dry run, that would be).
        public var replayed = 0
        /// Dead letters not replayed because they do not hold the whole original, with why.
        public var refused: [(record: DeadLetter.Record, reason: String)] = []
        /// Originals replayed per source topic.
        public var byTopic: [String: Int] = [:]
    }

    /// Re-produces the original key, value and headers (Herald's `herald.dlq.*` headers
    /// removed) of each matching dead letter to its source topic, in the order stored.
    /// Dead letters in the reduced form (value truncated or left out, key or headers left
    /// out) are refused: they no longer hold the original. A replay does not remove dead
    /// letters; replaying twice produces the originals twice. Each bad input is replayed once,
    /// however many copies of its dead letter redelivery wrote.
    public func replay(
        _ filter: DeadLetterFilter, producer: KafkaProducer, dryRun: Bool, timeout: Duration = .seconds(30)
    ) async throws -> ReplayReport {
        let listing = try await list(filter, timeout: timeout)
        var report = ReplayReport()
        var originals: [OutgoingMessage] = []
        for record in listing.records {
            report.matched += 1
            guard record.isReplayable else {
                report.refused.append((record, Self.refusal(record)))
                continue
            }
            originals.append(record.original)
            report.byTopic[record.sourceTopic, default: 0] += 1
        }
        report.replayed = originals.count
        if !dryRun, !originals.isEmpty { _ = try await producer.send(originals) }
        return report
    }

    private static func refusal(_ record: DeadLetter.Record) -> String {
        let size = record.originalSize.map { " of \($0) bytes" } ?? ""
        let digest = record.sha256.map { ", sha256 \($0)" } ?? ""
        switch record.valueForm {
        case .truncated: return "the value\(size) was truncated to fit the dead-letter topic\(digest); re-send it from its origin"
        case .omitted: return "the value\(size) was left out to fit the dead-letter topic\(digest); re-send it from its origin"
        case .complete: return "the original key or headers were left out to fit the dead-letter topic; re-send it from its origin"
        }
    }

    /// Every message of the topic up to the end offsets at the time of the call.
    private func readToEnd(timeout: Duration) async throws -> [ConsumedMessage] {
        let admin = try KafkaAdmin(configuration: client, logger: logger)
        var catchUp: CatchUp
        do {
            guard let metadata = try await admin.topics().first(where: { $0.name == topic }), metadata.error == nil else {
                await admin.close()
                throw PipelineError(code: .configuration, reason: "topic \(topic) does not exist (check --topic-prefix)")
            }
            catchUp = try await CatchUp.measuring(metadata.partitions.map { TopicPartition(topic, $0) }) {
                try await admin.watermarks($0)
            }
        } catch {
            await admin.close()
            throw error
        }
        await admin.close()
        guard !catchUp.isComplete else { return [] }
        var settings = ConsumerConfiguration()
        settings.client = client
        settings.groupID = "herald-dead-letters-\(UUID().uuidString)"
        let consumer = try KafkaConsumer(configuration: settings, logger: logger)
        var messages: [ConsumedMessage] = []
        do {
            try consumer.assign(catchUp.remaining.keys.map { TopicPartitionOffset($0, .beginning) })
            let outcome = try await catchUp.read(from: consumer, until: ContinuousClock.now + timeout, keepingLater: false) {
                messages.append($0)
            }
            if outcome != .complete {
                throw PipelineError(
                    code: .kafka, reason: "\(topic) not read to its end within \(timeout)",
                    location: catchUp.pending.joined(separator: ","))
            }
        } catch {
            await consumer.close()
            throw error
        }
        await consumer.close()
        return messages
    }
}
