import Foundation

/// A Kafka record header. Headers are ordered and names may repeat.
public struct MessageHeader: Hashable, Sendable {
    public var name: String
    /// `nil` is a header with a null value (distinct from an empty one).
    public var value: Data?

    public init(_ name: String, _ value: Data?) {
        self.name = name
        self.value = value
    }

    public init(_ name: String, _ text: String) {
        self.init(name, Data(text.utf8))
    }

    /// An upper bound of the header's size in a record: name, value and two 5-byte varints.
    public var wireSize: Int { name.utf8.count + (value?.count ?? 0) + 10 }
}

extension Array where Element == MessageHeader {
    /// The value of the last header with this name, decoded as UTF-8.
    public func text(_ name: String) -> String? {
        guard let header = last(where: { $0.name == name }), let value = header.value else { return nil }
        return String(decoding: value, as: UTF8.self)
    }
}
