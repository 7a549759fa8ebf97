import Foundation
import HeraldModel
import HeraldReader
import HeraldTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HeraldAPI

@Suite("Server-sent notification stream", .timeLimit(.minutes(5)))
struct EventStreamTests {
    typealias H = APITestHarness

    @Test("without a start position the stream begins now: a ready event, then only new notifications")
    func startsNow() async throws {
        let harness = try await H()
        try await harness.addNotifications(sequences: 0..<3)
        let (reader, task) = try await harness.openEventStream()
        let ready = await reader.events(1)
        #expect(ready == [ParsedEvent(id: harness.token(after: 2), event: "ready", data: #"{"serverChangeToken":"\#(harness.token(after: 2))"}"#)])
        #expect(harness.notifier.openStreams == 1)

        try await harness.addNotifications(sequences: 3..<5)
        let events = await reader.events(2)
        #expect(events.map(\.event) == ["notification", "notification"])
        #expect(events.map(\.notificationID) == ["n-_u1-3", "n-_u1-4"])
        #expect(events.map(\.id) == [harness.token(after: 3), harness.token(after: 4)])
        // The data is the notification exactly as a fetch returns it.
        let page = try await harness.store.fetchEncoded(recipient: "_u1", container: H.container, after: ChangeToken(rawValue: harness.token(after: 2)))
        #expect(events.map(\.data) == page.notifications.map { String(decoding: $0.json, as: UTF8.self) })

        harness.notifier.finish()
        #expect(await reader.rest().filter { $0.event != nil }.isEmpty)
        try await task.value
        #expect(harness.notifier.openStreams == 0)
    }

    @Test("reconnecting with Last-Event-ID misses nothing and repeats nothing")
    func resumeExactly() async throws {
        let harness = try await H()
        try await harness.addNotifications(sequences: 0..<2)
        let (first, firstTask) = try await harness.openEventStream(lastEventID: harness.token(after: -1))
        var received = await first.events(3)  // ready, 0, 1
        try await harness.addNotifications(sequences: 2..<4)
        received += await first.events(2)
        #expect(received.dropFirst().map(\.notificationID) == ["n-_u1-0", "n-_u1-1", "n-_u1-2", "n-_u1-3"])
        // The client drops after seeing sequence 2; 3 and more arrive while it is away.
        firstTask.cancel()
        _ = try? await firstTask.value
        try await harness.addNotifications(sequences: 4..<6)
        let lastSeen = try #require(received[3].id)

        let (second, secondTask) = try await harness.openEventStream(lastEventID: lastSeen)
        let resumed = await second.events(4)  // ready, 3, 4, 5
        #expect(resumed[0].event == "ready" && resumed[0].id == lastSeen)
        #expect(resumed.dropFirst().map(\.notificationID) == ["n-_u1-3", "n-_u1-4", "n-_u1-5"])
        try await harness.addNotifications(sequences: 6..<7)
        #expect(await second.events(1).map(\.notificationID) == ["n-_u1-6"])
        harness.notifier.finish()
        #expect(await second.rest().filter { $0.event != nil }.isEmpty)
        try await secondTask.value
    }

    @Test("growth of other users' streams does not wake or reach a stream")
    func onlyOwnStream() async throws {
        let harness = try await H(limits: APILimits(heartbeatInterval: .milliseconds(30)))
        let (reader, task) = try await harness.openEventStream("_u1")
        _ = await reader.events(1)
        try await harness.addNotifications("_u2", sequences: 0..<3)
        try await harness.addNotifications("_u1", sequences: 0..<1)
        #expect(await reader.events(1).map(\.notificationID) == ["n-_u1-0"])
        harness.notifier.finish()
        _ = await reader.rest()
        try await task.value
    }

    @Test("a large backlog is sent in batches, in order, each notification once")
    func backlogInBatches() async throws {
        let harness = try await H(limits: APILimits(streamBatchSize: 7))
        try await harness.addNotifications(sequences: 0..<50)
        let (reader, task) = try await harness.openEventStream(lastEventID: harness.token(after: 4))
        let events = await reader.events(46)
        #expect(events.dropFirst().map(\.notificationID) == (5..<50).map { "n-_u1-\($0)" })
        harness.notifier.finish()
        _ = await reader.rest()
        try await task.value
    }

    @Test("an idle stream sends heartbeat comments; a client that went away ends it and frees its listener")
    func heartbeatsAndGoneClients() async throws {
        let harness = try await H(limits: APILimits(heartbeatInterval: .milliseconds(20)))
        // Write 1 is the ready event, 2 and 3 heartbeats; the 4th write fails.
        let (reader, task) = try await harness.openEventStream(failAfter: 3)
        #expect(await reader.next()?.retry == "2000")
        #expect(await reader.next()?.event == "ready")
        #expect(await reader.next()?.comment == "keep-alive")
        #expect(await reader.next()?.comment == "keep-alive")
        await #expect(throws: RecordingWriter.Gone.self) { try await task.value }
        #expect(harness.notifier.openStreams == 0)
    }

    @Test("the stream ends after its configured lifetime")
    func lifetime() async throws {
        let harness = try await H(limits: APILimits(streamLifetime: .milliseconds(100)))
        let (reader, task) = try await harness.openEventStream()
        let events = await reader.rest()
        #expect(events.compactMap(\.event) == ["ready"])
        try await task.value
        #expect(harness.notifier.openStreams == 0)
    }

    @Test("a position that expires while the client lags ends the stream with an error event")
    func expiresMidStream() async throws {
        let harness = try await H(retention: RetentionPolicy(maxCount: 2, maxAge: .seconds(86_400)))
        try await harness.addNotifications(sequences: 0..<1)
        let (reader, task) = try await harness.openEventStream()
        _ = await reader.events(1)
        // Five arrive in one batch; retention keeps two, so the stream's position is gone.
        _ = try await harness.store.apply(StoreBatch(notifications: (1..<6).map { H.notification("_u1", $0) }))
        harness.notifier.streamsGrew([StreamID(recipient: "_u1", container: H.container)])
        let rest = await reader.rest().filter { $0.event != nil }
        #expect(rest.map(\.event) == ["error"])
        let body = try JSONDecoder().decode(ErrorJSON.self, from: Data((rest.first?.data ?? "").utf8))
        #expect(body.serverErrorCode == "CHANGE_TOKEN_EXPIRED")
        try await task.value
    }

    @Test("over HTTP: the events after Last-Event-ID (or since) with event-stream headers")
    func overHTTP() async throws {
        let harness = try await H(limits: APILimits(streamLifetime: .milliseconds(150)))
        try await harness.addNotifications(sequences: 0..<4)
        let headers = try await harness.authorization()
        let since = harness.token(after: 1)
        var resuming = headers
        resuming[HeraldAPI.lastEventID] = since
        try await harness.application().test(.router) { [resuming] client in
            let byQuery = try await client.execute(uri: H.path("notifications/stream") + "?since=\(since)", method: .get, headers: headers)
            let byHeader = try await client.execute(uri: H.path("notifications/stream"), method: .get, headers: resuming)
            for response in [byQuery, byHeader] {
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/event-stream; charset=utf-8")
                #expect(response.headers[.cacheControl] == "no-cache")
                let events = ParsedEvent.parse(response.text).events.filter { $0.event != nil }
                #expect(events.map(\.event) == ["ready", "notification", "notification"])
                #expect(events.map(\.id) == [since, harness.token(after: 2), harness.token(after: 3)])
                #expect(events.dropFirst().map(\.notificationID) == ["n-_u1-2", "n-_u1-3"])
            }
        }
    }

    @Test("an invalid, foreign or expired Last-Event-ID is a JSON error before any event")
    func badStart() async throws {
        let harness = try await H(retention: RetentionPolicy(maxCount: 2, maxAge: .seconds(86_400)))
        try await harness.addNotifications(sequences: 0..<6)
        let cases: [(String, HTTPResponse.Status, String)] = [
            ("not-a-token", .badRequest, "BAD_REQUEST"),
            (harness.token("_u2", after: 5), .badRequest, "BAD_REQUEST"),
            (harness.token(after: 0), .gone, "CHANGE_TOKEN_EXPIRED"),
        ]
        let authorization = try await harness.authorization()
        try await harness.application().test(.router) { client in
            for (token, status, code) in cases {
                var headers = authorization
                headers[HeraldAPI.lastEventID] = token
                let response = try await client.execute(uri: H.path("notifications/stream"), method: .get, headers: headers)
                #expect(try response.error(status).serverErrorCode == code)
            }
        }
        #expect(harness.notifier.openStreams == 0)
    }

    @Test("beyond maximumOpenStreams, and after finish, streams are SERVICE_UNAVAILABLE")
    func streamLimit() async throws {
        let harness = try await H(limits: APILimits(maximumOpenStreams: 1))
        let (reader, task) = try await harness.openEventStream()
        _ = await reader.events(1)
        let headers = try await harness.authorization("_u2")
        try await harness.application().test(.router) { client in
            let refused = try await client.execute(uri: H.path("notifications/stream"), method: .get, headers: headers)
            #expect(try refused.error(.serviceUnavailable).serverErrorCode == "SERVICE_UNAVAILABLE")
            harness.notifier.finish()
            _ = await reader.rest()
            let afterFinish = try await client.execute(uri: H.path("notifications/stream"), method: .get, headers: headers)
            #expect(try afterFinish.error(.serviceUnavailable).serverErrorCode == "SERVICE_UNAVAILABLE")
        }
        try await task.value
    }

    @Test("a response that is never written releases its listener")
    func unwrittenResponse() async throws {
        let harness = try await H()
        let request = Request(
            head: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: H.path("notifications/stream"), headerFields: [:]),
            body: RequestBody(buffer: ByteBuffer()))
        do {
            let response = try await harness.api.streams.open(
                request, caller: Caller(user: "_u1", container: H.container, expiresAt: .distantFuture), requestID: "x")
            #expect(response.status == .ok)
            #expect(harness.notifier.openStreams == 1)
        }
        #expect(harness.notifier.openStreams == 0)
    }
}
