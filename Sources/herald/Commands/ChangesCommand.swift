import ArgumentParser
import Foundation
import HeraldKafka
import HeraldModel
import HeraldPipeline
import Logging

/// `herald changes …`: feed record changes into the pipeline.
struct ChangesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "changes", abstract: "Publish record changes.", subcommands: [Produce.self])

    struct Produce: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Produce record changes from a JSON Lines file to the record-changes topic.",
            discussion: """
                Every line is validated first; if any is invalid nothing is produced and each \
                error is listed as FILE:LINE. Keys are container/database/zoneOwner/zoneName.
                """)

        @Argument(help: "A file with one record change JSON object per line ('-' for stdin).")
        var file: String

        @OptionGroup var kafka: KafkaOptions
        @OptionGroup var logging: LoggingOptions

        @Flag(help: "Send the lines as they are, unvalidated (to exercise the dead-letter path).")
        var raw = false

        func run() async throws {
            logging.bootstrap()
            try await reportingFailures {
                let brokers = try kafka.requireBrokers(for: "changes produce")
                let messages = try loadMessages(topic: TopicCatalog(prefix: kafka.topicPrefix, partitions: 1).name(TopicCatalog.recordChanges))
                let environment = KafkaEnvironment(brokers: brokers, extraProperties: try kafka.extraProperties(), logger: Logger(label: "herald.changes"))
                var settings = environment.producerConfiguration(clientID: "herald-changes-produce")
                settings.deliveryTimeout = .seconds(30)
                let producer = try KafkaProducer(configuration: settings, logger: Logger(label: "herald.changes"))
                let reports: [DeliveryReport]
                do {
                    reports = try await producer.send(messages)
                } catch {
                    await producer.close(timeout: .seconds(1))
                    throw CommandFailure.runtime("could not produce to \(brokers): \(error)")
                }
                await producer.close()
                let partitions = Dictionary(grouping: reports, by: { $0.topicPartition.partition }).mapValues(\.count)
                let summary: [String: Any] = [
                    "produced": reports.count, "topic": messages.first?.topic ?? "",
                    "partitions": Dictionary(uniqueKeysWithValues: partitions.map { (String($0.key), $0.value) }),
                ]
                let data = try JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys])
                print(String(decoding: data, as: UTF8.self))
            }
        }

        private func loadMessages(topic: String) throws -> [OutgoingMessage] {
            let data: Data
            do {
                data = file == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                throw CommandFailure.invalidInput("cannot read \(file): \(error.localizedDescription)")
            }
            var messages: [OutgoingMessage] = []
            var problems: [String] = []
            let codec = WireCodec()
            for (number, bytes) in jsonLines(data) {
                if raw {
                    let key = (try? codec.decode(RecordChange.self, from: bytes))?.partitionKey ?? "unparsed"
                    messages.append(OutgoingMessage(topic: topic, key: key, value: bytes))
                    continue
                }
                do {
                    let change = try codec.decode(RecordChange.self, from: bytes)
                    messages.append(OutgoingMessage(topic: topic, key: change.partitionKey, value: bytes))
                } catch {
                    problems.append("\(file):\(number): \(error)")
                }
            }
            guard problems.isEmpty else {
                throw CommandFailure.invalidInput(
                    "\(problems.count) invalid record change(s), nothing produced:\n" + problems.joined(separator: "\n"))
            }
            guard !messages.isEmpty else { throw CommandFailure.invalidInput("\(file) holds no record changes") }
            return messages
        }
    }
}
