import Hummingbird

extension APIError: HTTPResponseError {
    /// The JSON error answer, its `uuid` the request ID of `context` (see
    /// `HeraldRequestContext.requestID`).
    public func response(from request: Request, context: some RequestContext) -> Response {
        let requestID = (context as? HeraldRequestContext)?.requestID ?? HeraldRequestContext.requestID(of: context)
        return response(requestID: requestID)
    }

    /// The JSON error answer for the request `requestID`: the body
    /// `{"serverErrorCode", "reason", "uuid"}`, `X-Request-ID`, the error's own `headers`, and
    /// `WWW-Authenticate` for the authentication failures.
    func response(requestID: String) -> Response {
        var fields: HTTPFields = [.contentType: "application/json"]
        fields[HeraldAPI.requestIDHeader] = requestID
        switch code {
        case .authenticationRequired:
            fields[.wwwAuthenticate] = #"Bearer realm="herald""#
        case .authenticationFailed:
            fields[.wwwAuthenticate] = #"Bearer realm="herald", error="invalid_token""#
        default:
            break
        }
        for field in headers where fields[field.name] == nil {
            fields.append(field)
        }
        return Response(
            status: status, headers: fields,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: ErrorBody(self, requestID: requestID).json)))
    }
}
