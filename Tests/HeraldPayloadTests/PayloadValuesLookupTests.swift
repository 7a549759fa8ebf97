import Foundation
import HeraldModel
import Testing
@testable import HeraldPayload

/// `PayloadValues` looks each field name up once and reuses the value wherever the name
/// appears again (arguments, desired keys, collapse ID): the values and problems must be
/// those of looking every name up where it is used.
@Suite("Payload values: one lookup per field name")
struct PayloadValuesLookupTests {
    /// Field names of every kind of outcome (strings, numbers, a reference, a non-finite
    /// double, bytes, an asset, record metadata, missing, empty): more than the four names
    /// the lookups keep, so names beyond them are looked up directly.
    static let names = [
        "title", "priority", "owner", "ratio", "blob", "photo", "recordName", "modificationDate", "gone", "empty",
    ]

    static let change = PayloadFixtures.change(fields: [
        "title": .string("Groceries"), "priority": .int64(5), "owner": .reference(RecordReference(recordName: "_u2")),
        "ratio": .double(.infinity), "blob": .bytes(Data([1, 2])), "photo": .asset(AssetReference(fileChecksum: "abc", size: 3)),
        "empty": .string(""),
    ])

    @Test("random name lists give the values and problems of one lookup per use", arguments: 0..<200)
    func matchesDirectLookups(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed))
        func pick(_ count: Int) -> [String] {
            (0..<Int(random.next() % UInt64(count + 1))).map { _ in Self.names[Int(random.next() % UInt64(Self.names.count))] }
        }
        let info = NotificationInfo(
            alertLocalizationKey: "BODY", alertLocalizationArgs: pick(5), titleLocalizationKey: "TITLE",
            titleLocalizationArgs: pick(3), subtitleLocalizationKey: random.next() % 2 == 0 ? "SUB" : nil,
            subtitleLocalizationArgs: pick(3), desiredKeys: pick(6),
            collapseIDKey: random.next() % 2 == 0 ? Self.names[Int(random.next() % UInt64(Self.names.count))] : nil)
        let limits = PayloadLimits()
        let values = PayloadValues(info: info, change: Self.change, includeDesiredKeys: true, limits: limits)

        // Every use looked up on its own.
        func arguments(_ names: [String], keyed: Bool) -> [FormatArgument] {
            guard keyed else { return [] }
            return names.map {
                Self.change.payloadValue(named: $0)?.localizationArgument(maxCharacters: limits.maxValueCharacters)
                    ?? .string("")
            }
        }
        #expect(values.alert.values == arguments(info.alertLocalizationArgs, keyed: true))
        #expect(values.alert.texts == values.alert.values.map(\.text))
        #expect(values.title.values == arguments(info.titleLocalizationArgs, keyed: true))
        #expect(values.subtitle.values == arguments(info.subtitleLocalizationArgs, keyed: info.subtitleLocalizationKey != nil))
        var expectedKeys: [String] = []
        var expectedValues: [JSONValue] = []
        for name in info.desiredKeys where !expectedKeys.contains(name) {
            guard let value = Self.change.payloadValue(named: name)?
                .desiredKeyValue(maxCharacters: limits.maxValueCharacters) else { continue }
            expectedKeys.append(name)
            expectedValues.append(value)
        }
        #expect(values.desiredKeys?.map(\.key) ?? [] == expectedKeys)
        #expect(values.desiredKeys?.map(\.value) ?? [] == expectedValues)
        let expectedCollapseID = info.collapseIDKey
            .flatMap { Self.change.payloadValue(named: $0)?.localizationArgument(maxCharacters: .max)?.text }
            .flatMap { $0.isEmpty || $0.utf8.count > limits.maxCollapseIDBytes ? nil : $0 }
        #expect(values.collapseID == expectedCollapseID)

        // One problem per use of a missing or unsupported field, in order of use.
        var expectedProblems: [String?] = []
        func check(_ names: [String], _ property: String, keyed: Bool) {
            guard keyed else { return }
            for (index, name) in names.enumerated()
            where Self.change.payloadValue(named: name)?.localizationArgument(maxCharacters: limits.maxValueCharacters) == nil {
                expectedProblems.append("\(property)[\(index)]")
            }
        }
        check(info.alertLocalizationArgs, "alertLocalizationArgs", keyed: true)
        check(info.titleLocalizationArgs, "titleLocalizationArgs", keyed: true)
        check(info.subtitleLocalizationArgs, "subtitleLocalizationArgs", keyed: info.subtitleLocalizationKey != nil)
        var seen: [String] = []
        for (index, name) in info.desiredKeys.enumerated() where !seen.contains(name) {
            if Self.change.payloadValue(named: name)?.desiredKeyValue(maxCharacters: limits.maxValueCharacters) == nil {
                expectedProblems.append("desiredKeys[\(index)]")
            } else {
                seen.append(name)
            }
        }
        if info.collapseIDKey != nil, expectedCollapseID == nil { expectedProblems.append("collapseIDKey") }
        #expect(values.problems.map(\.location.property) == expectedProblems)
    }
}
