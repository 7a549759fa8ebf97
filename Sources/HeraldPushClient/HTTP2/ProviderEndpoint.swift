import Foundation

/// Where a provider listens, from its base URL (`https://host[:port]`): what to connect
/// to, what to send as `:authority`, and the TLS server name.
struct ProviderEndpoint: Sendable, Hashable {
    /// The host name or address to connect to.
    var host: String
    /// The TCP port (443 when the URL names none).
    var port: Int
    /// `host` or `host:port`, the `:authority` pseudo-header.
    var authority: String
    /// The name sent in SNI and checked against the certificate; `nil` for an IP address
    /// (SNI forbids addresses; NIOSSL then checks the certificate against the peer's address).
    var serverName: String?

    /// Parses `baseURL`.
    /// - Throws: `PushClientError` naming `setting` when it is not an `https` URL with a host
    ///   and nothing after it but an optional `/`.
    init(baseURL: String, setting: String) throws(PushClientError) {
        guard let components = URLComponents(string: baseURL), components.scheme?.lowercased() == "https",
            let host = components.host, !host.isEmpty, components.path.isEmpty || components.path == "/",
            components.query == nil
        else {
            throw PushClientError(.invalidConfiguration, "not an https base URL (https://host[:port]): \(baseURL)", source: setting)
        }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.host = bare
        port = components.port ?? 443
        authority = components.port.map { "\(host):\($0)" } ?? host
        serverName = Self.isAddress(bare) ? nil : bare
    }

    /// Whether `host` is an IPv4 or IPv6 address rather than a name.
    private static func isAddress(_ host: String) -> Bool {
        host.contains(":") || host.split(separator: ".").count == 4 && host.allSatisfy { $0.isNumber || $0 == "." }
    }
}
