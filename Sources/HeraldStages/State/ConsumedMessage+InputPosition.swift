import HeraldKafka
import HeraldModel

extension ConsumedMessage {
    /// Where the message was read: what a stage's `AppliedOffsets` records once it is applied.
    public var position: InputPosition { InputPosition(topic: topic, partition: partition, offset: offset) }
}
