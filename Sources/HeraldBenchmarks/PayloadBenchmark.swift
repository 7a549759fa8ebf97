import Foundation
import HeraldModel
import HeraldPayload

/// Notifications composed per second on one core — localized, formatted, the push encoded
/// and fitted to its limit — for small, typical and oversized notifications, against the
/// cost of only encoding the same notification with `WireCodec` (the baseline, same run).
public struct PayloadBenchmark {
    /// One notification shape.
    struct Shape {
        var name: String
        var matches: [Match]
        var locale: String?
        var catalog: LocalizationCatalog?
    }

    /// The measurements of one shape.
    public struct Row: Sendable, Encodable {
        public var shape: String
        public var count: Int
        public var composed: Double
        public var composedAndEncoded: Double
        /// Compose + encode per second of this thread's CPU time: what the shared machine's
        /// load changes least (wall-clock rates swing 2× when other processes run).
        public var composedAndEncodedPerCPUSecond: Double = 0
        public var encodedOnly: Double
        public var payloadBytes: Int
        public var notificationBytes: Int
        public var pruned: Bool

        enum CodingKeys: String, CodingKey {
            case shape, count, composed = "compose_per_s", composedAndEncoded = "compose_encode_per_s"
            case composedAndEncodedPerCPUSecond = "compose_encode_per_cpu_s"
            case encodedOnly = "encode_only_per_s", payloadBytes = "push_bytes", notificationBytes = "notification_bytes", pruned
        }
    }

    /// Notifications per measurement; `nil`: calibrated to about 2 s per row.
    let count: Int?
    /// The shapes measured, by name; `nil`: all.
    let shapeNames: Set<String>?
    let composer = NotificationComposer()

    /// The names of the shapes, in the order they are measured.
    public static let shapeNamesInOrder = ["small", "typical", "oversized"]

    /// - Parameters:
    ///   - count: notifications per measurement; `nil`: calibrated to about 2 s per row.
    ///   - shapes: the shapes to measure (names from ``shapeNamesInOrder``); `nil`: all (one
    ///     shape alone is what a profiler should see).
    public init(count: Int?, shapes: Set<String>? = nil) {
        self.count = count
        shapeNames = shapes
    }

    /// Distinct matches per shape, cycled through, so no row measures one cached value.
    static let variants = 64
    static let container = "iCloud.com.example.notes"

    static func shapes() throws -> [Shape] {
        [
            Shape(name: "small", matches: matches(small), locale: nil, catalog: nil),
            Shape(name: "typical", matches: matches(typical), locale: "fr-FR", catalog: try catalog()),
            Shape(name: "oversized", matches: matches(oversized), locale: nil, catalog: nil),
        ]
    }

    /// Body only: `{"aps":{"alert":"…"},"ck":{…}}`.
    static let small = NotificationInfo(alertBody: "Your groceries list changed")

    /// Title and body keys, the body with two arguments, three desired keys, badge, sound.
    static let typical = NotificationInfo(
        alertLocalizationKey: "NOTE_CHANGED", alertLocalizationArgs: ["title", "priority"],
        titleLocalizationKey: "NOTE_TITLE", soundName: "default", shouldBadge: true,
        desiredKeys: ["title", "priority", "owner"])

    /// Every text far over the limit (≈ 9 KB before pruning), pruned to 4096 bytes.
    static let oversized = NotificationInfo(
        alertBody: String(repeating: "Le réveil sonne à 7 h 👩🏽‍💻 ", count: 160),
        title: String(repeating: "Title ", count: 200),
        subtitle: String(repeating: "Subtitle ", count: 150), alertActionLocalizationKey: "OPEN",
        soundName: "default", shouldBadge: true, desiredKeys: ["title", "body", "owner"], category: "NOTE")

    static func matches(_ info: NotificationInfo) -> [Match] {
        let subscription = Subscription(
            subscriptionID: "bench-notes", subscriptionType: .query, container: container, database: .private,
            ownerRecordName: "_u1", query: SubscriptionQuery(recordType: "Note"), firesOn: [.create, .update],
            notificationInfo: info)
        return (0..<variants).map { number in
            let change = RecordChange(
                changeID: "c-\(number)", container: container, database: .private,
                zoneID: ZoneID(zoneName: "Notes", ownerRecordName: "_u1"), recordType: "Note",
                recordName: "note-\(number)", kind: .update,
                fields: [
                    "title": .string("Groceries \(number)"), "priority": .int64(Int64(number % 10)),
                    "owner": .string("Alice Martin"),
                    "body": .string(String(repeating: "milk, eggs, bread \(number); ", count: 8)),
                ],
                modifiedBy: "_u1", originDevice: "d-77", timestamp: 1_795_300_000_000 + Int64(number))
            return Match(
                recipient: "_u1", notificationType: .query, queryNotificationReason: .recordUpdated,
                subscription: subscription, change: change)
        }
    }

    /// en, fr and de `.strings` tables with the typical shape's keys among others.
    static func catalog() throws -> LocalizationCatalog {
        let texts: [String: (title: String, changed: String)] = [
            "en": ("Note", "“%1$@” changed (priority %2$@)"),
            "fr": ("Note", "« %1$@ » a changé (priorité %2$@)"),
            "de": ("Notiz", "„%1$@“ wurde geändert (Priorität %2$@)"),
        ]
        var files: [String: Data] = [:]
        for (language, text) in texts {
            var lines = [
                "/* Title of a note notification */", "\"NOTE_TITLE\" = \"\(text.title)\";",
                "\"NOTE_CHANGED\" = \"\(text.changed)\";",
            ]
            for other in 0..<40 { lines.append("\"OTHER_\(other)\" = \"\(language) text \(other) %@\";") }
            files["\(language).lproj/Localizable.strings"] = Data(lines.joined(separator: "\n").utf8)
        }
        return try LocalizationCatalog(files: files, developmentLanguage: "en")
    }

    /// Measures every shape.
    /// - Throws: `BenchmarkError` when a shape's payload exceeds its limit.
    public func run() throws -> [Row] {
        try Self.shapes().filter { shapeNames?.contains($0.name) ?? true }.map(measure)
    }

    private func measure(_ shape: Shape) throws -> Row {
        let codec = WireCodec()
        let matches = MatchSlots(shape.matches)
        func compose(_ number: Int) throws -> ComposedNotification {
            try matches.withMatch(number) { match in
                try composer.compose(
                    match, sequence: Int64(number + 1), createdAt: 1_795_300_000_123,
                    badge: 3, locale: shape.locale, catalog: shape.catalog)
            }
        }
        // Check the shape once: a bench of the wrong thing is worse than none.
        let sample = try compose(0)
        let limit = composer.limits.maxBytes
        guard sample.payload.count <= limit else {
            throw BenchmarkError("\(shape.name): payload of \(sample.payload.count) bytes over the limit of \(limit)")
        }
        let sampleJSON = try codec.encode(sample.notification)
        let notifications = try (0..<shape.matches.count).map { try compose($0).notification }

        var total = 0
        var count = self.count ?? 0
        if count < 1 {
            count = try calibrated { n in
                for number in 0..<n {
                    let composed = try compose(number)
                    total &+= try codec.encode(composed.notification).count
                }
            }
        }
        let composed = try rate(count) { n in
            for number in 0..<n { total &+= try compose(number).payload.count }
        }.perSecond
        // As the compose stage does (`ComposeProcessor`): the result bound once and its
        // notification encoded where it lies (`compose(number).notification` would copy the
        // notification out first), into one writer reused for every notification.
        var writer = JSONWriter(capacity: 2048)
        let composedAndEncoded = try rate(count) { n in
            for number in 0..<n {
                let composed = try compose(number)
                total &+= try codec.encode(composed.notification, reusing: &writer).count
            }
        }
        let encodedOnly = try rate(count) { n in
            try notifications.withUnsafeBufferPointer { notifications in
                for number in 0..<n {
                    total &+= try codec.encode(notifications[number % notifications.count], reusing: &writer).count
                }
            }
        }.perSecond
        // Keeps the work observable so the optimizer cannot drop it.
        if total == 42 { print("") }
        return Row(
            shape: shape.name, count: count, composed: composed, composedAndEncoded: composedAndEncoded.perSecond,
            composedAndEncodedPerCPUSecond: composedAndEncoded.perCPUSecond, encodedOnly: encodedOnly, payloadBytes: sample.payload.count, notificationBytes: sampleJSON.count,
            pruned: sample.notification.isPruned)
    }

    /// A count that makes `body` (compose and encode, the slowest measurement) take about
    /// a second, so a row's three measurements take about two.
    private func calibrated(_ body: (Int) throws -> Void) throws -> Int {
        var n = 1_000
        while true {
            let seconds = try Self.seconds { try body(n) }
            if seconds >= 0.1 { return max(1_000, Int(Double(n) / seconds)) }
            n *= 4
        }
    }

    /// Notifications per second (of wall-clock time, and of this thread's CPU time) over
    /// `count` runs of `body`, after a short warm-up.
    private func rate(_ count: Int, _ body: (Int) throws -> Void) throws -> (perSecond: Double, perCPUSecond: Double) {
        try body(min(count, 2_000))
        let cpuStart = Self.threadCPUSeconds()
        let seconds = try Self.seconds { try body(count) }
        let cpuSeconds = Self.threadCPUSeconds() - cpuStart
        return (Double(count) / seconds, Double(count) / max(cpuSeconds, 1e-9))
    }

    /// The CPU time this thread has used (the loops run synchronously on one thread).
    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private static func seconds(_ body: () throws -> Void) throws -> Double {
        let start = ContinuousClock.now
        try body()
        return start.duration(to: .now).seconds
    }
}
