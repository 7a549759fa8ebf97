import Foundation
import HeraldApp
import HeraldKafka
import HeraldModel
import HeraldPushClient
import HeraldStages
import Logging

/// `herald bench push`'s stage-level run, from a notification on `notifications` to the
/// provider's acknowledgement: the push stage exactly as `herald run --stages push` wires it
/// (`HeraldApp.buildRuntime`: its consumer group, the `push-state` changelog, `APNsClient`
/// built from credentials), on an embedded broker in this process, pushing to the stand-in.
///
/// Devices are registered first (`devices` records as the HTTP API writes them, one or more
/// per user); a warm-up pushes one notification to every user (connections open, every
/// user's state in the stage); then `PushStageLoad` produces notifications as fast as the
/// producer takes them, and at a fixed rate.
struct PushStageRun {
    /// The stage-level run's sizes.
    struct Settings: Sendable {
        /// Notifications of the maximum-rate phase.
        var notifications = 50_000
        /// Recipients, `_u0`…; notification `i` goes to user `i % users`.
        var users = 1_000
        /// Devices registered per user: pushes per notification.
        var devicesPerUser = 1
        /// Partitions of every topic.
        var partitions: Int32 = 6
        /// Notifications per second of the paced phase; nil: half the maximum-rate phase's pushes/s.
        var pacedRate: Double?
        /// Length of the paced phase.
        var pacedSeconds = 5.0
        /// The push stage's own settings (batch size, pushes in flight).
        var stage = PushProcessor.Settings()
    }

    /// What the run measured.
    struct Outcome: Sendable {
        var maximum: PushAcknowledgements.Phase
        /// CPU (this process: stage, broker and stand-in) during the maximum-rate phase.
        var cpuSeconds: Double
        var paced: PushAcknowledgements.Phase
        /// The rate the paced phase aimed at (notifications per second).
        var pacedTarget: Double
    }

    static let container = "iCloud.com.example.bench"
    static let bundleID = "com.example.bench"

    let settings: Settings
    let standIn: PushStandIn
    let caFile: String
    let acknowledgements: PushAcknowledgements
    let logger: Logger

    /// Runs the push stage, registers the devices, warms up and measures both phases.
    /// - Throws: `BenchmarkError` when the stage cannot start or pushes do not arrive.
    func run() async throws -> Outcome {
        let environment = try KafkaEnvironment(embeddedBrokers: 1, logger: logger)
        let catalog = TopicCatalog(prefix: "bench.", partitions: settings.partitions)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-bench-push-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = HeraldConfiguration(
            instanceID: "bench-push", dataDirectory: directory.path, tokenKey: .development, jwtSecret: .developmentJWT)
        configuration.stages = [.push]
        configuration.httpHost = "127.0.0.1"
        configuration.httpPort = 0
        let accounts = standIn.accounts
        // As `--apns-key-file`/`$HERALD_APNS_KEY`, `--apns-team-id`, `--apns-key-id`,
        // `--apns-production-url` and `--push-ca-file` give them.
        configuration.push.apnsKey = accounts.apnsPrivateKeyPEM
        configuration.push.apnsTeamID = accounts.teamID
        configuration.push.apnsKeyID = accounts.keyID
        configuration.push.apnsProductionURL = standIn.baseURL
        configuration.push.apnsDevelopmentURL = standIn.baseURL
        configuration.push.caFile = caFile
        configuration.push.settings = settings.stage
        let runtime = try await HeraldApp.buildRuntime(configuration, environment: environment, catalog: catalog, logger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await runtime.run() }
            do {
                let outcome = try await measure(runtime, catalog: catalog)
                await runtime.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return outcome
            } catch {
                await runtime.triggerGracefulShutdown()
                try? await tasks.waitForAll()
                throw error
            }
        }
    }

    private func measure(_ runtime: HeraldRuntime, catalog: TopicCatalog) async throws -> Outcome {
        try await register(runtime.producer, catalog: catalog)
        let load = PushStageLoad(
            settings: settings, producer: runtime.producer, topic: catalog.name(TopicCatalog.notifications),
            acknowledgements: acknowledgements)
        let warmUp = try await load.warmUp()
        if warmUp.repeated > 0 || warmUp.refused > 0 {
            logger.warning("bench push warm-up: \(warmUp.refused) pushes refused, \(warmUp.repeated) repeated")
        }
        let before = ResourceUsage.now(nil)
        let maximum = try await load.maximum()
        let cpu = ResourceUsage.now(nil).since(before).cpuSeconds
        let target = settings.pacedRate ?? max(1, maximum.rate / 2 / Double(settings.devicesPerUser))
        let paced = try await load.paced(rate: target, seconds: settings.pacedSeconds)
        return Outcome(maximum: maximum, cpuSeconds: cpu, paced: paced, pacedTarget: target)
    }

    /// Registers `devicesPerUser` production APNs devices per user: `devices` records keyed
    /// `container/user/token` on the user's partition, the value the device as the HTTP API
    /// writes it (`WireCodec`).
    private func register(_ producer: KafkaProducer, catalog: TopicCatalog) async throws {
        let codec = WireCodec()
        let topic = catalog.name(TopicCatalog.devices)
        let registeredAt = EpochMilliseconds.now()
        var messages: [OutgoingMessage] = []
        for user in 0..<settings.users {
            for index in 0..<settings.devicesPerUser {
                let device = Device(
                    token: Self.token(user: user, index: index), user: PushStageLoad.user(user), container: Self.container,
                    platform: .apns, environment: .production, topic: Self.bundleID, registeredAt: registeredAt)
                messages.append(OutgoingMessage(
                    topic: topic, partition: KeyPartitioner.partition(of: device.user, partitions: settings.partitions),
                    key: device.registryKey, value: try codec.encode(device)))
            }
        }
        for chunk in stride(from: 0, to: messages.count, by: 1_000) {
            _ = try await producer.send(Array(messages[chunk..<min(chunk + 1_000, messages.count)]))
        }
    }

    /// Device `index` of user `user`: 64 hex digits.
    static func token(user: Int, index: Int) -> String {
        let hex = String(user, radix: 16) + "f" + String(index, radix: 16)
        return String(repeating: "a", count: 64 - hex.count) + hex
    }
}
