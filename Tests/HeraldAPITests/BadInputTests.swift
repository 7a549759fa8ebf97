import Foundation
import HeraldModel
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HeraldAPI

/// Issue 11 §6: every bad request is refused with the JSON error body, its JSON path, the
/// right status and a UUID echoed in `X-Request-ID`, and nothing is published.
@Suite("Bad input: clear errors, nothing published")
struct BadInputTests {
    typealias H = APITestHarness

    @Test("POST schedules {} is INVALID_SCHEDULE at alertBody; nothing is published")
    func emptySchedule() async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            for body in ["{}", #"{"fireDate": 1795400000000}"#, #"{"alertBody": "", "userInfo": {"k": 1}, "category": "C"}"#] {
                let response = try await client.execute(
                    uri: H.path("schedules"), method: .post, headers: headers, body: ByteBuffer(string: body))
                let error = try response.error(.badRequest)
                #expect(error.serverErrorCode == "INVALID_SCHEDULE", "\(body)")
                #expect(error.reason.hasPrefix("alertBody: required unless alertTitle, soundName or applicationIconBadgeNumber"), "\(error.reason)")
            }
        }
        #expect(harness.publisher.messages.isEmpty)
    }

    @Test("a schedule with only a sound, a title or a badge number is accepted", arguments: [
        #"{"soundName": "chime.caf"}"#, #"{"alertTitle": "Hi"}"#, #"{"applicationIconBadgeNumber": 0}"#,
    ])
    func minimalSchedules(body: String) async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let response = try await client.execute(
                uri: H.path("schedules"), method: .post, headers: headers, body: ByteBuffer(string: body))
            #expect(response.status == .created, "\(response.text)")
        }
        #expect(harness.publisher.messages.count == 1)
    }

    @Test("a read of an ID that is not a UUID is BAD_REQUEST at its index; nothing is published")
    func readNotAUUID() async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let response = try await client.execute(
                uri: H.path("notifications/read"), method: .post, headers: headers,
                body: ByteBuffer(string: #"{"notificationIDs":["1b4e28ba-2fa1-11d2-883f-0016d3cca427", "not-a-uuid"]}"#))
            let error = try response.error(.badRequest)
            #expect(error.serverErrorCode == "BAD_REQUEST")
            #expect(error.reason == #"notificationIDs[1]: expected a notification ID (a UUID), got "not-a-uuid""#)
        }
        #expect(harness.publisher.messages.isEmpty)
    }

    @Test("numbers that do not fit an integer are BAD_REQUEST naming their JSON path", arguments: [
        ("notifications/changes", #"{"resultsLimit": 1.5}"#, "resultsLimit: expected an integer, got 1.5"),
        ("badge", #"{"badge": 99999999999999999999}"#,
         "badge: expected an integer from -9223372036854775808 to 9223372036854775807, got 99999999999999999999"),
        ("badge", #"{"badge": 2.5}"#, "badge: expected an integer, got 2.5"),
    ])
    func misfitNumbers(suffix: String, body: String, reason: String) async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let response = try await client.execute(
                uri: H.path(suffix), method: .post, headers: headers, body: ByteBuffer(string: body))
            let error = try response.error(.badRequest)
            #expect(error.serverErrorCode == "BAD_REQUEST")
            #expect(error.reason == reason)
        }
        #expect(harness.publisher.messages.isEmpty)
    }

    @Test("four desired keys are INVALID_SUBSCRIPTION at notificationInfo.desiredKeys")
    func fourDesiredKeys() async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        let body = SubscriptionRoutesTests.queryBody(desiredKeys: ["a", "b", "c", "d"])
        try await harness.application().test(.router) { client in
            let response = try await client.execute(
                uri: H.path("private/subscriptions/s1"), method: .put, headers: headers, body: try .json(body))
            let error = try response.error(.badRequest)
            #expect(error.serverErrorCode == "INVALID_SUBSCRIPTION", "\(error.reason)")
            #expect(error.reason.contains("notificationInfo.desiredKeys: at most 3 desired keys are allowed, got 4"), "\(error.reason)")
        }
        #expect(harness.publisher.messages.isEmpty)
    }

    @Test("no route, OPTIONS and a wrong method answer the JSON error body", arguments: [
        ("/nope", HTTPRequest.Method.get, 404, "NOT_FOUND"), ("/nope", .options, 404, "NOT_FOUND"),
        ("/", .post, 404, "NOT_FOUND"), ("/openapi.yaml", .delete, 405, "METHOD_NOT_ALLOWED"),
        (H.path("badge"), .options, 405, "METHOD_NOT_ALLOWED"),
        (H.path("badge"), .patch, 405, "METHOD_NOT_ALLOWED"), (H.path("badge"), .trace, 405, "METHOD_NOT_ALLOWED"),
    ])
    func everyErrorIsJSON(path: String, method: HTTPRequest.Method, status: Int, code: String) async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let response = try await client.execute(uri: path, method: method, headers: headers)
            let error = try response.error(HTTPResponse.Status(code: status))
            #expect(error.serverErrorCode == code)
            if status == 405 { #expect(response.headers[.allow] == (path == "/openapi.yaml" ? "GET" : "GET, POST")) }
        }
    }

    @Test("a 100,000-character path is 414 URI_TOO_LONG with the JSON body over a real socket")
    func longPath() async throws {
        let harness = try await H()
        try await harness.application().test(.live) { client in
            let path = "/v1/" + String(repeating: "a", count: 100_000)
            let response = try await client.execute(uri: path, method: .get)
            let error = try response.error(.uriTooLong)
            #expect(error.serverErrorCode == "URI_TOO_LONG")
            #expect(error.reason == "the path is longer than 8192 bytes")
            // The connection still answers.
            let next = try await client.execute(uri: "/nope", method: .get)
            #expect(try next.error(.notFound).serverErrorCode == "NOT_FOUND")
        }
    }

    @Test("the error uuid is a UUID, distinct per request, echoed in X-Request-ID")
    func errorIDs() async throws {
        let harness = try await H()
        try await harness.application().test(.router) { client in
            var seen: Set<String> = []
            for path in [H.path("badge"), "/nope", H.path("badge")] {
                let response = try await client.execute(uri: path, method: .get)
                let error = try response.json(ErrorJSON.self)
                #expect(UUID(uuidString: error.uuid) != nil, "\(error.uuid)")
                #expect(error.uuid == error.uuid.lowercased())
                #expect(response.headers[HeraldAPI.requestIDHeader] == error.uuid)
                seen.insert(error.uuid)
            }
            #expect(seen.count == 3)
            let ok = try await client.execute(uri: "/openapi.yaml", method: .get)
            #expect(ok.status == .ok)
            #expect(ok.headers[HeraldAPI.requestIDHeader].flatMap { UUID(uuidString: $0) } != nil)
        }
    }
}
