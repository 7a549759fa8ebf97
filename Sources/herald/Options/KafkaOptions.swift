import ArgumentParser
import HeraldStages

/// Where Kafka is and how Herald names its topics.
struct KafkaOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Kafka bootstrap servers, host:port[,host:port…].", valueName: "servers"))
    var brokers: String?

    @Option(help: "Prefix of every Herald topic and consumer group.")
    var topicPrefix = "herald."

    @Option(
        name: .customLong("kafka-property"),
        help: ArgumentHelp("Extra librdkafka property (repeatable), e.g. security.protocol=SSL.", valueName: "key=value"))
    var kafkaProperties: [String] = []

    func validate() throws {
        if let brokers { try Self.validateBrokers(brokers) }
        _ = try extraProperties()
        guard !topicPrefix.contains(where: { !($0.isLetter || $0.isNumber || "._-".contains($0)) }) else {
            throw ValidationError("--topic-prefix may only contain letters, digits, '.', '_' and '-'")
        }
    }

    func extraProperties() throws -> [String: String] {
        try Self.properties(from: kafkaProperties)
    }

    /// `key=value` entries of `--kafka-property` as librdkafka properties (a later key wins).
    static func properties(from entries: [String]) throws -> [String: String] {
        var properties: [String: String] = [:]
        for entry in entries {
            guard let equals = entry.firstIndex(of: "="), equals != entry.startIndex else {
                throw ValidationError("--kafka-property expects key=value, got '\(entry)'")
            }
            properties[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
        }
        return properties
    }

    /// The cluster, for commands that need an existing one.
    func requireBrokers(for command: String) throws -> String {
        guard let brokers else {
            throw ValidationError("""
                `herald \(command)` needs a running cluster: pass --brokers host:port \
                (for a local one, start `herald broker` and use the bootstrap it prints)
                """)
        }
        return brokers
    }

    func catalog(_ layout: TopicLayoutOptions) -> TopicCatalog {
        TopicCatalog(prefix: topicPrefix, partitions: layout.partitions, replicationFactor: layout.replicationFactor)
    }

    static func validateBrokers(_ brokers: String) throws {
        for entry in brokers.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = entry.trimmingCharacters(in: .whitespaces).split(separator: ":")
            guard parts.count >= 2, let port = Int(parts.last!), (1...65535).contains(port), !parts[0].isEmpty else {
                throw ValidationError("--brokers expects host:port[,host:port…], got '\(entry)'")
            }
        }
    }
}

/// How many partitions and replicas Herald's topics get when it creates them.
struct TopicLayoutOptions: ParsableArguments {
    @Option(help: "Partitions per topic (user-keyed topics must share one count).")
    var partitions: Int32 = 6

    @Option(help: "Replicas per partition (3 on a production cluster).")
    var replicationFactor: Int32 = 1

    func validate() throws {
        guard (1...10_000).contains(partitions) else { throw ValidationError("--partitions must be between 1 and 10000") }
        guard (1...32).contains(replicationFactor) else { throw ValidationError("--replication-factor must be between 1 and 32") }
    }
}
