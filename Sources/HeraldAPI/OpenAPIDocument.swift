import Foundation
import Hummingbird

/// `docs/openapi.yaml`, the API's contract, served as is at `GET /openapi.yaml` without a
/// token: the module's resource `Resources/openapi.yaml`, which `docs/openapi.yaml` links to
/// (a link in the other direction would be copied into the bundle as a dangling link).
enum OpenAPIDocument {
    /// The document's bytes; `nil` when the module's resource bundle lacks it.
    static let bytes: ByteBuffer? = Bundle.module.url(forResource: "openapi", withExtension: "yaml")
        .flatMap { try? Data(contentsOf: $0) }
        .map { ByteBuffer(bytes: $0) }

    /// `GET /openapi.yaml`.
    /// - Throws: `APIError` (`INTERNAL_ERROR`) when the document is not installed.
    @Sendable static func serve(_ request: Request, context: HeraldRequestContext) throws -> Response {
        guard let bytes else {
            throw APIError(.internalError, "the OpenAPI document is not installed with this server")
        }
        return Response(
            status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"], body: ResponseBody(byteBuffer: bytes))
    }
}
