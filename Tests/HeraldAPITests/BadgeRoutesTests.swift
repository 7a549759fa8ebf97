import Foundation
import HeraldModel
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HeraldAPI

@Suite("Badge routes")
struct BadgeRoutesTests {
    typealias H = APITestHarness

    @Test("GET badge answers the caller's badge")
    func getBadge() async throws {
        let harness = try await H()
        harness.badges.set(7, for: "_u1")
        harness.badges.set(3, for: "_u2")
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let response = try await client.execute(uri: H.path("badge"), method: .get, headers: headers)
            #expect(response.status == .ok)
            #expect(response.text == #"{"badge":7}"#)
        }
    }

    @Test("POST badge publishes a BadgeReset for the caller and answers 202")
    func setBadge() async throws {
        let harness = try await H()
        let headers = try await harness.authorization("_u2")
        try await harness.application().test(.router) { client in
            let response = try await client.execute(uri: H.path("badge"), method: .post, headers: headers, body: try .json(["badge": 0]))
            #expect(response.status == .accepted)
            #expect(response.text == #"{"badge":0}"#)
        }
        #expect(harness.publisher.messages == [
            .badgeReset(BadgeReset(recipient: "_u2", containerIdentifier: H.container, badge: 0, requestedAt: 1_795_300_000_000))
        ])
    }

    @Test("POST badge refuses negative, fractional, missing and non-numeric badges", arguments: [
        (#"{"badge": -1}"#, "badge"), (#"{"badge": 1.5}"#, "integer"), (#"{"badge": "3"}"#, "badge"), (#"{}"#, "badge"),
        (#"{"badge": 99999999999999999999}"#, "integer"),
    ])
    func setBadgeValidation(body: String, mention: String) async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let response = try await client.execute(uri: H.path("badge"), method: .post, headers: headers, body: ByteBuffer(string: body))
            let error = try response.error(.badRequest)
            #expect(error.serverErrorCode == "BAD_REQUEST")
            #expect(error.reason.contains(mention), "\(error.reason)")
        }
        #expect(harness.publisher.messages.isEmpty)
    }

    @Test("a failing badge source is INTERNAL_ERROR; a failing publisher SERVICE_UNAVAILABLE")
    func failures() async throws {
        let harness = try await H()
        harness.badges.failing = true
        harness.publisher.failing = true
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let read = try await client.execute(uri: H.path("badge"), method: .get, headers: headers)
            let readError = try read.error(.internalServerError)
            #expect(readError.serverErrorCode == "INTERNAL_ERROR")
            #expect(!readError.reason.contains("Broken"))
            let write = try await client.execute(uri: H.path("badge"), method: .post, headers: headers, body: try .json(["badge": 2]))
            #expect(try write.error(.serviceUnavailable).serverErrorCode == "SERVICE_UNAVAILABLE")
        }
    }
}
