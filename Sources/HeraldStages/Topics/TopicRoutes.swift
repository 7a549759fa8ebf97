import Foundation
import HeraldKafka

/// The input topics of a stage, resolved once to the role each plays in it: a processor
/// switches over its own roles (a closed enum) instead of comparing topic names.
///
/// ```swift
/// enum Input { case matches, badgeResets }
/// let routes = TopicRoutes(stage: "compose", [topics.matches: .matches, topics.badgeResets: .badgeResets])
/// switch try routes.role(of: message) { … }
/// ```
public struct TopicRoutes<Role: Sendable>: Sendable {
    /// The stage's name, for the reason of a message from a topic it does not read.
    public let stage: String
    private let roles: [String: Role]

    /// - Parameter roles: the role of each input topic, by full topic name.
    public init(stage: String, _ roles: [String: Role]) {
        self.stage = stage
        self.roles = roles
    }

    /// The role of the topic a message came from.
    /// - Throws: `Rejection.Reason.invalid` for a topic the stage does not read.
    public func role(of message: ConsumedMessage) throws(Rejection.Reason) -> Role {
        try role(of: message.topic)
    }

    /// The role of a topic.
    /// - Throws: `Rejection.Reason.invalid` for a topic the stage does not read.
    public func role(of topic: String) throws(Rejection.Reason) -> Role {
        guard let role = roles[topic] else { throw .invalid("the \(stage) stage does not read \(topic)") }
        return role
    }

    /// The role of a topic; `nil` for one the stage does not read.
    public subscript(topic: String) -> Role? { roles[topic] }

    /// The input topics, sorted.
    public var topics: [String] { roles.keys.sorted() }
}

extension TopicRoutes where Role: Equatable {
    /// The partition numbers of the partitions that play `role`.
    public func partitions(_ partitions: [TopicPartition], playing role: Role) -> Set<Int32> {
        Set(partitions.filter { roles[$0.topic] == role }.map(\.partition))
    }
}

extension ConsumedMessage {
    /// The message's value, which an input must have and which must fit `maxBytes`.
    /// - Throws: `Rejection.Reason` `INVALID` for a null value, `TOO_LARGE` for a larger one.
    public func requiredValue(maxBytes: Int) throws(Rejection.Reason) -> Data {
        guard let value else { throw .invalid("a \(topic) record cannot be null") }
        guard value.count <= maxBytes else { throw .tooLarge("\(topic) record of \(value.count) bytes exceeds \(maxBytes)") }
        return value
    }
}
