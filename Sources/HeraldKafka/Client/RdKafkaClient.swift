import CRdKafka
import Logging

/// Owns one `rd_kafka_t` and its main event queue, and frees both in `deinit`.
///
/// `@unchecked Sendable` is safe: librdkafka's handle is thread-safe for every call we make
/// on it, the stored pointers never change after `init`, and `deinit` runs only when no
/// other reference (in particular the event pump's thread) remains.
final class RdKafkaClient: @unchecked Sendable {
    enum Kind {
        case producer, consumer

        var cValue: rd_kafka_type_t { self == .producer ? RD_KAFKA_PRODUCER : RD_KAFKA_CONSUMER }
    }

    let handle: OpaquePointer
    let mainQueue: OpaquePointer
    let name: String
    /// An object handed to C callbacks as the handle's opaque; kept alive as long as the handle.
    private let context: AnyObject?

    /// Creates the handle.
    /// - Parameters:
    ///   - properties: librdkafka properties; an unknown or invalid one is a thrown error naming it.
    ///   - events: the `RD_KAFKA_EVENT_*` mask delivered to the main queue.
    ///   - context: passed to C callbacks as the opaque (see `rd_kafka_opaque`).
    ///   - configure: sets C callbacks on the configuration before the handle exists.
    init(
        kind: Kind, properties: [String: String], events: Int32, context: AnyObject? = nil,
        configure: (OpaquePointer) -> Void = { _ in }
    ) throws(KafkaError) {
        let conf = rd_kafka_conf_new()!
        var errorText = [CChar](repeating: 0, count: 512)
        for (key, value) in properties.sorted(by: { $0.key < $1.key }) {
            let result = rd_kafka_conf_set(conf, key, value, &errorText, errorText.count)
            guard result == RD_KAFKA_CONF_OK else {
                rd_kafka_conf_destroy(conf)
                throw KafkaError(
                    code: .invalidConfiguration,
                    reason: "invalid Kafka property \(key)=\(value): \(String(cBuffer: errorText))",
                    operation: "configure")
            }
        }
        rd_kafka_conf_set_events(conf, events)
        if let context {
            rd_kafka_conf_set_opaque(conf, Unmanaged.passUnretained(context).toOpaque())
        }
        configure(conf)
        guard let handle = rd_kafka_new(kind.cValue, conf, &errorText, errorText.count) else {
            rd_kafka_conf_destroy(conf)
            throw KafkaError(code: .invalidConfiguration, reason: String(cBuffer: errorText), operation: "create client")
        }
        self.handle = handle
        self.context = context
        self.name = String(cString: rd_kafka_name(handle))
        self.mainQueue = rd_kafka_queue_get_main(handle)
        // Logs go to the main queue, served by the event pump like every other event.
        rd_kafka_set_log_queue(handle, mainQueue)
    }

    deinit {
        rd_kafka_queue_destroy(mainQueue)
        rd_kafka_destroy(handle)
    }

    /// The fatal error that stopped an idempotent or transactional producer, if any.
    func fatalError(operation: String) -> KafkaError? {
        var text = [CChar](repeating: 0, count: 512)
        let err = rd_kafka_fatal_error(handle, &text, text.count)
        guard err != RD_KAFKA_RESP_ERR_NO_ERROR else { return nil }
        return KafkaError(code: .init(err), reason: String(cBuffer: text), operation: operation, isFatal: true)
    }

    /// Metadata of every topic, or of one.
    func metadata(topic: String? = nil, timeout: Duration) throws(KafkaError) -> [TopicMetadata] {
        var pointer: UnsafePointer<rd_kafka_metadata>?
        var err: rd_kafka_resp_err_t
        if let topic {
            let rkt = rd_kafka_topic_new(handle, topic, nil)
            err = rd_kafka_metadata(handle, 0, rkt, &pointer, timeout.timeoutMilliseconds)
            rd_kafka_topic_destroy(rkt)
        } else {
            err = rd_kafka_metadata(handle, 1, nil, &pointer, timeout.timeoutMilliseconds)
        }
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR, let metadata = pointer else {
            throw KafkaError(err, operation: "metadata", reason: unreachableReason(err))
        }
        defer { rd_kafka_metadata_destroy(metadata) }
        return (0..<Int(metadata.pointee.topic_cnt)).map { index in
            let topic = metadata.pointee.topics[index]
            return TopicMetadata(
                name: String(cString: topic.topic),
                partitions: (0..<Int(topic.partition_cnt)).map { Int32(topic.partitions[$0].id) }.sorted(),
                error: topic.err == RD_KAFKA_RESP_ERR_NO_ERROR ? nil : KafkaError.Code(topic.err))
        }
    }

    /// The cluster ID the brokers report (blocking, up to `timeout`).
    func clusterID(timeout: Duration) throws(KafkaError) -> String {
        guard let pointer = rd_kafka_clusterid(handle, timeout.timeoutMilliseconds) else {
            throw KafkaError(
                code: .timedOut, reason: "the brokers did not report a cluster ID within \(timeout)", operation: "cluster ID")
        }
        defer { rd_kafka_mem_free(handle, pointer) }
        return String(cString: pointer)
    }

    /// Low and high watermarks of a partition, asked of the broker (blocking).
    func queryWatermarks(_ partition: TopicPartition, timeout: Duration) throws(KafkaError) -> Watermarks {
        var low: Int64 = 0
        var high: Int64 = 0
        let err = rd_kafka_query_watermark_offsets(
            handle, partition.topic, partition.partition, &low, &high, timeout.timeoutMilliseconds)
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR else {
            throw KafkaError(err, operation: "watermarks \(partition)", reason: unreachableReason(err))
        }
        return Watermarks(low: low, high: high)
    }

    private func unreachableReason(_ err: rd_kafka_resp_err_t) -> String? {
        guard err == RD_KAFKA_RESP_ERR__TRANSPORT || err == RD_KAFKA_RESP_ERR__TIMED_OUT else { return nil }
        return "no answer from the Kafka brokers (bootstrap \(bootstrapServers)); are they running and reachable?"
    }

    private var bootstrapServers: String {
        var value = [CChar](repeating: 0, count: 1024)
        var size = value.count
        let conf = rd_kafka_conf(handle)
        guard rd_kafka_conf_get(conf, "bootstrap.servers", &value, &size) == RD_KAFKA_CONF_OK else { return "?" }
        return String(cBuffer: value)
    }
}

/// A topic as the cluster describes it.
public struct TopicMetadata: Sendable, Hashable {
    public var name: String
    public var partitions: [Int32]
    /// Set when the broker reported a problem with this topic (e.g. it does not exist).
    public var error: KafkaError.Code?
}

/// The first and one-past-the-last offsets of a partition.
public struct Watermarks: Sendable, Hashable {
    public var low: Int64
    public var high: Int64

    public init(low: Int64, high: Int64) {
        self.low = low
        self.high = high
    }

    /// Messages currently retained.
    public var count: Int64 { high - low }
}

extension String {
    /// The NUL-terminated text in a C buffer that librdkafka wrote into.
    init(cBuffer buffer: [CChar]) {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        self.init(decoding: bytes, as: UTF8.self)
    }
}
