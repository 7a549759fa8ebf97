import CRdKafka

/// Owns an `rd_kafka_topic_partition_list_t` built from Swift values, freed in `deinit`.
///
/// The C list is only reachable inside `withPointer`, which keeps this object alive until the
/// C call returns: Swift may otherwise release it (and free the list) right after the pointer
/// is read, before librdkafka is done with it.
final class TopicPartitionList {
    private let pointer: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>

    init(_ partitions: [TopicPartitionOffset]) {
        pointer = rd_kafka_topic_partition_list_new(Int32(max(1, partitions.count)))
        for item in partitions {
            let element = rd_kafka_topic_partition_list_add(pointer, item.topicPartition.topic, item.topicPartition.partition)
            element?.pointee.offset = item.offset.rawValue
        }
    }

    convenience init(_ partitions: [TopicPartition], offset: KafkaOffset = .invalid) {
        self.init(partitions.map { TopicPartitionOffset($0, offset) })
    }

    deinit { rd_kafka_topic_partition_list_destroy(pointer) }

    /// Calls `body` with the C list, which stays valid for the whole call.
    func withPointer<R>(_ body: (UnsafeMutablePointer<rd_kafka_topic_partition_list_t>) throws -> R) rethrows -> R {
        try withExtendedLifetime(self) { try body(pointer) }
    }

    /// The entries of a C list (not owned).
    static func entries(_ list: UnsafePointer<rd_kafka_topic_partition_list_t>?) -> [(TopicPartitionOffset, KafkaError.Code)] {
        guard let list else { return [] }
        return (0..<Int(list.pointee.cnt)).map { index in
            let element = list.pointee.elems[index]
            let partition = TopicPartition(String(cString: element.topic), element.partition)
            return (TopicPartitionOffset(partition, KafkaOffset(element.offset)), KafkaError.Code(element.err))
        }
    }

    var entries: [(TopicPartitionOffset, KafkaError.Code)] { withPointer { Self.entries($0) } }
}
