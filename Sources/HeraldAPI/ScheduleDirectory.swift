import HeraldModel

/// The pending schedules, as a table fed by the compacted `schedules` topic knows them, for
/// listing them and for applying the 64 limit when one is added. It lags the topic, except
/// for what this instance's publisher just wrote (it updates the table at once). Called
/// concurrently from request handlers.
public protocol ScheduleDirectory: Sendable {
    /// The schedule stored under `key` (`container/recipient/scheduleID`), if any.
    func schedule(forKey key: String) -> Schedule?
    /// Every schedule `recipient` has pending in `container`, in any order.
    func schedules(recipient: String, container: String) -> [Schedule]
}
