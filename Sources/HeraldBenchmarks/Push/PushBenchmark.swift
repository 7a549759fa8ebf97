import Foundation
import HeraldModel
import HeraldPush
import HeraldPushClient
import Logging
import NIOCore

/// `herald bench push`: pushes per second and send→acknowledgement latency through
/// `APNsClient` against the local stand-in on loopback (HTTP/2 over TLS, provider-token
/// auth checked on every request), next to the same requests posted ready-made over the same
/// HTTP/2 transport (the baseline: what the stand-in and the HTTP stack cost alone).
///
/// Three loads: the baseline and the client each closed-loop with `concurrency` pushes in
/// flight (pushes/s), then the client paced at half its own rate (p50/p99 at that rate).
/// The stand-in runs in this process, so it shares the machine's cores with the client.
public struct PushBenchmark: Sendable {
    public var pushes: Int
    public var concurrency: Int
    public var connections: Int
    public var pacedSeconds: Int
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

    /// Runs the three loads and reports.
    /// - Throws: `BenchmarkError` when the stand-in cannot start or most pushes fail.
    public func report() async throws -> PushReport {
        var standInConfiguration = PushStandIn.Configuration()
        standInConfiguration.recordLimit = 0
        standInConfiguration.recordBodies = false
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
        await standIn.stop()
        return try result.get()
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
