import CRdKafka
import Foundation
import HeraldKafka

/// The Kafka benchmark's baseline: the minimal loops a C program would write over
/// librdkafka, calling its C API directly with no Swift layer (and none of `HeraldKafka`'s
/// internals) in between, against the same broker and settings as `KafkaProducer` and
/// `KafkaConsumer` (idempotence, linger, topic handles, batch polling).
enum RawClientBaseline {
    /// Produces `count` messages of `value` round-robin over `partitions` partitions through a
    /// topic handle (as `KafkaProducer` does), with a delivery-report callback, keeping
    /// librdkafka's queue full, and returns when every report arrived.
    /// - Returns: the number of messages reported delivered.
    static func produce(
        bootstrapServers: String, topic: String, partitions: Int32, count: Int, value: [UInt8],
        properties: [String: String]
    ) throws(KafkaError) -> Int {
        let delivered = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        delivered.initialize(to: 0)
        defer { delivered.deallocate() }
        let handle = try client(RD_KAFKA_PRODUCER, properties, bootstrapServers) { conf in
            rd_kafka_conf_set_opaque(conf, UnsafeMutableRawPointer(delivered))
            rd_kafka_conf_set_dr_msg_cb(conf) { _, message, opaque in
                guard let message, message.pointee.err == RD_KAFKA_RESP_ERR_NO_ERROR else { return }
                opaque!.assumingMemoryBound(to: Int.self).pointee += 1
            }
        }
        defer { rd_kafka_destroy(handle) }
        guard let topicHandle = rd_kafka_topic_new(handle, topic, nil) else {
            throw KafkaError(code: .invalidConfiguration, reason: "no topic handle for \(topic)", operation: "raw produce")
        }
        defer { rd_kafka_topic_destroy(topicHandle) }
        var index = 0
        let key = [UInt8]("k".utf8)
        while index < count {
            let partition = Int32(index % Int(partitions))
            let err = value.withUnsafeBytes { bytes in
                herald_produce_to(handle, topicHandle, partition, key, key.count, bytes.baseAddress, bytes.count, nil, nil)
            }
            if err == RD_KAFKA_RESP_ERR__QUEUE_FULL {
                rd_kafka_poll(handle, 1)
                continue
            }
            guard err == RD_KAFKA_RESP_ERR_NO_ERROR else {
                throw KafkaError(code: .init(rawValue: err.rawValue), operation: "raw produce")
            }
            index += 1
            if index % 1000 == 0 { rd_kafka_poll(handle, 0) }
        }
        while rd_kafka_outq_len(handle) > 0 { rd_kafka_poll(handle, 10) }
        return delivered.pointee
    }

    /// Consumes `count` messages from the beginning of `partitions` partitions, reading every
    /// payload's length, headers and timestamp (what `KafkaConsumer` reads of each message;
    /// it also copies key and value into `Data`, which this loop does not), and returns the
    /// total payload bytes read.
    static func consume(
        bootstrapServers: String, topic: String, partitions: Int32, count: Int, properties: [String: String],
        timeout: Duration = .seconds(60)
    ) throws(KafkaError) -> Int {
        let handle = try client(RD_KAFKA_CONSUMER, properties, bootstrapServers)
        defer {
            _ = rd_kafka_consumer_close(handle)
            rd_kafka_destroy(handle)
        }
        let list = rd_kafka_topic_partition_list_new(partitions)
        for partition in 0..<partitions {
            rd_kafka_topic_partition_list_add(list, topic, partition)?.pointee.offset = herald_offset_beginning()
        }
        _ = rd_kafka_assign(handle, list)
        rd_kafka_topic_partition_list_destroy(list)
        var received = 0
        var bytes = 0
        let deadline = ContinuousClock.now + timeout
        // Polls in batches as `KafkaConsumer` does (`maxBatchSize`, `pollTimeout`): the first
        // poll of a batch waits up to 100 ms, the rest take what is ready without waiting.
        let batchSize = ConsumerConfiguration().maxBatchSize
        var inBatch = 0
        while received < count {
            // The clock is read only when a poll comes back empty, as HeraldKafka's loop reads
            // it once per batch rather than per message.
            guard let message = rd_kafka_consumer_poll(handle, inBatch == 0 ? 100 : 0) else {
                inBatch = 0
                if ContinuousClock.now < deadline { continue } else { break }
            }
            inBatch = inBatch + 1 == batchSize ? 0 : inBatch + 1
            if message.pointee.err == RD_KAFKA_RESP_ERR_NO_ERROR {
                received += 1
                bytes += message.pointee.len
                // Look up what `HeraldKafka` hands over with each message besides key and
                // value: its headers (librdkafka 2.0.2 parses them on this call, allocating
                // even for a record that has none) and its timestamp.
                var headers: OpaquePointer?
                _ = rd_kafka_message_headers(message, &headers)
                var timestampType = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE
                _ = rd_kafka_message_timestamp(message, &timestampType)
            }
            rd_kafka_message_destroy(message)
        }
        return bytes
    }

    /// A client handle with `properties`, `bootstrap.servers` and the C callbacks `configure` sets.
    private static func client(
        _ kind: rd_kafka_type_t, _ properties: [String: String], _ bootstrapServers: String,
        configure: (OpaquePointer) -> Void = { _ in }
    ) throws(KafkaError) -> OpaquePointer {
        let conf = rd_kafka_conf_new()!
        var text = [CChar](repeating: 0, count: 512)
        for (key, value) in properties.merging(["bootstrap.servers": bootstrapServers], uniquingKeysWith: { $1 }) {
            guard rd_kafka_conf_set(conf, key, value, &text, text.count) == RD_KAFKA_CONF_OK else {
                rd_kafka_conf_destroy(conf)
                throw KafkaError(code: .invalidConfiguration, reason: "invalid Kafka property \(key)=\(value)", operation: "raw client")
            }
        }
        rd_kafka_conf_set_log_cb(conf, nil)  // quiet, as HeraldKafka's clients are on stderr
        configure(conf)
        guard let handle = rd_kafka_new(kind, conf, &text, text.count) else {
            rd_kafka_conf_destroy(conf)
            throw KafkaError(code: .invalidConfiguration, operation: "raw client")
        }
        return handle
    }
}
