import Foundation
import HeraldTestSupport
import Testing
@testable import HeraldPredicate

/// Random syntax trees render to text that parses back to the same tree.
@Suite("Random trees round-trip through the canonical form", .timeLimit(.minutes(5)))
struct RandomTreeTests {
    struct TreeGenerator {
        var rng: SeededGenerator

        mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
        mutating func pick<T>(_ items: [T]) -> T { items[int(0...items.count - 1)] }

        mutating func key() -> PredicateKey {
            let names = ["a", "title", "in", "AND", "self", "TIMESTAMP", "size", "allTokens", "_x", "$y", "recordID",
                         "___modTime", "x9", "NULL", "between", "LOCATION"]
            let parts = int(0...5) == 0 ? [pick(names), pick(names)] : [pick(names)]
            return PredicateKey(parts)
        }

        mutating func string() -> String {
            let pieces = ["a", "'", "\"", "\\", "\n", "\t", "\u{0}", "\u{1F}", "é", "e\u{301}", "%@", " OR TRUEPREDICATE", "{", "日本", "🙂", "\u{7F}"]
            return (0..<int(0...5)).map { _ in pick(pieces) }.joined()
        }

        mutating func double() -> Double {
            while true {
                let d = Double(bitPattern: rng.next())
                if d.isFinite { return pick([d, 0.1, -2.5, 1e300, .leastNonzeroMagnitude, -0.0, Double(int(-1000...1000))]) }
            }
        }

        mutating func value(depth: Int = 0) -> PredicateValue {
            switch int(0...(depth > 1 ? 8 : 9)) {
            case 0: return .null
            case 1: return .bool(int(0...1) == 0)
            case 2: return .int(pick([0, -1, .max, .min, Int64(int(-99...99))]))
            case 3: return .double(double())
            case 4: return .string(string())
            case 5: return .timestamp(Int64(int(-9...9)) * 1_000_000_000_000)
            case 6: return .reference(string())
            case 7: return .location(latitude: double(), longitude: double())
            case 8: return .bytes(Data((0..<int(0...4)).map { _ in UInt8(int(0...255)) }))
            default: return .list((0..<int(0...3)).map { _ in value(depth: depth + 1) })
            }
        }

        mutating func comparison() -> PredicateNode {
            if int(0...6) == 0 {
                return .tokens(TokenSearch(text: string() + " word " + string(), field: int(0...1) == 0 ? nil : key()))
            }
            if int(0...8) == 0 {
                let op = pick([Comparison.Operator.less, .lessOrEqual, .greater, .greaterOrEqual, .equal, .notEqual])
                let radius: PredicateValue = int(0...1) == 0 ? .int(Int64(int(0...100))) : .double(double())
                return .comparison(Comparison(.distance(key(), latitude: double(), longitude: double()), op, .constant(radius)))
            }
            let op = pick(Comparison.Operator.allCases)
            let right: PredicateOperand
            switch op {
            case .between: right = .constant(.list([value(), value()]))
            case .in: right = int(0...1) == 0 ? .constant(.string(string())) : .constant(.list([value(), value()]))
            default: right = int(0...9) == 0 ? .key(key()) : .constant(value())
            }
            var options = Comparison.Options()
            if int(0...3) == 0 { options.insert(.caseInsensitive) }
            if int(0...3) == 0 { options.insert(.diacriticInsensitive) }
            return .comparison(Comparison(.key(key()), op, right, modifier: pick(Comparison.Modifier.allCases), options: options))
        }

        mutating func node(depth: Int = 0) -> PredicateNode {
            switch depth > 3 ? 0 : int(0...5) {
            case 0, 1: return int(0...20) == 0 ? .constant(int(0...1) == 0) : comparison()
            case 2: return .not(node(depth: depth + 1), .none)
            case 3, 4:
                let children = (0..<int(2...3)).map { _ -> PredicateNode in
                    let child = node(depth: depth + 1)
                    if case .and = child { return .not(child, .none) }
                    return child
                }
                return .and(children)
            default:
                let children = (0..<int(2...3)).map { _ -> PredicateNode in
                    let child = node(depth: depth + 1)
                    if case .or = child { return .not(child, .none) }
                    return child
                }
                return .or(children, .none)
            }
        }
    }

    @Test("2000 random trees")
    func roundTrip() throws {
        var generator = TreeGenerator(rng: SeededGenerator(seed: 2026))
        for _ in 0..<2000 {
            let tree = RecordPredicate(generator.node())
            let text = tree.canonicalFormat
            let parsed = try RecordPredicate(format: text)
            #expect(parsed == tree, "\(text)")
            #expect(parsed.canonicalFormat == text)
            _ = parsed.compile().evaluate(Fixtures.note)
        }
    }
}
