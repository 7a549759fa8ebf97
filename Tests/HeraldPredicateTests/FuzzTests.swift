import HeraldTestSupport
import Testing
@testable import HeraldPredicate

/// Random inputs never crash the lexer, parser, renderer, rule check or evaluator.
@Suite("Fuzz: the parser never crashes", .timeLimit(.minutes(5)))
struct FuzzTests {
    /// Parses and, when that succeeds, exercises everything downstream.
    func exercise(_ text: String, _ arguments: [PredicateArgument]) -> Bool {
        guard let p = try? RecordPredicate(format: text, arguments: arguments) else { return false }
        _ = p.cloudKitDiagnostics()
        _ = p.conjuncts
        _ = p.compile().evaluate(Fixtures.note)
        if let again = try? RecordPredicate(format: p.canonicalFormat) {
            #expect(again == p, "\(text.debugDescription) → \(p.canonicalFormat.debugDescription)")
        } else {
            Issue.record("rendering does not parse: \(text.debugDescription) → \(p.canonicalFormat.debugDescription)")
        }
        return true
    }

    static let arguments: [PredicateArgument] = [.string("title"), .int(3), .list([.int(1), .int(2)]), .location(latitude: 1, longitude: 2)]

    @Test("random byte strings")
    func randomBytes() {
        var rng = SeededGenerator(seed: 0xC0FFEE)
        let alphabet = Array("abcXYZ_$#019.,'\"\\(){}[]<>=!&|%@K$-+ *?:\n\té✓".utf8)
        for i in 0..<3000 {
            let length = Int.random(in: 0..<40, using: &rng)
            let bytes: [UInt8] = (0..<length).map { _ in
                i.isMultiple(of: 2) ? UInt8.random(in: 0...255, using: &rng) : alphabet.randomElement(using: &rng)!
            }
            _ = exercise(String(decoding: bytes, as: UTF8.self), Self.arguments)
        }
    }

    @Test("random mutations of valid predicates")
    func mutations() {
        var rng = SeededGenerator(seed: 42)
        let seeds = RenderTests.corpus + [
            "priority >= %@ AND tags CONTAINS 'urgent'",
            "%K BETWEEN %3$@ OR distanceToLocation:fromLocation:(place, %4$@) < 2",
            "ANY tags IN %3$@ AND NOT (title LIKE[cd] 'a*' OR SELF CONTAINS 'x')",
        ]
        let pieces = ["(", ")", "{", "}", "'", "\"", "\\", "%@", "%K", "%9$@", " AND ", " OR ", "NOT ", "==", "<", "[cd]",
                      "ANY ", "SELF", "0x", "1e", "-", ".", ",", "TOKENMATCHES", "LOCATION(", "BETWEEN", "#", "\n"]
        var parsed = 0
        for _ in 0..<4000 {
            var scalars = Array(seeds.randomElement(using: &rng)!.unicodeScalars)
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let at = Int.random(in: 0...scalars.count, using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0 where !scalars.isEmpty:
                    scalars.remove(at: min(at, scalars.count - 1))
                case 1:
                    scalars.insert(contentsOf: pieces.randomElement(using: &rng)!.unicodeScalars, at: at)
                case 2 where !scalars.isEmpty:
                    let end = min(scalars.count, at + Int.random(in: 1...6, using: &rng))
                    scalars.removeSubrange(min(at, end)..<end)
                default:
                    scalars.insert(Unicode.Scalar(UInt8.random(in: 32...126, using: &rng)), at: at)
                }
            }
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars)
            if exercise(String(text), Self.arguments) { parsed += 1 }
        }
        #expect(parsed > 100) // the mutations keep exercising the evaluator too
    }
}
