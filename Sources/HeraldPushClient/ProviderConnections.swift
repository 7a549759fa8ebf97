import AsyncHTTPClient
import NIOCore
import NIOSSL
import Synchronization

/// A pool of async-http-client HTTP/2 connections to one provider (FCM's transport;
/// APNs uses `HTTP2ProviderClient`): `count` HTTP clients, each of which keeps
/// its own connection per host and multiplexes many concurrent streams over it (up to the
/// server's `SETTINGS_MAX_CONCURRENT_STREAMS`). Requests go round-robin over them.
///
/// Several clients rather than one because async-http-client opens a single HTTP/2
/// connection per host and event loop; one TLS connection is one core's worth of framing.
final class ProviderConnections: Sendable {
    private let clients: [HTTPClient]
    private let next = Atomic<Int>(0)

    /// Opens nothing yet: connections are made on first use.
    /// - Parameters:
    ///   - count: how many connections (at least 1).
    ///   - caFile: a PEM file of extra CA certificates to trust (a test stand-in's or a
    ///     corporate proxy's), added to the system's roots.
    ///   - connectTimeout: how long establishing one connection may take.
    /// - Throws: `PushClientError` naming `caFile` when it is unreadable or holds no certificate.
    init(count: Int, caFile: String?, connectTimeout: Duration, eventLoopGroup: any EventLoopGroup) throws(PushClientError) {
        let tls = try ProviderTLS.configuration(caFile: caFile)
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.httpVersion = .automatic
        configuration.timeout = .init(connect: .nanoseconds(connectTimeout.wholeNanoseconds))
        configuration.redirectConfiguration = .disallow
        clients = (0..<max(count, 1)).map { _ in HTTPClient(eventLoopGroup: eventLoopGroup, configuration: configuration) }
    }

    /// The next client, round-robin.
    var client: HTTPClient {
        clients[next.add(1, ordering: .relaxed).oldValue % clients.count]
    }

    /// Closes every connection; call once, before dropping the last reference.
    func shutdown() async {
        for client in clients { try? await client.shutdown() }
    }
}

extension Duration {
    /// Whole nanoseconds, saturating.
    var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds.multipliedReportingOverflow(by: 1_000_000_000).overflow
            ? .max : seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
