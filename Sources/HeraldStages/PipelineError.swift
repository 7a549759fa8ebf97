/// The one error type of `HeraldStages`: a stable code, a human reason, and where.
public struct PipelineError: Error, Sendable, CustomStringConvertible {
    /// Stable error codes (an open set).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        public static let topicLayout = Code("TOPIC_LAYOUT")
        public static let configuration = Code("CONFIGURATION")
        public static let kafka = Code("KAFKA")
        public static let input = Code("INVALID_INPUT")
        public static let restore = Code("RESTORE")
    }

    public var code: Code
    public var reason: String
    /// Where it happened (a stage, a file and line, a topic partition offset…).
    public var location: String?

    public init(code: Code, reason: String, location: String? = nil) {
        self.code = code
        self.reason = reason
        self.location = location
    }

    public var description: String {
        if let location { return "\(location): \(reason)" }
        return reason
    }
}

extension PipelineError {
    /// A changelog could not be read to its end in time (the stage retries the assignment).
    static func changelogIncomplete(topic: String, remaining: [String]) -> PipelineError {
        PipelineError(code: .restore, reason: "changelog \(topic) not read to its end in time", location: remaining.joined(separator: ","))
    }
}

extension PipelineError {
    /// A changelog entry that does not decode, or whose key does not match its value: the
    /// partition's state is not restored (the stage retries, loudly) rather than restored
    /// without it — a user's notification sequence would silently restart at 1 and reuse
    /// sequence numbers the reader already holds. To go on, fix the entry: write a good
    /// value, or a tombstone for the key to start that key over deliberately.
    static func corruptChangelog(topic: String, partition: Int32, key: String, _ problem: String) -> PipelineError {
        PipelineError(
            code: .restore, reason: "changelog entry \(key) does not restore: \(problem)", location: "\(topic)[\(partition)]")
    }
}
