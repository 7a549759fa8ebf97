import HeraldKafka
import HeraldPipeline
import ServiceLifecycle

extension StageFactory {
    /// The asset ledger stage runner (`record-changes` and `asset-refs` in one group).
    func makeAssets(sharedProducer: KafkaProducer) throws -> [any Service] {
        var settings = AssetLedgerProcessor.Configuration()
        settings.gracePeriod = try options.assetGracePeriodDuration()
        let processor = AssetLedgerProcessor(
            topics: .init(catalog), changelog: changelogReader(for: "assets"), configuration: settings,
            logger: logger)
        let runner = StageRunner(
            configuration: configuration(for: .assets), processor: processor, consumer: try consumer(for: .assets),
            producer: try producer(for: .assets, shared: sharedProducer), readiness: readiness, logger: logger)
        return [runner]
    }
}
