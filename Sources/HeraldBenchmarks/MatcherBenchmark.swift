import Foundation
import HeraldMatcher
import HeraldModel

/// Changes matched per second on one core against a realistic subscription mix, with the
/// index and with a scan of every subscription (the baseline, same run).
public struct MatcherBenchmark {
    /// The measurements at one subscription count (`scanned_per_s` absent above the scan limit).
    public struct Row: Sendable, Encodable {
        public var subscriptions: Int
        public var indexed: Double
        /// Changes per second of the matching thread's own CPU time: the rate per core, which
        /// other processes sharing the machine do not lower (`indexed` is per wall second).
        public var indexedPerCPUSecond: Double? = nil
        public var withMessages: Double
        public var scanned: Double?
        public var bytesPerSubscription: Double
        public var matchesPerChange: Double

        enum CodingKeys: String, CodingKey {
            case subscriptions, indexed = "indexed_per_s", indexedPerCPUSecond = "indexed_per_cpu_s", withMessages = "with_messages_per_s", scanned = "scanned_per_s"
            case bytesPerSubscription = "bytes_per_subscription", matchesPerChange = "matches_per_change"
        }
    }

    let changes: Int
    let scanLimit: Int

    /// - Parameters:
    ///   - changes: changes matched per size (the scan baseline uses fewer at large sizes).
    ///   - scanLimit: the largest size also measured by scanning every subscription.
    public init(changes: Int, scanLimit: Int) {
        self.changes = changes
        self.scanLimit = scanLimit
    }

    /// The mix: selective equality 40%, IN lists 20%, ranges 15%, BEGINSWITH 10%, token search 5%,
    /// geo radius 5%, and 5% in shapes outside CloudKit's indexable set (LIKE, ENDSWITH,
    /// substring CONTAINS[c], OR) that Herald still indexes by decomposition.
    static func predicate(_ index: Int, spread: Int, _ random: inout SplitMix) -> String {
        let k = Int.random(in: 0..<spread, using: &random)
        switch index % 20 {
        case 0..<8: return "category == 'c\(k)'"
        case 8..<12: return "region IN {'r\(k)', 'r\(k + 1)', 'r\(k + 2)'}"
        case 12..<15: return "price BETWEEN {\(k), \(k + 5)}"
        case 15, 16: return "title BEGINSWITH 'p\(k) '"
        case 17: return "self CONTAINS 'w\(k)'"
        case 18:
            let place = Self.place(k)
            return "distanceToLocation:fromLocation:(place, LOCATION(\(place.latitude), \(place.longitude))) < 5"
        default:
            switch index / 20 % 4 {
            case 0: return "title LIKE[c] 'P\(k) *'"
            case 1: return "code ENDSWITH '-\(k)'"
            case 2: return "body CONTAINS[c] 'W\(k) AND'"
            default: return "category == 'c\(k)' OR price > \(spread * 2)"
            }
        }
    }

    /// A grid of points about 5 km apart, so a 5 km circle holds about one.
    static func place(_ k: Int) -> Location {
        Location(latitude: -60 + Double(k % 2400) * 0.05, longitude: -170 + Double(k / 2400 % 3400) * 0.1)
    }

    static func subscription(_ index: Int, spread: Int, _ random: inout SplitMix) -> Subscription {
        Subscription(
            subscriptionID: "s\(index)", subscriptionType: .query, container: "iCloud.bench", database: .public,
            ownerRecordName: "_u\(index)",
            query: SubscriptionQuery(recordType: "Item", predicate: predicate(index, spread: spread, &random)),
            firesOn: [.create, .update], notificationInfo: NotificationInfo(alertBody: "x"))
    }

    static func change(_ index: Int, spread: Int, _ random: inout SplitMix) -> RecordChange {
        let k = Int.random(in: 0..<spread, using: &random)
        return RecordChange(
            changeID: "c\(index)", container: "iCloud.bench", database: .public,
            zoneID: ZoneID(zoneName: ZoneID.defaultZoneName, ownerRecordName: "_system"), recordType: "Item",
            recordName: "item-\(index)", kind: .create,
            fields: [
                "category": .string("c\(k)"), "region": .string("r\(k)"), "price": .int64(Int64(k)),
                "title": .string("p\(k) item"), "body": .string("words w\(k) and more"), "code": .string("x-\(k)"),
                "place": .location(place(k)),
            ],
            timestamp: 1_795_300_000_000)
    }

    /// Builds an index of each size, then measures each.
    /// - Throws: `BenchmarkError` when the index and the scan disagree.
    public func run(sizes: [Int]) throws -> [Row] {
        // Every index is built (and measured) before any is matched, and all stay alive, so
        // memory freed by one phase is not reused by the next and skews no difference.
        var built: [(size: Int, spread: Int, index: SubscriptionIndex, bytes: Double, random: SplitMix)] = []
        for size in sizes {
            var random = SplitMix(seed: UInt64(size))
            // About one subscription of each shape per value: a change fires a few.
            let spread = max(100, size)
            let before = Self.residentBytes()
            var index = SubscriptionIndex()
            for number in 0..<size { try index.upsert(Self.subscription(number, spread: spread, &random)) }
            index.compact()
            built.append((size, spread, index, Double(Self.residentBytes() - before) / Double(size), random))
        }
        var rows: [Row] = []
        for (size, spread, built, bytes, seed) in built {
            var index = built
            var random = seed
            let sample = (0..<changes).map { Self.change($0, spread: spread, &random) }
            let cpuBefore = Self.threadCPUSeconds()
            let (indexedRate, fired) = measure(sample) { change in
                var count = 0
                index.forEachFired(by: change) { _ in count += 1 }
                return count
            }
            let cpuSeconds = Self.threadCPUSeconds() - cpuBefore
            let (messageRate, _) = measure(sample) { index.matches(for: $0).count }
            var scanned: Double?
            if size <= scanLimit {
                index.usesPredicateIndex = false
                let scanSample = Array(sample.prefix(max(20, changes * 1000 / size)))
                let (rate, scanFired) = measure(scanSample) { change in
                    var count = 0
                    index.forEachFired(by: change) { _ in count += 1 }
                    return count
                }
                scanned = rate
                let indexedFired = scanSample.reduce(0) { total, change in
                    var count = 0
                    index.usesPredicateIndex = true
                    index.forEachFired(by: change) { _ in count += 1 }
                    return total + count
                }
                guard indexedFired == scanFired else {
                    throw BenchmarkError("index and scan disagree at \(size) subscriptions: \(indexedFired) vs \(scanFired) firings")
                }
                index.usesPredicateIndex = true
            }
            rows.append(Row(
                subscriptions: size, indexed: indexedRate,
                indexedPerCPUSecond: cpuSeconds > 0 ? Double(sample.count) / cpuSeconds : nil, withMessages: messageRate, scanned: scanned,
                bytesPerSubscription: bytes, matchesPerChange: Double(fired) / Double(sample.count)))
        }
        return rows
    }

    /// CPU time the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`).
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Resident memory of this process (Linux `/proc/self/statm`), 0 where unavailable.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * 4096
    }

    private func measure(_ sample: [RecordChange], _ body: (RecordChange) -> Int) -> (rate: Double, fired: Int) {
        var fired = 0
        let start = ContinuousClock.now
        for change in sample { fired += body(change) }
        return (Double(sample.count) / start.duration(to: .now).seconds, fired)
    }
}
