import Foundation

extension WireCodec {
    /// The most fractional or huge numbers `misfitNumber` tries, so a hostile document
    /// cannot make an error slow to report.
    static let misfitProbeLimit = 64

    /// Where Foundation met a number that does not fit the integer it expected.
    ///
    /// Foundation reports a fractional (`1.5`) or out-of-range (`99999999999999999999`)
    /// number met where an integer is expected as "not valid JSON", without a path. Each
    /// such number of `document` (in a stable order, at most `misfitProbeLimit`) is replaced
    /// by `true` in turn; the one whose replacement makes decoding fail with "expected an
    /// integer" at its own path is the culprit.
    /// - Returns: `typeMismatch` at the number's path, or `nil` when none is found.
    static func misfitNumber<T: Decodable>(_ type: T.Type, in document: JSONValue) -> ModelError? {
        var candidates: [(path: [WireKey], value: Double)] = []
        collectMisfits(document, path: [], into: &candidates)
        for (path, value) in candidates {
            let probe = document.replacing(at: path[...], with: .bool(true))
            guard let data = try? JSONEncoder().encode(probe) else { continue }
            let expectsInteger: Bool
            do {
                _ = try JSONDecoder().decode(type, from: data)
                continue
            } catch let DecodingError.typeMismatch(expected, context) {
                expectsInteger = ModelError.kind(of: expected) == "an integer"
                    && ModelError.render(context.codingPath) == ModelError.render(path)
            } catch let error as ModelError {
                expectsInteger = error.code == .typeMismatch && error.path == ModelError.render(path)
                    && error.reason.contains("integer")
            } catch {
                continue
            }
            if expectsInteger {
                let range = value.rounded() == value ? " from \(Int64.min) to \(Int64.max)" : ""
                return ModelError(.typeMismatch, "expected an integer\(range), got \(Self.text(of: value))", at: path)
            }
        }
        return nil
    }

    /// How a number read as a double is shown back: `1.5`; a whole number with all its
    /// digits (`9223372036854775808`, not `9.223372036854776e+18`).
    static func text(of value: Double) -> String {
        guard value.isFinite, value.rounded() == value, abs(value) < 1e30 else { return "\(value)" }
        return String(format: "%.0f", value)
    }

    /// `error` with a whole number it shows beyond 64 bits (`got 9223372036854775808`, the
    /// digits of the double Foundation read) replaced by the number as written in `data`
    /// (`got 9223372036854775809`), when `data` holds one that reads as the same double.
    static func restoringNumberText(_ error: ModelError, from data: Data) -> ModelError {
        guard let shown = error.reason.firstMatch(of: /got (-?[0-9]{16,})/), let value = Double(shown.1) else {
            return error
        }
        let text = String(decoding: data, as: UTF8.self)
        for written in text.matches(of: /-?[0-9]{16,}/) where Double(written.output) == value {
            guard written.output != shown.1 else { return error }
            var restored = error
            restored.reason.replaceSubrange(shown.1.startIndex..<shown.1.endIndex, with: written.output)
            return restored
        }
        return error
    }

    private static func collectMisfits(_ value: JSONValue, path: [WireKey], into out: inout [(path: [WireKey], value: Double)]) {
        guard out.count < misfitProbeLimit else { return }
        switch value {
        case .double(let number):
            out.append((path, number))
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                collectMisfits(element, path: path + [WireKey(index: index)], into: &out)
            }
        case .object(let members):
            for key in members.keys.sorted() {
                collectMisfits(members[key] ?? .null, path: path + [WireKey(key)], into: &out)
            }
        case .null, .bool, .integer, .string:
            break
        }
    }
}

extension JSONValue {
    /// This value with the value at `path` replaced (unchanged when the path does not exist).
    func replacing(at path: ArraySlice<WireKey>, with replacement: JSONValue) -> JSONValue {
        guard let first = path.first else { return replacement }
        switch self {
        case .array(var elements):
            guard let index = first.intValue, elements.indices.contains(index) else { return self }
            elements[index] = elements[index].replacing(at: path.dropFirst(), with: replacement)
            return .array(elements)
        case .object(var members):
            guard let member = members[first.stringValue] else { return self }
            members[first.stringValue] = member.replacing(at: path.dropFirst(), with: replacement)
            return .object(members)
        default:
            return self
        }
    }
}
