import CRdKafka

/// The one error type of `HeraldKafka`: a librdkafka error code, a human reason,
/// the operation that failed, and how the caller may react (fatal, retriable, abort).
public struct KafkaError: Error, Sendable, CustomStringConvertible {
    /// A librdkafka error code (`rd_kafka_resp_err_t`); negative values are client-side errors.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: Int32

        public init(rawValue: Int32) { self.rawValue = rawValue }

        init(_ err: rd_kafka_resp_err_t) { self.rawValue = err.rawValue }

        /// librdkafka's symbolic name, e.g. `_QUEUE_FULL` or `UNKNOWN_TOPIC_OR_PART`.
        public var name: String { String(cString: rd_kafka_err2name(rd_kafka_resp_err_t(rawValue: rawValue))) }
        /// librdkafka's human description.
        public var text: String { String(cString: rd_kafka_err2str(rd_kafka_resp_err_t(rawValue: rawValue))) }
        public var description: String { name }

        public static let noError = Code(RD_KAFKA_RESP_ERR_NO_ERROR)
        public static let queueFull = Code(RD_KAFKA_RESP_ERR__QUEUE_FULL)
        public static let messageTimedOut = Code(RD_KAFKA_RESP_ERR__MSG_TIMED_OUT)
        public static let timedOut = Code(RD_KAFKA_RESP_ERR__TIMED_OUT)
        public static let transport = Code(RD_KAFKA_RESP_ERR__TRANSPORT)
        public static let allBrokersDown = Code(RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN)
        public static let invalidArgument = Code(RD_KAFKA_RESP_ERR__INVALID_ARG)
        public static let state = Code(RD_KAFKA_RESP_ERR__STATE)
        public static let fatal = Code(RD_KAFKA_RESP_ERR__FATAL)
        public static let destroyed = Code(RD_KAFKA_RESP_ERR__DESTROY)
        public static let autoOffsetReset = Code(RD_KAFKA_RESP_ERR__AUTO_OFFSET_RESET)
        public static let noOffset = Code(RD_KAFKA_RESP_ERR__NO_OFFSET)
        public static let unknownPartition = Code(RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION)
        public static let unknownTopic = Code(RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC)
        public static let unsupportedFeature = Code(RD_KAFKA_RESP_ERR__UNSUPPORTED_FEATURE)
        public static let offsetOutOfRange = Code(RD_KAFKA_RESP_ERR_OFFSET_OUT_OF_RANGE)
        public static let unknownTopicOrPartition = Code(RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART)
        public static let topicAlreadyExists = Code(RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS)
        public static let messageSizeTooLarge = Code(RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE)
        public static let invalidMessageSize = Code(RD_KAFKA_RESP_ERR_INVALID_MSG_SIZE)
        public static let recordListTooLarge = Code(RD_KAFKA_RESP_ERR_RECORD_LIST_TOO_LARGE)
        public static let invalidRecord = Code(RD_KAFKA_RESP_ERR_INVALID_RECORD)
        public static let badMessage = Code(RD_KAFKA_RESP_ERR__BAD_MSG)
        public static let notCoordinator = Code(RD_KAFKA_RESP_ERR_NOT_COORDINATOR)
        public static let leaderNotAvailable = Code(RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE)
        public static let notLeaderForPartition = Code(RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION)
        public static let requestTimedOut = Code(RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT)
        public static let invalidConfiguration = Code(RD_KAFKA_RESP_ERR__INVALID_TYPE)
        /// Herald's own code for a client used after `close()`.
        public static let closed = Code(RD_KAFKA_RESP_ERR__DESTROY)
    }

    public var code: Code
    /// What went wrong, in words a person can act on.
    public var reason: String
    /// The operation that failed, e.g. `produce`, `commit`, `createTopics`.
    public var operation: String
    /// The client instance is unusable after this error and must be re-created.
    public var isFatal: Bool
    /// Retrying the same operation may succeed.
    public var isRetriable: Bool
    /// The current transaction must be aborted (transactional producers only).
    public var requiresAbort: Bool

    public init(
        code: Code, reason: String? = nil, operation: String,
        isFatal: Bool = false, isRetriable: Bool = false, requiresAbort: Bool = false
    ) {
        self.code = code
        self.reason = reason ?? code.text
        self.operation = operation
        self.isFatal = isFatal
        self.isRetriable = isRetriable
        self.requiresAbort = requiresAbort
    }

    /// The message itself is refused (too large, an invalid record): sending the same bytes
    /// again fails the same way, so the sender must change or set aside that message rather
    /// than retry it. Errors about topics, brokers or permissions are not of this kind: they
    /// concern every message and are retried.
    public var rejectsMessage: Bool { code.rejectsMessage }

    public var description: String {
        var flags: [String] = []
        if isFatal { flags.append("fatal") }
        if isRetriable { flags.append("retriable") }
        if requiresAbort { flags.append("abort transaction") }
        let suffix = flags.isEmpty ? "" : " [\(flags.joined(separator: ", "))]"
        return "\(operation): \(reason) (\(code.name))\(suffix)"
    }

    /// Wraps an `rd_kafka_resp_err_t`.
    init(_ err: rd_kafka_resp_err_t, operation: String, reason: String? = nil) {
        let code = Code(err)
        self.init(code: code, reason: reason, operation: operation, isRetriable: code.isTransient)
    }

    /// Wraps and destroys an `rd_kafka_error_t`.
    init(consuming error: OpaquePointer, operation: String) {
        defer { rd_kafka_error_destroy(error) }
        self.init(
            code: Code(rd_kafka_error_code(error)),
            reason: String(cString: rd_kafka_error_string(error)),
            operation: operation,
            isFatal: rd_kafka_error_is_fatal(error) != 0,
            isRetriable: rd_kafka_error_is_retriable(error) != 0,
            requiresAbort: rd_kafka_error_txn_requires_abort(error) != 0
        )
    }
}

extension KafkaError.Code {
    /// Errors that a later attempt usually does not repeat.
    var isTransient: Bool {
        [.queueFull, .timedOut, .transport, .allBrokersDown, .notCoordinator,
         .leaderNotAvailable, .notLeaderForPartition, .requestTimedOut].contains(self)
    }

    /// Codes by which a client or broker refuses one message for what it is.
    var rejectsMessage: Bool {
        [.messageSizeTooLarge, .invalidMessageSize, .recordListTooLarge, .invalidRecord, .badMessage].contains(self)
    }
}
