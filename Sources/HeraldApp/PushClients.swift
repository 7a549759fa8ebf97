import Foundation
import HeraldModel
import HeraldPush
import HeraldPushClient
import HeraldStages
import Logging
import ServiceLifecycle

/// The provider clients the push stage sends through, built from `PushConfiguration`'s
/// credentials and endpoints; a platform without credentials answers every push 403, which
/// pauses that app (`/health/ready` says why) instead of losing its pushes.
struct PushClients: Sendable {
    let apns: APNsClient?
    let fcm: FCMClient?

    /// Builds the clients of the platforms that have credentials.
    /// - Throws: `HeraldAppError` (`pushCredentials`) naming the file, variable or member
    ///   at fault (never the key), or a bad CA file.
    init(_ push: PushConfiguration, logger: Logger) throws(HeraldAppError) {
        let credentials = try Self.credentials(push)
        do throws(PushClientError) {
            if let apnsCredentials = credentials.apns {
                var configuration = APNsClient.Configuration()
                if let url = push.apnsProductionURL { configuration.productionURL = url }
                if let url = push.apnsDevelopmentURL { configuration.developmentURL = url }
                configuration.caFile = push.caFile
                apns = try APNsClient(credentials: apnsCredentials, configuration: configuration, logger: logger)
            } else {
                apns = nil
            }
            if let fcmCredentials = credentials.fcm {
                var configuration = FCMClient.Configuration()
                if let url = push.fcmURL { configuration.baseURL = url }
                configuration.tokenURL = push.fcmTokenURL
                configuration.caFile = push.caFile
                do throws(PushClientError) {
                    fcm = try FCMClient(credentials: fcmCredentials, configuration: configuration, logger: logger)
                } catch {
                    // The APNs client is built: its connection pool must still be closed.
                    if let apns { Task { await apns.shutdown() } }
                    throw error
                }
            } else {
                fcm = nil
            }
        } catch {
            throw HeraldAppError(setting: .pushCredentials, reason: error.description)
        }
    }

    /// Reads and checks the configured credentials (keys parsed, members present), so a
    /// bad file stops `herald run` before Kafka is contacted.
    /// - Throws: `HeraldAppError` (`pushCredentials`) naming the file, variable or member.
    static func credentials(_ push: PushConfiguration) throws(HeraldAppError) -> (apns: APNsCredentials?, fcm: FCMCredentials?) {
        do throws(PushClientError) {
            var apns: APNsCredentials?
            if push.hasAPNsSettings {
                let teamID = push.apnsTeamID ?? "", keyID = push.apnsKeyID ?? ""
                apns =
                    if let file = push.apnsKeyFile {
                        try APNsCredentials(teamID: teamID, keyID: keyID, keyFile: file)
                    } else {
                        try APNsCredentials(
                            teamID: teamID, keyID: keyID, privateKeyPEM: push.apnsKey ?? "", source: APNsCredentials.Variable.key)
                    }
            }
            var fcm: FCMCredentials?
            if let file = push.fcmServiceAccountFile {
                fcm = try FCMCredentials(file: file)
            } else if let json = push.fcmServiceAccount {
                fcm = try FCMCredentials(serviceAccountJSON: Data(json.utf8), source: FCMCredentials.Variable.json)
            }
            return (apns, fcm)
        } catch {
            throw HeraldAppError(setting: .pushCredentials, reason: error.description)
        }
    }

    /// Each platform's transport: its client, or one that says it has no credentials.
    var transports: PushTransports {
        PushTransports(apns: apns ?? NoCredentials(platform: "APNs"), fcm: fcm ?? NoCredentials(platform: "FCM"))
    }

    /// Closes the clients' connections.
    func shutdown() async {
        await apns?.shutdown()
        await fcm?.shutdown()
    }
}

/// A platform Herald has no credentials for: every push is refused as by a provider that
/// does not know Herald (403), so the app's pushes pause and readiness names the cause.
private struct NoCredentials: PushTransport {
    let platform: String

    func send(_ request: PushRequest) async -> ProviderResponse {
        .rejected(status: 403, reason: "no \(platform) credentials configured", timestamp: nil, retryAfterSeconds: nil)
    }
}

/// Closes the provider clients once graceful shutdown reaches it: listed before the push
/// stage's runner, so the runner (shut down first, in reverse order) finishes its batch on
/// open connections.
struct PushClientsCloser: Service {
    let clients: PushClients

    func run() async throws {
        try? await gracefulShutdown()
        await clients.shutdown()
    }
}
