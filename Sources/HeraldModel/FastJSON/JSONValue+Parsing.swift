import Foundation

extension JSONValue {
    /// Parses `data` on the fast path (`JSONDocument`), accepting and reading exactly what
    /// `JSONDecoder().decode(JSONValue.self, from: data)` does, without its per-value
    /// `try?` attempts (the push stand-in checks every APNs payload this way).
    /// - Throws: `ModelError` when `data` is not JSON.
    public init(parsing data: Data) throws(ModelError) {
        let document = try JSONDocument(data)
        self = try document.jsonValue(JSONDocument.root)
    }
}
