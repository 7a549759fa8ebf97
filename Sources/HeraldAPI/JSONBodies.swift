import Foundation
import HeraldModel
import Hummingbird

/// Reading JSON request bodies and writing JSON answers, for every route collection.
struct JSONBodies: Sendable {
    /// The largest request body read (`APILimits.maximumBodyBytes`).
    let maximumBodyBytes: Int

    /// A JSON answer whose body is already encoded.
    static func response(_ status: HTTPResponse.Status = .ok, body: some Sequence<UInt8>) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// A JSON answer encoding `value` with sorted keys.
    static func response(_ status: HTTPResponse.Status = .ok, _ value: some Encodable) throws -> Response {
        response(status, body: try WireCodec().encode(value))
    }

    /// The request body, read up to `maximumBodyBytes`: a larger declared
    /// `Content-Length` is refused before reading, a larger streamed body as soon as it
    /// passes the limit, so nothing unbounded is buffered.
    /// - Throws: `APIError` (`REQUEST_TOO_LARGE`, or `BAD_REQUEST` when the body stream fails).
    func readBody(_ request: Request) async throws(APIError) -> ByteBuffer {
        let limit = maximumBodyBytes
        let tooLarge = APIError(.requestTooLarge, "the request body is larger than \(limit) bytes")
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw tooLarge
        }
        var collected = ByteBuffer()
        do {
            for try await var part in request.body {
                guard part.readableBytes <= limit - collected.readableBytes else { throw tooLarge }
                collected.writeBuffer(&part)
            }
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError(.badRequest, "the request body could not be read")
        }
        return collected
    }

    /// Decodes the JSON request body as `type`; an empty body is `{}` when `emptyIsObject`.
    /// - Throws: `APIError` — `BAD_REQUEST` naming the JSON path of the first bad value,
    ///   `REQUEST_TOO_LARGE`.
    func decode<T: Decodable>(_ type: T.Type, from request: Request, emptyIsObject: Bool = false) async throws(APIError) -> T {
        try decode(type, from: try await readBody(request), emptyIsObject: emptyIsObject)
    }

    /// Decodes a body already read (`readBody(_:)`) as `decode(_:from:emptyIsObject:)` does.
    /// - Throws: `APIError` (`BAD_REQUEST` naming the JSON path of the first bad value).
    func decode<T: Decodable>(_ type: T.Type, from body: ByteBuffer, emptyIsObject: Bool = false) throws(APIError) -> T {
        var bytes = Data(body.readableBytesView)
        if bytes.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
            guard emptyIsObject else { throw APIError(.badRequest, "the request needs a JSON body") }
            bytes = Data("{}".utf8)
        }
        do {
            return try WireCodec().decode(type, from: bytes)
        } catch {
            throw APIError.badJSON(error)
        }
    }

    /// Fills in the members of a request body that the path and the token imply: an absent
    /// or `null` member takes the implied value; a given one must equal it.
    /// - Parameter implied: (member, value, where the value comes from — for the error).
    /// - Throws: `APIError` (`BAD_REQUEST`) naming the member that disagrees.
    static func complete(
        _ members: inout [String: JSONValue], with implied: [(key: String, value: String, source: String)]
    ) throws(APIError) {
        for (key, value, source) in implied {
            switch members[key] {
            case nil, .null?:
                members[key] = .string(value)
            case .string(let given)? where given == value:
                break
            case let given?:
                throw APIError(.badRequest, "\(key): \(given) does not match \(source) ('\(value)')")
            }
        }
    }

    /// Decodes a request object completed from the path and token with the model's own
    /// validation: malformed JSON or a wrongly typed value is `BAD_REQUEST`, a well-typed
    /// but invalid value `invalid`; the reason leads with the JSON path.
    static func decodeCompleted<Value: Decodable>(
        _ type: Value.Type, _ object: JSONValue, invalid: APIError.Code
    ) throws(APIError) -> Value {
        let codec = WireCodec()
        do {
            return try codec.decode(type, from: codec.encode(object))
        } catch {
            let reason = error.path.isEmpty ? error.reason : "\(error.path): \(error.reason)"
            switch error.code {
            case .malformedJSON, .typeMismatch, .encodingFailed:
                throw APIError(.badRequest, reason)
            case .missingValue, .invalidValue, .unknownValue:
                throw APIError(invalid, reason)
            }
        }
    }
}

/// `HTTPField.Name`, reached through the `HTTPFields` Hummingbird re-exports.
typealias HeaderName = HTTPFields.Element.Name
