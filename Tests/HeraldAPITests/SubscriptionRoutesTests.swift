import Foundation
import HeraldModel
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HeraldAPI

@Suite("Subscription routes")
struct SubscriptionRoutesTests {
    typealias H = APITestHarness

    /// A query subscription body without its identity keys.
    static func queryBody(predicate: String = "priority >= %@", desiredKeys: [String] = ["title"]) -> JSONValue {
        [
            "subscriptionType": "query",
            "query": ["recordType": "Note", "predicate": .string(predicate), "arguments": [3]],
            "firesOn": ["create", "update"],
            "notificationInfo": ["alertBody": "Changed", "shouldBadge": true, "desiredKeys": .array(desiredKeys.map(JSONValue.string))],
        ]
    }

    /// `body` with `key` set to `value`.
    static func setting(_ key: String, _ value: JSONValue, in body: JSONValue = queryBody()) -> JSONValue {
        var members = body.objectValue ?? [:]
        members[key] = value
        return .object(members)
    }

    static func subscriptionPath(_ id: String, database: String = "private") -> String {
        H.path("\(database)/subscriptions/\(id)")
    }

    @Test("PUT completes the body from the path and token, publishes it, and GET returns what was published")
    func putThenGet() async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let put = try await client.execute(
                uri: Self.subscriptionPath("urgent"), method: .put, headers: headers, body: try .json(Self.queryBody()))
            #expect(put.status == .ok, "\(put.text)")
            let saved = try put.json(Subscription.self)
            #expect(saved.subscriptionID == "urgent")
            #expect(saved.container == H.container)
            #expect(saved.database == .private)
            #expect(saved.ownerRecordName == "_u1")
            #expect(saved.query?.predicate == "priority >= %@")
            #expect(harness.publisher.messages == [.subscription(saved)])
            // The answer is the subscription exactly as encoded on the topic.
            #expect(Data(put.body.readableBytesView) == (try WireCodec().encode(saved)))

            let get = try await client.execute(uri: Self.subscriptionPath("urgent"), method: .get, headers: headers)
            #expect(get.status == .ok)
            #expect(get.body == put.body)
        }
    }

    @Test("identity keys in the body are accepted when they agree")
    func agreeingIdentity() async throws {
        let harness = try await H()
        let body = Self.setting(
            "ownerRecordName", "_u1",
            in: Self.setting("database", "public", in: Self.setting("container", .string(H.container), in: Self.setting("subscriptionID", "s1"))))
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let put = try await client.execute(uri: Self.subscriptionPath("s1", database: "public"), method: .put, headers: headers, body: try .json(body))
            #expect(put.status == .ok, "\(put.text)")
            #expect(try put.json(Subscription.self).database == .public)
        }
    }

    @Test("identity keys that disagree with the path or token are BAD_REQUEST", arguments: [
        ("subscriptionID", "other" as JSONValue), ("container", "iCloud.elsewhere"), ("database", "public"),
        ("ownerRecordName", "_u2"), ("subscriptionID", 5),
    ])
    func disagreeingIdentity(key: String, value: JSONValue) async throws {
        let harness = try await H()
        let body = Self.setting(key, value)
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let put = try await client.execute(uri: Self.subscriptionPath("s1"), method: .put, headers: headers, body: try .json(body))
            let error = try put.error(.badRequest)
            #expect(error.serverErrorCode == "BAD_REQUEST")
            #expect(error.reason.hasPrefix("\(key):"), "\(error.reason)")
        }
        #expect(harness.publisher.messages.isEmpty)
    }

    @Test("rule violations answer the matcher's codes", arguments: [
        (queryBody(predicate: "priority >"), "INVALID_PREDICATE", 400),
        (queryBody(desiredKeys: ["a", "b", "c", "d"]), "INVALID_SUBSCRIPTION", 400),
    ])
    func ruleViolations(body: JSONValue, code: String, status: Int) async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let put = try await client.execute(uri: Self.subscriptionPath("bad"), method: .put, headers: headers, body: try .json(body))
            let error = try put.error(HTTPResponse.Status(code: status))
            #expect(error.serverErrorCode == code)
        }
        #expect(harness.publisher.messages.isEmpty)
    }

    @Test("a duplicate definition of the same user is DUPLICATE_SUBSCRIPTION (409); replacing the same ID is not")
    func duplicate() async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let first = try await client.execute(uri: Self.subscriptionPath("first"), method: .put, headers: headers, body: try .json(Self.queryBody()))
            #expect(first.status == .ok)
            let again = try await client.execute(uri: Self.subscriptionPath("first"), method: .put, headers: headers, body: try .json(Self.queryBody()))
            #expect(again.status == .ok)
            let second = try await client.execute(uri: Self.subscriptionPath("second"), method: .put, headers: headers, body: try .json(Self.queryBody()))
            let error = try second.error(.conflict)
            #expect(error.serverErrorCode == "DUPLICATE_SUBSCRIPTION")
            #expect(error.reason == "subscription is duplicate of 'first'")
        }
        // Another user may have the same definition.
        let other = try await harness.authorization("_u2")
        try await harness.application().test(.router) { client in
            let put = try await client.execute(uri: Self.subscriptionPath("theirs"), method: .put, headers: other, body: try .json(Self.queryBody()))
            #expect(put.status == .ok)
        }
    }

    @Test("bodies that are not valid subscriptions: wrong JSON types are BAD_REQUEST, shape errors INVALID_SUBSCRIPTION", arguments: [
        (#"{"subscriptionType": "query", "query": {"recordType": "Note"}, "firesOn": "create"}"#, "BAD_REQUEST", "firesOn"),
        (#"{"subscriptionType": "query", "query": {"recordType": "Note"}, "firesOn": ["create"], "firesOnce": "yes"}"#, "BAD_REQUEST", "firesOnce"),
        (#"{"subscriptionType": "zone", "zoneID": {"zoneName": "Notes"}}"#, "INVALID_SUBSCRIPTION", "subscriptionType"),
        (#"{"subscriptionType": "query", "firesOn": ["create"]}"#, "INVALID_SUBSCRIPTION", "query"),
        (#"{"subscriptionType": "weekly"}"#, "INVALID_SUBSCRIPTION", "subscriptionType"),
        (#"{"subscriptionType": "query", "query": {"recordType": "Note"}, "firesOn": []}"#, "INVALID_SUBSCRIPTION", "firesOn"),
        (#"["subscriptionType"]"#, "BAD_REQUEST", "object"),
        (#"{"subscriptionType": "#, "BAD_REQUEST", "JSON"),
    ])
    func invalidBodies(body: String, code: String, mention: String) async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        // Public database: zone subscriptions are not allowed there.
        try await harness.application().test(.router) { client in
            let put = try await client.execute(
                uri: Self.subscriptionPath("s1", database: "public"), method: .put, headers: headers, body: ByteBuffer(string: body))
            let error = try put.error(.badRequest)
            #expect(error.serverErrorCode == code, "\(error.reason)")
            #expect(error.reason.contains(mention), "\(error.reason)")
        }
        #expect(harness.publisher.messages.isEmpty)
    }

    @Test("GET and DELETE of an absent subscription are NOT_FOUND; another user's of the same ID is never seen")
    func absent() async throws {
        let harness = try await H()
        let owner = try await harness.authorization("_u1")
        let other = try await harness.authorization("_u2")
        try await harness.application().test(.router) { client in
            let put = try await client.execute(uri: Self.subscriptionPath("mine"), method: .put, headers: owner, body: try .json(Self.queryBody()))
            #expect(put.status == .ok)
            for (uri, method) in [(Self.subscriptionPath("mine"), HTTPRequest.Method.get), (Self.subscriptionPath("mine"), .delete),
                                  (Self.subscriptionPath("absent"), .get), (Self.subscriptionPath("absent"), .delete),
                                  (Self.subscriptionPath("mine", database: "public"), .get)] {
                let headers = uri.hasSuffix("mine") && !uri.contains("public") ? other : owner
                let response = try await client.execute(uri: uri, method: method, headers: headers)
                #expect(try response.error(.notFound).serverErrorCode == "NOT_FOUND", "\(method) \(uri)")
            }
        }
        #expect(harness.publisher.messages.count == 1)
        #expect(harness.directory.subscription(forKey: "\(H.container)/private/_u1/mine")?.ownerRecordName == "_u1")
    }

    @Test("two users both save 'private-changes'; each sees, replaces and deletes only their own")
    func perUserIDs() async throws {
        let harness = try await H()
        let u1 = try await harness.authorization("_u1")
        let u2 = try await harness.authorization("_u2")
        let uri = Self.subscriptionPath("private-changes")
        try await harness.application().test(.router) { client in
            let first = try await client.execute(uri: uri, method: .put, headers: u1, body: try .json(Self.queryBody(predicate: "a > 1")))
            #expect(first.status == .ok, "\(first.text)")
            let second = try await client.execute(uri: uri, method: .put, headers: u2, body: try .json(Self.queryBody(predicate: "a > 2")))
            #expect(second.status == .ok, "\(second.text)")
            let mine = try await client.execute(uri: uri, method: .get, headers: u1).json(Subscription.self)
            let theirs = try await client.execute(uri: uri, method: .get, headers: u2).json(Subscription.self)
            #expect(mine.ownerRecordName == "_u1" && mine.query?.predicate == "a > 1")
            #expect(theirs.ownerRecordName == "_u2" && theirs.query?.predicate == "a > 2")
            // The same definition as another user's is not a duplicate (duplicates are per user).
            let same = try await client.execute(uri: Self.subscriptionPath("copy"), method: .put, headers: u2, body: try .json(Self.queryBody(predicate: "a > 1")))
            #expect(same.status == .ok, "\(same.text)")
            // Replacing is per user: _u2's replacement leaves _u1's as it was.
            let replaced = try await client.execute(uri: uri, method: .put, headers: u2, body: try .json(Self.queryBody(predicate: "a > 3")))
            #expect(replaced.status == .ok)
            #expect(try await client.execute(uri: uri, method: .get, headers: u1).json(Subscription.self).query?.predicate == "a > 1")
            // Deleting is per user: _u1's delete tombstones _u1's key; _u2's stays.
            let delete = try await client.execute(uri: uri, method: .delete, headers: u1)
            #expect(delete.status == .ok)
            #expect(harness.publisher.messages.last == .tombstone("\(H.container)/private/_u1/private-changes"))
            #expect(try await client.execute(uri: uri, method: .get, headers: u1).error(.notFound).serverErrorCode == "NOT_FOUND")
            #expect(try await client.execute(uri: uri, method: .get, headers: u2).json(Subscription.self).query?.predicate == "a > 3")
            let list = try await client.execute(uri: H.path("private/subscriptions"), method: .get, headers: u2)
            #expect(try list.json([String: [Subscription]].self)["subscriptions"]?.map(\.subscriptionID) == ["copy", "private-changes"])
        }
        #expect(harness.directory.subscription(forKey: "\(H.container)/private/_u2/private-changes")?.ownerRecordName == "_u2")
        #expect(harness.directory.subscription(forKey: "\(H.container)/private/_u1/private-changes") == nil)
    }

    @Test("a subscription ID over 255 bytes of UTF-8 or with a control character is BAD_REQUEST naming subscriptionID", arguments: [
        String(repeating: "s", count: 5_000), String(repeating: "s", count: 256), String(repeating: "%C3%A9", count: 128),
        "tab%09id", "nul%00id", "del%7Fid",
    ])
    func badSubscriptionID(id: String) async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            for method in [HTTPRequest.Method.put, .get, .delete] {
                let response = try await client.execute(
                    uri: Self.subscriptionPath(id), method: method, headers: headers, body: try .json(Self.queryBody()))
                let error = try response.error(.badRequest)
                #expect(error.serverErrorCode == "BAD_REQUEST")
                #expect(error.reason.hasPrefix("subscriptionID"), "\(error.reason)")
            }
        }
        #expect(harness.publisher.messages.isEmpty)
    }

    @Test("a subscription ID of exactly 255 bytes of UTF-8 is accepted")
    func longestSubscriptionID() async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        let id = String(repeating: "%C3%A9", count: 127) + "s"
        try await harness.application().test(.router) { client in
            let put = try await client.execute(uri: Self.subscriptionPath(id), method: .put, headers: headers, body: try .json(Self.queryBody()))
            #expect(put.status == .ok, "\(put.text)")
            #expect(try put.json(Subscription.self).subscriptionID.utf8.count == 255)
        }
    }

    @Test("DELETE publishes the tombstone; the subscription is gone afterwards")
    func delete() async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            _ = try await client.execute(uri: Self.subscriptionPath("gone"), method: .put, headers: headers, body: try .json(Self.queryBody()))
            let delete = try await client.execute(uri: Self.subscriptionPath("gone"), method: .delete, headers: headers)
            #expect(delete.status == .ok)
            #expect(delete.text == #"{"deleted":true,"subscriptionID":"gone"}"#)
            #expect(harness.publisher.messages.last == .tombstone("\(H.container)/private/_u1/gone"))
            let get = try await client.execute(uri: Self.subscriptionPath("gone"), method: .get, headers: headers)
            #expect(get.status == .notFound)
        }
    }

    @Test("the list holds the caller's subscriptions of that database, sorted by ID")
    func list() async throws {
        let harness = try await H()
        let u1 = try await harness.authorization("_u1")
        let u2 = try await harness.authorization("_u2")
        try await harness.application().test(.router) { client in
            for (id, predicate) in [("c", "a > 1"), ("a", "a > 2"), ("b", "a > 3")] {
                let put = try await client.execute(uri: Self.subscriptionPath(id), method: .put, headers: u1, body: try .json(Self.queryBody(predicate: predicate)))
                #expect(put.status == .ok)
            }
            _ = try await client.execute(uri: Self.subscriptionPath("z", database: "public"), method: .put, headers: u1, body: try .json(Self.queryBody()))
            _ = try await client.execute(uri: Self.subscriptionPath("d"), method: .put, headers: u2, body: try .json(Self.queryBody()))
            let list = try await client.execute(uri: H.path("private/subscriptions"), method: .get, headers: u1)
            #expect(list.status == .ok)
            let ids = try list.json([String: [Subscription]].self)["subscriptions"]?.map(\.subscriptionID)
            #expect(ids == ["a", "b", "c"])
            let empty = try await client.execute(uri: H.path("shared/subscriptions"), method: .get, headers: u1)
            #expect(empty.text == #"{"subscriptions":[]}"#)
        }
    }

    @Test("an unknown database is BAD_REQUEST")
    func unknownDatabase() async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            for (uri, method) in [(H.path("cloud/subscriptions"), HTTPRequest.Method.get), (H.path("cloud/subscriptions/s1"), .get),
                                  (H.path("cloud/subscriptions/s1"), .put), (H.path("cloud/subscriptions/s1"), .delete)] {
                let response = try await client.execute(uri: uri, method: method, headers: headers, body: try .json(Self.queryBody()))
                let error = try response.error(.badRequest)
                #expect(error.reason.contains("database"), "\(error.reason)")
            }
        }
    }

    @Test("a percent-encoded ID is decoded")
    func percentEncodedID() async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            let put = try await client.execute(uri: Self.subscriptionPath("my%20notes"), method: .put, headers: headers, body: try .json(Self.queryBody()))
            #expect(try put.json(Subscription.self).subscriptionID == "my notes")
        }
    }

    @Test("PUT and DELETE answer SERVICE_UNAVAILABLE when the publisher fails, storing nothing")
    func publisherDown() async throws {
        let harness = try await H()
        let headers = try await harness.authorization()
        try await harness.application().test(.router) { client in
            _ = try await client.execute(uri: Self.subscriptionPath("kept"), method: .put, headers: headers, body: try .json(Self.queryBody()))
            harness.publisher.failing = true
            let put = try await client.execute(
                uri: Self.subscriptionPath("new"), method: .put, headers: headers, body: try .json(Self.queryBody(predicate: "a > 1")))
            #expect(try put.error(.serviceUnavailable).serverErrorCode == "SERVICE_UNAVAILABLE")
            let delete = try await client.execute(uri: Self.subscriptionPath("kept"), method: .delete, headers: headers)
            #expect(try delete.error(.serviceUnavailable).serverErrorCode == "SERVICE_UNAVAILABLE")
        }
        #expect(harness.directory.subscription(forKey: "\(H.container)/private/_u1/new") == nil)
        #expect(harness.directory.subscription(forKey: "\(H.container)/private/_u1/kept") != nil)
    }
}
