import Foundation
import HeraldModel
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HeraldAPI

/// Every save gets the server's revision (`SubscriptionRevisions`): the clock's microseconds,
/// strictly increasing, whatever the body says.
@Suite("Subscription routes: revisions")
struct SubscriptionRevisionRoutesTests {
    typealias H = APITestHarness

    @Test("each PUT stamps a new, larger revision from the clock; one in the body is replaced")
    func stamped() async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        let micros = Int64(H.now.timeIntervalSince1970) * 1_000_000
        try await harness.application().test(.router) { client in
            var revisions: [Int64?] = []
            for body in [SubscriptionRoutesTests.queryBody(), SubscriptionRoutesTests.setting("revision", 5), SubscriptionRoutesTests.queryBody()] {
                let put = try await client.execute(
                    uri: SubscriptionRoutesTests.subscriptionPath("once"), method: .put, headers: headers, body: try .json(body))
                #expect(put.status == .ok, "\(put.text)")
                revisions.append(try put.json(Subscription.self).revision)
            }
            // The clock stands still in the harness: each save is one microsecond later than the last.
            #expect(revisions == [micros, micros + 1, micros + 2])
            let published = harness.publisher.messages.compactMap { message -> Int64? in
                if case .subscription(let subscription) = message { return subscription.revision }
                return nil
            }
            #expect(published == [micros, micros + 1, micros + 2])
            let get = try await client.execute(uri: SubscriptionRoutesTests.subscriptionPath("once"), method: .get, headers: headers)
            #expect(try get.json(Subscription.self).revision == micros + 2)
        }
    }

    @Test("a revision in the body that is not a non-negative integer is refused like any bad member", arguments: [
        (JSONValue.string("1"), "revision"), (JSONValue.integer(-1), "revision"),
    ])
    func malformed(value: JSONValue, path: String) async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let put = try await client.execute(
                uri: SubscriptionRoutesTests.subscriptionPath("once"), method: .put, headers: headers,
                body: try .json(SubscriptionRoutesTests.setting("revision", value)))
            #expect(put.status == .badRequest, "\(put.text)")
            #expect(put.text.contains(path), "\(put.text)")
            #expect(harness.publisher.messages.isEmpty)
        }
    }
}
