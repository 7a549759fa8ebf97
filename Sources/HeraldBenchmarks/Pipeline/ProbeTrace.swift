import Foundation
import HeraldKafka
import HeraldStages
import Logging

/// Where a paced run's probe latency goes, hop by hop: after the run, the probes' messages
/// are read back from `record-changes`, `matches` and `notifications`, and each message's
/// timestamp (CreateTime: when its producer was handed it, wall-clock milliseconds) places
/// the probe on its way. For one probe:
///
/// - `send`: the benchmark's produce call → its record change's timestamp;
/// - `match`: → the match's timestamp (Kafka to the match stage, waiting there, matching);
/// - `compose`: → the notification's timestamp (Kafka to compose, waiting, composing);
/// - `reader`: → the last fetch that did not return it (Kafka to the reader, applying;
///   a lower bound, as the reader may have stored it any time before the next fetch);
/// - `fetch_gap`: that fetch's start → the response that returned the probe (the
///   granularity of polling, the HTTP round trip and the store query).
///
/// Probes are found by their record name (`item-N`) in messages keyed by a probe user.
struct ProbeTrace {
    let environment: KafkaEnvironment
    let catalog: TopicCatalog
    let logger: Logger

    /// The hops' latency summaries, in the order above (a hop no probe was traced through
    /// is left out).
    func hops(of probes: [ProbeLedger.Fetched]) async throws -> [PipelineReport.Hop] {
        let names = Set(probes.map(\.recordName))
        async let changes = timestamps(in: TopicCatalog.recordChanges, names: names)
        async let matches = timestamps(in: TopicCatalog.matches, names: names)
        async let notifications = timestamps(in: TopicCatalog.notifications, names: names)
        let (sent, matched, composed) = try await (changes, matches, notifications)
        var send: [Double] = [], match: [Double] = [], compose: [Double] = [], reader: [Double] = [], gap: [Double] = []
        for probe in probes {
            guard let sentMs = sent[probe.recordName], let matchedMs = matched[probe.recordName],
                  let composedMs = composed[probe.recordName] else { continue }
            send.append(sentMs - probe.producedMs)
            match.append(matchedMs - sentMs)
            compose.append(composedMs - matchedMs)
            let lastMiss = max(probe.previousFetchMs ?? composedMs, composedMs)
            reader.append(lastMiss - composedMs)
            gap.append(probe.fetchedMs - lastMiss)
        }
        return [("send", send), ("match", match), ("compose", compose), ("reader", reader), ("fetch_gap", gap)]
            .compactMap { name, values in PipelineReport.Hop(name: name, milliseconds: values) }
    }

    /// The timestamps of the probe messages in `topic`, by record name.
    private func timestamps(in topic: TopicCatalog.Topic, names: Set<String>) async throws -> [String: Double] {
        let name = "bench-trace-\(UUID().uuidString.prefix(8))"
        let consumer = try KafkaConsumer(
            configuration: environment.consumerConfiguration(groupID: name, clientID: name), logger: logger)
        try consumer.assign((0..<catalog.partitions).map { TopicPartitionOffset(catalog.name(topic), $0, .beginning) })
        var found: [String: Double] = [:]
        var idlePolls = 0
        let deadline = ContinuousClock.now + .seconds(60)
        while found.count < names.count, idlePolls < 20, ContinuousClock.now < deadline {
            var any = false
            for case .messages(let batch) in await consumer.poll() {
                any = true
                for message in batch {
                    guard let timestamp = message.timestamp, let key = message.key, let value = message.value,
                          Self.isProbe(key: key, topic: topic),
                          let recordName = Self.recordName(in: value, among: names) else { continue }
                    found[recordName] = found[recordName] ?? Double(timestamp)
                }
            }
            idlePolls = any ? 0 : idlePolls + 1
        }
        await consumer.close()
        return found
    }

    /// Whether a message of `topic` with `key` may be a probe's: record changes are keyed
    /// by record, matches and notifications by their recipient (a probe user).
    private static func isProbe(key: Data, topic: TopicCatalog.Topic) -> Bool {
        topic == TopicCatalog.recordChanges || key.starts(with: Data("_probe".utf8))
    }

    /// The first `item-N` in `value` that names one of `names` (a shorter run of digits
    /// too, should the byte after the name be a digit in a binary encoding).
    static func recordName(in value: Data, among names: Set<String>) -> String? {
        let bytes = [UInt8](value)
        let prefix = Array("item-".utf8)
        var index = 0
        while index + prefix.count < bytes.count {
            defer { index += 1 }
            guard bytes[index..<index + prefix.count].elementsEqual(prefix) else { continue }
            var end = index + prefix.count
            while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
            while end > index + prefix.count {
                let candidate = String(decoding: bytes[index..<end], as: UTF8.self)
                if names.contains(candidate) { return candidate }
                end -= 1
            }
        }
        return nil
    }
}
