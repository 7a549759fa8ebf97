/// Where an input message came from: its topic partition (`source`, `topic#partition`)
/// and offset.
public struct InputPosition: Sendable, Hashable {
    public var source: String
    public var offset: Int64

    /// The position of the message at `offset` in partition `partition` of `topic`.
    public init(topic: String, partition: Int32, offset: Int64) {
        self.source = Self.source(topic: topic, partition: partition)
        self.offset = offset
    }

    /// The `source` of a topic partition: `topic#partition`, e.g. `herald.matches#3`.
    public static func source(topic: String, partition: Int32) -> String { "\(topic)#\(partition)" }
}

/// The last offset a stateful stage applied from each input partition, kept in the state
/// it writes to its changelog with the outputs of the same batch: after a crash or a
/// rebalance, an input at or below it is a replay and changes nothing.
///
/// Encoded as an object from `topic#partition` to the offset:
/// ```json
/// {"herald.matches#3": 1207, "herald.badge-resets#3": 12}
/// ```
public struct AppliedOffsets: Sendable, Hashable, Codable, ExpressibleByDictionaryLiteral {
    /// The last offset applied, by `topic#partition`.
    public private(set) var bySource: [String: Int64]

    public init(_ bySource: [String: Int64] = [:]) { self.bySource = bySource }

    public init(dictionaryLiteral elements: (String, Int64)...) {
        self.init(Dictionary(elements, uniquingKeysWith: max))
    }

    /// Whether the input at this position was already applied (a replay).
    public func contains(_ position: InputPosition) -> Bool {
        guard let last = bySource[position.source] else { return false }
        return position.offset <= last
    }

    /// Records the input at this position as applied; returns `false`, changing nothing,
    /// when it already was (a replay).
    @discardableResult
    public mutating func insert(_ position: InputPosition) -> Bool {
        guard !contains(position) else { return false }
        bySource[position.source] = position.offset
        return true
    }

    /// Decodes and validates: offsets not negative.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        bySource = try container.decode([String: Int64].self)
        if let (source, offset) = bySource.first(where: { $0.value < 0 }) {
            throw ModelError(.invalidValue, "the offset \(offset) of \(source) is negative", at: decoder.codingPath)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(bySource)
    }
}
