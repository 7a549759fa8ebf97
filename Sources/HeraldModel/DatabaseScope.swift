/// Which CloudKit database a record, subscription or notification belongs to.
///
/// Wire names `"public"`, `"private"`, `"shared"`. The push payload's `dbs` number is
/// mapped here and only here (`pushCode`).
public enum DatabaseScope: String, WireEnum {
    case `public`
    case `private`
    case shared

    public static var wireName: String { "database" }

    /// The `ck.*.dbs` number written in push payloads.
    ///
    /// Apple's headers number public 1, private 2, shared 3, but every captured
    /// private-database push carries `dbs = 1` and a public one `dbs = 2`; Herald writes
    /// the observed values (docs/cloudkit-behaviour.md §5, Decision): private 1, public 2, shared 3.
    public var pushCode: Int {
        switch self {
        case .private: 1
        case .public: 2
        case .shared: 3
        }
    }

    /// The scope for a payload's `dbs` number, `nil` for an unknown number.
    public init?(pushCode: Int) {
        guard let scope = DatabaseScope.allCases.first(where: { $0.pushCode == pushCode }) else { return nil }
        self = scope
    }
}
