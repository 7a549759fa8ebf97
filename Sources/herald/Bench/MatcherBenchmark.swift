import Foundation
import HeraldMatcher
import HeraldModel

/// Changes matched per second on one core against a realistic subscription mix, with the
/// index and with a scan of every subscription (the baseline, same run).
struct MatcherBenchmark {
    struct Row {
        var subscriptions: Int
        var indexed: Double
        var scanned: Double?
        var bytesPerSubscription: Double
        var matchesPerChange: Double
    }

    let changes: Int
    let scanLimit: Int

    /// The mix: selective equality 40%, IN lists 20%, ranges 15%, BEGINSWITH 10%, token search 5%,
    /// geo radius 5%, unindexable (OR / ENDSWITH) 5%.
    static func predicate(_ index: Int, _ random: inout SplitMix) -> String {
        let k = Int.random(in: 0..<max(10, index / 10 + 10), using: &random)
        switch index % 20 {
        case 0..<8: return "category == 'c\(k)'"
        case 8..<12: return "region IN {'r\(k)', 'r\(k + 1)', 'r\(k + 2)'}"
        case 12..<15: return "price BETWEEN {\(k), \(k + 5)}"
        case 15, 16: return "title BEGINSWITH 'p\(k)'"
        case 17: return "self CONTAINS 'w\(k)'"
        case 18: return "distanceToLocation:fromLocation:(place, LOCATION(\(Double(k % 90)), \(Double(k % 180)))) < 5"
        default: return "category ENDSWITH '\(k)' OR price > \(k * 1000)"
        }
    }

    static func subscription(_ index: Int, _ random: inout SplitMix) -> Subscription {
        Subscription(
            subscriptionID: "s\(index)", subscriptionType: .query, container: "iCloud.bench", database: .public,
            ownerRecordName: "_u\(index)",
            query: SubscriptionQuery(recordType: "Item", predicate: predicate(index, &random)),
            firesOn: [.create, .update], notificationInfo: NotificationInfo(alertBody: "x"))
    }

    static func change(_ index: Int, spread: Int, _ random: inout SplitMix) -> RecordChange {
        let k = Int.random(in: 0..<max(10, spread / 10 + 10), using: &random)
        return RecordChange(
            changeID: "c\(index)", container: "iCloud.bench", database: .public,
            zoneID: ZoneID(zoneName: ZoneID.defaultZoneName, ownerRecordName: "_system"), recordType: "Item",
            recordName: "item-\(index)", kind: .create,
            fields: [
                "category": .string("c\(k)"), "region": .string("r\(k)"), "price": .int64(Int64(k)),
                "title": .string("p\(k) item"), "body": .string("words w\(k) and more"),
                "place": .location(Location(latitude: Double(k % 90), longitude: Double(k % 180))),
            ],
            timestamp: 1_795_300_000_000)
    }

    func run(sizes: [Int]) throws -> [Row] {
        var rows: [Row] = []
        for size in sizes {
            var random = SplitMix(seed: UInt64(size))
            let before = Self.residentBytes()
            var index = SubscriptionIndex()
            for number in 0..<size { try index.upsert(Self.subscription(number, &random)) }
            let bytes = Double(Self.residentBytes() - before) / Double(size)
            let sample = (0..<changes).map { Self.change($0, spread: size, &random) }
            let (indexedRate, matched) = measure(index, sample)
            var scanned: Double?
            if size <= scanLimit {
                index.usesEqualityIndex = false
                let scanSample = Array(sample.prefix(max(50, changes * 1000 / size)))
                scanned = measure(index, scanSample).rate
            }
            rows.append(Row(
                subscriptions: size, indexed: indexedRate, scanned: scanned, bytesPerSubscription: bytes,
                matchesPerChange: Double(matched) / Double(sample.count)))
        }
        return rows
    }

    /// Resident memory of this process (Linux `/proc/self/statm`), 0 where unavailable.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * 4096
    }

    private func measure(_ index: SubscriptionIndex, _ sample: [RecordChange]) -> (rate: Double, matched: Int) {
        var matched = 0
        let start = ContinuousClock.now
        for change in sample { matched += index.matches(for: change).count }
        let elapsed = start.duration(to: .now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return (Double(sample.count) / seconds, matched)
    }

    static func table(_ rows: [Row]) -> String {
        var lines = [
            "Matcher, one core, one (container, database, record type) bucket, mix: equality 40%, IN 20%, range 15%,",
            "BEGINSWITH 10%, tokens 5%, geo 5%, unindexable 5%",
            "",
            "| subscriptions | indexed (changes/s) | scan all (changes/s) | speed-up | cost vs first row | bytes/subscription | matches/change |",
            "|--------------:|--------------------:|---------------------:|---------:|------------------:|-------------------:|---------------:|",
        ]
        let base = rows.first?.indexed ?? 1
        for row in rows {
            let scan = row.scanned.map { String(format: "%.0f", $0) } ?? "-"
            let speedUp = row.scanned.map { String(format: "%.1f×", row.indexed / $0) } ?? "-"
            lines.append(String(
                format: "| %13d | %19.0f | %@ | %@ | %16.1f× | %18.0f | %14.2f |",
                row.subscriptions, row.indexed, pad(scan, 20), pad(speedUp, 8), base / row.indexed,
                row.bytesPerSubscription, row.matchesPerChange))
        }
        return lines.joined(separator: "\n")
    }
}

private func pad(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
}

/// A seeded generator, so every run benchmarks the same data.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
