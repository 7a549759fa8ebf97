import Foundation
import HeraldKafka

extension DeadLetter {
    /// Longest reason text a reduced dead letter keeps.
    static let reducedReasonBytes = 512

    /// A dead letter no larger than `maxBytes` (by `OutgoingMessage.wireSize`).
    ///
    /// Returned unchanged when it fits. Otherwise the reduced form keeps Herald's headers
    /// (the reason shortened), then the original key and the original headers when they
    /// still fit (else `herald.dlq.key`/`herald.dlq.headers: omitted`), and as much of the
    /// value as the rest of the room allows: `herald.dlq.value` says `truncated` or
    /// `omitted`; `herald.dlq.original-size` and `herald.dlq.sha256` describe the whole
    /// original. Applying it again with a smaller limit reduces further.
    public static func fitted(_ letter: OutgoingMessage, maxBytes: Int) -> OutgoingMessage {
        guard letter.wireSize > maxBytes else { return letter }
        var context = letter.headers.filter { $0.name.hasPrefix(headerPrefix) && $0.name != valueHeader }
        let originals = letter.headers.filter { !$0.name.hasPrefix(headerPrefix) }
        if let index = context.firstIndex(where: { $0.name == reasonHeader }), let text = context[index].value,
           text.count > reducedReasonBytes {
            context[index].value = Data(text.prefix(reducedReasonBytes))
        }
        let valueHeaderRoom = MessageHeader(valueHeader, ValueForm.truncated.rawValue).wireSize
        var room = maxBytes - OutgoingMessage.recordOverhead - context.reduce(0) { $0 + $1.wireSize } - valueHeaderRoom
        var reduced = OutgoingMessage(topic: letter.topic, partition: letter.partition, key: Data?.none, value: nil)
        if let key = letter.key {
            let markRoom = MessageHeader(keyHeader, ValueForm.omitted.rawValue).wireSize
            if key.count <= room - markRoom {
                reduced.key = key
                room -= key.count
            } else {
                context.append(MessageHeader(keyHeader, ValueForm.omitted.rawValue))
                room -= markRoom
            }
        }
        let originalsSize = originals.reduce(0) { $0 + $1.wireSize }
        var headers: [MessageHeader] = []
        if !originals.isEmpty {
            let markRoom = MessageHeader(headersHeader, ValueForm.omitted.rawValue).wireSize
            if originalsSize <= room - markRoom {
                headers = originals
                room -= originalsSize
            } else {
                context.append(MessageHeader(headersHeader, ValueForm.omitted.rawValue))
                room -= markRoom
            }
        }
        var form = letter.headers.text(valueHeader).flatMap(ValueForm.init(rawValue:)) ?? .complete
        if let value = letter.value {
            if value.count <= room {
                reduced.value = value
            } else if room > 0 {
                reduced.value = Data(value.prefix(room))
                form = .truncated
            } else {
                form = .omitted
            }
        }
        reduced.headers = headers + context + [MessageHeader(valueHeader, form.rawValue)]
        return reduced
    }

    /// The smallest form of a dead letter: Herald's headers only, no key, value or original
    /// headers. The last resort when the broker refuses even a fitted dead letter.
    public static func minimal(_ letter: OutgoingMessage) -> OutgoingMessage {
        fitted(letter, maxBytes: 0)
    }
}
