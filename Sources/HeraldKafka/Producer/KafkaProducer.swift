import CRdKafka
import Foundation
import Logging
import Synchronization

/// An idempotent Kafka producer whose `send` completes with the delivery report while
/// any number of messages are in flight.
///
/// `enqueue` hands messages over and returns a `PendingDelivery` to await later, so the
/// caller can keep librdkafka's queue full; `send` and `sendAll` enqueue and await at once.
/// Enqueueing never blocks a thread: when librdkafka's local queue is full, it suspends
/// until a delivery report frees room, and retries. Delivery reports are served by a
/// dedicated event thread.
public final class KafkaProducer: Sendable {
    public let configuration: ProducerConfiguration
    let client: RdKafkaClient
    let executor: BlockingExecutor
    let logger: Logger
    private let pump: KafkaEventPump
    private let tracker: DeliveryTracker
    private let fatalError: FirstError
    private let closed = Atomic<Bool>(false)
    private let knownTopics = Mutex<Set<String>>([])
    private let topics: TopicHandles
    private let queueSpace: QueueSpaceSignal

    /// Creates the producer and connects in the background.
    /// - Throws: `KafkaError` for an invalid configuration.
    public init(configuration: ProducerConfiguration, logger: Logger) throws(KafkaError) {
        self.configuration = configuration
        self.logger = logger
        let tracker = DeliveryTracker()
        let fatalError = FirstError()
        let queueSpace = QueueSpaceSignal()
        self.queueSpace = queueSpace
        let client = try RdKafkaClient(
            kind: .producer, properties: configuration.properties,
            events: herald_event_dr() | herald_event_log() | herald_event_error())
        self.client = client
        self.topics = TopicHandles(client: client)
        self.tracker = tracker
        self.fatalError = fatalError
        self.executor = BlockingExecutor(label: "herald-producer-\(client.name)")
        self.pump = KafkaEventPump(
            client: client, logger: logger,
            onEvent: { event in
                guard Int32(rd_kafka_event_type(event)) == herald_event_dr() else { return }
                tracker.record(Self.deliveryResults(of: event))
                queueSpace.signal()
            },
            onError: { error in
                guard error.isFatal else { return }
                fatalError.record(error)
                // Nothing queued will be delivered any more: release every waiting `send`,
                // and every `enqueue` waiting for room.
                tracker.failAll(error)
                queueSpace.signal()
            })
    }

    deinit {
        pump.stop()
    }

    /// Produces one message and waits for its delivery report.
    /// - Throws: `KafkaError` when it cannot be delivered (after librdkafka's retries).
    @discardableResult
    public func send(_ message: OutgoingMessage) async throws(KafkaError) -> DeliveryReport {
        try await send([message])[0]
    }

    /// Produces messages and waits until every one is acknowledged (all or nothing).
    ///
    /// Per partition, messages are stored in the order given. If any message fails, the
    /// call throws after all have a result (the others may have been stored: callers retry
    /// idempotently, e.g. with deterministic IDs, or use `sendAll` to retry only the failed).
    /// - Returns: one report per message, in the order given.
    public func send(_ messages: [OutgoingMessage]) async throws(KafkaError) -> [DeliveryReport] {
        try await enqueue(messages).reports()
    }

    /// Produces messages and waits until each has a result: its delivery report, or why it
    /// was not delivered (after librdkafka's retries). A message refused for itself
    /// (`KafkaError.rejectsMessage`, e.g. over `message.max.bytes`) fails alone; the others
    /// are still delivered.
    /// - Returns: one result per message, in the order given.
    /// - Throws: `KafkaError` only when the producer cannot be used (closed, fatal error).
    public func sendAll(_ messages: [OutgoingMessage]) async throws(KafkaError) -> [Result<DeliveryReport, KafkaError>] {
        try await enqueue(messages).results()
    }

    /// Hands messages to librdkafka and returns as soon as all are queued, without waiting
    /// for their delivery: await the returned `PendingDelivery` for that. Meanwhile, enqueue
    /// more — per partition, messages are stored in the order they were enqueued (the
    /// idempotent producer keeps that order through retries), so a caller that awaits its
    /// batches in order learns of each batch's delivery in order too.
    ///
    /// Waits (without blocking a thread) while librdkafka's queue (`queueCapacity`) is full;
    /// never drops a message. A message librdkafka refuses at once (e.g. over
    /// `message.max.bytes`, or to a partition that does not exist) gets its failure as its
    /// result; the others are still enqueued.
    /// - Throws: `KafkaError` only when the producer cannot be used (closed, fatal error).
    public func enqueue(_ messages: [OutgoingMessage]) async throws(KafkaError) -> PendingDelivery {
        try checkUsable(operation: "send")
        guard !messages.isEmpty else { return PendingDelivery(messages: [], batches: []) }
        await learnTopics(of: messages)
        var batches: [DeliveryBatch] = []
        for start in stride(from: 0, to: messages.count, by: DeliveryTracker.maxBatchSize) {
            let part = messages[start..<min(messages.count, start + DeliveryTracker.maxBatchSize)]
            let batch = tracker.begin(count: part.count)
            batches.append(batch)
            await enqueue(part, into: batch)
        }
        return PendingDelivery(messages: messages, batches: batches)
    }

    /// Enqueues each message with its index in `batch` as the opaque of its delivery report.
    private func enqueue(_ messages: ArraySlice<OutgoingMessage>, into batch: DeliveryBatch) async {
        var next = enqueueUntilFull(messages, from: 0, into: batch)
        while next < messages.count {
            if closed.load(ordering: .relaxed) || fatalError.value != nil {
                // Room will never come: the rest fails (the tracker fails them too; whichever is first counts).
                let error = fatalError.value
                    ?? KafkaError(code: .closed, reason: "the producer was closed before the message was enqueued", operation: "send")
                tracker.record((next..<messages.count).map {
                    .init(opaque: DeliveryTracker.opaque(batch: batch.id, index: $0), partition: -1, offset: -1, error: error)
                })
                return
            }
            // The queue is full: wait for the delivery thread to free room; never block a cooperative thread.
            await queueSpace.wait()
            next = enqueueUntilFull(messages, from: next, into: batch)
        }
    }

    /// Enqueues messages from position `start` (0-based) until all are enqueued or
    /// librdkafka's queue is full.
    /// - Returns: the position of the first message not enqueued (`messages.count` when all were).
    private func enqueueUntilFull(_ messages: ArraySlice<OutgoingMessage>, from start: Int, into batch: DeliveryBatch) -> Int {
        // Through the buffer, each message is borrowed in place, not copied (and retained) per call.
        messages.withUnsafeBufferPointer { buffer in
            var topicName = ""
            var topic: OpaquePointer?
            for index in start..<buffer.count {
                let opaque = DeliveryTracker.opaque(batch: batch.id, index: index)
                if topic == nil || buffer[index].topic != topicName {
                    topicName = buffer[index].topic
                    topic = topics.handle(for: topicName)
                }
                let err = enqueue(buffer[index], topic: topic, opaque: opaque)
                if err == RD_KAFKA_RESP_ERR__QUEUE_FULL { return index }
                if err != RD_KAFKA_RESP_ERR_NO_ERROR {
                    let error = KafkaError(err, operation: "produce to \(buffer[index].topic)")
                    tracker.record([.init(opaque: opaque, partition: -1, offset: -1, error: error)])
                }
            }
            return buffer.count
        }
    }

    /// The largest message this producer accepts (`message.max.bytes`), in bytes.
    public var maxMessageBytes: Int { configuration.effectiveMaxMessageBytes }

    /// Fetches the metadata of topics this producer has not sent to yet. Without it,
    /// librdkafka 2.0.2 parks the first messages of a new topic until its periodic (1 s)
    /// topic scan asks for metadata, which delays the first delivery by up to a second.
    private func learnTopics(of messages: [OutgoingMessage]) async {
        var unknown: Set<String> = []
        knownTopics.withLock { known in
            var previous = ""
            for message in messages where message.topic != previous {
                // Batches mostly go to one topic: hash each run's topic once, not each message's.
                previous = message.topic
                if !known.contains(previous) { unknown.insert(previous) }
            }
        }
        guard !unknown.isEmpty else { return }
        let (client, timeout) = (self.client, configuration.client.requestTimeout)
        for topic in unknown.sorted() {
            // A failure is not fatal here: librdkafka keeps retrying metadata on its own.
            let learned = await executor.run { (try? client.metadata(topic: topic, timeout: timeout)) != nil }
            if learned { _ = knownTopics.withLock { $0.insert(topic) } }
        }
    }

    /// Waits until every queued message is delivered or has failed.
    /// - Throws: `KafkaError` with code `timedOut` when messages remain after `timeout`.
    public func flush(timeout: Duration = .seconds(30)) async throws(KafkaError) {
        let client = self.client
        let err = await executor.run { rd_kafka_flush(client.handle, timeout.timeoutMilliseconds) }
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR else {
            let pending = rd_kafka_outq_len(client.handle)
            throw KafkaError(err, operation: "flush", reason: "\(pending) messages still queued after \(timeout)")
        }
    }

    /// Delivers what is queued (up to `timeout`), then stops. Sends still waiting fail.
    public func close(timeout: Duration = .seconds(30)) async {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let (client, pump, tracker, logger) = (self.client, self.pump, self.tracker, self.logger)
        await executor.run {
            if rd_kafka_flush(client.handle, timeout.timeoutMilliseconds) != RD_KAFKA_RESP_ERR_NO_ERROR {
                logger.error("producer closed with \(rd_kafka_outq_len(client.handle)) messages undelivered")
            }
            pump.stopAndWait()
            tracker.failAll(KafkaError(
                code: .closed, reason: "the producer was closed before the message was delivered", operation: "close"))
        }
    }

    /// Messages and requests queued locally or in flight.
    public var queuedCount: Int { Int(rd_kafka_outq_len(client.handle)) }

    func checkUsable(operation: String) throws(KafkaError) {
        if let fatal = fatalError.value { throw fatal }
        if closed.load(ordering: .relaxed) {
            throw KafkaError(code: .closed, reason: "the producer is closed", operation: operation)
        }
    }

    /// Enqueues one message (librdkafka copies it) through its topic's handle, or by name
    /// when there is none.
    private func enqueue(_ message: OutgoingMessage, topic: OpaquePointer?, opaque: UnsafeMutableRawPointer?) -> rd_kafka_resp_err_t {
        var headers: OpaquePointer?
        if !message.headers.isEmpty {
            let list = rd_kafka_headers_new(message.headers.count)
            for header in message.headers {
                withOptionalBytes(header.value) { pointer, count in
                    _ = rd_kafka_header_add(list, header.name, -1, pointer, count)
                }
            }
            headers = list
        }
        let partition = message.partition ?? herald_partition_unassigned()
        let err = withOptionalBytes(message.key) { keyPointer, keyCount in
            withOptionalBytes(message.value) { valuePointer, valueCount in
                if let topic {
                    return herald_produce_to(
                        client.handle, topic, partition, keyPointer, keyCount, valuePointer, valueCount, headers, opaque)
                }
                return herald_produce(
                    client.handle, message.topic, partition, keyPointer, keyCount, valuePointer, valueCount, headers, opaque)
            }
        }
        if err != RD_KAFKA_RESP_ERR_NO_ERROR, let headers { rd_kafka_headers_destroy(headers) }
        return err
    }

    private static func deliveryResults(of event: OpaquePointer) -> [DeliveryTracker.Result] {
        var results: [DeliveryTracker.Result] = []
        results.reserveCapacity(rd_kafka_event_message_count(event))
        while let message = rd_kafka_event_message_next(event) {
            let m = message.pointee
            var error: KafkaError?
            if m.err != RD_KAFKA_RESP_ERR_NO_ERROR {
                // Not `rd_kafka_message_errstr`: for a delivery report it returns the payload.
                error = KafkaError(m.err, operation: "deliver to \(String(cString: rd_kafka_topic_name(m.rkt)))")
            }
            results.append(.init(opaque: m._private, partition: m.partition, offset: m.offset, error: error))
        }
        return results
    }
}

/// One byte that stands for "present but empty", so an empty value is not sent as null.
private let emptyByte: UInt8 = 0

/// Calls `body` with the bytes of `data`, or `(nil, 0)` for `nil` (Kafka's null).
func withOptionalBytes<R>(_ data: Data?, _ body: (UnsafeRawPointer?, Int) -> R) -> R {
    guard let data else { return body(nil, 0) }
    if data.isEmpty { return withUnsafePointer(to: emptyByte) { body(UnsafeRawPointer($0), 0) } }
    return data.withUnsafeBytes { body($0.baseAddress, $0.count) }
}

/// Keeps the first error recorded (a fatal error ends a producer; later ones are echoes).
final class FirstError: Sendable {
    private let state = Mutex<KafkaError?>(nil)

    func record(_ error: KafkaError) { state.withLock { $0 = $0 ?? error } }

    var value: KafkaError? { state.withLock { $0 } }
}
