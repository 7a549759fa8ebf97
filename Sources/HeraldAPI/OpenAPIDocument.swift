import Foundation
import Hummingbird

/// `docs/openapi.yaml`, the API's contract, served as is at `GET /openapi.yaml` without a
/// token: the module's resource `Resources/openapi.yaml`, which `docs/openapi.yaml` links to
/// (a link in the other direction would be copied into the bundle as a dangling link).
struct OpenAPIDocument: Sendable {
    /// The document's bytes; `nil` when the module's resource bundle lacks it.
    let bytes: ByteBuffer?

    /// The document of the module's resource bundle, read once, when the routes are
    /// mounted (so an installation without the bundle fails at start, not on a request).
    static let bundled = OpenAPIDocument(
        bytes: Bundle.module.url(forResource: "openapi", withExtension: "yaml")
            .flatMap { try? Data(contentsOf: $0) }
            .map { ByteBuffer(bytes: $0) })

    /// `GET /openapi.yaml`.
    /// - Throws: `APIError` (`INTERNAL_ERROR`) when the document is not installed.
    @Sendable func serve(_ request: Request, context: HeraldRequestContext) throws -> Response {
        guard let bytes else {
            throw APIError(.internalError, "the OpenAPI document is not installed with this server")
        }
        return Response(
            status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"], body: ResponseBody(byteBuffer: bytes))
    }
}
