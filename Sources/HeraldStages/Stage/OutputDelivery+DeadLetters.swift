import HeraldKafka

extension OutputDelivery {
    /// Writes `rejected` to the dead-letter topic labelled with `stage`, counting them; ones
    /// that cannot be written at all are logged at critical (prefixed `name`) and counted,
    /// never dropped silently. (The followers of whole topics dead-letter this way.)
    func deadLetter(_ rejected: [Rejection], stage: String, name: String) async {
        let letters = rejected.map {
            DeadLetter.message(for: $0, stage: stage, topic: deadLetterTopic, maxBytes: producer.maxMessageBytes)
        }
        do {
            let delivered = try await deliver(letters)
            metrics.deadLettered.increment(by: delivered.deadLetters)
        } catch {
            metrics.deadLettersUnwritable.increment(by: letters.count)
            logger.critical("\(name): \(letters.count) dead letters not written: \(error)")
        }
    }
}
