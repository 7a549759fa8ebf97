import Foundation
import HeraldModel
import HeraldReader
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HeraldAPI

@Suite("Fetching and marking notifications")
struct NotificationRoutesTests {
    typealias H = APITestHarness

    @Test("changes answers the store's page byte for byte, an empty body meaning from the start")
    func changesIsTheStorePage() async throws {
        let harness = try await H()
        try await harness.addNotifications(sequences: 0..<5)
        try await harness.addNotifications("_u2", sequences: 0..<3)
        let expected = try await harness.store.fetchEncoded(recipient: "_u1", container: H.container, after: nil).jsonBody
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            for body in [nil, ByteBuffer(string: "{}"), ByteBuffer(string: " \n")] {
                let response = try await client.execute(uri: H.path("notifications/changes"), method: .post, headers: headers, body: body)
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                #expect(Data(response.body.readableBytesView) == expected)
                let page = try response.json(PageJSON.self)
                #expect(page.notifications.map(\.notificationID) == (0..<5).map { "n-_u1-\($0)" })
                #expect(page.notifications.allSatisfy { $0.recipient == "_u1" })
                #expect(!page.moreComing)
            }
        }
    }

    @Test("a repeated fetch answers the same page until a new notification or read mark, then the new one")
    func repeatedFetchSeesWrites() async throws {
        let harness = try await H()
        try await harness.addNotifications(sequences: 0..<3)
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            func unread() async throws -> [String] {
                let response = try await client.execute(
                    uri: H.path("notifications/changes"), method: .post, headers: headers,
                    body: ByteBuffer(string: #"{"includeRead": false}"#))
                #expect(response.status == .ok)
                return try response.json(PageJSON.self).notifications.map(\.notificationID)
            }
            #expect(try await unread() == ["n-_u1-0", "n-_u1-1", "n-_u1-2"])
            #expect(try await unread() == ["n-_u1-0", "n-_u1-1", "n-_u1-2"])
            try await harness.addNotifications(sequences: 3..<4)
            #expect(try await unread() == ["n-_u1-0", "n-_u1-1", "n-_u1-2", "n-_u1-3"])
            _ = try await harness.store.apply(StoreBatch(reads: [
                NotificationRead(recipient: "_u1", containerIdentifier: H.container, notificationIDs: ["n-_u1-1"], readAt: 1)
            ]))
            #expect(try await unread() == ["n-_u1-0", "n-_u1-2", "n-_u1-3"])
        }
    }

    @Test("a file store, read on the request's thread, answers byte for byte what a store in memory answers")
    func fileStoreAnswersAsMemory() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("herald-api-\(UUID().uuidString).sqlite").path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        var bodies: [[Data]] = []
        for harness in [try await H(), try await H(databasePath: path)] {
            try await harness.addNotifications(sequences: 0..<5)
            try await harness.addNotifications("_u2", sequences: 0..<3)
            _ = try await harness.store.apply(StoreBatch(reads: [
                NotificationRead(recipient: "_u1", containerIdentifier: H.container, notificationIDs: ["n-_u1-1", "n-_u1-4"], readAt: 1)
            ]))
            let headers = try await harness.authorization()
            let answers = try await harness.application().test(.router) { client in
                var answers: [Data] = []
                for includeRead in [true, false] {
                    var token: String?
                    repeat {
                        var request: [String: JSONValue] = ["resultsLimit": .integer(2), "includeRead": .bool(includeRead)]
                        if let token { request["serverChangeToken"] = .string(token) }
                        let response = try await client.execute(
                            uri: H.path("notifications/changes"), method: .post, headers: headers, body: try .json(.object(request)))
                        #expect(response.status == .ok)
                        answers.append(Data(response.body.readableBytesView))
                        let page = try response.json(PageJSON.self)
                        token = page.moreComing ? page.serverChangeToken : nil
                    } while token != nil
                }
                return answers
            }
            bodies.append(answers)
            try harness.store.close()
        }
        #expect(bodies[0].count == 5)
        #expect(bodies[1] == bodies[0])
    }

    @Test("paging with resultsLimit returns every notification exactly once", arguments: [1, 2, 3, 7, 10, 400])
    func paging(limit: Int) async throws {
        let harness = try await H()
        try await harness.addNotifications(sequences: 0..<10)
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            var token: String?
            var seen: [String] = []
            var pages = 0
            while true {
                var request: [String: JSONValue] = ["resultsLimit": .integer(Int64(limit))]
                if let token { request["serverChangeToken"] = .string(token) }
                let response = try await client.execute(
                    uri: H.path("notifications/changes"), method: .post, headers: headers, body: try .json(.object(request)))
                #expect(response.status == .ok)
                let page = try response.json(PageJSON.self)
                pages += 1
                #expect(page.notifications.count <= limit)
                seen += page.notifications.map(\.notificationID)
                token = page.serverChangeToken
                if !page.moreComing { break }
                #expect(page.notifications.count == limit)
            }
            #expect(seen == (0..<10).map { "n-_u1-\($0)" })
            #expect(pages == max(1, (10 + limit - 1) / limit))
            // Nothing new: the same token comes back, no notifications.
            let again = try await client.execute(
                uri: H.path("notifications/changes"), method: .post, headers: headers, body: try .json(["serverChangeToken": .string(token!)]))
            let last = try again.json(PageJSON.self)
            #expect(last.notifications.isEmpty && !last.moreComing && last.serverChangeToken == token)
        }
    }

    @Test("includeRead false skips read notifications; by default they come back as readNotification")
    func includeRead() async throws {
        let harness = try await H()
        try await harness.addNotifications(sequences: 0..<3)
        _ = try await harness.store.apply(StoreBatch(reads: [
            NotificationRead(recipient: "_u1", containerIdentifier: H.container, notificationIDs: ["n-_u1-1"], readAt: 1)
        ]))
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let all = try await client.execute(uri: H.path("notifications/changes"), method: .post, headers: headers, body: try .json([:]))
            #expect(try all.json(PageJSON.self).notifications.map(\.notificationType) == [.database, .readNotification, .database])
            let unread = try await client.execute(
                uri: H.path("notifications/changes"), method: .post, headers: headers, body: try .json(["includeRead": false]))
            #expect(try unread.json(PageJSON.self).notifications.map(\.notificationID) == ["n-_u1-0", "n-_u1-2"])
        }
    }

    @Test("a change token of another user, altered or malformed is BAD_REQUEST")
    func foreignTokens() async throws {
        let harness = try await H()
        try await harness.addNotifications(sequences: 0..<3)
        let otherUsers = harness.token("_u2", after: 1)
        var altered = Array(harness.token(after: 1))
        altered[12] = altered[12] == "A" ? "B" : "A"
        let alteredToken = String(altered)
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            for token in [otherUsers, alteredToken, "garbage"] {
                let response = try await client.execute(
                    uri: H.path("notifications/changes"), method: .post, headers: headers, body: try .json(["serverChangeToken": .string(token)]))
                let error = try response.error(.badRequest)
                #expect(error.serverErrorCode == "BAD_REQUEST")
                #expect(error.reason.contains("invalid change token"))
            }
        }
    }

    @Test("a token older than retention is CHANGE_TOKEN_EXPIRED (410)")
    func expiredToken() async throws {
        let harness = try await H(retention: RetentionPolicy(maxCount: 3, maxAge: .seconds(86_400)))
        try await harness.addNotifications(sequences: 0..<3)
        let old = harness.token(after: 0)
        try await harness.addNotifications(sequences: 3..<8)
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let response = try await client.execute(
                uri: H.path("notifications/changes"), method: .post, headers: headers, body: try .json(["serverChangeToken": .string(old)]))
            #expect(try response.error(.gone).serverErrorCode == "CHANGE_TOKEN_EXPIRED")
        }
    }

    @Test("a malformed body is BAD_REQUEST whose reason names the JSON path", arguments: [
        (#"{"resultsLimit": "ten"}"#, "resultsLimit"),
        (#"{"includeRead": 1}"#, "includeRead"),
        (#"{"serverChangeToken": 5}"#, "serverChangeToken"),
        (#"{"resultsLimit": 0}"#, "resultsLimit"),
        (#"{"resultsLimit": "#, "JSON"),
        (#"[1, 2]"#, "object"),
    ])
    func malformedChanges(body: String, mention: String) async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let response = try await client.execute(
                uri: H.path("notifications/changes"), method: .post, headers: headers, body: ByteBuffer(string: body))
            let error = try response.error(.badRequest)
            #expect(error.serverErrorCode == "BAD_REQUEST")
            #expect(error.reason.contains(mention), "\(error.reason)")
        }
    }

    @Test("read publishes one NotificationRead for the caller and answers 202 with the IDs")
    func markRead() async throws {
        let harness = try await H()
        let headers = try await harness.authorization("_u3")
        try await harness.application().test(.router) { client in
            let response = try await client.execute(
                uri: H.path("notifications/read"), method: .post, headers: headers,
                body: try .json(["notificationIDs": ["1b4e28ba-2fa1-11d2-883f-0016d3cca427", "6FA459EA-EE8A-3CA4-894E-DB77E160355E", "1b4e28ba-2fa1-11d2-883f-0016d3cca427"]]))
            #expect(response.status == .accepted)
            #expect(try response.json([String: [String]].self) == ["notificationIDs": ["1b4e28ba-2fa1-11d2-883f-0016d3cca427", "6fa459ea-ee8a-3ca4-894e-db77e160355e"]])
        }
        #expect(harness.publisher.messages == [
            .read(NotificationRead(recipient: "_u3", containerIdentifier: H.container, notificationIDs: ["1b4e28ba-2fa1-11d2-883f-0016d3cca427", "6fa459ea-ee8a-3ca4-894e-db77e160355e"], readAt: 1_795_300_000_000))
        ])
    }

    @Test("read refuses an empty list, more than 400 IDs, empty IDs and wrong types", arguments: [
        (#"{"notificationIDs": []}"#, "notificationIDs"),
        ("{\"notificationIDs\": [\(Array(repeating: "\"x\"", count: 401).joined(separator: ","))]}", "401"),
        (#"{"notificationIDs": ["a", ""]}"#, "notificationIDs[1]"),
        (#"{"notificationIDs": ["a", 2]}"#, "notificationIDs[1]"),
        (#"{"notificationIDs": "a"}"#, "notificationIDs"),
        (#"{}"#, "notificationIDs"),
        ("", "body"),
    ])
    func markReadValidation(body: String, mention: String) async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let response = try await client.execute(
                uri: H.path("notifications/read"), method: .post, headers: headers, body: ByteBuffer(string: body))
            let error = try response.error(.badRequest)
            #expect(error.reason.contains(mention), "\(error.reason)")
        }
        #expect(harness.publisher.messages.isEmpty)
    }

    @Test("read answers SERVICE_UNAVAILABLE when the publisher fails")
    func markReadUnavailable() async throws {
        let harness = try await H()
        harness.publisher.failing = true
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let response = try await client.execute(
                uri: H.path("notifications/read"), method: .post, headers: headers, body: try .json(["notificationIDs": ["1b4e28ba-2fa1-11d2-883f-0016d3cca427"]]))
            let error = try response.error(.serviceUnavailable)
            #expect(error.serverErrorCode == "SERVICE_UNAVAILABLE")
            #expect(!error.reason.contains("Unavailable()"))
        }
    }

    @Test("a failing store is INTERNAL_ERROR without its details")
    func storeFailure() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("herald-api-\(UUID().uuidString).sqlite").path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let harness = try await H(databasePath: path)
        try harness.store.close()  // a file store answers later calls with an error
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let response = try await client.execute(uri: H.path("notifications/changes"), method: .post, headers: headers)
            let error = try response.error(.internalServerError)
            #expect(error.serverErrorCode == "INTERNAL_ERROR")
            #expect(error.reason == "the notification store failed")
        }
    }

    @Test("store failures keep their meaning, internal ones without their details")
    func storeErrors() {
        let failure = APIError(ReaderError(.internalError, "database error: SQLite error 11 at /var/herald/reader.sqlite", operation: "fetch"))
        #expect(failure == APIError(.internalError, "the notification store failed"))
        #expect(APIError(ReaderError(.badRequest, "invalid change token: x", operation: "fetch")) == APIError(.badRequest, "invalid change token: x"))
        #expect(APIError(ReaderError(.changeTokenExpired, "expired", operation: "fetch")).code == .changeTokenExpired)
        #expect(APIError.from(CancellationError()) == APIError(.internalError, "the server failed to answer"))
    }
}
