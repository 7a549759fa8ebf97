/// A full-text token search: `SELF CONTAINS 'a b'` or `allTokens TOKENMATCHES[cdl] 'a b'`.
///
/// Matches when the record contains any of `tokens` (AND several searches to require all).
/// Tokens are stored folded (lower case, no diacritics) with CloudKit's stop words removed;
/// a search whose every word is a stop word has no tokens and matches nothing.
public struct TokenSearch: Sendable, Hashable {
    /// The field searched, or `nil` for every STRING and STRING_LIST field of the record
    /// (a key named `allTokens`, in any case, also means every field).
    public var field: PredicateKey?
    /// The folded search tokens, in first-seen order without repeats.
    public var tokens: [String]
    /// Where the search was written.
    public var anchor: SourceAnchor

    /// Creates a search from user text, tokenizing and folding it.
    public init(text: String, field: PredicateKey? = nil, anchor: SourceAnchor = .none) {
        var seen = Set<String>()
        self.tokens = FullTextTokenizer.tokens(of: text).filter { seen.insert($0).inserted }
        self.field = field?.name.lowercased() == "alltokens" ? nil : field
        self.anchor = anchor
    }
}
