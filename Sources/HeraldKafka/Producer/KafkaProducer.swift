import CRdKafka
import Foundation
import Logging
import Synchronization

/// An idempotent Kafka producer whose `send` completes with the delivery report while
/// any number of messages are in flight.
///
/// Enqueueing never blocks: when librdkafka's local queue is full, `send` suspends briefly
/// and retries. Delivery reports are served by a dedicated event thread.
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
                // Nothing queued will be delivered any more: release every waiting `send`.
                tracker.failAll(error)
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
        var reports: [DeliveryReport] = []
        reports.reserveCapacity(messages.count)
        var failures: [(index: Int, error: KafkaError)] = []
        for (index, result) in try await sendAll(messages).enumerated() {
            switch result {
            case .success(let report): reports.append(report)
            case .failure(let error): failures.append((index, error))
            }
        }
        guard let (first, error) = failures.first else { return reports }
        var summary = error
        summary.reason = "\(failures.count) of \(messages.count) messages not delivered; "
            + "first (#\(first) to \(messages[first].topic)): \(error.reason)"
        throw summary
    }

    /// Produces messages and waits until each has a result: its delivery report, or why it
    /// was not delivered (after librdkafka's retries). A message refused for itself
    /// (`KafkaError.rejectsMessage`, e.g. over `message.max.bytes`) fails alone; the others
    /// are still delivered.
    /// - Returns: one result per message, in the order given.
    /// - Throws: `KafkaError` only when the producer cannot be used (closed, fatal error).
    public func sendAll(_ messages: [OutgoingMessage]) async throws(KafkaError) -> [Result<DeliveryReport, KafkaError>] {
        guard !messages.isEmpty else { return [] }
        if messages.count > DeliveryTracker.maxBatchSize {
            var results: [Result<DeliveryReport, KafkaError>] = []
            for start in stride(from: 0, to: messages.count, by: DeliveryTracker.maxBatchSize) {
                let end = min(messages.count, start + DeliveryTracker.maxBatchSize)
                results += try await sendAll(Array(messages[start..<end]))
            }
            return results
        }
        try checkUsable(operation: "send")
        await learnTopics(of: messages)
        let batch = tracker.begin(count: messages.count)
        var index = 0
        while index < messages.count {
            let opaque = DeliveryTracker.opaque(batch: batch, index: index)
            let err = enqueue(messages[index], opaque: opaque)
            if err == RD_KAFKA_RESP_ERR__QUEUE_FULL, !closed.load(ordering: .relaxed) {
                // Wait for the delivery thread to free room; never block a cooperative thread.
                await queueSpace.wait()
                continue
            }
            if err != RD_KAFKA_RESP_ERR_NO_ERROR {
                let error = KafkaError(err, operation: "produce to \(messages[index].topic)")
                tracker.record([.init(opaque: opaque, partition: -1, offset: -1, error: error)])
            }
            index += 1
        }
        let outcome = await tracker.wait(for: batch)
        return messages.indices.map { index in
            if let error = outcome.errors[index] { return .failure(error) }
            guard index < outcome.partitions.count else {
                return .failure(KafkaError(code: .closed, reason: "no delivery report", operation: "send"))
            }
            return .success(DeliveryReport(
                topicPartition: TopicPartition(messages[index].topic, outcome.partitions[index]),
                offset: outcome.offsets[index]))
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
            for message in messages where !known.contains(message.topic) { unknown.insert(message.topic) }
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

    private func enqueue(_ message: OutgoingMessage, opaque: UnsafeMutableRawPointer?) -> rd_kafka_resp_err_t {
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
                herald_produce(
                    client.handle, message.topic, partition, keyPointer, keyCount, valuePointer, valueCount,
                    headers, opaque)
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
