import HeraldKafka

/// The pure part of a stage: a batch of consumed messages in, messages to produce out.
///
/// A processor does no Kafka I/O itself; the `StageRunner` consumes, produces, stores
/// offsets and routes rejected input to the dead-letter topic.
public protocol StageProcessor: Sendable {
    /// Processes a batch. Input that cannot be processed (undecodable, invalid) is returned
    /// as a rejection, never dropped; a thrown error means the batch must be retried
    /// (e.g. a store was unavailable) and nothing of it is committed.
    func process(_ batch: [ConsumedMessage]) async throws -> StageResult

    /// Called before the first batch of newly assigned partitions (restore state here).
    func partitionsAssigned(_ partitions: [TopicPartition]) async throws

    /// Called when partitions were taken away (drop their state).
    func partitionsRevoked(_ partitions: [TopicPartition]) async

    /// Called once the outputs of `process(batch)` are acknowledged (and, exactly-once,
    /// committed), for each batch in the order the batches were processed. A stateful
    /// processor keeps what a batch changed aside until then. With
    /// `StageConfiguration.batchesInFlight` > 1, later batches are processed before earlier
    /// ones are delivered, and must see what those changed (`KeyedStateStore` layers it).
    /// A batch whose delivery fails is undone with `partitionsRevoked` then
    /// `partitionsAssigned` of its partitions (drop everything kept aside, restore from the
    /// changelogs) and processed again.
    func delivered(_ batch: [ConsumedMessage]) async

    /// How often the runner asks for time-driven outputs (`tick`); `nil`: never.
    var tickInterval: Duration? { get }

    /// Time-driven outputs (timers that came due). Called between batches, never
    /// concurrently with `process`; its outputs are delivered like a batch's (there are no
    /// input offsets), then `delivered([])` is called. A thrown error retries the tick later.
    func tick() async throws -> StageResult
}

extension StageProcessor {
    public func partitionsAssigned(_ partitions: [TopicPartition]) async throws {}
    public func partitionsRevoked(_ partitions: [TopicPartition]) async {}
    public func delivered(_ batch: [ConsumedMessage]) async {}
    public var tickInterval: Duration? { nil }
    public func tick() async throws -> StageResult { StageResult() }
}

/// What a batch produced.
public struct StageResult: Sendable {
    public var outputs: [OutgoingMessage]
    public var rejections: [Rejection]

    public init(outputs: [OutgoingMessage] = [], rejections: [Rejection] = []) {
        self.outputs = outputs
        self.rejections = rejections
    }

    /// Runs `body` on each message; a thrown `Rejection.Reason` rejects that message only.
    public static func each(
        _ batch: [ConsumedMessage], _ body: (ConsumedMessage) throws(Rejection.Reason) -> [OutgoingMessage]
    ) -> StageResult {
        var result = StageResult()
        for message in batch {
            do throws(Rejection.Reason) {
                result.outputs += try body(message)
            } catch {
                result.rejections.append(Rejection(message: message, reason: error))
            }
        }
        return result
    }
}

/// An input message a stage could not process, and why.
public struct Rejection: Sendable {
    /// Why input was rejected: a stable code and a human explanation.
    public struct Reason: Error, Sendable, CustomStringConvertible {
        public var code: String
        public var text: String

        public init(code: String, _ text: String) {
            self.code = code
            self.text = text
        }

        public var description: String { "\(code): \(text)" }

        public static func undecodable(_ text: String) -> Reason { Reason(code: "UNDECODABLE", text) }
        public static func invalid(_ text: String) -> Reason { Reason(code: "INVALID", text) }
        public static func tooLarge(_ text: String) -> Reason { Reason(code: "TOO_LARGE", text) }
    }

    public var message: ConsumedMessage
    public var reason: Reason

    public init(message: ConsumedMessage, reason: Reason) {
        self.message = message
        self.reason = reason
    }
}
