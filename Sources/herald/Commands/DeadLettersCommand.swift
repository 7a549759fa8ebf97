import ArgumentParser
import Foundation
import HeraldKafka
import HeraldStages
import Logging

/// `herald dead-letters list|replay`: inspect the dead-letter topic and re-drive its
/// originals to their source topics after a fix (the Kafka Connect tradition).
struct DeadLettersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dead-letters",
        abstract: "List the dead letters, or replay their originals to the source topics.",
        discussion: """
            Each bad input has exactly one dead letter, written by the stage that owns the \
            validation of its topic (record-changes: the match stage). Dead letters too large \
            for the topic are kept in a reduced form (value truncated or left out); those \
            cannot be replayed.
            """,
        subcommands: [List.self, Replay.self])

    /// The options both subcommands share.
    struct Selection: ParsableArguments {
        @OptionGroup var kafka: KafkaOptions

        @Option(help: "Only dead letters written by this stage (match, compose, schedule, assets, reader, match.subscriptions, …).")
        var stage: String?

        @Option(help: "Only dead letters with this code (UNDECODABLE, INVALID, TOO_LARGE, OUTPUT_REJECTED, …).")
        var code: String?

        @Option(help: "Only dead letters from this source topic (with or without the topic prefix).")
        var topic: String?

        @Option(help: "How long to wait for the topic to be read to its end, in seconds.")
        var timeout: Int = 30

        func archive(command: String, logger: Logger) throws -> (DeadLetterArchive, KafkaEnvironment) {
            let brokers = try kafka.requireBrokers(for: command)
            let environment = KafkaEnvironment(brokers: brokers, extraProperties: try kafka.extraProperties(), logger: logger)
            let catalog = TopicCatalog(prefix: kafka.topicPrefix, partitions: 1)
            let archive = DeadLetterArchive(client: environment.client, catalog: catalog, logger: logger)
            return (archive, environment)
        }

        var filter: DeadLetterFilter {
            let source = topic.map { $0.hasPrefix(kafka.topicPrefix) ? $0 : kafka.topicPrefix + $0 }
            return DeadLetterFilter(stage: stage, code: code, topic: source)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List dead letters: stage, code, source topic[partition]@offset, value form, reason.")

        @OptionGroup var selection: Selection
        @OptionGroup var logging: LoggingOptions

        @Flag(help: "Print JSON Lines, one object per dead letter.")
        var json = false

        func run() async throws {
            logging.bootstrap()
            let logger = Logger(label: "herald.dead-letters")
            try await reportingFailures {
                let (archive, _) = try selection.archive(command: "dead-letters list", logger: logger)
                let listing = try await archive.list(selection.filter, timeout: .seconds(selection.timeout))
                for record in listing.records {
                    if json {
                        print(String(decoding: try JSONEncoder.sorted.encode(DeadLetterLine(record)), as: UTF8.self))
                    } else {
                        print(Self.line(record))
                    }
                }
                if listing.copies > 0 {
                    FileHandle.standardError.write(Data("\(listing.copies) further copies of listed dead letters (written again when a stage redid a batch) not listed\n".utf8))
                }
                if listing.unreadable > 0 {
                    FileHandle.standardError.write(Data("\(listing.unreadable) messages without dead-letter headers not listed\n".utf8))
                }
            }
        }

        static func line(_ record: DeadLetter.Record) -> String {
            let source = "\(record.sourceTopic)[\(record.sourcePartition)]@\(record.sourceOffset)"
            let reason = record.reason.replacingOccurrences(of: "\n", with: " ").prefix(160)
            return "\(record.stage)\t\(record.code)\t\(source)\t\(record.valueForm.rawValue)\t\(reason)"
        }
    }

    struct Replay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Re-produce the originals of the selected dead letters to their source topics.",
            discussion: """
                The original key, value and headers are sent as they were (herald.dlq.* headers \
                removed); the partition follows from the key. Dead letters in the reduced form \
                are refused and listed on stderr (exit status 1; the others are replayed). \
                Replaying does not remove dead letters: run it once per fix.
                """)

        @OptionGroup var selection: Selection
        @OptionGroup var logging: LoggingOptions

        @Flag(help: "Show what would be replayed without producing anything.")
        var dryRun = false

        func run() async throws {
            logging.bootstrap()
            let logger = Logger(label: "herald.dead-letters")
            try await reportingFailures {
                let (archive, environment) = try selection.archive(command: "dead-letters replay", logger: logger)
                let producer = try KafkaProducer(
                    configuration: environment.producerConfiguration(clientID: "herald-dead-letters-replay"), logger: logger)
                let report: DeadLetterArchive.ReplayReport
                do {
                    report = try await archive.replay(
                        selection.filter, producer: producer, dryRun: dryRun, timeout: .seconds(selection.timeout))
                } catch {
                    await producer.close(timeout: .seconds(1))
                    throw error
                }
                await producer.close()
                for (record, reason) in report.refused {
                    FileHandle.standardError.write(Data(
                        "refused \(record.stage) \(record.code) \(record.sourceTopic)[\(record.sourcePartition)]@\(record.sourceOffset): \(reason)\n".utf8))
                }
                let summary = ReplaySummary(
                    matched: report.matched, replayed: report.replayed, refused: report.refused.count, dryRun: dryRun,
                    topics: report.byTopic)
                print(String(decoding: try JSONEncoder.sorted.encode(summary), as: UTF8.self))
                if !report.refused.isEmpty { throw ExitCode(1) }
            }
        }
    }
}

/// One dead letter in `herald dead-letters list --json`.
private struct DeadLetterLine: Encodable {
    var stage, code, reason, sourceTopic: String
    var sourcePartition: Int32
    var sourceOffset: Int64
    var time: Int64?
    var key: String?
    var value: String
    var originalSize: Int?
    var sha256: String?
    var replayable: Bool
    var deadLetterPartition: Int32
    var deadLetterOffset: Int64

    init(_ record: DeadLetter.Record) {
        stage = record.stage
        code = record.code
        reason = record.reason
        sourceTopic = record.sourceTopic
        sourcePartition = record.sourcePartition
        sourceOffset = record.sourceOffset
        time = record.time
        key = record.key.map { String(decoding: $0, as: UTF8.self) }
        value = record.valueForm.rawValue
        originalSize = record.originalSize
        sha256 = record.sha256
        replayable = record.isReplayable
        deadLetterPartition = record.deadLetterPartition
        deadLetterOffset = record.deadLetterOffset
    }
}

/// What `herald dead-letters replay` prints.
private struct ReplaySummary: Encodable {
    var matched, replayed, refused: Int
    var dryRun: Bool
    var topics: [String: Int]
}
