import Foundation
import HeraldModel
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HeraldAPI

/// The same routes over a real socket (HummingbirdTesting `.live`): streaming bodies and
/// early refusals behave on the wire as they do in the router tests.
@Suite("API over a live HTTP server", .timeLimit(.minutes(5)))
struct LiveServerTests {
    typealias H = APITestHarness

    @Test("the event stream arrives over HTTP/1.1 and ends with its lifetime")
    func streamOverSocket() async throws {
        let harness = try await H(limits: APILimits(streamLifetime: .milliseconds(300)))
        try await harness.addNotifications(sequences: 0..<3)
        var headers = try await harness.authorization()
        headers[HeraldAPI.lastEventID] = harness.token(after: 0)
        try await harness.application().test(.live) { [headers] client in
            let response = try await client.execute(uri: H.path("notifications/stream"), method: .get, headers: headers)
            #expect(response.status == .ok)
            let events = ParsedEvent.parse(response.text).events.filter { $0.event != nil }
            #expect(events.map(\.event) == ["ready", "notification", "notification"])
            #expect(events.dropFirst().map(\.notificationID) == ["n-_u1-1", "n-_u1-2"])
        }
    }

    @Test("an oversized body is refused with 413 over a socket, and the connection still answers")
    func oversizedOverSocket() async throws {
        let harness = try await H(limits: APILimits(maximumBodyBytes: 1024))
        let headers = try await harness.authorization()
        try await harness.application().test(.live) { client in
            let big = ByteBuffer(repeating: UInt8(ascii: " "), count: 64 * 1024)
            let refused = try await client.execute(uri: H.path("badge"), method: .post, headers: headers, body: big)
            #expect(try refused.error(.contentTooLarge).serverErrorCode == "REQUEST_TOO_LARGE")
            let next = try await client.execute(uri: H.path("badge"), method: .post, headers: headers, body: try .json(["badge": 1]))
            #expect(next.status == .accepted)
        }
    }
}
