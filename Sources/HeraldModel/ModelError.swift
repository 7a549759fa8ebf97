/// The one error type of `HeraldModel`: what went wrong, in words, and where.
///
/// `path` is the JSON path of the offending value in dotted form with array indices in
/// brackets (`fields.priority.value`, `query.filterBy[0].comparator`); it is empty when
/// the problem is the document as a whole. `description` renders
/// `fields.priority.value: INT64 expects an integer, got "five"`.
public struct ModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable, machine-readable classification of the failure.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The bytes are not JSON (or not UTF-8).
        case malformedJSON
        /// A required key is absent (or `null`).
        case missingValue
        /// A value has the wrong JSON type (a string where a number is expected, …).
        case typeMismatch
        /// A value has the right JSON type but is not allowed (empty ID, latitude 91, bad base64…).
        case invalidValue
        /// A closed set (field type, comparator, kind…) does not contain the given name.
        case unknownValue
        /// A value cannot be written as JSON (a non-finite double).
        case encodingFailed
    }

    /// The classification of the failure.
    public var code: Code
    /// A sentence for humans saying what is wrong (without the path).
    public var reason: String
    /// The JSON path of the offending value; empty for the whole document.
    public var path: String

    /// Creates an error.
    /// - Parameters:
    ///   - code: the classification.
    ///   - reason: what is wrong, for humans.
    ///   - path: the dotted JSON path; empty for the whole document.
    public init(_ code: Code, _ reason: String, path: String = "") {
        self.code = code
        self.reason = reason
        self.path = path
    }

    /// Creates an error located at a Codable coding path.
    public init(_ code: Code, _ reason: String, at codingPath: [any CodingKey]) {
        self.init(code, reason, path: ModelError.render(codingPath))
    }

    /// `path: reason`, or only the reason when the path is empty.
    public var description: String {
        path.isEmpty ? reason : "\(path): \(reason)"
    }

    /// Renders a coding path as `a.b[0].c`.
    public static func render(_ codingPath: [any CodingKey]) -> String {
        var out = ""
        for key in codingPath {
            if let index = key.intValue, key.stringValue.hasPrefix("Index ") || key.stringValue == "\(index)" {
                out += "[\(index)]"
            } else {
                out += out.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return out
    }
}
