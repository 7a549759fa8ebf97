import Foundation
import HeraldAPI
import HeraldApp
import HeraldTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Graceful shutdown of the process `herald run` builds ends the open event streams at
/// once: the HTTP server's shutdown waits for the responses in progress, so a stream left
/// open held the whole shutdown until its next heartbeat (15 s).
@Suite("Graceful shutdown ends open event streams", .timeLimit(.minutes(5)))
struct EventStreamShutdownTests {
    /// A blocking HTTP/1.1 client on one loopback socket: the test must read the stream
    /// byte by byte as the server writes it, and see the server close it.
    final class RawStream: @unchecked Sendable {
        private let socket: Int32

        /// Connects to 127.0.0.1:`port` and sends `request`.
        init(port: Int, request: String) throws {
            socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            // A bound on every read: a stream that is never ended fails the test instead of hanging it.
            var timeout = timeval(tv_sec: 60, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
            let bytes = Array(request.utf8)
            guard send(socket, bytes, bytes.count, 0) == bytes.count else { throw POSIXError(.EIO) }
        }

        deinit { close(socket) }

        /// What the server sends next; empty once it closed the connection (or the read timed out).
        func read() -> String {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(socket, &buffer, buffer.count, 0)
            return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
        }
    }

    @Test("SIGTERM-style shutdown: the stream ends before any heartbeat, and the runtime stops")
    func streamEndsAtShutdown() async throws {
        let fixture = try await PipelineFixture()
        let configuration = fixture.runtimeConfiguration([.reader])
        defer { try? FileManager.default.removeItem(atPath: configuration.dataDirectory) }
        let token = try await APIAuthenticator(secret: PipelineFixture.jwtSecret).issueToken(user: "_u1", container: "iCloud.x")

        let received = try await fixture.withRuntime(configuration) { runtime in
            let port = try #require(try await Wait.value(timeout: .seconds(60), every: .milliseconds(20)) { runtime.httpPort } until: { $0 != nil })
            let stream = try RawStream(
                port: port,
                request: "GET /v1/containers/iCloud.x/notifications/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\r\n")
            // The blocking reads run off the cooperative pool.
            let text = Mutex("")
            let reading = Task.detached {
                while true {
                    let part = stream.read()
                    if part.isEmpty { return }
                    text.withLock { $0 += part }
                }
            }
            // Shut down once the stream is open: its `ready` event is written right away.
            let opened = try await Wait.until(timeout: .seconds(30)) { text.withLock { $0.contains("event: ready") } }
            #expect(opened, "the event stream is open")
            await runtime.triggerGracefulShutdown()
            await reading.value
            return text.withLock { $0 }
        }
        #expect(received.contains("event: ready"), "the stream began: \(received.prefix(300))")
        #expect(!received.contains("keep-alive"), "the stream ended at shutdown, not at its next heartbeat")
    }
}
