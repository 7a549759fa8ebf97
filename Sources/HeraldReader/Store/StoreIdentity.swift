/// What a store was built from: the Kafka cluster and the topics (with their partition
/// counts) whose offsets it saved. Offsets mean nothing on another cluster or another
/// partitioning, so a store whose identity differs from the cluster it is about to read is
/// rebuilt from the beginning of the topics rather than resumed.
public struct StoreIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The cluster ID the brokers report (`rd_kafka_clusterid`), possibly qualified by the
    /// caller (the embedded broker adds its run, since its ID is not stable).
    public var clusterID: String
    /// Full topic name → partition count, for every topic the store consumes.
    public var topics: [String: Int32]

    /// Creates an identity.
    public init(clusterID: String, topics: [String: Int32]) {
        self.clusterID = clusterID
        self.topics = topics
    }

    public var description: String {
        let list = topics.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: ",")
        return "cluster \(clusterID), topics \(list)"
    }

    /// Why a store that recorded `stored` (nil: it recorded nothing) cannot resume on this
    /// identity, or `nil` when it can. A store with no saved offsets can always start.
    /// - Parameter hasOffsets: whether the store saved any consumed offset.
    public func rebuildReason(stored: StoreIdentity?, hasOffsets: Bool) -> String? {
        guard hasOffsets else { return nil }
        guard let stored else {
            return "the store does not record which cluster it was built from (made by an older Herald)"
        }
        if stored.clusterID != clusterID {
            return "it was built from cluster \(stored.clusterID), the brokers are cluster \(clusterID)"
        }
        if stored.topics.keys.sorted() != topics.keys.sorted() {
            return "it was built from topics \(stored.topics.keys.sorted().joined(separator: ",")), "
                + "now reading \(topics.keys.sorted().joined(separator: ","))"
        }
        for (topic, partitions) in topics.sorted(by: { $0.key < $1.key }) where stored.topics[topic] != partitions {
            return "topic \(topic) had \(stored.topics[topic] ?? 0) partitions when the store was built, now \(partitions)"
        }
        return nil
    }
}
