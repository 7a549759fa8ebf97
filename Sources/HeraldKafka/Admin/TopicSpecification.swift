/// A topic Herald needs: name, partition count, replication and configs
/// (e.g. `cleanup.policy=compact`).
public struct TopicSpecification: Sendable, Hashable {
    public var name: String
    public var partitions: Int32
    public var replicationFactor: Int32
    public var configs: [String: String]

    public init(name: String, partitions: Int32, replicationFactor: Int32 = 1, configs: [String: String] = [:]) {
        self.name = name
        self.partitions = partitions
        self.replicationFactor = replicationFactor
        self.configs = configs
    }
}

/// The outcome of ensuring one topic. Only `KafkaAdmin.ensureTopics` makes them (its
/// memberwise initializer is internal).
public struct EnsuredTopic: Sendable, Hashable {
    public var name: String
    /// The partition count the topic actually has (it may differ from the request when it existed).
    public var partitions: Int32
    /// `true` when this call created it.
    public var created: Bool
}
