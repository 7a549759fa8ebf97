import HeraldPush
import HeraldPushClient
import NIOCore
import NIOHPACK
import NIOPosix

/// `herald bench push`'s baseline, "the stand-in alone (a client that only sends)": the
/// same HTTP/2 transport as `APNsClient` (`HTTP2ProviderClient`, the same number of
/// connections) posting ready-made header blocks and bodies — no rule checks, no JSON, no
/// token handling, no response interpretation beyond the status.
final class PushBaseline: Sendable {
    /// One request, ready to go.
    struct Prepared: Sendable {
        var headers: HPACKHeaders
        var body: ByteBuffer
    }

    private let client: HTTP2ProviderClient

    init(baseURL: String, caFile: String, connections: Int) throws {
        client = try HTTP2ProviderClient(
            baseURL: baseURL, caFile: caFile, connections: connections, connectTimeout: .seconds(10),
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton)
    }

    /// The wire request for `built`.
    func prepare(_ built: APNsRequest, bearer: String) -> Prepared {
        var headers = client.postHeaders(path: built.path)
        headers.add(name: "authorization", value: "bearer " + bearer)
        for (name, value) in built.headers { headers.add(name: name, value: value) }
        headers.add(name: "content-type", value: "application/json")
        headers.add(name: "content-length", value: String(built.body.count))
        return Prepared(headers: headers, body: ByteBuffer(bytes: built.body))
    }

    /// Posts `request`; true on 200.
    func send(_ request: Prepared) async -> Bool {
        if case .answered(200, _, _) = await client.send(request.headers, body: request.body, timeout: .seconds(10)) { return true }
        return false
    }

    func shutdown() async {
        await client.shutdown()
    }
}
