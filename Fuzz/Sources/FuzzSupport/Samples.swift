import Foundation
import HeraldMatcher
import HeraldModel

/// The demo's subscriptions and changes (`samples/`), read once from the repository root
/// (the working directory of `scripts/fuzz.sh`): the other side of a fuzzed match.
public enum Samples {
    /// A subscription index holding every valid sample subscription.
    public static let index: SubscriptionIndex = {
        var index = SubscriptionIndex()
        for line in lines("samples/subscriptions.jsonl") {
            // The demo's invalid subscriptions are refused, as the match stage refuses them.
            guard let subscription = try? WireCodec().decode(Subscription.self, from: line) else { continue }
            try? index.upsert(subscription)
        }
        return index
    }()

    /// Every sample record change that decodes (the demo also sends bad ones).
    public static let changes: [RecordChange] = lines("samples/changes.jsonl").compactMap { line in
        try? WireCodec().decode(RecordChange.self, from: line)
    }

    private static func lines(_ path: String) -> [Data] {
        guard let text = FileManager.default.contents(atPath: path) else {
            fatalError("cannot read \(path): run the fuzzers from the repository root")
        }
        return text.split(separator: UInt8(ascii: "\n")).filter { !$0.isEmpty }.map { Data($0) }
    }
}
