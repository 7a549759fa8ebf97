import HeraldKafka
import Synchronization

/// The Kafka clients `HeraldApp.buildRuntime` creates while it builds, so that a step that
/// fails closes those already made: until the runtime exists no service owns them, and
/// nothing else would close them (librdkafka's handles, threads and connections would
/// stay until the objects happen to be released).
///
/// Tracks only while building (`built()` ends it): consumers made later through the stage
/// context (changelog restores) belong to whoever made them.
final class BuildClients: Sendable {
    private struct Made {
        var building = true
        var consumers: [KafkaConsumer] = []
        var producers: [KafkaProducer] = []
        /// Consumers and producers `close` closed.
        var closed = 0
    }

    private let made = Mutex(Made())

    /// Notes `consumer` while building; returns it.
    func consumer(_ consumer: KafkaConsumer) -> KafkaConsumer {
        made.withLock { if $0.building { $0.consumers.append(consumer) } }
        return consumer
    }

    /// Notes `producer` while building; returns it.
    func producer(_ producer: KafkaProducer) -> KafkaProducer {
        made.withLock { if $0.building { $0.producers.append(producer) } }
        return producer
    }

    /// The runtime is built: its services own the clients from now on.
    func built() {
        made.withLock { $0 = Made(building: false) }
    }

    /// Clients made while building and not (yet) closed by `close`, and how many it closed.
    var counts: (open: Int, closed: Int) { made.withLock { ($0.consumers.count + $0.producers.count, $0.closed) } }

    /// Closes every client made while building (consumers first, then producers, each
    /// within `timeout`) and stops tracking.
    func close(timeout: Duration = .seconds(10)) async {
        let clients = made.withLock { made in
            let clients = made
            made = Made(building: false, closed: made.closed + made.consumers.count + made.producers.count)
            return clients
        }
        for consumer in clients.consumers { await consumer.close(timeout: timeout) }
        for producer in clients.producers { await producer.close(timeout: timeout) }
    }
}
