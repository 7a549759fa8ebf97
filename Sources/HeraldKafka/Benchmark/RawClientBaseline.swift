import CRdKafka
import Foundation

/// The benchmark baseline: the minimal loops a C program would write over librdkafka,
/// with no Swift layer in between, against the same broker and settings as `KafkaProducer`
/// and `KafkaConsumer` (idempotence, linger, batch polling).
public enum RawClientBaseline {
    /// Produces `count` messages of `value` round-robin over `partitions` partitions with a
    /// delivery-report callback, and returns when every report arrived.
    /// - Returns: the number of messages reported delivered.
    public static func produce(
        bootstrapServers: String, topic: String, partitions: Int32, count: Int, value: [UInt8],
        properties: [String: String]
    ) throws(KafkaError) -> Int {
        let delivered = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        delivered.initialize(to: 0)
        defer { delivered.deallocate() }
        let client = try RdKafkaClient(
            kind: .producer, properties: properties.merging(["bootstrap.servers": bootstrapServers]) { $1 },
            events: 0,
            configure: { conf in
                rd_kafka_conf_set_opaque(conf, UnsafeMutableRawPointer(delivered))
                rd_kafka_conf_set_dr_msg_cb(conf) { _, message, opaque in
                    guard let message, message.pointee.err == RD_KAFKA_RESP_ERR_NO_ERROR else { return }
                    opaque!.assumingMemoryBound(to: Int.self).pointee += 1
                }
            })
        defer { withExtendedLifetime(client) {} }  // the handle is used through its raw pointer below
        var index = 0
        let key = [UInt8]("k".utf8)
        while index < count {
            let partition = Int32(index % Int(partitions))
            let err = value.withUnsafeBytes { bytes in
                herald_produce(client.handle, topic, partition, key, key.count, bytes.baseAddress, bytes.count, nil, nil)
            }
            if err == RD_KAFKA_RESP_ERR__QUEUE_FULL {
                rd_kafka_poll(client.handle, 1)
                continue
            }
            guard err == RD_KAFKA_RESP_ERR_NO_ERROR else { throw KafkaError(err, operation: "raw produce") }
            index += 1
            if index % 1000 == 0 { rd_kafka_poll(client.handle, 0) }
        }
        while rd_kafka_outq_len(client.handle) > 0 { rd_kafka_poll(client.handle, 10) }
        return delivered.pointee
    }

    /// Consumes `count` messages from the beginning of `partitions` partitions, reading every
    /// payload's length, and returns the total payload bytes read.
    public static func consume(
        bootstrapServers: String, topic: String, partitions: Int32, count: Int, properties: [String: String],
        timeout: Duration = .seconds(60)
    ) throws(KafkaError) -> Int {
        let client = try RdKafkaClient(
            kind: .consumer, properties: properties.merging(["bootstrap.servers": bootstrapServers]) { $1 },
            events: 0)
        let list = TopicPartitionList((0..<partitions).map { TopicPartitionOffset(topic, $0, .beginning) })
        _ = list.withPointer { rd_kafka_assign(client.handle, $0) }
        defer { withExtendedLifetime(client) { _ = rd_kafka_consumer_close(client.handle) } }
        var received = 0
        var bytes = 0
        let deadline = ContinuousClock.now + timeout
        while received < count, ContinuousClock.now < deadline {
            guard let message = rd_kafka_consumer_poll(client.handle, 100) else { continue }
            if message.pointee.err == RD_KAFKA_RESP_ERR_NO_ERROR {
                received += 1
                bytes += message.pointee.len
            }
            rd_kafka_message_destroy(message)
        }
        return bytes
    }
}
