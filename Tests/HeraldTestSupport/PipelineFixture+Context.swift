import Foundation
import HeraldKafka
import HeraldModel
import HeraldStages

extension PipelineFixture {
    /// A stage context on this fixture's cluster and catalog, for tests that build one stage
    /// by hand (a processor of their own, a special producer, a virtual clock). Each consumer
    /// it makes is in a consumer group of its own.
    /// - Parameters:
    ///   - producer: the shared producer (the caller closes it).
    ///   - partitions: the partition count the context's catalog announces; default: the fixture's.
    ///   - clock: the clock of stage decisions, milliseconds since 1970.
    public func context(
        producer: KafkaProducer, readiness: Readiness? = nil, partitions: Int32? = nil,
        clock: @escaping @Sendable () -> Int64 = { EpochMilliseconds.now() }
    ) -> StageContext {
        var catalog = catalog
        catalog.partitions = partitions ?? catalog.partitions
        return StageContext(
            catalog: catalog, producer: producer, readiness: readiness, logger: logger, clock: clock,
            makeConsumer: { purpose in try self.consumer(group: "\(purpose)-\(UUID().uuidString)") })
    }
}
