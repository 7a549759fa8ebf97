import Foundation
import HeraldKafka
import HeraldTestSupport
import Logging
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Consumer settings that bound failover, the cluster ID, and a close that never outlasts
/// its timeout even when no broker answers.
@Suite("Shutdown and failover", .timeLimit(.minutes(5)))
struct ShutdownAndFailoverTests {
    @Test("consumers render a 6 s session, 1 s heartbeats and no group.instance.id unless one is given")
    func failoverSettings() {
        var settings = ConsumerConfiguration(bootstrapServers: "127.0.0.1:9092", groupID: "g")
        #expect(settings.properties["session.timeout.ms"] == "6000")
        #expect(settings.properties["heartbeat.interval.ms"] == "1000")
        #expect(settings.properties["group.instance.id"] == nil)
        settings.groupInstanceID = "worker-0"
        settings.sessionTimeout = .seconds(2)
        #expect(settings.properties["group.instance.id"] == "worker-0")
        #expect(settings.properties["heartbeat.interval.ms"] == "666", "at most a third of the session timeout")
    }

    @Test("consumers render a 500 ms fetch wait unless one is given, and extra properties win")
    func fetchWaitSetting() {
        var settings = ConsumerConfiguration(bootstrapServers: "127.0.0.1:9092", groupID: "g")
        #expect(settings.properties["fetch.wait.max.ms"] == "500")
        settings.fetchMaxWait = .milliseconds(10)
        #expect(settings.properties["fetch.wait.max.ms"] == "10")
        settings.client.extraProperties["fetch.wait.max.ms"] = "50"
        #expect(settings.properties["fetch.wait.max.ms"] == "50")
    }

    @Test("the cluster ID is the same for every client of a cluster and differs between clusters")
    func clusterID() async throws {
        let first = try TestCluster()
        let second = try TestCluster()
        let a1 = try await first.consumer(group: "g").clusterID()
        let a2 = try await first.consumer(group: "h").clusterID()
        let b = try await second.consumer(group: "g").clusterID()
        #expect(!a1.isEmpty && a1 == a2)
        #expect(a1 != b)
    }

    @Test("closing a subscribed consumer whose brokers are unreachable returns within its timeout")
    func closeIsBounded() async throws {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        var settings = ConsumerConfiguration(bootstrapServers: "127.0.0.1:\(try closedLocalPort())", groupID: "g-\(UUID().uuidString)")
        settings.sessionTimeout = .seconds(30)
        let consumer = try KafkaConsumer(configuration: settings, logger: logger)
        try consumer.subscribe(["t"])
        _ = await consumer.poll()
        let started = ContinuousClock.now
        _ = await consumer.close(timeout: .seconds(1))
        let elapsed = ContinuousClock.now - started
        // The bound leaves 14 s for a loaded machine to schedule the timeout (CI saw 2.2 s of
        // delay with a 2 s timeout, a parallel `make test` 4.1 s with a 1 s one) and stays
        // far below the 30 s session timeout a close that ignored its timeout could wait for.
        #expect(elapsed < .seconds(15), "close took \(elapsed)")
        #expect(consumer.isClosed)
    }

    @Test("asking the cluster ID of unreachable brokers fails within its timeout")
    func clusterIDOfUnreachableBrokers() async throws {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let consumer = try KafkaConsumer(
            configuration: ConsumerConfiguration(bootstrapServers: "127.0.0.1:\(try closedLocalPort())", groupID: "g"), logger: logger)
        await #expect(throws: KafkaError.self) { _ = try await consumer.clusterID(timeout: .milliseconds(500)) }
        await consumer.close(timeout: .seconds(1))
    }
}

/// A port on 127.0.0.1 that nothing listens on: bound once by the system's choice, then released.
func closedLocalPort() throws -> Int {
    let handle = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    try #require(handle >= 0)
    defer { close(handle) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(handle, pointer, length) == 0 && getsockname(handle, pointer, &length) == 0
        }
    }
    try #require(bound)
    return Int(UInt16(bigEndian: address.sin_port))
}
