import Foundation
import HeraldPushClient

/// The demo's push part: devices registered over HTTP for the sample users (one of them a
/// token the APNs stand-in answers 410), then the pushes the stand-in received and the
/// pruned token.
struct DemoPushes {
    let standIn: PushStandIn
    let say: (String) -> Void

    /// A sample user's device token: 64 hex digits derived from the user (stable per run).
    static func token(_ user: String, _ index: Int) -> String {
        let seed = Array("\(index)\(user)".utf8)
        return (0..<32).map { String(format: "%02x", seed[$0 % seed.count] &+ UInt8($0)) }.joined()
    }

    /// Registers one development APNs device per user, and for the first user a second one
    /// the stand-in will answer 410 `Unregistered`; returns that token.
    func register(_ clients: [String: APIClient], container: String) async throws -> String? {
        let bundleID = container.hasPrefix("iCloud.") ? String(container.dropFirst("iCloud.".count)) : container
        var gone: String?
        for user in clients.keys.sorted() {
            var tokens = [Self.token(user, 1)]
            if gone == nil {
                gone = Self.token(user, 2)
                tokens.append(Self.token(user, 2))
                standIn.answer(.unregistered, forToken: Self.token(user, 2))
            }
            for token in tokens {
                let body = Data(#"{"platform": "apns", "environment": "development", "topic": "\#(bundleID)"}"#.utf8)
                let answer = try await clients[user]!.send("PUT", "v1/containers/\(container)/devices/\(token)", body: body)
                guard answer.status == 200 else {
                    throw CommandFailure.runtime("PUT device of \(user): HTTP \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
                }
                say("4b. PUT …/devices/\(token.prefix(12))… (apns, development, \(bundleID)) as \(user) → 200\(token == gone ? " (the stand-in will answer 410)" : "")")
            }
        }
        return gone
    }

    /// Waits (up to `waitSeconds`) until the 410 token is no longer listed, then prints the
    /// pushes the stand-in received.
    func show(_ clients: [String: APIClient], container: String, gone: String?, waitSeconds: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(waitSeconds)
        var pruned = false
        if let gone, let owner = clients.keys.sorted().first, let client = clients[owner] {
            while !pruned && ContinuousClock.now < deadline {
                let listed = try await client.send("GET", "v1/containers/\(container)/devices")
                pruned = standIn.received > 0 && !String(decoding: listed.body, as: UTF8.self).contains(gone)
                if !pruned { try await Task.sleep(for: .milliseconds(200)) }
            }
        }
        let requests = standIn.requests
        say("\n10. Pushes the APNs stand-in received (\(requests.count); HTTP/2 over TLS; ES256 provider tokens: \(Set(requests.compactMap { $0.headers["authorization"] }).count)):")
        let refused = requests.filter { $0.status != 200 }
        let shown = Array(requests.filter { $0.status == 200 }.prefix(2)) + refused.prefix(1)
        for request in shown {
            say(request.printed.split(separator: "\n").map { "   " + $0 }.joined(separator: "\n"))
        }
        if requests.count > shown.count { say("   … and \(requests.count - shown.count) more (\(refused.count) refused in all)") }
        if let gone {
            say(pruned
                ? "   token \(gone.prefix(12))… answered 410 Unregistered → removed (tombstone on devices; GET …/devices no longer lists it)"
                : "   token \(gone.prefix(12))… was not removed within \(waitSeconds) s")
        }
    }
}
