import Foundation
import HeraldPushClient
import NIOCore
import NIOHPACK
import NIOPosix
import Synchronization
import Testing

@Suite("HTTP/2 provider client", .timeLimit(.minutes(5)))
struct HTTP2ProviderClientTests {
    /// A one-connection client of `baseURL`.
    private static func client(_ baseURL: String, caFile: String? = nil) throws -> HTTP2ProviderClient {
        try HTTP2ProviderClient(
            baseURL: baseURL, caFile: caFile, connections: 1, connectTimeout: .seconds(5),
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton)
    }

    /// A POST to the stand-in's APNs path for `token` without the APNs headers.
    private static func bareRequest(_ client: HTTP2ProviderClient, token: String = String(repeating: "ab", count: 32)) -> HPACKHeaders {
        var headers = client.postHeaders(path: "/3/device/" + token)
        headers.add(name: "content-length", value: "2")
        return headers
    }

    @Test("it speaks HTTP/2 over TLS trusting the CA file: the stand-in answers Apple's refusal for a request without a topic")
    func answersOverHTTP2() async throws {
        try await StandInFixture.with { fixture in
            let client = try Self.client(fixture.standIn.baseURL, caFile: fixture.caFile)
            // A loaded `make test` (every suite at once on two cores) once took over 10 s to answer.
            let outcome = await client.send(Self.bareRequest(client), body: ByteBuffer(string: "{}"), timeout: .seconds(60))
            await client.shutdown()
            guard case .answered(let status, _, let body) = outcome else {
                Issue.record("expected an answer, got \(outcome)")
                return
            }
            #expect(status == 400)
            #expect(String(decoding: body, as: UTF8.self).contains("MissingTopic"))
            #expect(fixture.standIn.requests.first?.reason == "MissingTopic")
        }
    }

    @Test("many concurrent requests on one connection, 300 KB of bodies in all (past the 64 KB connection window), are each answered once")
    func concurrentStreams() async throws {
        let body = ByteBuffer(string: "{\"padding\":\"" + String(repeating: "x", count: 586) + "\"}")
        try await StandInFixture.with { fixture in
            let client = try Self.client(fixture.standIn.baseURL, caFile: fixture.caFile)
            let statuses = await withTaskGroup(of: Int?.self) { group in
                for index in 0..<500 {
                    let token = String(format: "%064x", index)
                    group.addTask {
                        var headers = client.postHeaders(path: "/3/device/" + token)
                        headers.add(name: "content-length", value: String(body.readableBytes))
                        let outcome = await client.send(headers, body: body, timeout: .seconds(60))
                        if case .answered(let status, _, _) = outcome { return status }
                        return nil
                    }
                }
                return await group.reduce(into: [Int?]()) { $0.append($1) }
            }
            await client.shutdown()
            #expect(statuses.count == 500)
            #expect(statuses.allSatisfy { $0 == 400 })
            #expect(fixture.standIn.received == 500)
        }
    }

    @Test("a request whose header breaks HTTP/2's rules fails alone, naming the header; the connection goes on answering",
          arguments: [
            ("apns-collapse-id", "line\nbreak"), ("apns-id", "nul\u{0}"), ("apns-topic", " leading"), ("apns-topic", "trailing\t"),
            ("Apns-Topic", "upper-case name"), ("apns topic", "space in the name"), ("apns-id", "carriage\rreturn"),
          ])
    func invalidHeaderFailsAlone(name: String, value: String) async throws {
        try await StandInFixture.with { fixture in
            let client = try Self.client(fixture.standIn.baseURL, caFile: fixture.caFile)
            var bad = Self.bareRequest(client)
            bad.add(name: name, value: value)
            let refused = await client.send(bad, body: ByteBuffer(string: "{}"), timeout: .seconds(60))
            let answered = await client.send(Self.bareRequest(client), body: ByteBuffer(string: "{}"), timeout: .seconds(60))
            await client.shutdown()
            guard case .failed(let reason) = refused else {
                Issue.record("expected the request to fail, got \(refused)")
                return
            }
            #expect(reason.contains("request not sent") && reason.contains(name), "\(reason)")
            guard case .answered(let status, _, _) = answered else {
                Issue.record("expected an answer to the next request, got \(answered)")
                return
            }
            #expect(status == 400)
            #expect(fixture.standIn.received == 1)
        }
    }

    @Test("a server that never answers: the request fails at its timeout, nothing hangs")
    func timesOut() async throws {
        try await RawServer.with(closeAtOnce: false) { server in
            let client = try Self.client("https://127.0.0.1:\(server.port)")
            let started = ContinuousClock.now
            let outcome = await client.send(Self.bareRequest(client), body: ByteBuffer(string: "{}"), timeout: .milliseconds(300))
            let waited = ContinuousClock.now - started
            await client.shutdown()
            guard case .failed(let reason) = outcome else {
                Issue.record("expected a failure, got \(outcome)")
                return
            }
            #expect(reason.contains("timeout"))
            #expect(waited >= .milliseconds(300))
        }
    }

    @Test("a connection the server closes fails its requests, and the next request opens a new one")
    func reconnects() async throws {
        try await RawServer.with(closeAtOnce: true) { server in
            let client = try Self.client("https://127.0.0.1:\(server.port)")
            let first = await client.send(Self.bareRequest(client), body: ByteBuffer(string: "{}"), timeout: .seconds(10))
            let second = await client.send(Self.bareRequest(client), body: ByteBuffer(string: "{}"), timeout: .seconds(10))
            await client.shutdown()
            for outcome in [first, second] {
                guard case .failed = outcome else {
                    Issue.record("expected a failure, got \(outcome)")
                    continue
                }
            }
            #expect(server.accepted == 2)
        }
    }

    @Test("a base URL that is not https://host[:port] is refused, naming the setting", arguments: [
        "http://127.0.0.1:80", "https://", "api.push.apple.com", "https://host/path",
    ])
    func badBaseURL(_ url: String) {
        let error = #expect(throws: PushClientError.self) {
            _ = try HTTP2ProviderClient(
                baseURL: url, caFile: nil, connections: 1, connectTimeout: .seconds(1),
                eventLoopGroup: MultiThreadedEventLoopGroup.singleton, setting: "APNs production URL")
        }
        #expect(error?.source == "APNs production URL")
    }
}

/// A TCP server on 127.0.0.1 that never speaks: it either keeps each connection open
/// silently or closes it at once; it counts the connections it accepted.
final class RawServer: Sendable {
    /// Accepted connections, counted on the event loop.
    private final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    private let channel: any Channel
    private let counter: Counter

    private init(channel: any Channel, counter: Counter) {
        self.channel = channel
        self.counter = counter
    }

    /// The port it listens on.
    var port: Int { channel.localAddress?.port ?? 0 }
    /// Connections accepted so far.
    var accepted: Int { counter.value.load(ordering: .relaxed) }

    /// Runs `body` with a server, then closes it.
    static func with<T: Sendable>(closeAtOnce: Bool, _ body: (RawServer) async throws -> T) async throws -> T {
        let counter = Counter()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                counter.value.add(1, ordering: .relaxed)
                if closeAtOnce { child.close(promise: nil) }
                return child.eventLoop.makeSucceededVoidFuture()
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let server = RawServer(channel: channel, counter: counter)
        do {
            let result = try await body(server)
            try? await channel.close()
            return result
        } catch {
            try? await channel.close()
            throw error
        }
    }
}
