import Foundation
import HeraldModel
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HeraldAPI

@Suite("Location route")
struct LocationRoutesTests {
    typealias H = APITestHarness

    static let path = H.path("locations")

    @Test("a location is published with the caller's recipient and container, stamped now by default")
    func publishes() async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let response = try await client.execute(
                uri: Self.path, method: .post, headers: headers, body: try .json(["latitude": 48.8584, "longitude": 2.2945]))
            #expect(response.status == .accepted, "\(response.text)")
            let expected = DeviceLocation(
                recipient: "_u1", container: H.container, latitude: 48.8584, longitude: 2.2945, timestamp: 1_795_300_000_000)
            #expect(try response.json(DeviceLocation.self) == expected)
            #expect(harness.publisher.messages == [.location(expected)])
        }
    }

    @Test("a given timestamp and accuracy are kept; agreeing identity keys and null members are accepted")
    func givenMembers() async throws {
        let harness = try await H()
        let headers = try await harness.authorization("_u7")
        let body: JSONValue = [
            "latitude": -33.8568, "longitude": 151.2153, "timestamp": 1_795_000_000_000, "horizontalAccuracy": 12.5,
            "recipient": "_u7", "container": nil,
        ]
        try await harness.application().test(.router) { client in
            let response = try await client.execute(uri: Self.path, method: .post, headers: headers, body: try .json(body))
            #expect(response.status == .accepted, "\(response.text)")
            #expect(harness.publisher.messages == [.location(DeviceLocation(
                recipient: "_u7", container: H.container, latitude: -33.8568, longitude: 151.2153, timestamp: 1_795_000_000_000,
                horizontalAccuracy: 12.5))])
        }
    }

    @Test("bad coordinates and malformed bodies are BAD_REQUEST naming the member", arguments: [
        (#"{"latitude": 91, "longitude": 0}"#, "latitude:"),
        (#"{"latitude": 0, "longitude": -180.5}"#, "longitude:"),
        (#"{"latitude": 0, "longitude": 0, "horizontalAccuracy": -1}"#, "horizontalAccuracy:"),
        (#"{"latitude": 0, "longitude": 0, "timestamp": -5}"#, "timestamp:"),
        (#"{"latitude": "north", "longitude": 0}"#, "latitude:"),
        (#"{"longitude": 0}"#, "latitude:"),
        (#"{"latitude": 0, "longitude": 0, "recipient": "_u2"}"#, "recipient:"),
        (#"[48.8, 2.3]"#, "the body must be a JSON object"),
        (#"{"latitude": 0,"#, ""),
    ])
    func badRequests(body: String, reasonPrefix: String) async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let response = try await client.execute(uri: Self.path, method: .post, headers: headers, body: ByteBuffer(string: body))
            let error = try response.error(.badRequest)
            #expect(error.serverErrorCode == "BAD_REQUEST")
            #expect(error.reason.hasPrefix(reasonPrefix), "\(error.reason)")
        }
        #expect(harness.publisher.messages.isEmpty)
    }

    @Test("a token for another container is ACCESS_DENIED")
    func otherContainer() async throws {
        let harness = try await H()
        let headers = try await harness.authorization(container: H.otherContainer)
        try await harness.application().test(.router) { client in
            let response = try await client.execute(
                uri: Self.path, method: .post, headers: headers, body: try .json(["latitude": 0, "longitude": 0]))
            #expect(try response.error(.forbidden).serverErrorCode == "ACCESS_DENIED")
        }
        #expect(harness.publisher.messages.isEmpty)
    }

    @Test("other methods are METHOD_NOT_ALLOWED with Allow: POST")
    func otherMethods() async throws {
        let harness = try await H()
        try await harness.application().test(.router) { client in
            let response = try await client.execute(uri: Self.path, method: .get)
            #expect(try response.error(.methodNotAllowed).serverErrorCode == "METHOD_NOT_ALLOWED")
            #expect(response.headers[.allow] == "POST")
        }
    }
}
