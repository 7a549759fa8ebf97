import HeraldKafka
import HeraldReader
import ServiceLifecycle

extension ReaderService {
    /// Where to resume each partition, and the partitions' watermarks.
    typealias StartingPoint = (saved: [TopicPartition: Int64], watermarks: [TopicPartition: Watermarks])

    /// Checks that the store was built from this cluster and these topics, and rebuilds it
    /// (empties it, so every topic is read from its beginning) when it was not, or when a
    /// saved position lies beyond the end of its partition (the topic was recreated).
    /// - Returns: the saved offsets and every partition's watermarks; `nil` when the store
    ///   cannot be checked or rebuilt — then the reader stays not ready, saying why, until
    ///   shutdown, and serves nothing new.
    func prepareStore() async throws -> StartingPoint? {
        guard let clusterID = await askClusterID() else { return nil }
        let identity = StoreIdentity(
            clusterID: clusterQualifier.map { "\(clusterID)/\($0)" } ?? clusterID,
            topics: Dictionary(uniqueKeysWithValues: routes.topics.map { ($0, partitions) }))
        var watermarks: [TopicPartition: Watermarks] = [:]
        for topicPartition in routes.topics.flatMap({ topic in (0..<partitions).map { TopicPartition(topic, $0) } }) {
            watermarks[topicPartition] = try await consumer.watermarks(topicPartition)
        }
        do {
            let saved = Dictionary(
                try await store.offsets().map { (TopicPartition($0.topic, $0.partition), $0.nextOffset) },
                uniquingKeysWith: max)
            let stored = try await store.identity()
            if Self.isBadgesUpgrade(stored: stored, current: identity, badges: topics.badges) {
                logger.notice("keeping the reader store built before topic \(topics.badges): its rows and badge counts stay; \(topics.badges) is read from its beginning")
                try await store.record(identity)
                return (saved, watermarks)
            }
            if let reason = identity.rebuildReason(stored: stored, hasOffsets: !saved.isEmpty)
                ?? Self.positionBeyondEnd(saved: saved, watermarks: watermarks) {
                logger.notice("rebuilding the reader store from the beginning of the topics: \(reason)")
                try await store.rebuild(as: identity)
                return ([:], watermarks)
            }
            if stored != identity { try await store.record(identity) }
            return (saved, watermarks)
        } catch {
            let reason = "the reader store cannot be checked or rebuilt: \(error)"
            logger.critical("\(reason); not ready until restarted")
            readiness?.set(Self.storeCondition, ready: false, reason: reason)
            try? await gracefulShutdown()
            return nil
        }
    }

    /// Whether `stored` is the identity of a store built when the reader read badge counts
    /// from `compose-state` (before topic `badges`), on this cluster and partitioning: the
    /// same topics but `compose-state` where `badges` is now. Such a store stays valid — its
    /// rows came from the same topics, its badge counts were right when read — so it is kept,
    /// and `badges`, having no saved offset, is read from its beginning: its counts replace
    /// the old ones as they arrive (docs/ARCHITECTURE.md §5.4). The saved `compose-state`
    /// offsets are ignored from then on.
    static func isBadgesUpgrade(stored: StoreIdentity?, current: StoreIdentity, badges: String) -> Bool {
        guard let stored, stored.clusterID == current.clusterID, stored.topics[badges] == nil,
              let partitions = current.topics[badges], badges.hasSuffix(TopicCatalog.badges.baseName)
        else { return false }
        var before = current.topics
        before[badges] = nil
        before[badges.dropLast(TopicCatalog.badges.baseName.count) + TopicCatalog.composeState.baseName] = partitions
        return stored.topics == before
    }

    /// Why a saved position cannot be resumed although the identity matches: the partition
    /// now ends before it (the topic was deleted and created again).
    static func positionBeyondEnd(saved: [TopicPartition: Int64], watermarks: [TopicPartition: Watermarks]) -> String? {
        for (partition, offset) in saved.sorted(by: { $0.key < $1.key }) {
            if let marks = watermarks[partition], offset > marks.high {
                return "its position \(offset) on \(partition) is beyond the partition's end (\(marks.high)): the topic was recreated"
            }
        }
        return nil
    }

    /// The brokers' cluster ID, asked until they answer (not ready meanwhile, saying why);
    /// `nil` when shutdown comes first.
    private func askClusterID() async -> String? {
        var attempt = 0
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                return try await consumer.clusterID()
            } catch {
                attempt += 1
                let reason = "waiting for the brokers to report their cluster ID: \(error)"
                readiness?.set("reader", ready: false, reason: reason)
                logger.warning("\(reason) (attempt \(attempt))")
                try? await Task.sleep(for: .seconds(1))
            }
        }
        return nil
    }
}
