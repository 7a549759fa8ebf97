import Foundation
import HeraldKafka
import ServiceLifecycle

/// Ships buffered log lines to the `logs` topic in batches (keyed by instance, so one
/// instance's lines stay in order). Lines that cannot be delivered are counted as dropped.
public final class LogShipper: Service {
    private let sink: LogTopicSink
    private let producer: KafkaProducer
    private let topic: String
    private let instance: String
    private let interval: Duration
    private let batchSize: Int

    public init(
        sink: LogTopicSink, producer: KafkaProducer, topic: String, instance: String,
        interval: Duration = .milliseconds(500), batchSize: Int = 500
    ) {
        self.sink = sink
        self.producer = producer
        self.topic = topic
        self.instance = instance
        self.interval = interval
        self.batchSize = batchSize
    }

    public func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            await shipBuffered()
            try? await Task.sleep(for: interval)
        }
        await shipBuffered()  // the last lines, including those about shutting down
    }

    /// Sends everything buffered now.
    public func shipBuffered() async {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        while true {
            let lines = sink.take(upTo: batchSize)
            guard !lines.isEmpty else { return }
            let messages = lines.compactMap { line in
                (try? encoder.encode(line)).map { OutgoingMessage(topic: topic, key: instance, value: $0) }
            }
            // A line that cannot be encoded (never expected: its values are strings) is
            // dropped like one the brokers refused: counted, never silently.
            sink.countDropped(lines.count - messages.count)
            do {
                _ = try await producer.send(messages)
            } catch {
                sink.countDropped(lines.count)
                return
            }
        }
    }
}
