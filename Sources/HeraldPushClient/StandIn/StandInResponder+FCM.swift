import Foundation
import JWTKit

extension StandInResponder {
    /// The OAuth2 grant's claims as the stand-in checks them.
    struct GrantClaims: JWTPayload {
        var iss: String
        var scope: String
        var aud: String
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// The token endpoint: a JWT bearer grant signed (RS256) by the test service account
    /// gets an access token for an hour.
    func token(headers: [String: String], body: [UInt8]) async -> Answer {
        var form: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            form[String(parts[0])] = String(parts[1]).removingPercentEncoding
        }
        func refuse(_ description: String) -> Answer {
            Answer(status: 400, reason: "invalid_grant", body: Self.json(["error": "invalid_grant", "error_description": description]))
        }
        guard form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer", let assertion = form["assertion"] else {
            return refuse("grant_type must be jwt-bearer with an assertion")
        }
        guard let claims = try? await fcmKeys.verify(assertion, as: GrantClaims.self) else {
            return refuse("assertion is not signed by the service account's key")
        }
        guard claims.iss == accounts.clientEmail, claims.scope.contains("firebase.messaging") else {
            return refuse("assertion's iss or scope is wrong")
        }
        let token = state.issueAccessToken()
        return Answer(
            status: 200, reason: nil, body: Self.json(["access_token": token, "expires_in": 3600, "token_type": "Bearer"]))
    }

    /// `messages:send`: a known access token, this project, a message with a token; then
    /// the answer the token was given, or 200 with the message's name.
    func fcm(method: String, path: String, headers: [String: String], body: [UInt8]) -> Answer {
        guard method == "POST", path == "/v1/projects/\(accounts.projectID)/messages:send" else {
            return Self.fcmRefusal(404, "NOT_FOUND", "no such method or project: \(path)")
        }
        guard let authorization = headers["authorization"], authorization.hasPrefix("Bearer "),
            state.isAccessToken(String(authorization.dropFirst("Bearer ".count)))
        else {
            return Self.fcmRefusal(401, "UNAUTHENTICATED", "missing or unknown access token")
        }
        let message = (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["message"] as? [String: Any]
        guard let token = message?["token"] as? String, !token.isEmpty else {
            return Self.fcmRefusal(400, "INVALID_ARGUMENT", "message.token is required", field: "message.token")
        }
        if let told = state.answer(for: token) {
            let (status, code, retryAfter) = told.refusal(fcm: true)
            var answer = Self.fcmRefusal(
                status, Self.googleStatus(status), "stand-in told to refuse this token", errorCode: code,
                field: code == "INVALID_ARGUMENT" ? "message.token" : nil)
            if let retryAfter { answer.headers["retry-after"] = String(retryAfter) }
            return answer
        }
        return Answer(
            status: 200, reason: nil, body: Self.json(["name": "projects/\(accounts.projectID)/messages/\(state.received + 1)"]))
    }

    /// The Google status for an HTTP status.
    private static func googleStatus(_ status: Int) -> String {
        switch status {
        case 400: "INVALID_ARGUMENT"
        case 401: "UNAUTHENTICATED"
        case 403: "PERMISSION_DENIED"
        case 404: "NOT_FOUND"
        case 429: "RESOURCE_EXHAUSTED"
        case 503: "UNAVAILABLE"
        default: "INTERNAL"
        }
    }

    /// FCM's error body: `{"error": {code, message, status, details: [FcmError, BadRequest]}}`.
    static func fcmRefusal(_ status: Int, _ googleStatus: String, _ message: String, errorCode: String? = nil, field: String? = nil)
        -> Answer
    {
        var details: [[String: Any]] = []
        if let errorCode {
            details.append(["@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": errorCode])
        }
        if let field {
            details.append([
                "@type": "type.googleapis.com/google.rpc.BadRequest",
                "fieldViolations": [["field": field, "description": message]],
            ])
        }
        let error: [String: Any] = ["code": status, "message": message, "status": googleStatus, "details": details]
        return Answer(status: status, reason: errorCode ?? googleStatus, body: json(["error": error]))
    }
}
