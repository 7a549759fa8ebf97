import Foundation
import Testing

@testable import HeraldModel

@Suite("Subscription firesOn and the NOT_LIST_CONTAINS_ANY / ALL comparators")
struct SubscriptionEventsTests {
    @Test("enter and/or leave alone are accepted, with or without other events and firesOnce", arguments: [
        ["enter"], ["leave"], ["enter", "leave"], ["leave", "enter"], ["update", "enter"], ["create", "leave"],
    ] as [JSONValue])
    func enterOrLeaveAlone(firesOn: JSONValue) throws {
        for firesOnce in [false, true] {
            let json = try Fixtures.edit(try Fixtures.edit(Fixtures.subscription, "firesOn", firesOn), "firesOnce", .bool(firesOnce))
            let subscription = try Fixtures.decode(Subscription.self, json)
            #expect(subscription.firesOn.map(\.rawValue) == firesOn.arrayValue?.compactMap(\.stringValue))
            #expect(subscription.firesOnce == firesOnce)
            _ = try Fixtures.roundTrip(subscription)
        }
    }

    @Test("an empty or absent firesOn is refused with the exact message")
    func emptyFiresOn() throws {
        for json in [try Fixtures.edit(Fixtures.subscription, "firesOn", []), try Fixtures.edit(Fixtures.subscription, "firesOn", nil)] {
            let error = try #require(Fixtures.decodeError(Subscription.self, json))
            #expect(error.code == .invalidValue)
            #expect(error.path == "firesOn")
            #expect(error.reason == "a query subscription fires on at least one of create, update, delete, enter, leave")
            #expect(error.reason == Subscription.emptyFiresOnReason)
        }
    }

    @Test("a repeated enter or leave is still refused at its index")
    func repeatedEvent() throws {
        let json = try Fixtures.edit(Fixtures.subscription, "firesOn", ["leave", "enter", "leave"])
        let error = try #require(Fixtures.decodeError(Subscription.self, json))
        #expect(error.path == "firesOn[2]")
        #expect(error.reason == #"duplicate event "leave""#)
    }

    @Test("NOT_LIST_CONTAINS_ANY and NOT_LIST_CONTAINS_ALL decode and round-trip")
    func notListComparators() throws {
        let json = try Fixtures.edit(Fixtures.subscription, "query", [
            "recordType": "Note",
            "filterBy": [
                ["comparator": "NOT_LIST_CONTAINS_ANY", "fieldName": "tags", "fieldValue": ["value": ["a", "b"], "type": "STRING_LIST"]],
                ["comparator": "NOT_LIST_CONTAINS_ALL", "fieldName": "tags", "fieldValue": ["value": ["c", "d"]]],
            ],
        ])
        let subscription = try Fixtures.decode(Subscription.self, json)
        let filters = try #require(subscription.query?.filterBy)
        #expect(filters.map(\.comparator) == [.notListContainsAny, .notListContainsAll])
        #expect(filters.map(\.comparator.rawValue) == ["NOT_LIST_CONTAINS_ANY", "NOT_LIST_CONTAINS_ALL"])
        #expect(filters[0].fieldValue == .list([.string("a"), .string("b")], of: .string))
        #expect(filters[1].fieldValue == .list([.string("c"), .string("d")], of: .string))
        _ = try Fixtures.roundTrip(subscription)
    }
}
