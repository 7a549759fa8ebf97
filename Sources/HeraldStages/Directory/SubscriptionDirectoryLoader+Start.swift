import HeraldKafka
import HeraldReader
import ServiceLifecycle

extension SubscriptionDirectoryLoader {
    /// Checks that the store was filed from this cluster and partitioning and rebuilds it
    /// (empties it, so the topic is read from its beginning) when it was not, or when a saved
    /// position lies beyond the end of its partition (the topic was recreated) — as
    /// `ReaderService` checks its store.
    /// - Returns: the saved offsets and every partition's watermarks; `nil` when shutdown
    ///   came first or the store cannot be checked (then not ready, saying why).
    func prepareStore() async throws -> (saved: [TopicPartition: Int64], watermarks: [TopicPartition: Watermarks])? {
        var attempt = 0
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                let clusterID = try await consumer.clusterID()
                let identity = StoreIdentity(
                    clusterID: clusterQualifier.map { "\(clusterID)/\($0)" } ?? clusterID, topics: [topic: partitions])
                var watermarks: [TopicPartition: Watermarks] = [:]
                for partition in (0..<partitions).map({ TopicPartition(topic, $0) }) {
                    watermarks[partition] = try await consumer.watermarks(partition)
                }
                return (try await resume(as: identity, watermarks: watermarks), watermarks)
            } catch let error as ReaderError {
                let reason = "the subscription directory's store cannot be checked or rebuilt: \(error)"
                logger.critical("\(reason); not ready until restarted")
                readiness?.set(Self.name, ready: false, reason: reason)
                try? await gracefulShutdown()
                return nil
            } catch {
                attempt += 1
                let reason = "waiting for the brokers (cluster ID, watermarks of \(topic)): \(error)"
                readiness?.set(Self.name, ready: false, reason: reason)
                logger.warning("\(Self.name): \(reason) (attempt \(attempt))")
                try? await Task.sleep(for: .seconds(1))
            }
        }
        return nil
    }

    /// The saved offsets to resume from, after rebuilding the store if it cannot resume.
    private func resume(
        as identity: StoreIdentity, watermarks: [TopicPartition: Watermarks]
    ) async throws(ReaderError) -> [TopicPartition: Int64] {
        let store = directory.store
        let saved = Dictionary(
            try await store.offsets().filter { $0.topic == topic }.map { (TopicPartition($0.topic, $0.partition), $0.nextOffset) },
            uniquingKeysWith: max)
        let stored = try await store.identity()
        if let reason = identity.rebuildReason(stored: stored, hasOffsets: !saved.isEmpty)
            ?? ReaderService.positionBeyondEnd(saved: saved, watermarks: watermarks) {
            logger.notice("\(Self.name): rebuilding the subscription directory from the beginning of \(topic): \(reason)")
            try await store.rebuild(as: identity)
            return [:]
        }
        if stored != identity { try await store.record(identity) }
        return saved
    }
}
