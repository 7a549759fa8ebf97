import Foundation
import HeraldKafka
import HeraldModel

extension ChangelogReader {
    /// The users' states of a changelog keyed by user, decoded, with the partition each is on.
    ///
    /// A corrupt entry (it does not decode, or it is another user's state) stops the restore
    /// with `PipelineError.corruptChangelog` instead of being skipped: without it the user
    /// would start over (a notification sequence at 1, schedules forgotten).
    public func readStates<State: Decodable>(
        _ type: State.Type, topic: String, partitions: [Int32], owner: (State) -> String
    ) async throws -> [String: (state: State, partition: Int32)] {
        let codec = WireCodec()
        var states: [String: (state: State, partition: Int32)] = [:]
        for (key, record) in try await read(topic: topic, partitions: partitions) {
            let state: State
            do { state = try codec.decode(State.self, from: record.value) } catch {
                throw PipelineError.corruptChangelog(topic: topic, partition: record.partition, key: key, "\(error)")
            }
            guard owner(state) == key else {
                throw PipelineError.corruptChangelog(
                    topic: topic, partition: record.partition, key: key, "the state is of \(owner(state))")
            }
            states[key] = (state, record.partition)
        }
        return states
    }
}
