import CRdKafka
import Synchronization

/// librdkafka topic handles (`rd_kafka_topic_t`) of one client, created on first use and
/// kept until the client goes: producing through a handle spares librdkafka a lookup of the
/// topic by name, under the client's write lock, for every message.
///
/// `@unchecked Sendable` is safe: the map is only touched under its mutex, librdkafka's
/// topic handles are thread-safe, and each is destroyed in `deinit`, before this object
/// lets go of the client (a topic handle must not outlive its `rd_kafka_t`).
final class TopicHandles: @unchecked Sendable {
    private let client: RdKafkaClient
    private let handles = Mutex<[String: OpaquePointer]>([:])

    init(client: RdKafkaClient) {
        self.client = client
    }

    deinit {
        handles.withLock { handles in
            for handle in handles.values { rd_kafka_topic_destroy(handle) }
        }
    }

    /// The handle of `topic`, created with the client's default topic settings if need be.
    /// - Returns: `nil` when librdkafka refuses the name (then produce by name reports why).
    func handle(for topic: String) -> OpaquePointer? {
        handles.withLock { handles in
            if let handle = handles[topic] { return handle }
            guard let handle = rd_kafka_topic_new(client.handle, topic, nil) else { return nil }
            handles[topic] = handle
            return handle
        }
    }
}
