import HeraldModel

/// What a subscription index needs from the evaluator to compute the keys a record offers,
/// folded and tokenized exactly as `CompiledPredicate` folds and tokenizes them.
extension Comparison.Options {
    /// `text` folded as `[c]`/`[d]` comparisons fold record values (unchanged without options).
    public func fold(_ text: String) -> String {
        StringFolding.fold(text, self)
    }
}

extension TokenSearch {
    /// Calls `body` with each search token of `text` (folded, stop words dropped), as a
    /// token search sees the text of a record field.
    public static func forEachToken(in text: String, _ body: (String) -> Void) {
        FullTextTokenizer.forEachToken(in: text) { token in
            body(token)
            return false
        }
    }
}

extension GreatCircleBounds {
    /// Mean Earth radius in kilometres, the one the distance function uses.
    public static var earthRadiusKilometres: Double { GreatCircle.earthRadiusKilometres }
}

/// Namespace for the sphere the distance function measures on.
public enum GreatCircleBounds {}
