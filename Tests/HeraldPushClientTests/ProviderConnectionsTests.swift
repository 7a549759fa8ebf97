import AsyncHTTPClient
import NIOHTTP1
import Foundation
@testable import HeraldPushClient
import Testing

@Suite("Provider connections", .timeLimit(.minutes(5)))
struct ProviderConnectionsTests {
    @Test("the clients' connections speak HTTP/2 (ALPN) over TLS trusting the CA file")
    func negotiatesHTTP2() async throws {
        try await StandInFixture.with { fixture in
            let connections = try ProviderConnections(
                count: 2, caFile: fixture.caFile, connectTimeout: .seconds(30), eventLoopGroup: HTTPClient.defaultEventLoopGroup)
            var request = HTTPClientRequest(url: fixture.standIn.baseURL + "/3/device/" + String(repeating: "ab", count: 32))
            request.method = .POST
            let version: HTTPVersion
            do {
                // As long as the other stand-in tests wait: the whole suite shares two cores.
                let response = try await connections.client.execute(
                    request, timeout: .seconds(StandInFixture.loadedTimeout.components.seconds))
                _ = try await response.body.collect(upTo: 1 << 16)
                version = response.version
            } catch {
                await connections.shutdown()
                throw error
            }
            await connections.shutdown()
            #expect(version == .http2)
            #expect(fixture.standIn.requests.first?.reason == "MissingTopic")
        }
    }
}
