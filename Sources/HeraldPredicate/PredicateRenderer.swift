import Foundation

/// Renders a syntax tree back to a canonical format string (used by `herald predicate check`).
///
/// Canonical form: upper-case keywords, `==`/`!=`/`<=`/`>=`, single-quoted strings,
/// `NOT (…)` always parenthesized, AND inside OR parenthesized, key first. Values without
/// NSPredicate literals use Herald's typed literals (`TIMESTAMP(…)`, `REFERENCE(…)`,
/// `LOCATION(…)`, `BYTES(…)`). Parsing the output gives back an equal tree.
public enum PredicateRenderer {
    /// The canonical text of `node`.
    public static func render(_ node: PredicateNode) -> String {
        var out = ""
        write(node, into: &out)
        return out
    }

    /// The literal text of a constant (`'text'`, `42`, `TIMESTAMP(…)`, `{…}`).
    public static func render(_ value: PredicateValue) -> String {
        var out = ""
        write(value, into: &out)
        return out
    }

    static func write(_ node: PredicateNode, into out: inout String) {
        switch node {
        case .constant(let b):
            out += b ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .and(let children):
            if children.isEmpty { out += "TRUEPREDICATE"; return }
            for (i, child) in children.enumerated() {
                if i > 0 { out += " AND " }
                writeOperand(child, into: &out)
            }
        case .or(let children, _):
            if children.isEmpty { out += "FALSEPREDICATE"; return }
            for (i, child) in children.enumerated() {
                if i > 0 { out += " OR " }
                writeOperand(child, into: &out)
            }
        case .not(let inner, _):
            out += "NOT ("
            write(inner, into: &out)
            out += ")"
        case .comparison(let c):
            write(c, into: &out)
        case .tokens(let search):
            if let field = search.field {
                write(field, into: &out)
                out += " TOKENMATCHES[cdl] "
            } else {
                out += "SELF CONTAINS "
            }
            writeString(search.tokens.joined(separator: " "), into: &out)
        }
    }

    /// Writes a compound's child, parenthesizing nested compounds (one-element compounds
    /// and empty ones included, so the shape survives a round trip).
    private static func writeOperand(_ node: PredicateNode, into out: inout String) {
        switch node {
        case .and, .or:
            out += "("
            write(node, into: &out)
            out += ")"
        default:
            write(node, into: &out)
        }
    }

    static func write(_ c: Comparison, into out: inout String) {
        if c.modifier != .direct {
            out += c.modifier.rawValue
            out += " "
        }
        write(c.left, into: &out)
        out += " "
        out += c.op.rawValue
        if !c.options.isEmpty {
            out += "[" + c.options.letters + "]"
        }
        out += " "
        write(c.right, into: &out)
    }

    static func write(_ e: PredicateOperand, into out: inout String) {
        switch e {
        case .key(let k): write(k, into: &out)
        case .evaluatedObject: out += "SELF"
        case .constant(let v): write(v, into: &out)
        case .distance(let k, let lat, let lon):
            out += FunctionCall.distanceName + "("
            write(k, into: &out)
            out += ", "
            write(PredicateValue.location(latitude: lat, longitude: lon), into: &out)
            out += ")"
        }
    }

    static func write(_ k: PredicateKey, into out: inout String) {
        for (i, part) in k.components.enumerated() {
            if i > 0 { out += "." }
            if PredicateParser.reservedWords.contains(part.uppercased()) { out += "#" }
            out += part
        }
    }

    static func write(_ v: PredicateValue, into out: inout String) {
        switch v {
        case .null: out += "NULL"
        case .bool(let b): out += b ? "TRUE" : "FALSE"
        case .int(let i): out += String(i)
        case .double(let d): writeDouble(d, into: &out)
        case .string(let s): writeString(s, into: &out)
        case .timestamp(let t): out += "TIMESTAMP(\(t))"
        case .reference(let name):
            out += "REFERENCE("
            writeString(name, into: &out)
            out += ")"
        case .location(let lat, let lon):
            out += "LOCATION("
            writeDouble(lat, into: &out)
            out += ", "
            writeDouble(lon, into: &out)
            out += ")"
        case .bytes(let data):
            out += "BYTES("
            writeString(data.base64EncodedString(), into: &out)
            out += ")"
        case .list(let items):
            out += "{"
            for (i, item) in items.enumerated() {
                if i > 0 { out += ", " }
                write(item, into: &out)
            }
            out += "}"
        }
    }

    /// Shortest round-tripping decimal form, always with a `.` or exponent so it reads back
    /// as a double. Non-finite values have no literal and render as `NULL`.
    static func writeDouble(_ d: Double, into out: inout String) {
        guard d.isFinite else { out += "NULL"; return }
        let text = "\(d)"
        out += text
        if !text.contains(".") && !text.contains("e") { out += ".0" }
    }

    static func writeString(_ s: String, into out: inout String) {
        out += "'"
        for scalar in s.unicodeScalars {
            switch scalar {
            case "'": out += "\\'"
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "'"
    }
}
