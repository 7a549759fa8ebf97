/// A closed set of wire names (`"create"`, `"EQUALS"`, …) decoded strictly: an unknown
/// name is a `ModelError` (`unknownValue`) that names it and lists the accepted ones.
public protocol WireEnum: RawRepresentable, CaseIterable, Codable, Sendable, Hashable where RawValue == String {
    /// What the value is called in error messages ("kind", "comparator"…).
    static var wireName: String { get }
}

extension WireEnum {
    public static var wireName: String { String(describing: Self.self) }

    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        self = try Self(wireName: name, at: decoder.codingPath)
    }

    /// Looks up a wire name, throwing a `ModelError` located at `codingPath` when unknown.
    public init(wireName name: String, at codingPath: [any CodingKey]) throws(ModelError) {
        guard let value = Self(rawValue: name) else {
            let accepted = Self.allCases.map(\.rawValue).joined(separator: ", ")
            throw ModelError(
                .unknownValue, "unknown \(Self.wireName) \"\(name)\" (expected one of: \(accepted))", at: codingPath)
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
