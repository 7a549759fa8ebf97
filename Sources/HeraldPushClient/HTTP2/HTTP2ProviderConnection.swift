import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix
import NIOSSL

/// One TLS + HTTP/2 connection to a provider: TCP, `NIOSSLClientHandler` (ALPN `h2`),
/// `NIOHTTP2Handler`, `ProviderStreamHandler`. Requests queue in its `ProviderOutbox` and
/// are written by its event loop in batches.
final class HTTP2ProviderConnection: Sendable {
    private let channel: any Channel
    private let outbox: ProviderOutbox
    private let handler: NIOLoopBound<ProviderStreamHandler>

    private init(channel: any Channel, outbox: ProviderOutbox, handler: NIOLoopBound<ProviderStreamHandler>) {
        self.channel = channel
        self.outbox = outbox
        self.handler = handler
    }

    /// Whether it still takes requests (not closed, no GOAWAY received).
    var isOpen: Bool { outbox.isOpen }

    /// Connects to `endpoint` on `eventLoop`. TLS and the HTTP/2 preface follow; requests
    /// sent meanwhile wait for them (and fail with the handshake's error if it fails).
    static func connect(
        to endpoint: ProviderEndpoint, tls: NIOSSLContext, connectTimeout: Duration, on eventLoop: any EventLoop
    ) -> EventLoopFuture<HTTP2ProviderConnection> {
        let outbox = ProviderOutbox()
        return ClientBootstrap(group: eventLoop)
            .connectTimeout(.nanoseconds(connectTimeout.wholeNanoseconds))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let operations = channel.pipeline.syncOperations
                    try operations.addHandler(NIOSSLClientHandler(context: tls, serverHostname: endpoint.serverName))
                    // Header blocks are checked per request (`HeaderBlockCheck`), not by NIOHTTP2.
                    try operations.addHandler(NIOHTTP2Handler(mode: .client, headerBlockValidation: .disabled))
                    try operations.addHandler(ProviderStreamHandler(outbox: outbox))
                }
            }
            .connect(host: endpoint.host, port: endpoint.port)
            .flatMapThrowing { channel in
                let handler = try channel.pipeline.syncOperations.handler(type: ProviderStreamHandler.self)
                return HTTP2ProviderConnection(channel: channel, outbox: outbox, handler: NIOLoopBound(handler, eventLoop: channel.eventLoop))
            }
    }

    /// Sends one request (`headers` with its pseudo-headers first) and waits for the answer,
    /// at most until `deadline`.
    func send(_ headers: HPACKHeaders, body: ByteBuffer, deadline: NIODeadline) async -> ProviderExchange.Outcome {
        await withCheckedContinuation { reply in
            switch outbox.enqueue(ProviderStreamRequest(headers: headers, body: body, deadline: deadline, reply: reply)) {
            case .scheduleDrain:
                channel.eventLoop.execute { [handler] in handler.value.drain() }
            case .queued:
                break
            case .closed(let reason):
                reply.resume(returning: .failed(reason))
            }
        }
    }

    /// Closes the connection (open streams fail) and waits until it is closed.
    func close() async {
        channel.close(promise: nil)
        try? await channel.closeFuture.get()
    }
}
