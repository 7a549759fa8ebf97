import NIOCore
import NIOHPACK
import NIOSSL
import Synchronization

/// A pool of HTTP/2 connections to one provider base URL (APNs' transport): `count`
/// connections, each opened on first use and reopened after it closes, each carrying many
/// concurrent streams; requests go round-robin over them. See `ProviderStreamHandler` for
/// why this is written over NIOHTTP2 frames rather than on async-http-client.
public final class HTTP2ProviderClient: Sendable {
    private let endpoint: ProviderEndpoint
    private let tls: NIOSSLContext
    private let connectTimeout: Duration
    private let eventLoopGroup: any EventLoopGroup
    private let slots: [ProviderConnectionSlot]
    private let next = Atomic<Int>(0)

    /// Opens nothing yet.
    /// - Parameters:
    ///   - baseURL: `https://host[:port]`.
    ///   - caFile: a PEM file of extra CA certificates to trust, added to the system's roots.
    ///   - connections: how many connections (at least 1).
    ///   - connectTimeout: how long establishing one TCP connection may take.
    ///   - setting: the setting `baseURL` came from, for errors.
    /// - Throws: `PushClientError` for a malformed URL or an unusable CA file.
    public init(
        baseURL: String, caFile: String?, connections: Int, connectTimeout: Duration, eventLoopGroup: any EventLoopGroup,
        setting: String = "provider URL"
    ) throws(PushClientError) {
        endpoint = try ProviderEndpoint(baseURL: baseURL, setting: setting)
        tls = try ProviderTLS.http2Context(caFile: caFile)
        self.connectTimeout = connectTimeout
        self.eventLoopGroup = eventLoopGroup
        slots = (0..<max(connections, 1)).map { _ in ProviderConnectionSlot() }
    }

    /// A header block for a POST to `path` holding only the pseudo-headers; add the
    /// request's own headers after them. `path` is not indexed by HPACK (it differs per
    /// device), so that the header table keeps the headers every request repeats.
    public func postHeaders(path: String) -> HPACKHeaders {
        var headers = HPACKHeaders()
        headers.reserveCapacity(12)
        headers.add(name: ":method", value: "POST")
        headers.add(name: ":scheme", value: "https")
        headers.add(name: ":authority", value: endpoint.authority)
        headers.add(name: ":path", value: path, indexing: .nonIndexable)
        return headers
    }

    /// Sends `headers` (from `postHeaders(path:)`) and `body`; the answer or, within
    /// `timeout`, why there is none.
    public func send(_ headers: HPACKHeaders, body: ByteBuffer, timeout: Duration) async -> ProviderExchange.Outcome {
        if let problem = HeaderBlockCheck.problem(in: headers) { return .failed("request not sent: \(problem)") }
        let deadline = NIODeadline.now() + .nanoseconds(timeout.wholeNanoseconds)
        let slot = slots[next.add(1, ordering: .relaxed).oldValue % slots.count]
        let connection: HTTP2ProviderConnection
        switch await slot.connection(open: { [endpoint, tls, connectTimeout, eventLoopGroup] in
            HTTP2ProviderConnection.connect(to: endpoint, tls: tls, connectTimeout: connectTimeout, on: eventLoopGroup.next())
        }) {
        case .success(let open): connection = open
        case .failure(let failure): return .failed(failure.description)
        }
        return await connection.send(headers, body: body, deadline: deadline)
    }

    /// Closes every connection; requests after this fail.
    public func shutdown() async {
        for slot in slots { await slot.shutdown() }
    }
}
