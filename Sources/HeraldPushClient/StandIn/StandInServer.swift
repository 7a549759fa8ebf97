import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix
import NIOSSL
import Synchronization

/// The stand-in's listener: TLS (ALPN `h2`), `NIOHTTP2Handler`, `StandInStreamHandler` per
/// connection; it keeps its open connections so that `stop()` closes them all.
final class StandInServer: Sendable {
    private let listener: any Channel
    private let connections: Connections

    /// The open connections by identity.
    private final class Connections: Sendable {
        let open = Mutex<[ObjectIdentifier: any Channel]>([:])

        func add(_ channel: any Channel) {
            open.withLock { $0[ObjectIdentifier(channel)] = channel }
            channel.closeFuture.whenComplete { [self] _ in
                _ = open.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
            }
        }
    }

    private init(listener: any Channel, connections: Connections) {
        self.listener = listener
        self.connections = connections
    }

    /// The port it listens on.
    var port: Int { listener.localAddress?.port ?? 0 }

    /// Listens on `host:port` (0: any free port).
    /// - Throws: NIO's error when the address cannot be bound or TLS settings are refused.
    static func start(host: String, port: Int, tls: TLSConfiguration, responder: StandInResponder) async throws -> StandInServer {
        var tls = tls
        tls.applicationProtocols = ["h2"]
        let context = try NIOSSLContext(configuration: tls)
        let connections = Connections()
        // As APNs: up to 1000 concurrent streams per connection.
        let settings = [
            HTTP2Setting(parameter: .maxConcurrentStreams, value: 1000),
            HTTP2Setting(parameter: .maxHeaderListSize, value: HPACKDecoder.defaultMaxHeaderListSize),
        ]
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                connections.add(channel)
                return channel.eventLoop.makeCompletedFuture {
                    let operations = channel.pipeline.syncOperations
                    try operations.addHandler(NIOSSLServerHandler(context: context))
                    try operations.addHandler(NIOHTTP2Handler(mode: .server, initialSettings: settings))
                    try operations.addHandler(StandInStreamHandler(responder: responder))
                }
            }
            .bind(host: host, port: port).get()
        return StandInServer(listener: listener, connections: connections)
    }

    /// Stops listening, closes every connection and waits until they are closed.
    func stop() async {
        try? await listener.close()
        let open = connections.open.withLock { Array($0.values) }
        for channel in open {
            channel.close(promise: nil)
            try? await channel.closeFuture.get()
        }
    }
}
