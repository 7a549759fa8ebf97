import Foundation
import HeraldKafka

extension OutgoingMessage {
    /// Messages `from`..<`to` with key `k<i % keys>` and value `v<i>`.
    public static func numbered(topic: String, _ range: Range<Int>, keys: Int = 4) -> [OutgoingMessage] {
        range.map { OutgoingMessage(topic: topic, key: "k\($0 % keys)", value: Data("v\($0)".utf8)) }
    }
}
