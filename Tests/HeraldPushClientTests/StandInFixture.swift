import Foundation
import HeraldModel
import HeraldPush
import HeraldPushClient
import Logging
import Synchronization

/// A running stand-in with its CA written to a file, and clients pointed at it.
struct StandInFixture {
    /// One set of test keys for the whole run: RSA key generation takes a moment.
    static let accounts = Result { () throws(PushClientError) in try StandInAccounts() }

    /// The clients' request timeout against the stand-in: room for a loaded `make test`.
    /// The stand-in answers from Swift tasks, which every suite at once on two cores kept
    /// waiting past the default 10 s (APNs in one run, FCM in CI's run of `6818ba5`).
    static let loadedTimeout = Duration.seconds(60)

    let standIn: PushStandIn
    let caFile: String
    let clock: TestClock

    /// Starts a stand-in, runs `body`, and stops it (also when `body` throws).
    static func with<T: Sendable>(_ body: (StandInFixture) async throws -> T) async throws -> T {
        let clock = TestClock()
        let standIn = try await PushStandIn.start(
            accounts: try accounts.get(), logger: Logger(label: "stand-in"), now: { clock.seconds })
        let caFile = FileManager.default.temporaryDirectory.appendingPathComponent("herald-standin-\(UUID()).pem").path
        let fixture = StandInFixture(standIn: standIn, caFile: caFile, clock: clock)
        do {
            try standIn.writeCAFile(to: caFile)
            let result = try await body(fixture)
            await standIn.stop()
            try? FileManager.default.removeItem(atPath: caFile)
            return result
        } catch {
            await standIn.stop()
            try? FileManager.default.removeItem(atPath: caFile)
            throw error
        }
    }

    /// An APNs client against the stand-in for both environments, shut down after `body`.
    func withAPNs<T: Sendable>(
        _ configure: (inout APNsClient.Configuration) -> Void = { _ in }, _ body: (APNsClient) async throws -> T
    ) async throws -> T {
        var configuration = APNsClient.Configuration()
        configuration.productionURL = standIn.baseURL
        configuration.developmentURL = standIn.baseURL
        configuration.caFile = caFile
        configuration.timeout = Self.loadedTimeout
        configure(&configuration)
        let client = try APNsClient(
            credentials: try standIn.accounts.apnsCredentials(), configuration: configuration, logger: Logger(label: "apns"),
            now: { [clock] in clock.seconds })
        return try await Self.using(client, shutdown: client.shutdown, body)
    }

    /// An FCM client against the stand-in, shut down after `body`.
    func withFCM<T: Sendable>(_ body: (FCMClient) async throws -> T) async throws -> T {
        var configuration = FCMClient.Configuration()
        configuration.baseURL = standIn.baseURL
        configuration.caFile = caFile
        configuration.timeout = Self.loadedTimeout
        let client = try FCMClient(
            credentials: try standIn.accounts.fcmCredentials(tokenURL: standIn.tokenURL), configuration: configuration,
            logger: Logger(label: "fcm"), now: { [clock] in clock.seconds })
        return try await Self.using(client, shutdown: client.shutdown, body)
    }

    /// Runs `body` with `client`, then shuts it down (also when `body` throws).
    private static func using<Client, T: Sendable>(
        _ client: Client, shutdown: () async -> Void, _ body: (Client) async throws -> T
    ) async throws -> T {
        do {
            let result = try await body(client)
            await shutdown()
            return result
        } catch {
            await shutdown()
            throw error
        }
    }

    /// A request for an APNs device.
    static func apnsRequest(
        token: String = String(repeating: "ab", count: 32), id: String = "3180cf65-1c66-4bfa-9226-e1f02160ead0",
        environment: Device.Environment = .production
    ) -> PushRequest {
        let device = Device(
            token: token, user: "_u1", container: "iCloud.com.example.notes", platform: .apns, environment: environment,
            topic: "com.example.notes", registeredAt: 1)
        let payload: JSONValue = ["aps": ["alert": ["title": "Notes", "body": "Changed"], "sound": "default"], "ck": ["ce": 2]]
        return PushRequest(
            device: device, notificationID: id, apns: APNsPush(pushType: .alert, priority: .immediate, payload: payload),
            expiration: 1_900_000_000)
    }

    /// A request for an FCM device (iOS when `topic` is set).
    static func fcmRequest(token: String = "fcm-token-1", topic: String? = nil) -> PushRequest {
        let device = Device(
            token: token, user: "_u1", container: "iCloud.com.example.notes", platform: .fcm, topic: topic, registeredAt: 1)
        let payload: JSONValue = ["aps": ["alert": "Changed"], "ck": ["ce": 2]]
        return PushRequest(
            device: device, notificationID: "3180cf65-1c66-4bfa-9226-e1f02160ead0",
            apns: APNsPush(pushType: .alert, priority: .immediate, payload: payload), expiration: 0)
    }
}

/// Seconds since 1970 that tests move by hand.
final class TestClock: Sendable {
    private let value = Atomic<Int64>(1_800_000_000)
    var seconds: Int64 { value.load(ordering: .relaxed) }
    func advance(by seconds: Int64) { value.add(seconds, ordering: .relaxed) }
}
