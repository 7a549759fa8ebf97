import Foundation
import HeraldModel
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HeraldAPI

@Suite("Subscription routes: enter/leave-only subscriptions and the negated list comparators")
struct SubscriptionSemanticsRoutesTests {
    typealias H = APITestHarness
    typealias R = SubscriptionRoutesTests

    /// A query subscription body with a `filterBy` list and the given events.
    static func filterBody(firesOn: [String], comparator: String = "NOT_LIST_CONTAINS_ANY", value: JSONValue = ["done", "archived"]) -> JSONValue {
        [
            "subscriptionType": "query",
            "query": [
                "recordType": "Task",
                "filterBy": [["comparator": .string(comparator), "fieldName": "tags", "fieldValue": ["value": value]]],
            ],
            "firesOn": .array(firesOn.map(JSONValue.string)),
            "notificationInfo": ["alertBody": "Reopened"],
        ]
    }

    private func put(_ id: String, _ body: JSONValue, as user: String = "_u1", harness: H) async throws -> TestResponse {
        let headers = try await harness.authorization(user)
        return try await harness.application().test(.router) { client in
            try await client.execute(uri: R.subscriptionPath(id), method: .put, headers: headers, body: try .json(body))
        }
    }

    @Test("an enter-only or leave-only subscription with NOT_LIST_CONTAINS_ANY / ALL is saved and published", arguments: [
        (["enter"], "NOT_LIST_CONTAINS_ANY"), (["leave"], "NOT_LIST_CONTAINS_ALL"), (["enter", "leave"], "NOT_LIST_CONTAINS_ALL"),
    ])
    func saved(firesOn: [String], comparator: String) async throws {
        let harness = try await H()
        let response = try await put("reopened", Self.filterBody(firesOn: firesOn, comparator: comparator), harness: harness)
        #expect(response.status == .ok, "\(response.text)")
        let saved = try response.json(Subscription.self)
        #expect(saved.firesOn.map(\.rawValue) == firesOn)
        #expect(saved.query?.filterBy?.map(\.comparator.rawValue) == [comparator])
        #expect(harness.publisher.messages == [.subscription(saved)])
    }

    @Test("an empty firesOn is INVALID_SUBSCRIPTION with the exact reason")
    func emptyFiresOn() async throws {
        let harness = try await H()
        let error = try await put("none", Self.filterBody(firesOn: []), harness: harness).error(.badRequest)
        #expect(error.serverErrorCode == "INVALID_SUBSCRIPTION")
        #expect(error.reason == "firesOn: a query subscription fires on at least one of create, update, delete, enter, leave")
        #expect(harness.publisher.messages.isEmpty)
    }

    @Test("a negated list comparator needs a list: INVALID_PREDICATE naming the clause", arguments: ["NOT_LIST_CONTAINS_ANY", "NOT_LIST_CONTAINS_ALL"])
    func notAList(comparator: String) async throws {
        let harness = try await H()
        let error = try await put("bad", Self.filterBody(firesOn: ["create"], comparator: comparator, value: "done"), harness: harness)
            .error(.badRequest)
        #expect(error.serverErrorCode == "INVALID_PREDICATE")
        #expect(error.reason.contains("clause 1 (\(comparator)): fieldValue must be a list"), "\(error.reason)")
        #expect(harness.publisher.messages.isEmpty)
    }

    @Test("an enter/leave-only duplicate of the same user is DUPLICATE_SUBSCRIPTION, whatever the order of firesOn")
    func duplicate() async throws {
        let harness = try await H()
        #expect(try await put("moves", Self.filterBody(firesOn: ["enter", "leave"]), harness: harness).status == .ok)
        let error = try await put("again", Self.filterBody(firesOn: ["leave", "enter"]), harness: harness).error(.conflict)
        #expect(error.serverErrorCode == "DUPLICATE_SUBSCRIPTION")
        #expect(error.reason == "subscription is duplicate of 'moves'")
        #expect(try await put("enters", Self.filterBody(firesOn: ["enter"]), harness: harness).status == .ok)
    }

    @Test("the OpenAPI document lists exactly the filterBy comparators the model knows")
    func documentedComparators() throws {
        let text = try OpenAPIDocumentTests.canonicalText()
        let start = try #require(text.range(of: "enum: [EQUALS,"))
        let end = try #require(text.range(of: "]", range: start.upperBound..<text.endIndex))
        let listed = text[text.index(start.lowerBound, offsetBy: "enum: [".count)..<end.lowerBound]
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(listed == FilterComparator.allCases.map(\.rawValue))
    }
}
