import CRdKafka
import Foundation
import Logging
import Synchronization

/// A dedicated thread that serves a client's main event queue: logs and errors go to
/// swift-log (and `onError`), every other event to `onEvent` (delivery reports, stats…).
///
/// The thread holds the client, so the handle outlives every event it serves; `stop()`
/// lets the thread finish, after which the handle may be freed on that thread.
final class KafkaEventPump: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    /// Held so that `stop()` can always wake the queue; the handle is freed only after both
    /// the pump and its thread let go (after `close`, that is quick).
    private let client: RdKafkaClient

    /// Starts serving events at once.
    /// - Parameters:
    ///   - onEvent: called on the pump thread with each event other than log and error;
    ///     the event is destroyed after it returns.
    ///   - onError: called on the pump thread with each error event.
    init(
        client: RdKafkaClient, logger: Logger,
        onEvent: @escaping @Sendable (OpaquePointer) -> Void = { _ in },
        onError: @escaping @Sendable (KafkaError) -> Void = { _ in },
        onLog: @escaping @Sendable (_ facility: String, _ level: Int32, _ text: String) -> Void = { _, _, _ in }
    ) {
        self.client = client
        let thread = Thread { [self] in
            defer { finished.signal() }
            while !stopped.load(ordering: .acquiring) {
                guard let event = rd_kafka_queue_poll(client.mainQueue, 100) else { continue }
                Self.serve(event, client: client, logger: logger, onEvent: onEvent, onError: onError, onLog: onLog)
                rd_kafka_event_destroy(event)
            }
            // Serve what is already queued (final delivery reports, last log lines).
            while let event = rd_kafka_queue_poll(client.mainQueue, 0) {
                Self.serve(event, client: client, logger: logger, onEvent: onEvent, onError: onError, onLog: onLog)
                rd_kafka_event_destroy(event)
            }
        }
        thread.name = "herald-kafka-events-\(client.name)"
        thread.start()
    }

    /// Asks the thread to finish, waking its poll at once.
    func stop() {
        stopped.store(true, ordering: .releasing)
        rd_kafka_queue_yield(client.mainQueue)
    }

    /// Stops and waits for the thread to finish. Blocking: call from a dedicated thread.
    func stopAndWait() {
        stop()
        finished.wait()
        finished.signal()
    }

    private static func serve(
        _ event: OpaquePointer, client: RdKafkaClient, logger: Logger,
        onEvent: (OpaquePointer) -> Void, onError: (KafkaError) -> Void,
        onLog: (String, Int32, String) -> Void
    ) {
        switch Int32(rd_kafka_event_type(event)) {
        case Int32(herald_event_log()):
            var facility: UnsafePointer<CChar>?
            var text: UnsafePointer<CChar>?
            var level: Int32 = 0
            guard rd_kafka_event_log(event, &facility, &text, &level) == 0 else { return }
            let facilityName = facility.map { String(cString: $0) } ?? ""
            let message = text.map { String(cString: $0) } ?? ""
            logger.log(
                level: Logger.Level(syslog: level), "\(message)",
                metadata: [KafkaLogKey.client: .string(client.name), KafkaLogKey.facility: .string(facilityName)],
                source: "librdkafka")
            onLog(facilityName, level, message)
        case Int32(herald_event_error()):
            let code = KafkaError.Code(rd_kafka_event_error(event))
            let fatal = rd_kafka_event_error_is_fatal(event) != 0
            var error = KafkaError(
                code: code, reason: String(cString: rd_kafka_event_error_string(event)),
                operation: "client \(client.name)", isFatal: fatal, isRetriable: code.isTransient)
            if fatal, let original = client.fatalError(operation: error.operation) { error = original }
            logger.log(
                level: fatal ? .critical : (code.isTransient ? .warning : .error), "\(error)",
                metadata: [KafkaLogKey.client: .string(client.name), KafkaLogKey.code: .string(code.name)],
                source: "librdkafka")
            onError(error)
        default:
            onEvent(event)
        }
    }
}

/// Metadata keys of HeraldKafka's log lines.
public enum KafkaLogKey {
    public static let client = "kafka.client"
    public static let facility = "kafka.facility"
    public static let code = "kafka.code"
    public static let topicPartition = "kafka.partition"
}

extension Logger.Level {
    /// Maps a syslog level (librdkafka's) to swift-log's.
    init(syslog level: Int32) {
        switch level {
        case ...2: self = .critical
        case 3: self = .error
        case 4: self = .warning
        case 5: self = .notice
        case 6: self = .info
        default: self = .debug
        }
    }
}
