#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A host and port the HTTP server will listen on, checked before anything touches Kafka,
/// so a taken port fails at once and names the address.
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Binds a socket to the address (as the server will, with `SO_REUSEADDR`) and releases
    /// it. Port 0 (any free port) always succeeds.
    /// - Throws: `PipelineError` (`CONFIGURATION`) saying `cannot listen on HOST:PORT: why`.
    public func checkAvailable() throws(PipelineError) {
        guard port != 0 else { return }
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw failure(String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        let handle = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        guard handle >= 0 else { throw failure(String(cString: strerror(errno))) }
        defer { close(handle) }
        var on: Int32 = 1
        _ = setsockopt(handle, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        guard bind(handle, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            throw failure(String(cString: strerror(errno)).lowercased())
        }
    }

    private func failure(_ why: String) -> PipelineError {
        PipelineError(code: .configuration, reason: "cannot listen on \(self): \(why)")
    }
}
