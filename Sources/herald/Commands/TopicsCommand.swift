import ArgumentParser
import Foundation
import HeraldKafka
import HeraldStages
import Logging

/// `herald topics`: Herald's topics with partitions, offsets and consumer lag; `--ensure` creates them.
struct TopicsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "topics",
        abstract: "Show Herald's topics (partitions, offsets, consumer lag per stage), or create them with --ensure.")

    @OptionGroup var kafka: KafkaOptions
    @OptionGroup var layout: TopicLayoutOptions
    @OptionGroup var logging: LoggingOptions

    @Flag(help: "Create missing topics (with compaction where the catalog says) and check co-partitioning.")
    var ensure = false

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func run() async throws {
        logging.bootstrap()
        let logger = Logger(label: "herald.topics")
        try await reportingFailures {
            let brokers = try kafka.requireBrokers(for: "topics")
            let environment = KafkaEnvironment(brokers: brokers, extraProperties: try kafka.extraProperties(), logger: logger)
            let catalog = kafka.catalog(layout)
            if ensure {
                let ensured = try await environment.ensureTopics(catalog)
                let created = ensured.filter(\.created).map(\.name)
                FileHandle.standardError.write(Data("ensured \(ensured.count) topics (created: \(created.isEmpty ? "none" : created.joined(separator: ", ")))\n".utf8))
            }
            let admin = try KafkaAdmin(configuration: environment.client, logger: logger)
            let rows = try await TopicReport.collect(admin: admin, catalog: catalog)
            await admin.close()
            if json {
                let data = try JSONEncoder.sorted.encode(rows)
                print(String(decoding: data, as: UTF8.self))
            } else {
                print(TopicReport.table(rows))
            }
        }
    }
}

/// One topic's line of `herald topics`.
struct TopicReport: Codable {
    var topic: String
    var partitions: Int
    var messages: Int64
    var endOffsets: Int64
    var lag: [String: Int64]

    static func collect(admin: KafkaAdmin, catalog: TopicCatalog) async throws -> [TopicReport] {
        let existing = try await admin.topics().filter { $0.name.hasPrefix(catalog.prefix) && $0.error == nil }
        guard !existing.isEmpty else {
            throw CommandFailure.runtime("no topics with prefix '\(catalog.prefix)' on this cluster; create them with `herald topics --ensure`")
        }
        var rows: [TopicReport] = []
        for topic in existing {
            var messages: Int64 = 0
            var end: Int64 = 0
            var ends: [TopicPartition: Int64] = [:]
            for partition in topic.partitions {
                let marks = try await admin.watermarks(TopicPartition(topic.name, partition))
                messages += marks.count
                end += marks.high
                ends[TopicPartition(topic.name, partition)] = marks.high
            }
            var lag: [String: Int64] = [:]
            for stage in HeraldStage.allCases where stage.inputTopics.map(catalog.name).contains(topic.name) {
                let group = stage.groupID(prefix: catalog.prefix)
                let committed = try await admin.committedOffsets(group: group, partitions: Array(ends.keys))
                guard !committed.isEmpty else { continue }
                lag[group] = ends.reduce(0) { sum, entry in sum + max(0, entry.value - (committed[entry.key] ?? 0)) }
            }
            rows.append(TopicReport(topic: topic.name, partitions: topic.partitions.count, messages: messages, endOffsets: end, lag: lag))
        }
        return rows
    }

    static func table(_ rows: [TopicReport]) -> String {
        let header = ["TOPIC", "PARTITIONS", "MESSAGES", "END OFFSETS", "CONSUMER LAG"]
        let lines = rows.map { row in
            [row.topic, String(row.partitions), String(row.messages), String(row.endOffsets),
             row.lag.isEmpty ? "-" : row.lag.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")]
        }
        let widths = header.indices.map { column in ([header] + lines).map { $0[column].count }.max() ?? 0 }
        return ([header] + lines).map { cells in
            cells.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }
}

extension JSONEncoder {
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
