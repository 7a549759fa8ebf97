/// A coding key built at run time: an object member name or an array index.
///
/// Used for dynamic objects (`JSONValue`, record fields) and to extend a coding path when
/// a nested value is validated by hand, so that errors name the exact JSON path.
public struct WireKey: CodingKey, Sendable, Hashable {
    public var stringValue: String
    public var intValue: Int?

    /// An object member.
    public init(_ name: String) {
        stringValue = name
        intValue = nil
    }

    /// An array element.
    public init(index: Int) {
        stringValue = "\(index)"
        intValue = index
    }

    public init?(stringValue: String) { self.init(stringValue) }

    public init?(intValue: Int) { self.init(index: intValue) }
}
