import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// The stand-in's TLS identity, made at start-up: a self-signed CA and a server
/// certificate it signs for `localhost` and 127.0.0.1. Clients trust the CA through a
/// CA file (`caPEM` written out), exactly as they would a corporate proxy's.
struct StandInCertificates {
    /// The CA certificate, PEM.
    let caPEM: String
    /// The server's chain and key for NIOSSL.
    let serverConfiguration: TLSConfiguration

    /// Makes the CA and the server certificate.
    /// - Throws: `PushClientError` (`standInFailed`) if signing fails.
    init(hostnames: [String] = ["localhost"], addresses: [[UInt8]] = [[127, 0, 0, 1]]) throws(PushClientError) {
        do {
            let now = Date()
            let caKey = P256.Signing.PrivateKey()
            let caName = try DistinguishedName { CommonName("Herald push stand-in CA") }
            let ca = try Certificate(
                version: .v3, serialNumber: .init(), publicKey: .init(caKey.publicKey),
                notValidBefore: now - 3600, notValidAfter: now + 7 * 86400, issuer: caName, subject: caName,
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                    Critical(KeyUsage(keyCertSign: true))
                },
                issuerPrivateKey: .init(caKey))
            let serverKey = P256.Signing.PrivateKey()
            let names = hostnames.map(GeneralName.dnsName) + addresses.map { .ipAddress(ASN1OctetString(contentBytes: $0[...])) }
            let server = try Certificate(
                version: .v3, serialNumber: .init(), publicKey: .init(serverKey.publicKey),
                notValidBefore: now - 3600, notValidAfter: now + 7 * 86400, issuer: caName,
                subject: try DistinguishedName { CommonName(hostnames.first ?? "localhost") },
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true))
                    try ExtendedKeyUsage([.serverAuth])
                    SubjectAlternativeNames(names)
                },
                issuerPrivateKey: .init(caKey))
            caPEM = try ca.serializeAsPEM().pemString
            let chain = try NIOSSLCertificate(bytes: Array(try server.serializeAsPEM().pemString.utf8), format: .pem)
            let key = try NIOSSLPrivateKey(bytes: Array(serverKey.pemRepresentation.utf8), format: .pem)
            serverConfiguration = TLSConfiguration.makeServerConfiguration(
                certificateChain: [.certificate(chain)], privateKey: .privateKey(key))
        } catch {
            throw PushClientError(.standInFailed, "cannot make the self-signed certificates: \(error)", source: "stand-in TLS")
        }
    }
}
