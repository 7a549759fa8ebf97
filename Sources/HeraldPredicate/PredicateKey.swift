/// A key (field name or metadata key), possibly a dotted key path.
///
/// Metadata aliases are stored under their canonical name (`recordID` → `recordName`).
public struct PredicateKey: Sendable, Hashable, CustomStringConvertible {
    /// The dot-separated parts; one part for a plain key.
    public var components: [String]
    /// Where the key was written.
    public var anchor: SourceAnchor

    /// Creates a key; a single metadata alias is canonicalized.
    public init(_ components: [String], anchor: SourceAnchor = .none) {
        if components.count == 1, let meta = MetadataKey(name: components[0]) {
            self.components = [meta.rawValue]
        } else {
            self.components = components
        }
        self.anchor = anchor
    }

    /// Creates a plain (single component) key.
    public init(_ name: String, anchor: SourceAnchor = .none) {
        self.init([name], anchor: anchor)
    }

    /// The key as written with dots.
    public var name: String { components.joined(separator: ".") }

    /// The metadata key this names, if it is one.
    public var metadata: MetadataKey? {
        components.count == 1 ? MetadataKey(rawValue: components[0]) : nil
    }

    /// Whether this is a key path (`a.b`) rather than a plain key.
    public var isKeyPath: Bool { components.count > 1 }

    public var description: String { name }
}
