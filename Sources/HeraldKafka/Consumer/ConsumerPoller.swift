import CRdKafka
import Foundation
import Logging
import Synchronization

/// The consumer's poll-thread state: turns `rd_kafka_consumer_poll` results and rebalance
/// callbacks into `ConsumerEvent`s in the order they happened.
///
/// `@unchecked Sendable` is safe: every member is touched only on the consumer's poll
/// executor, inside `poll` or the rebalance callback that `rd_kafka_consumer_poll` (or
/// `rd_kafka_consumer_close`) runs on that same thread.
final class ConsumerPoller: @unchecked Sendable {
    private let logger: Logger
    // Unchecked exclusivity: these are read for every message polled, and only ever touched
    // on the poll thread (see above), so the runtime's dynamic access checks guard nothing.
    @exclusivity(unchecked) private(set) var pending: [ConsumerEvent] = []
    @exclusivity(unchecked) private var revokedDuringPoll: Set<TopicPartition> = []
    @exclusivity(unchecked) private var topicNames: [OpaquePointer: String] = [:]
    @exclusivity(unchecked) private var lastTopic: (handle: OpaquePointer, name: String)?
    /// Filled by the event thread, drained by `poll` (the one member shared across threads).
    private let resets = Mutex<[OffsetResetReport]>([])

    init(logger: Logger) {
        self.logger = logger
    }

    /// Waits up to `timeout` for a first message, then takes what is ready, up to `maxMessages`.
    func poll(_ handle: OpaquePointer, maxMessages: Int, timeout: Int32) -> [ConsumerEvent] {
        var events: [ConsumerEvent] = []
        var messages: [ConsumedMessage] = []
        var wait = timeout
        while messages.count < maxMessages {
            let raw = rd_kafka_consumer_poll(handle, wait)
            takeRebalanceEvents(into: &events, batch: &messages)
            guard let raw else { break }
            wait = 0
            defer { rd_kafka_message_destroy(raw) }
            if raw.pointee.err != RD_KAFKA_RESP_ERR_NO_ERROR {
                if !messages.isEmpty { events.append(.messages(messages)) }
                messages = []
                events.append(raw.pointee.err == RD_KAFKA_RESP_ERR__PARTITION_EOF ? partitionEnd(raw) : errorEvent(raw))
                continue
            }
            if messages.isEmpty { messages.reserveCapacity(min(maxMessages, 1024)) }
            messages.append(message(raw))
        }
        if !messages.isEmpty { events.append(.messages(messages)) }
        for reset in resets.withLock({ reports in defer { reports = [] }; return reports }) {
            events.append(.offsetOutOfRange(reset.partition, offset: reset.offset, reason: reset.reason))
        }
        return events
    }

    /// Records an automatic offset reset seen on the event thread.
    func report(_ reset: OffsetResetReport) {
        resets.withLock { $0.append(reset) }
    }

    /// Called by librdkafka (through the C callback) during a poll or close.
    func rebalance(_ handle: OpaquePointer, _ err: rd_kafka_resp_err_t, _ list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>?) {
        let partitions = TopicPartitionList.entries(list).map(\.0.topicPartition)
        // NULL "on error" (librdkafka's header): seen when a rebalance callback ran while the
        // consumer's group was going away (a crash in `make test`); the eager calls are then right.
        let cooperative = rd_kafka_rebalance_protocol(handle).map { String(cString: $0) } == "COOPERATIVE"
        switch err {
        case RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS:
            if let failure = assign(handle, list, cooperative: cooperative) { pending.append(.error(failure)) }
            logger.info("partitions assigned", metadata: [KafkaLogKey.topicPartition: "\(partitions)"])
            pending.append(.assigned(partitions))
        case RD_KAFKA_RESP_ERR__REVOKE_PARTITIONS:
            let lost = rd_kafka_assignment_lost(handle) != 0
            if !lost {
                // Commit what was stored before the partitions move, so the next owner
                // starts exactly after the last processed message.
                let commit = rd_kafka_commit(handle, nil, 0)
                if commit != RD_KAFKA_RESP_ERR_NO_ERROR && commit != RD_KAFKA_RESP_ERR__NO_OFFSET {
                    let error = KafkaError(commit, operation: "commit on revoke")
                    logger.warning("\(error)")
                    pending.append(.error(error))
                }
            }
            if let failure = unassign(handle, list, cooperative: cooperative) { pending.append(.error(failure)) }
            revokedDuringPoll.formUnion(partitions)
            logger.info(lost ? "partitions lost" : "partitions revoked", metadata: [KafkaLogKey.topicPartition: "\(partitions)"])
            pending.append(lost ? .lost(partitions) : .revoked(partitions))
        default:
            _ = unassign(handle, nil, cooperative: false)
            pending.append(.error(KafkaError(err, operation: "rebalance")))
        }
    }

    private func assign(
        _ handle: OpaquePointer, _ list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>?, cooperative: Bool
    ) -> KafkaError? {
        if cooperative {
            return rd_kafka_incremental_assign(handle, list).map { KafkaError(consuming: $0, operation: "assign") }
        }
        let err = rd_kafka_assign(handle, list)
        return err == RD_KAFKA_RESP_ERR_NO_ERROR ? nil : KafkaError(err, operation: "assign")
    }

    private func unassign(
        _ handle: OpaquePointer, _ list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>?, cooperative: Bool
    ) -> KafkaError? {
        if cooperative {
            return rd_kafka_incremental_unassign(handle, list).map { KafkaError(consuming: $0, operation: "unassign") }
        }
        let err = rd_kafka_assign(handle, nil)
        return err == RD_KAFKA_RESP_ERR_NO_ERROR ? nil : KafkaError(err, operation: "unassign")
    }

    /// Moves rebalance events raised during the last poll into `events`, after the messages
    /// received before them; messages of partitions revoked meanwhile were not processed
    /// and are dropped (the next owner reads them from the committed offset).
    private func takeRebalanceEvents(into events: inout [ConsumerEvent], batch messages: inout [ConsumedMessage]) {
        guard !pending.isEmpty else { return }
        if !revokedDuringPoll.isEmpty {
            messages.removeAll { revokedDuringPoll.contains($0.topicPartition) }
            revokedDuringPoll = []
        }
        if !messages.isEmpty { events.append(.messages(messages)) }
        messages = []
        events += pending
        pending = []
    }

    private func topicName(_ rkt: OpaquePointer?) -> String {
        guard let rkt else { return "" }
        // Runs of messages come from one topic: skip the dictionary for a repeat.
        if let last = lastTopic, last.handle == rkt { return last.name }
        let name = topicNames[rkt] ?? String(cString: rd_kafka_topic_name(rkt))
        topicNames[rkt] = name
        lastTopic = (rkt, name)
        return name
    }

    private func message(_ raw: UnsafeMutablePointer<rd_kafka_message_t>) -> ConsumedMessage {
        let m = raw.pointee
        var timestampType = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE
        let timestamp = rd_kafka_message_timestamp(raw, &timestampType)
        return ConsumedMessage(
            topicPartition: TopicPartition(topicName(m.rkt), m.partition),
            offset: m.offset,
            key: m.key.map { Data(bytes: $0, count: m.key_len) },
            value: m.payload.map { Data(bytes: $0, count: m.len) },
            headers: headers(raw),
            timestamp: timestampType == RD_KAFKA_TIMESTAMP_NOT_AVAILABLE ? nil : timestamp)
    }

    private func headers(_ raw: UnsafeMutablePointer<rd_kafka_message_t>) -> [MessageHeader] {
        var list: OpaquePointer?
        guard rd_kafka_message_headers(raw, &list) == RD_KAFKA_RESP_ERR_NO_ERROR, let list else { return [] }
        return (0..<rd_kafka_header_cnt(list)).compactMap { index in
            var name: UnsafePointer<CChar>?
            var value: UnsafeRawPointer?
            var size = 0
            guard rd_kafka_header_get_all(list, index, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR,
                  let name else { return nil }
            return MessageHeader(String(cString: name), value.map { Data(bytes: $0, count: size) })
        }
    }

    /// `enable.partition.eof`'s report: the message's offset is where the consumer stands.
    private func partitionEnd(_ raw: UnsafeMutablePointer<rd_kafka_message_t>) -> ConsumerEvent {
        let m = raw.pointee
        return .partitionEnd(TopicPartition(topicName(m.rkt), m.partition), offset: m.offset)
    }

    /// Turns a consumer error into an event. With `offsetReset = .error`, a position the
    /// broker does not have arrives here (offset ≥ 0) and the partition stops until it is
    /// assigned again; a group with no committed offset yet (offset < 0) is an error.
    /// Events are reported, not logged, here: whoever consumes them decides how loudly.
    private func errorEvent(_ raw: UnsafeMutablePointer<rd_kafka_message_t>) -> ConsumerEvent {
        let m = raw.pointee
        let partition = m.rkt.map { TopicPartition(topicName($0), m.partition) }
        let reason = String(cString: rd_kafka_message_errstr(raw))
        if m.err == RD_KAFKA_RESP_ERR__AUTO_OFFSET_RESET, m.offset >= 0 {
            return .offsetOutOfRange(partition, offset: m.offset, reason: reason)
        }
        let where_ = partition.map { " \($0)" } ?? ""
        return .error(KafkaError(m.err, operation: "consume\(where_)", reason: reason))
    }
}

/// The one C callback: librdkafka calls it from inside `rd_kafka_consumer_poll`/`close`.
let rebalanceCallback: @convention(c) (
    OpaquePointer?, rd_kafka_resp_err_t, UnsafeMutablePointer<rd_kafka_topic_partition_list_t>?, UnsafeMutableRawPointer?
) -> Void = { handle, err, list, opaque in
    guard let handle, let opaque else { return }
    Unmanaged<ConsumerPoller>.fromOpaque(opaque).takeUnretainedValue().rebalance(handle, err, list)
}
