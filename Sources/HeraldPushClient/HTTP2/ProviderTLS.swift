import NIOSSL

/// The client TLS settings both provider transports use: the system's roots plus an
/// optional CA file (a test stand-in's or a corporate proxy's).
enum ProviderTLS {
    /// The client configuration trusting `caFile` in addition to the system's roots.
    /// - Throws: `PushClientError` naming `caFile` when it is unreadable or holds no certificate.
    static func configuration(caFile: String?) throws(PushClientError) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let caFile {
            let certificates: [NIOSSLCertificate]
            do {
                certificates = try NIOSSLCertificate.fromPEMFile(caFile)
            } catch {
                throw PushClientError(.invalidConfiguration, "not a readable PEM certificate file: \(error)", source: caFile)
            }
            guard !certificates.isEmpty else {
                throw PushClientError(.invalidConfiguration, "holds no PEM certificate", source: caFile)
            }
            tls.additionalTrustRoots = [.certificates(certificates)]
        }
        return tls
    }

    /// A context for HTTP/2 connections (ALPN `h2` only) trusting `caFile`.
    /// - Throws: `PushClientError` for a bad CA file or settings NIOSSL refuses.
    static func http2Context(caFile: String?) throws(PushClientError) -> NIOSSLContext {
        var tls = try configuration(caFile: caFile)
        tls.applicationProtocols = ["h2"]
        do {
            return try NIOSSLContext(configuration: tls)
        } catch {
            throw PushClientError(.invalidConfiguration, "TLS settings refused: \(error)", source: caFile ?? "system trust roots")
        }
    }
}
