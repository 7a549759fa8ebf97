import ArgumentParser
import Foundation
import HeraldKafka
import HeraldModel
import HeraldStages
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
                error is listed as FILE:LINE. Keys are container/database/zoneOwner (public database: container/public/recordName).
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
                let properties = try kafka.extraProperties()
                let messages = try loadMessages(
                    topic: TopicCatalog(prefix: kafka.topicPrefix, partitions: 1).name(TopicCatalog.recordChanges),
                    maximumMessageBytes: properties["message.max.bytes"].flatMap { Int($0) } ?? Self.defaultMaximumMessageBytes)
                let environment = KafkaEnvironment(brokers: brokers, extraProperties: properties, logger: Logger(label: "herald.changes"))
                try await Self.checkReachable(environment, brokers: brokers)
                var settings = environment.producerConfiguration(clientID: "herald-changes-produce")
                settings.deliveryTimeout = .seconds(30)
                let producer = try KafkaProducer(configuration: settings, logger: Logger(label: "herald.changes"))
                let reports: [DeliveryReport]
                do {
                    reports = try await producer.send(messages)
                } catch {
                    await producer.close(timeout: .seconds(1))
                    throw CommandFailure.runtime("could not produce to \(brokers): \(Self.oneLine(error))")
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

        /// librdkafka's default `message.max.bytes`.
        static let defaultMaximumMessageBytes = 1_000_000
        /// What a record adds to its key and value on the wire (librdkafka counts it against
        /// `message.max.bytes`), rounded up.
        static let recordOverheadBytes = 128

        /// Fails fast, in one line naming the bootstrap address, when no broker answers
        /// within the client's request timeout (10 s): otherwise every message would wait
        /// for its delivery timeout. librdkafka's connection errors meanwhile are not logged
        /// (the one line says it all).
        static func checkReachable(_ environment: KafkaEnvironment, brokers: String) async throws {
            var quiet = Logger(label: "herald.changes")
            quiet.logLevel = .critical
            let admin = try KafkaAdmin(configuration: environment.client, logger: quiet)
            do {
                _ = try await admin.topics()
            } catch {
                await admin.close()
                throw CommandFailure.runtime(
                    "cannot reach Kafka at \(brokers) within \(environment.client.requestTimeout.components.seconds) s: \(oneLine(error))")
            }
            await admin.close()
        }

        /// The first line of an error's description, at most 200 characters.
        static func oneLine(_ error: any Error) -> String {
            let line = "\(error)".split(separator: "\n").first.map(String.init) ?? "\(error)"
            return line.count <= 200 ? line : String(line.prefix(200)) + "…"
        }

        private func loadMessages(topic: String, maximumMessageBytes: Int) throws -> [OutgoingMessage] {
            let data = try InputFile.read(file, stdin: true)
            if let hint = jsonLinesHint(data, file: file, holding: "record change") { throw CommandFailure.invalidInput(hint) }
            var messages: [OutgoingMessage] = []
            var problems: [String] = []
            let codec = WireCodec()
            for (number, bytes) in jsonLines(data) {
                if bytes.count + Self.recordOverheadBytes > maximumMessageBytes {
                    problems.append("""
                        \(file):\(number): the line is \(bytes.count) bytes; a message holds at most \(maximumMessageBytes) \
                        bytes with its key and record overhead (message.max.bytes; raise it with \
                        --kafka-property message.max.bytes=N if the brokers accept more)
                        """)
                    continue
                }
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
