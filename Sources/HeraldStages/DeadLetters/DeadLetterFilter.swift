/// Which dead letters a tool acts on; `nil` fields match everything.
public struct DeadLetterFilter: Sendable, Equatable {
    /// The stage that wrote it (`match`, `compose`, `match.subscriptions`, …).
    public var stage: String?
    /// The rejection code (`UNDECODABLE`, `TOO_LARGE`, `OUTPUT_REJECTED`, …).
    public var code: String?
    /// The source topic (full name, with the prefix).
    public var topic: String?

    public init(stage: String? = nil, code: String? = nil, topic: String? = nil) {
        self.stage = stage
        self.code = code
        self.topic = topic
    }

    public func matches(_ record: DeadLetter.Record) -> Bool {
        (stage == nil || record.stage == stage) && (code == nil || record.code == code)
            && (topic == nil || record.sourceTopic == topic)
    }
}
