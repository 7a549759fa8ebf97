import Foundation

/// Reads and writes Herald's JSON wire formats (docs/ARCHITECTURE.md §5).
///
/// Decoding reports every failure as a `ModelError` naming the JSON path of the offending
/// value. Encoding is deterministic — sorted keys, slashes not escaped, optional keys
/// omitted when `nil` — so replaying a message produces identical bytes.
///
/// A `WireCodec` is a value with no shared state; use one from any thread.
public struct WireCodec: Sendable {
    /// Creates a codec.
    public init() {}

    /// Decodes a value of `type` from UTF-8 JSON.
    /// - Throws: `ModelError` with the path of the first offending value.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(ModelError) -> T {
        // Generic callers (the compose stage's inputs) get the fast reader too.
        if let wire = type as? any WireDecodable.Type {
            do {
                if let value = try wire.init(wire: JSONDocument(data), at: JSONDocument.root) as? T { return value }
            } catch {
                throw Self.restoringNumberText(error, from: data)
            }
        }
        return try decodeWithFoundation(type, from: data)
    }

    /// Decodes a wire type through its fast reader (`WireDecodable`): same values, same
    /// errors as the Codable path, without Foundation's per-key container overhead.
    /// - Throws: `ModelError` with the path of the first offending value.
    public func decode<T: WireDecodable>(_ type: T.Type, from data: Data) throws(ModelError) -> T {
        do {
            return try T(wire: JSONDocument(data), at: JSONDocument.root)
        } catch {
            // A whole number beyond Int64 is shown with the digits as written, as the Codable path does.
            throw Self.restoringNumberText(error, from: data)
        }
    }

    /// Decodes through Foundation's `JSONDecoder` and the type's Codable initializer, even
    /// when the type has a fast reader: the reference the fast readers are tested against.
    /// - Throws: `ModelError` with the path of the first offending value.
    public func decodeWithFoundation<T: Decodable>(_ type: T.Type, from data: Data) throws(ModelError) -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as ModelError {
            throw Self.restoringNumberText(error, from: data)
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
                let document = try? JSONDecoder().decode(JSONValue.self, from: data)
            {
                // Foundation calls a fractional or out-of-range number met where an integer
                // is expected "not valid JSON", without a path; the document is valid JSON.
                guard let misfit = Self.misfitNumber(type, in: document) else {
                    throw ModelError(.typeMismatch, "a number does not fit the expected integer type")
                }
                throw Self.restoringNumberText(misfit, from: data)
            }
            throw ModelError(decoding: error)
        } catch {
            throw ModelError(.malformedJSON, "cannot decode: \(error)")
        }
    }

    /// Encodes `value` as compact UTF-8 JSON with sorted keys.
    /// - Throws: `ModelError` (`encodingFailed`) for values JSON cannot hold (non-finite doubles).
    public func encode<T: Encodable>(_ value: T) throws(ModelError) -> Data {
        // Generic callers (the state stores' changelog entries) get the fast writer too.
        if let wire = value as? any WireEncodable {
            var writer = JSONWriter(capacity: wire.wireSizeHint)
            try wire.write(to: &writer)
            return writer.data
        }
        return try encodeWithFoundation(value)
    }

    /// Encodes a wire type through its fast writer (`WireEncodable`): the same bytes as the
    /// Codable path.
    /// - Throws: `ModelError` (`encodingFailed`) for values JSON cannot hold (non-finite doubles).
    public func encode<T: WireEncodable>(_ value: T) throws(ModelError) -> Data {
        var writer = JSONWriter(capacity: value.wireSizeHint)
        try value.write(to: &writer)
        return writer.data
    }

    /// Encodes as `encode(_:)` does, in `writer`'s buffer (emptied first): for per-message
    /// loops, which then allocate only the returned `Data`.
    public func encode<T: WireEncodable>(_ value: T, reusing writer: inout JSONWriter) throws(ModelError) -> Data {
        writer.removeAll()
        try value.write(to: &writer)
        return writer.data
    }

    /// Encodes through Foundation's `JSONEncoder`, even when the type has a fast writer: the
    /// reference the fast writers are tested against.
    /// - Throws: `ModelError` (`encodingFailed`) for values JSON cannot hold (non-finite doubles).
    public func encodeWithFoundation<T: Encodable>(_ value: T) throws(ModelError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(value)
        } catch let error as ModelError {
            throw error
        } catch let error as EncodingError {
            switch error {
            case .invalidValue(let value, let context):
                throw ModelError(.encodingFailed, "cannot encode \(value) as JSON", at: context.codingPath)
            @unknown default:
                throw ModelError(.encodingFailed, "cannot encode: \(error)")
            }
        } catch {
            throw ModelError(.encodingFailed, "cannot encode: \(error)")
        }
    }
}

extension ModelError {
    /// Translates Foundation's `DecodingError` into a `ModelError` at the same path.
    public init(decoding error: DecodingError) {
        switch error {
        case .keyNotFound(let key, let context):
            self.init(.missingValue, "required key is missing", at: context.codingPath + [key])
        case .valueNotFound(let type, let context):
            self.init(.missingValue, "expected \(ModelError.kind(of: type)), got null", at: context.codingPath)
        case .typeMismatch(let type, let context):
            self.init(.typeMismatch, ModelError.mismatchReason(type, context), at: context.codingPath)
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                let underlying = context.underlyingError.map { ": \($0)" } ?? ""
                self.init(.malformedJSON, "not valid JSON\(underlying)")
            } else {
                self.init(.invalidValue, context.debugDescription, at: context.codingPath)
            }
        @unknown default:
            self.init(.malformedJSON, "\(error)")
        }
    }

    private static func mismatchReason(_ type: Any.Type, _ context: DecodingError.Context) -> String {
        // Foundation says "Expected to decode Int64 but found a string instead."; keep what it found.
        let found = context.debugDescription.range(of: "but found ").map {
            " but found " + context.debugDescription[$0.upperBound...]
                .replacingOccurrences(of: " instead.", with: "")
        } ?? ""
        return "expected \(kind(of: type))\(found)"
    }

    /// "a string", "an integer"… for a Swift type met in a decoding error.
    static func kind(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Double.Type, is Float.Type: "a number"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt64.Type: "an integer"
        default:
            String(describing: type).hasPrefix("Array") ? "an array"
                : String(describing: type).hasPrefix("Dictionary") ? "an object" : "a \(type)"
        }
    }
}
