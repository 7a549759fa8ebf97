import Foundation
import HTTPTypes
import Hummingbird
import JWTKit
import NIOCore

/// The stand-in's request handling: routes by path to the APNs provider API, the FCM send
/// API or the OAuth2 token endpoint, answers, and records every request with its answer.
struct StandInResponder: HTTPResponder {
    typealias Context = BasicRequestContext

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

    func respond(to request: Request, context: Context) async throws -> Response {
        let body = Array(buffer: try await request.body.collect(upTo: Self.maxBodyBytes))
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        let method = request.method.rawValue
        let path = request.uri.path
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
        state.record(
            RecordedPush(method: method, path: path, headers: headers, body: body, status: answer.status, reason: answer.reason))
        var fields = HTTPFields()
        for (name, value) in answer.headers {
            if let name = HTTPField.Name(name) { fields[name] = value }
        }
        if !answer.body.isEmpty { fields[.contentType] = "application/json" }
        return Response(
            status: .init(code: answer.status), headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
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
