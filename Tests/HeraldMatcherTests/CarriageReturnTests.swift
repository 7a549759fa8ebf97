import HeraldModel
import HeraldPredicate
import Testing
@testable import HeraldMatcher

/// CR LF is one character, so the index's prefixes, suffixes and runs of "Urgent\r\nCall"
/// never end between CR and LF, while the evaluator compares `[c]` prefixes, substrings and
/// LIKE patterns by bytes: needles holding a CR are left residual.
@Suite("Needles with a carriage return")
struct CarriageReturnTests {
    typealias F = MatcherFixtures

    @Test(
        "fire as a scan of every subscription decides, and are not filed",
        arguments: [
            "body BEGINSWITH[c] 'URGENT\r'", "body BEGINSWITH 'Urgent\r'", "body CONTAINS[c] 'T\r\nCAL'", "body CONTAINS 'nt\r'",
            "body CONTAINS 'ent\r'", "body ENDSWITH '\nCall back'", "body LIKE 'Urgent\r*'", "body LIKE[c] '*t\r*'",
        ])
    func agreesWithScan(predicate: String) throws {
        let subscription = F.subscription("s1", database: .public, predicate: predicate, firesOn: [.create])
        let plan = IndexPlanner.plan(try RecordPredicate(format: predicate).root)
        #expect(plan == nil || predicate.contains("ENDSWITH '\n"), "\(predicate.debugDescription) is filed: \(String(describing: plan))")
        var index = SubscriptionIndex()
        try index.upsert(subscription)
        var scan = SubscriptionIndex()
        scan.usesPredicateIndex = false
        try scan.upsert(subscription)
        for body in ["Urgent\r\nCall back", "urgent\r\ncall back", "Urgent\rCall back", "Urgent\nCall back"] {
            let change = F.change(
                database: .public, zone: ZoneID(zoneName: ZoneID.defaultZoneName, ownerRecordName: "_u1"), fields: ["body": .string(body)])
            #expect(index.matches(for: change) == scan.matches(for: change), "\(predicate.debugDescription) on \(body.debugDescription)")
        }
    }
}
