import Foundation
import HeraldModel
import HeraldPredicate
import HeraldTestSupport
import Testing
@testable import HeraldMatcher

@Suite("Index structures")
struct IndexStructureTests {
    @Test("range stabbing equals a scan through inserts, replacements, removals and rebuilds")
    func rangeIndexAgreesWithScan() {
        var random = SeededGenerator(seed: 7)
        var index = RangeIndex()
        var live: [Int32: (Double, Double)] = [:]
        for step in 0..<20_000 {
            let slot = Int32.random(in: 0..<2_000, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                let a = Double(Int.random(in: -100...100, using: &random))
                let b = a + Double(Int.random(in: 0...30, using: &random))
                let lower = Int.random(in: 0..<10, using: &random) == 0 ? -Double.infinity : a
                let upper = Int.random(in: 0..<10, using: &random) == 0 ? Double.infinity : b
                index.insert(slot, lower: lower, upper: upper)
                live[slot] = (lower, upper)
            case 5..<8:
                index.remove(slot)
                live[slot] = nil
            case 8 where step % 97 == 0:
                index.compact()
            default:
                let value = Double(Int.random(in: -120...140, using: &random)) + 0.5 * Double(Int.random(in: 0...1, using: &random))
                var found: [Int32] = []
                index.stab(value, into: &found)
                let expected = live.filter { $0.value.0 <= value && value <= $0.value.1 }.keys.sorted()
                #expect(found.sorted() == expected, "step \(step) value \(value)")
                #expect(Set(found).count == found.count, "no slot twice at step \(step)")
            }
        }
    }

    @Test("range stabbing equals a scan over many intervals: spread, clustered, and at magnitudes where cells near rounding")
    func rangeIndexDirectoryAgreesWithScan() {
        var random = SeededGenerator(seed: 13)
        for (origin, span) in [(0.0, 1_000_000.0), (-5e15, 1e3), (1e16, 64.0), (1e300, 1e299), (-3.0, 0.001)] {
            var index = RangeIndex()
            var live: [Int32: (Double, Double)] = [:]
            for slot in Int32(0)..<3_000 {
                // Half of the lower bounds spread over the span, half in a few clusters.
                let lower = Bool.random(using: &random)
                    ? origin + Double.random(in: 0...span, using: &random)
                    : origin + span * Double(Int.random(in: 0...3, using: &random)) / 4
                let width = span / 1_000 * Double.random(in: 0...2, using: &random)
                index.insert(slot, lower: lower, upper: lower + width)
                live[slot] = (lower, lower + width)
            }
            index.compact()
            let bounds = live.values.flatMap { [$0.0, $0.1] }
            let values = (0..<300).map { _ in origin + Double.random(in: -span / 10 ... span * 1.1, using: &random) }
                + bounds.shuffled(using: &random).prefix(300) + bounds.prefix(100).map(\.nextUp) + bounds.prefix(100).map(\.nextDown)
            for value in values {
                var found: [Int32] = []
                index.stab(value, into: &found)
                let expected = live.filter { $0.value.0 <= value && value <= $0.value.1 }.keys.sorted()
                #expect(found.sorted() == expected, "origin \(origin) value \(value)")
            }
        }
    }

    @Test("every point within the radius lies in a cell the circle is filed under")
    func geoCellsCoverTheCircle() throws {
        var random = SeededGenerator(seed: 11)
        var checked = 0
        for _ in 0..<400 {
            let latitude = Double.random(in: -85...85, using: &random)
            let longitude = Double.random(in: -180...180, using: &random)
            let kilometres = [0.05, 0.5, 3, 40, 500, 2_500].randomElement(using: &random)!
            guard let plan = GeoCells.plan(field: "p", latitude: latitude, longitude: longitude, kilometres: kilometres) else { continue }
            var cells = Set<PostingKey>()
            for case .posting(let key) in plan.entries { cells.insert(key) }
            let level = try #require(cells.first?.probe.length)
            for _ in 0..<50 {
                // A random point at a random bearing, just inside the radius.
                let distance = kilometres * Double.random(in: 0.5...0.999, using: &random)
                let bearing = Double.random(in: 0..<(2 * .pi), using: &random)
                let point = destination(latitude, longitude, kilometres: distance, bearing: bearing)
                let key = PostingKey(probe: Probe(.cell, field: "p", length: level),
                                     value: GeoCells.cell(latitude: point.0, longitude: point.1, level: level))
                #expect(cells.contains(key), "\(latitude),\(longitude) r=\(kilometres) point \(point)")
                checked += 1
            }
        }
        #expect(checked > 10_000)
    }

    @Test("plans: cheapest conjunct of AND, union of OR, residual for NOT and short substrings")
    func plans() throws {
        func plan(_ format: String) throws -> IndexPlan? {
            IndexPlanner.plan(try RecordPredicate(format: format).root)
        }
        let equality = try #require(try plan("price > 3 AND category == 'a'"))
        #expect(equality.entries == [.posting(PostingKey(probe: Probe(.value, field: "category"), value: .string("a")))])
        #expect(try plan("category == 'a' OR price > 3")?.entries.count == 2)
        #expect(try plan("category == 'a' OR NOT price > 3") == nil)
        #expect(try plan("NOT category == 'a'") == nil)
        #expect(try plan("title CONTAINS 'ab'") == nil)
        #expect(try plan("recordName == 'x'") == nil)
        #expect(try plan("FALSEPREDICATE")?.entries == [])
        #expect(try plan("title BEGINSWITH[c] 'AB'")?.entries == [
            .posting(PostingKey(probe: Probe(.prefix, field: "title", options: .caseInsensitive, length: 2), value: .string("ab")))])
        #expect(try plan("price BETWEEN {1, 5}")?.entries == [.range(field: "price", lower: 1, upper: 5)])
    }

    @Test("a copied index is independent of the original (copy-on-write)")
    func copiesAreIndependent() throws {
        var original = SubscriptionIndex()
        try original.upsert(MatcherFixtures.subscription("a", predicate: "title == 'Work'"))
        var copy = original
        try copy.upsert(MatcherFixtures.subscription("b", predicate: "title == 'Work' AND 1 == 1"))
        copy.remove(key: MatcherFixtures.subscription("a", predicate: "title == 'Work'").partitionKey)
        let change = MatcherFixtures.change("c1", fields: ["title": .string("Work")])
        #expect(original.matches(for: change).map(\.subscription.subscriptionID) == ["a"])
        #expect(copy.matches(for: change).map(\.subscription.subscriptionID) == ["b"])
    }

    private func destination(_ latitude: Double, _ longitude: Double, kilometres: Double, bearing: Double) -> (Double, Double) {
        let radians = Double.pi / 180
        let delta = kilometres / GreatCircleBounds.earthRadiusKilometres
        let phi1 = latitude * radians, lambda1 = longitude * radians
        let phi2 = asin(sin(phi1) * cos(delta) + cos(phi1) * sin(delta) * cos(bearing))
        let lambda2 = lambda1 + atan2(sin(bearing) * sin(delta) * cos(phi1), cos(delta) - sin(phi1) * sin(phi2))
        var lon = lambda2 / radians
        if lon > 180 { lon -= 360 }
        if lon < -180 { lon += 360 }
        return (phi2 / radians, lon)
    }
}
