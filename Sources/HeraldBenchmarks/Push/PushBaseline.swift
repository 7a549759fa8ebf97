import AsyncHTTPClient
import HeraldPush
import NIOCore
import NIOSSL
import Synchronization

/// `herald bench push`'s baseline: plain async-http-client clients (HTTP/2, the same number
/// of connections) posting ready-made requests to the stand-in — no rule checks, no JSON,
/// no token handling, no response interpretation beyond the status.
final class PushBaseline: Sendable {
    private let clients: [HTTPClient]
    private let next = Atomic<Int>(0)

    init(caFile: String, connections: Int) throws {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.additionalTrustRoots = [.file(caFile)]
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.httpVersion = .automatic
        clients = (0..<max(connections, 1)).map { _ in HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration) }
    }

    /// The wire request for `built`.
    static func request(_ built: APNsRequest, baseURL: String, bearer: String) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: baseURL + built.path)
        request.method = .POST
        request.headers.add(name: "authorization", value: "bearer " + bearer)
        for (name, value) in built.headers { request.headers.add(name: name, value: value) }
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: built.body))
        return request
    }

    /// Posts `request`; true on 200.
    func send(_ request: HTTPClientRequest) async -> Bool {
        let client = clients[next.add(1, ordering: .relaxed).oldValue % clients.count]
        do {
            let response = try await client.execute(request, timeout: .seconds(10))
            _ = try await response.body.collect(upTo: 64 * 1024)
            return response.status.code == 200
        } catch {
            return false
        }
    }

    func shutdown() async {
        for client in clients { try? await client.shutdown() }
    }
}
