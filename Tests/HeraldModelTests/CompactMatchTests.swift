import Foundation
import HeraldModel
import HeraldTestSupport
import Testing

/// The compact binary form of topic `matches` (`Match.compactEncoded`, `Match(matchesValue:)`)
/// against the JSON path: random matches read back as the slim JSON form reads them, values
/// made invalid fail with the same code at the same path, and mutated or truncated bytes are
/// rejected with a `ModelError` or read as a match the JSON reader also accepts.
@Suite("compact matches against the JSON form")
struct CompactMatchTests {
    let codec = WireCodec()

    func outcome(_ body: () throws(ModelError) -> Match) -> FastCodecPropertyTests.Outcome<Match> {
        do { return .value(try body()) } catch { return .failure(error.code, error.path) }
    }

    func compact(_ match: Match) throws -> Data {
        var writer = CompactWriter()
        return try match.compactEncoded(reusing: &writer)
    }

    @Test("random matches: compact reads back what the slim JSON form reads", arguments: 0..<4)
    func roundTrip(seed: UInt64) throws {
        var samples = WireSamples(seed: 700 + seed)
        var writer = CompactWriter(capacity: 16)
        for _ in 0..<150 {
            let match = samples.match()
            let bytes = try match.compactEncoded(reusing: &writer)
            #expect(bytes.first == Match.compactForm)
            let viaJSON = try codec.decode(Match.self, from: codec.encode(match))
            #expect(try Match(matchesValue: bytes) == viaJSON)
            #expect(viaJSON == match.slimmed())
        }
    }

    @Test("both JSON forms are still read (a match stage not yet upgraded)")
    func jsonForms() throws {
        var samples = WireSamples(seed: 42)
        for _ in 0..<50 {
            let match = samples.match()
            #expect(try Match(matchesValue: codec.encode(match)) == match.slimmed())
            #expect(try Match(matchesValue: match.fullFormJSON()) == match)
        }
    }

    @Test("form 3, written before subscriptions had a revision, is still read")
    func formWithoutRevision() throws {
        var samples = WireSamples(seed: 77)
        for _ in 0..<50 {
            var match = samples.match()
            match.subscription.revision = nil
            let without = [UInt8](try compact(match))
            match.subscription.revision = 5
            let with = [UInt8](try compact(match))
            // Form 4 writes the revision's presence byte where form 3 has none: drop it.
            let at = try #require(without.indices.first { without[$0] != with[$0] })
            #expect(without[at] == 0 && with[at] == 1)
            let form3 = [Match.compactFormWithoutRevision] + without[1..<at] + without[(at + 1)...]
            match.subscription.revision = nil
            #expect(try Match(matchesValue: Data(form3)) == match.slimmed())
        }
    }

    /// A value made invalid in one of the ways a reader checks.
    static let breakages: [(String, @Sendable (inout Match) -> Void)] = [
        ("empty recipient", { $0.recipient = "" }),
        ("empty subscription ID", { $0.subscription.subscriptionID = "" }),
        ("empty container", { $0.subscription.container = "" }),
        ("empty owner", { $0.subscription.ownerRecordName = "" }),
        ("negative revision", { $0.subscription.revision = -1 }),
        ("zone without zone ID", { $0.subscription.subscriptionType = .zone; $0.subscription.database = .private; $0.subscription.zoneID = nil }),
        ("query type in the wrong database", { $0.subscription.subscriptionType = .zone; $0.subscription.database = .public }),
        ("empty zone name", { $0.change.zoneID.zoneName = "" }),
        ("empty change ID", { $0.change.changeID = "" }),
        ("empty record type", { $0.change.recordType = "" }),
        ("empty modifiedBy", { $0.change.modifiedBy = "" }),
        ("negative timestamp", { $0.change.timestamp = -5 }),
        ("negative creation date", { $0.change.creationDate = -1 }),
        ("empty localization key", { $0.subscription.notificationInfo.alertLocalizationKey = "" }),
        ("empty desired key", { $0.subscription.notificationInfo.desiredKeys = ["a", ""] }),
        ("empty collapse key", { $0.subscription.notificationInfo.collapseIDKey = "" }),
        ("reason on a zone match", { $0.notificationType = .recordZone; $0.queryNotificationReason = .recordCreated }),
        ("query match without reason", { $0.notificationType = .query; $0.queryNotificationReason = nil }),
        ("scheduled match", { $0.notificationType = .scheduled; $0.queryNotificationReason = nil }),
        ("wrong notification ID", { $0.notificationID = "0000" }),
        ("empty notification ID", { $0.notificationID = "" }),
        ("invalid field name", { $0.subscription.notificationInfo.desiredKeys = ["9x"]; $0.change.fields["9x"] = .int64(1) }),
        ("bad location field", { $0.subscription.notificationInfo.desiredKeys = ["loc"]; $0.change.fields["loc"] = .location(Location(latitude: 91, longitude: 0)) }),
    ]

    @Test("invalid values fail with the JSON reader's code and path", arguments: 0..<breakages.count)
    func invalidValues(breakage: Int) throws {
        var samples = WireSamples(seed: 800 + UInt64(breakage))
        let (name, breakValue) = Self.breakages[breakage]
        for _ in 0..<20 {
            var match = samples.match()
            breakValue(&match)
            let json = outcome { () throws(ModelError) in try codec.decode(Match.self, from: try! codec.encodeWithFoundation(match)) }
            let bytes = try compact(match)
            let compact = outcome { () throws(ModelError) in try Match(matchesValue: bytes) }
            #expect(compact == json, "\(name)")
            if case .value = json { continue }
            #expect(compact != .value(match), "\(name) was accepted")
        }
    }

    @Test("truncated, mutated and random bytes: a ModelError or a match the JSON reader accepts", arguments: 0..<4)
    func malformedBytes(seed: UInt64) throws {
        var samples = WireSamples(seed: 900 + seed)
        var accepted = 0
        for _ in 0..<100 {
            let bytes = [UInt8](try compact(samples.match()))
            var inputs: [[UInt8]] = [Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &samples.random)))]
            for _ in 0..<10 {
                var mutated = bytes
                let index = Int.random(in: 1..<mutated.count, using: &samples.random)
                mutated[index] = samples.chance(50) ? UInt8.random(in: 0...255, using: &samples.random) : mutated[index] ^ 0x80
                inputs.append(mutated)
            }
            inputs.append([Match.compactForm] + (0..<Int.random(in: 0...40, using: &samples.random)).map { _ in
                UInt8.random(in: 0...255, using: &samples.random)
            })
            inputs.append(bytes + [0])
            for input in inputs {
                let result = outcome { () throws(ModelError) in try Match(matchesValue: Data(input)) }
                guard case .value(let match) = result else { continue }
                accepted += 1
                // Whatever the compact reader accepts, the JSON reader accepts as the same match
                // (both write it slim: a mutated name may have left a field no notification reads).
                #expect(try codec.decode(Match.self, from: codec.encode(match)) == match.slimmed())
                #expect(try Match(matchesValue: compact(match)) == match.slimmed())
            }
        }
        #expect(accepted > 0)
    }

    @Test("a truncated match names the compact form; trailing bytes are refused")
    func truncation() throws {
        var samples = WireSamples(seed: 3)
        let bytes = try compact(samples.match())
        for count in [1, 2, bytes.count / 2, bytes.count - 1] {
            let error = #expect(throws: ModelError.self) { try Match(matchesValue: bytes.prefix(count)) }
            #expect(error?.code == .malformedJSON)
            #expect(error?.reason.contains("compact") == true)
        }
        #expect(throws: ModelError.self) { try Match(matchesValue: bytes + [7]) }
    }

    @Test("non-finite doubles fail to encode, as in JSON")
    func nonFinite() throws {
        var samples = WireSamples(seed: 5)
        var match = samples.match()
        match.subscription.notificationInfo.desiredKeys = ["x"]
        match.change.fields["x"] = .double(.nan)
        let error = #expect(throws: ModelError.self) { try compact(match) }
        #expect(error?.code == .encodingFailed)
    }

    @Test("the fuzz seeds (Fuzz/seed-corpus.py) are valid compact matches")
    func fuzzSeeds() throws {
        let directory = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/corpus/compact-match")
        let seeds = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        #expect(seeds.count >= 2)
        for seed in seeds {
            let match = try Match(matchesValue: Data([Match.compactForm]) + Data(contentsOf: seed))
            #expect(try Match(matchesValue: compact(match)) == match)
        }
    }
}
