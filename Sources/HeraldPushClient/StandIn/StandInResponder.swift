import Foundation
import JWTKit

/// The stand-in's request handling: routes by path to the APNs provider API, the FCM send
/// API or the OAuth2 token endpoint, answers, and records every request with its answer.
struct StandInResponder: Sendable {
    /// One answer before it becomes a `Response`.
    struct Answer {
        var status: Int
        var reason: String?
        var headers: [String: String] = [:]
        var body: [UInt8] = []
    }

    /// The largest request body read (APNs' VoIP limit is 5 KB; the rest is generous).
    static let maxBodyBytes = 64 * 1024

    let state: StandInState
    let accounts: StandInAccounts
    let apnsKeys: JWTKeyCollection
    let fcmKeys: JWTKeyCollection
    let now: @Sendable () -> Int64
    /// Told of every request and its answer (`PushStandIn.Configuration.onAnswer`).
    let onAnswer: (@Sendable (RecordedPush) -> Void)?

    /// Answers one request (lower-case header names) and records it with its answer.
    func answer(method: String, path: String, headers: [String: String], body: [UInt8]) async -> Answer {
        let answer: Answer
        if path.hasPrefix("/3/") {
            answer = await apns(method: method, path: path, headers: headers, body: body)
        } else if path == "/token" {
            answer = await token(headers: headers, body: body)
        } else if path.hasPrefix("/v1/") {
            answer = fcm(method: method, path: path, headers: headers, body: body)
        } else {
            answer = Self.apnsRefusal(404, "BadPath")
        }
        let recorded = RecordedPush(
            method: method, path: path, headers: headers, body: body, status: answer.status, reason: answer.reason)
        state.record(recorded)
        onAnswer?(recorded)
        return answer
    }

    /// JSON bytes of a string dictionary (sorted keys), for small answers.
    static func json(_ object: Any) -> [UInt8] {
        Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
    }

    /// An APNs refusal body `{"reason": …}`.
    static func apnsRefusal(_ status: Int, _ reason: String, timestamp: Int64? = nil, retryAfter: Int? = nil) -> Answer {
        var body: [String: Any] = ["reason": reason]
        if let timestamp { body["timestamp"] = timestamp }
        var answer = Answer(status: status, reason: reason, body: json(body))
        if let retryAfter { answer.headers["retry-after"] = String(retryAfter) }
        return answer
    }
}
