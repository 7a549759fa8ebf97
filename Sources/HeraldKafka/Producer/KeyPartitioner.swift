import CRdKafka

/// The partition Herald's producers (partitioner `murmur2_random`, the Java client's
/// default) give a key: `murmur2(key) & 0x7fffffff % partitions`, computed by librdkafka
/// itself. Used to place a record on the partition of a *different* key — a schedule on
/// the partition of its recipient — so it is co-partitioned with that user's other topics.
public enum KeyPartitioner {
    /// The partition of `key` among `partitions` (at least 1).
    public static func partition(of key: String, partitions: Int32) -> Int32 {
        precondition(partitions > 0, "a topic has at least one partition")
        var key = key
        return key.withUTF8 { bytes in
            rd_kafka_msg_partitioner_murmur2(nil, bytes.baseAddress, bytes.count, partitions, nil, nil)
        }
    }
}
