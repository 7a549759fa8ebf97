import Foundation
import HeraldModel
import HeraldReader
import Logging
import Testing

@testable import HeraldBenchmarks

@Suite("The pipeline benchmark's reader stores")
struct PipelineStoreRetentionTests {
    func benchmark(changes: Int) -> PipelineBenchmark {
        var settings = PipelineBenchmark.Settings()
        settings.changes = changes
        return PipelineBenchmark(settings: settings, logger: Logger(label: "test"))
    }

    /// `--subscriptions 10` gives each of 10 users a tenth of the changes: with the default
    /// limit of 1,000 per stream the rows the benchmark counts stopped short of the changes.
    @Test func keepEveryNotificationOfTheRunWhenOneUserGetsThemAll() async throws {
        let changes = 1_500
        let store = try NotificationStore.inMemory(
            tokenSigner: ChangeTokenSigner(keyString: String(repeating: "ab", count: 32)),
            retention: benchmark(changes: changes).storeRetention)
        var batch = StoreBatch()
        for sequence in 0..<Int64(changes) {
            let notification = HeraldNotification(
                notificationID: "n-\(sequence)", notificationType: .query, containerIdentifier: "iCloud.bench",
                recipient: "_u0", sequence: sequence, createdAt: 1_795_300_000_000)
            batch.notifications.append(try EncodedNotification(json: WireCodec().encode(notification)))
        }
        _ = try await store.apply(batch)
        #expect(try await store.stats().notifications == changes)
    }

    @Test func keepAtLeastTheDefaultLimitForShortRuns() {
        #expect(benchmark(changes: 100).storeRetention.maxCount == 1_000)
        #expect(benchmark(changes: 20_000).storeRetention.maxCount == 20_000)
    }
}
