import Foundation
import HeraldApp
import HeraldKafka
import HeraldModel
import HeraldReader
import HeraldStages
import Logging

/// Record changes per second from `record-changes` to rows in the reader store (match →
/// compose → reader in one process on the embedded broker), next to two baselines on the
/// same broker in the same run: the same topology relaying Herald's own messages
/// (`SameTopologyRelay`) and a one-hop consume→produce pass-through; then a paced run's
/// latency from produce to fetchable over HTTP (`PacedLoad`).
public struct PipelineBenchmark: Sendable {
    /// What to run: sizes of the maximum-rate runs and of the paced run.
    public struct Settings: Sendable {
        /// Record changes pushed through each path.
        public var changes = 20_000
        /// Subscriptions registered first; each change fires one.
        public var subscriptions = 10_000
        /// Partitions of every topic.
        public var partitions: Int32 = 6
        /// Changes per second of the paced run; nil: half of Herald's measured maximum.
        public var pacedRate: Double?
        /// Length of the paced run; zero: none.
        public var pacedSeconds: Double = 10
        /// Extra librdkafka properties of every client (stages, relays, feeders). Default: none.
        public var kafkaProperties: [String: String] = [:]
        /// How the paced run's probe users read their notifications. Default: `.stream`.
        public var probe: ProbeMode = .stream
        /// Where the paced run's messages go. Default: `.fresh`.
        public var pacedTopics: PacedTopics = .fresh

        /// The defaults above.
        public init() {}
    }

    /// How a paced run's probe user learns that its notification is fetchable over HTTP.
    public enum ProbeMode: String, Sendable, CaseIterable {
        /// The event stream (`GET …/notifications/stream`): each notification arrives as the
        /// reader applies it, so the measurement holds no polling interval (`ProbeStream`).
        case stream
        /// Fetches (`POST …/notifications/changes`) 1–20 ms apart while a probe is pending
        /// (`ProbeFetcher`): the latency includes part of that interval.
        case poll
    }

    /// The topics the paced run uses (`HeraldPipelineRun` says why it matters on the embedded
    /// broker).
    public enum PacedTopics: String, Sendable, CaseIterable {
        /// Topics and a Herald runtime of its own, started after the maximum-rate run stops.
        case fresh
        /// The maximum-rate run's topics and runtime, after its messages (before session 15).
        case shared
    }

    let settings: Settings
    let logger: Logger

    /// A benchmark with `settings`, logging to `logger`.
    public init(settings: Settings, logger: Logger) {
        self.settings = settings
        self.logger = logger
    }

    /// Measures the one-hop pass-through, Herald (maximum rate, then paced), and the
    /// same-topology relay (which replays Herald's messages, so it runs last), on one
    /// embedded broker.
    /// - Throws: `BenchmarkError` when messages or notifications do not arrive.
    public func run() async throws -> PipelineReport {
        let counter = AllocationCounter.preloaded()
        let environment = try KafkaEnvironment(
            embeddedBrokers: 1, extraProperties: settings.kafkaProperties, logger: logger)
        let oneHop = try await OneHopPassThrough(benchmark: self, environment: environment, counter: counter).run()
        let heraldRun = HeraldPipelineRun(benchmark: self, environment: environment, counter: counter)
        let herald = try await heraldRun.run()
        let same = try await SameTopologyRelay(benchmark: self, environment: environment, counter: counter)
            .run(replaying: heraldRun.catalog)
        var report = PipelineReport(
            changes: settings.changes, subscriptions: settings.subscriptions, partitions: settings.partitions,
            herald: herald.path, sameTopology: same.path, oneHop: oneHop, paced: herald.paced)
        (report.matchBytes, report.notificationBytes) = (same.matchBytes, same.notificationBytes)
        return report
    }

    /// What the benchmark's reader stores (Herald's and the relay's) keep per stream: at
    /// least every notification of the maximum-rate run, so the rows counted are all the
    /// notifications however few users share the changes. The changes fire subscriptions of
    /// up to 1,000 users in turn, so with the defaults (20 notifications per user) no stream
    /// comes near the default limit of 1,000 and nothing measured changes; `--subscriptions 10`
    /// gives each of 10 users a tenth of the changes, which the default limit would prune
    /// before they were counted (the run then failed after 10 minutes).
    var storeRetention: RetentionPolicy {
        var retention = RetentionPolicy()
        retention.maxCount = max(retention.maxCount, settings.changes)
        return retention
    }

    /// Record change number `index`, as JSON on topic `record-changes`: it fires
    /// subscription `category` (by default one of the registered ones, spread evenly).
    func change(_ index: Int, category: String? = nil) -> Data {
        let category = category ?? "c\((index &* 7919) % settings.subscriptions)"
        return Data("""
            {"changeID":"c\(index)","container":"iCloud.bench","database":"public","zoneID":{"zoneName":"_defaultZone","ownerRecordName":"_system"},\
            "recordType":"Item","recordName":"item-\(index)","kind":"create","fields":{"category":{"value":"\(category)","type":"STRING"},\
            "title":{"value":"Item \(index)","type":"STRING"}},"timestamp":1795300000000}
            """.utf8)
    }

    /// The message of record change `index` to `topic`, keyed as a public change (`RecordChange.partitionKey`).
    func changeMessage(_ index: Int, topic: String, category: String? = nil) -> OutgoingMessage {
        OutgoingMessage(topic: topic, key: "iCloud.bench/public/item-\(index)", value: change(index, category: category))
    }
}
