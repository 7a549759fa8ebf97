import HeraldModel
import HeraldPush
import Testing

@Suite("Provider responses → push actions")
struct PushActionTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var platform: Device.Platform
        var response: ProviderResponse
        var action: PushAction
        var testDescription: String { "\(platform) \(response) → \(action)" }
    }

    static let rows: [Row] = [
        Row(platform: .apns, response: .accepted(providerID: "a"), action: .sent),
        Row(platform: .fcm, response: .accepted(providerID: "projects/p/messages/1"), action: .sent),
        Row(
            platform: .apns, response: .rejected(status: 410, reason: "Unregistered", timestamp: 1_700_000_000_000, retryAfterSeconds: nil),
            action: .removeDevice(reason: "Unregistered", observedAt: 1_700_000_000_000)),
        Row(
            platform: .apns, response: .rejected(status: 400, reason: "BadDeviceToken", timestamp: nil, retryAfterSeconds: nil),
            action: .removeDevice(reason: "BadDeviceToken", observedAt: nil)),
        Row(
            platform: .apns, response: .rejected(status: 400, reason: "DeviceTokenNotForTopic", timestamp: nil, retryAfterSeconds: nil),
            action: .removeDevice(reason: "DeviceTokenNotForTopic", observedAt: nil)),
        Row(
            platform: .fcm, response: .rejected(status: 404, reason: "UNREGISTERED", timestamp: 5, retryAfterSeconds: nil),
            action: .removeDevice(reason: "UNREGISTERED", observedAt: 5)),
        Row(
            platform: .fcm,
            response: .rejected(status: 400, reason: "INVALID_ARGUMENT message.token", timestamp: 6, retryAfterSeconds: nil),
            action: .removeDevice(reason: "INVALID_ARGUMENT message.token", observedAt: 6)),
        Row(
            platform: .fcm, response: .rejected(status: 400, reason: "INVALID_ARGUMENT", timestamp: 6, retryAfterSeconds: nil),
            action: .deadLetter(reason: "400 INVALID_ARGUMENT")),
        Row(
            platform: .apns, response: .rejected(status: 429, reason: "TooManyRequests", timestamp: nil, retryAfterSeconds: 30),
            action: .retry(afterSeconds: 30)),
        Row(
            platform: .apns, response: .rejected(status: 500, reason: "InternalServerError", timestamp: nil, retryAfterSeconds: nil),
            action: .retry(afterSeconds: nil)),
        Row(
            platform: .apns, response: .rejected(status: 503, reason: "ServiceUnavailable", timestamp: nil, retryAfterSeconds: 7),
            action: .retry(afterSeconds: 7)),
        Row(
            platform: .fcm, response: .rejected(status: 429, reason: "QUOTA_EXCEEDED", timestamp: nil, retryAfterSeconds: 60),
            action: .retry(afterSeconds: 60)),
        Row(
            platform: .fcm, response: .rejected(status: 503, reason: "UNAVAILABLE", timestamp: nil, retryAfterSeconds: nil),
            action: .retry(afterSeconds: nil)),
        Row(platform: .apns, response: .unreachable("connection refused"), action: .retry(afterSeconds: nil)),
        Row(platform: .fcm, response: .unreachable("TLS handshake failed"), action: .retry(afterSeconds: nil)),
        Row(
            platform: .apns, response: .rejected(status: 403, reason: "InvalidProviderToken", timestamp: nil, retryAfterSeconds: nil),
            action: .pauseApp(reason: "403 InvalidProviderToken")),
        Row(
            platform: .apns, response: .rejected(status: 403, reason: "ExpiredProviderToken", timestamp: nil, retryAfterSeconds: nil),
            action: .retry(afterSeconds: nil)),
        Row(
            platform: .fcm, response: .rejected(status: 403, reason: "THIRD_PARTY_AUTH_ERROR", timestamp: nil, retryAfterSeconds: nil),
            action: .pauseApp(reason: "403 THIRD_PARTY_AUTH_ERROR")),
        Row(
            platform: .fcm, response: .rejected(status: 401, reason: "UNAUTHENTICATED", timestamp: nil, retryAfterSeconds: nil),
            action: .pauseApp(reason: "401 UNAUTHENTICATED")),
        Row(
            platform: .apns, response: .rejected(status: 413, reason: "PayloadTooLarge", timestamp: nil, retryAfterSeconds: nil),
            action: .deadLetter(reason: "413 PayloadTooLarge")),
        Row(
            platform: .apns, response: .rejected(status: 400, reason: "BadCollapseId", timestamp: nil, retryAfterSeconds: nil),
            action: .deadLetter(reason: "400 BadCollapseId")),
    ]

    @Test("every row of issue 15's response table", arguments: rows)
    func classifies(_ row: Row) {
        #expect(PushAction(response: row.response, platform: row.platform) == row.action)
    }

    @Test("an FCM INVALID_ARGUMENT is about the token only when the error says so")
    func fcmTokenReason() {
        #expect(FCMError.reason(status: "INVALID_ARGUMENT", errorCode: nil, fields: ["message.token"], message: nil)
            == "INVALID_ARGUMENT message.token")
        #expect(FCMError.reason(
            status: "INVALID_ARGUMENT", errorCode: "INVALID_ARGUMENT", fields: [],
            message: "The registration token is not a valid FCM registration token") == "INVALID_ARGUMENT message.token")
        #expect(FCMError.reason(status: "INVALID_ARGUMENT", errorCode: nil, fields: ["message.android.ttl"], message: nil)
            == "INVALID_ARGUMENT")
        #expect(FCMError.reason(status: "NOT_FOUND", errorCode: "UNREGISTERED", fields: [], message: nil) == "UNREGISTERED")
    }
}
