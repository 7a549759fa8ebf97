import Foundation
import HeraldModel
import HeraldPush
import HeraldPushClient
import Logging
import NIOCore

/// `herald bench push`: pushes per second and latency from a notification on the
/// `notifications` topic, through the push stage as `herald run --stages push` wires it, to
/// the local stand-in's acknowledgement (`PushStageRun`; what issue 15 measures), next to
/// the client level — `APNsClient` sending ready `PushRequest`s — and the baseline, the same
/// requests posted ready-made over the same HTTP/2 transport (what the stand-in and the
/// HTTP stack cost alone). All against the stand-in on loopback (HTTP/2 over TLS,
/// provider-token auth checked on every request), in this process.
///
/// Client level: the baseline and the client each closed-loop with `concurrency` pushes in
/// flight (pushes/s), then the client paced at half its own rate (p50/p99 from each push's
/// planned start). Stage level: maximum rate, then paced at half of it (p50/p99 from each
/// notification's produce to the stand-in's answer to its push).
public struct PushBenchmark: Sendable {
    public var pushes: Int
    public var concurrency: Int
    public var connections: Int
    public var pacedSeconds: Int
    /// Notifications of the stage-level maximum-rate phase; 0: no stage-level run.
    public var notifications = 50_000
    /// Recipients of the stage-level run's notifications.
    public var users = 1_000
    /// Devices registered per recipient (pushes per notification).
    public var devicesPerUser = 1
    /// Partitions of the stage-level run's topics.
    public var partitions: Int32 = 6
    /// Notifications per second of the stage-level paced phase; nil: half the maximum's pushes/s.
    public var pacedRate: Double?
    /// The push stage's batch size and pushes in flight (`--push-batch-size`,
    /// `--push-concurrency` of `herald run`); nil: the stage's defaults.
    public var stageBatchSize: Int?
    public var stageConcurrency: Int?
    /// The push stage's workers in the process (`--push-workers`); nil: the stage's default.
    public var stageWorkers: Int?
    public var logger: Logger

    /// - Parameters:
    ///   - pushes: pushes per closed-loop run.
    ///   - concurrency: pushes in flight in the closed loops.
    ///   - connections: HTTP/2 connections, for the client and the baseline alike.
    ///   - pacedSeconds: how long the paced run lasts.
    public init(pushes: Int, concurrency: Int, connections: Int, pacedSeconds: Int, logger: Logger) {
        self.pushes = pushes
        self.concurrency = concurrency
        self.connections = connections
        self.pacedSeconds = pacedSeconds
        self.logger = logger
    }

    /// Runs the client-level loads, then the stage-level run, and reports.
    /// - Throws: `BenchmarkError` when the stand-in cannot start, most pushes fail, or the
    ///   push stage does not push every notification.
    public func report() async throws -> PushReport {
        let acknowledgements = PushAcknowledgements()
        var standInConfiguration = PushStandIn.Configuration()
        standInConfiguration.recordLimit = 0
        standInConfiguration.recordBodies = false
        standInConfiguration.onAnswer = { push in
            guard push.path.hasPrefix("/3/device/") else { return }
            acknowledgements.answered(push.headers["apns-id"], status: push.status, at: .now)
        }
        let accounts: StandInAccounts
        let standIn: PushStandIn
        do {
            accounts = try StandInAccounts()
            standIn = try await PushStandIn.start(accounts: accounts, configuration: standInConfiguration, logger: logger)
        } catch {
            throw BenchmarkError("cannot start the push stand-in: \(error)")
        }
        let caFile = FileManager.default.temporaryDirectory.appendingPathComponent("herald-bench-push-\(UUID()).pem").path
        defer { try? FileManager.default.removeItem(atPath: caFile) }
        var configuration = APNsClient.Configuration()
        (configuration.productionURL, configuration.developmentURL) = (standIn.baseURL, standIn.baseURL)
        configuration.caFile = caFile
        configuration.connections = connections
        let client: APNsClient
        let baseline: PushBaseline
        do {
            try standIn.writeCAFile(to: caFile)
            client = try APNsClient(credentials: try accounts.apnsCredentials(), configuration: configuration, logger: logger)
            baseline = try PushBaseline(baseURL: standIn.baseURL, caFile: caFile, connections: connections)
        } catch {
            await standIn.stop()
            throw BenchmarkError("cannot set up the clients: \(error)")
        }
        let result = await measure(client: client, baseline: baseline)
        await client.shutdown()
        await baseline.shutdown()
        guard case .success(var report) = result, notifications > 0 else {
            await standIn.stop()
            return try result.get()
        }
        do {
            let stage = try await PushStageRun(
                settings: stageSettings, standIn: standIn, caFile: caFile, acknowledgements: acknowledgements, logger: logger
            ).run()
            await standIn.stop()
            report.add(stage, settings: stageSettings)
            return report
        } catch {
            await standIn.stop()
            throw error
        }
    }

    private var stageSettings: PushStageRun.Settings {
        var settings = PushStageRun.Settings()
        (settings.notifications, settings.users, settings.devicesPerUser) = (notifications, users, devicesPerUser)
        (settings.partitions, settings.pacedRate, settings.pacedSeconds) = (partitions, pacedRate, Double(pacedSeconds))
        if let stageBatchSize { settings.stage.maxBatchSize = stageBatchSize }
        if let stageConcurrency { settings.stage.maxConcurrentSends = stageConcurrency }
        if let stageWorkers { settings.stage.workers = stageWorkers }
        return settings
    }

    private func measure(client: APNsClient, baseline: PushBaseline) async -> Result<PushReport, BenchmarkError> {
        let requests = (0..<pushes).map { _ in Self.request(id: UUID().uuidString.lowercased()) }
        let bearer: String
        let prepared: [PushBaseline.Prepared]
        do {
            bearer = try await client.currentProviderToken()
            prepared = try requests.map { baseline.prepare(try APNsRequest($0), bearer: bearer) }
        } catch {
            return .failure(BenchmarkError("cannot prepare the requests: \(error)"))
        }
        // Warm up both: connections open, TLS done, code paths hot.
        _ = await PushLoad.closed(count: min(pushes, 2000), concurrency: concurrency) { await client.send(requests[$0]).isAccepted }
        _ = await PushLoad.closed(count: min(pushes, 2000), concurrency: concurrency) { await baseline.send(prepared[$0]) }
        let plain = await PushLoad.closed(count: pushes, concurrency: concurrency) { await baseline.send(prepared[$0]) }
        let full = await PushLoad.closed(count: pushes, concurrency: concurrency) { await client.send(requests[$0]).isAccepted }
        let rate = max(full.rate / 2, 1)
        let pacedCount = max(Int(rate * Double(pacedSeconds)), 1)
        let pacedRequests = (0..<pacedCount).map { _ in Self.request(id: UUID().uuidString.lowercased()) }
        let paced = await PushLoad.paced(count: pacedCount, rate: rate) { await client.send(pacedRequests[$0]).isAccepted }
        guard full.failures <= pushes / 100, plain.failures <= pushes / 100 else {
            return .failure(BenchmarkError(
                "too many pushes failed: client \(full.failures), baseline \(plain.failures) of \(pushes)"))
        }
        return .success(PushReport(benchmark: self, client: full, baseline: plain, paced: paced, pacedRate: rate))
    }

    /// An alert push to one production device, as the compose stage writes them.
    static func request(id: String) -> PushRequest {
        let device = Device(
            token: String(repeating: "5a", count: 32), user: "_bench", container: "iCloud.com.example.bench", platform: .apns,
            environment: .production, topic: "com.example.bench", registeredAt: 1)
        let payload: JSONValue = [
            "aps": ["alert": ["title": "Family Chat", "body": "Family Chat Message"], "sound": "default", "badge": 3],
            "ck": ["ce": 2, "cid": "iCloud.com.example.bench", "nid": .string(id), "ckuserid": "_bench"],
        ]
        return PushRequest(
            device: device, notificationID: id, apns: APNsPush(pushType: .alert, priority: .immediate, payload: payload),
            expiration: 0)
    }
}

extension ProviderResponse {
    /// Whether the provider accepted.
    var isAccepted: Bool {
        if case .accepted = self { true } else { false }
    }
}
