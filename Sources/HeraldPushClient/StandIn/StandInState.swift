import Synchronization

/// What the stand-in remembers, behind one lock: the answers it was told to give, the
/// requests it received (bounded), the provider tokens and access tokens it has seen.
final class StandInState: Sendable {
    private struct Values {
        var answers: [String: StandInAnswer] = [:]
        var records: [RecordedPush] = []
        var dropped = 0
        var providerTokens: Set<String> = []
        /// Provider tokens whose signature and issuer were verified, with their `iat`.
        var verifiedTokens: [String: Int64] = [:]
        var accessTokens: Set<String> = []
        var received = 0
    }

    private let values = Mutex(Values())
    private let recordLimit: Int
    private let recordBodies: Bool

    init(recordLimit: Int, recordBodies: Bool) {
        self.recordLimit = recordLimit
        self.recordBodies = recordBodies
    }

    func setAnswer(_ answer: StandInAnswer?, for token: String) {
        values.withLock { $0.answers[token] = answer }
    }

    func answer(for token: String) -> StandInAnswer? {
        values.withLock { $0.answers[token] }
    }

    func record(_ push: RecordedPush) {
        values.withLock {
            $0.received += 1
            guard $0.records.count < recordLimit else {
                $0.dropped += 1
                return
            }
            var push = push
            if !recordBodies { push.body = [] }
            $0.records.append(push)
        }
    }

    var records: [RecordedPush] { values.withLock { $0.records } }
    var received: Int { values.withLock { $0.received } }

    func removeRecords() {
        values.withLock {
            $0.records.removeAll()
            $0.dropped = 0
        }
    }

    /// Notes an APNs provider token; returns how many distinct ones were seen.
    func sawProviderToken(_ token: String) {
        values.withLock { _ = $0.providerTokens.insert(token) }
    }

    var providerTokenCount: Int { values.withLock { $0.providerTokens.count } }

    /// The `iat` of a provider token verified before, or `nil`.
    func verifiedProviderToken(_ token: String) -> Int64? {
        values.withLock { $0.verifiedTokens[token] }
    }

    /// Remembers a verified provider token (at most 64; older ones are forgotten).
    func rememberVerifiedProviderToken(_ token: String, issuedAt: Int64) {
        values.withLock {
            if $0.verifiedTokens.count >= 64 { $0.verifiedTokens.removeAll() }
            $0.verifiedTokens[token] = issuedAt
        }
    }

    func issueAccessToken() -> String {
        values.withLock {
            let token = "standin-access-\($0.accessTokens.count + 1)"
            $0.accessTokens.insert(token)
            return token
        }
    }

    func isAccessToken(_ token: String) -> Bool {
        values.withLock { $0.accessTokens.contains(token) }
    }

    var accessTokenCount: Int { values.withLock { $0.accessTokens.count } }
}
