import FuzzSupport
import HeraldModel
import HeraldPredicate

/// Values for `%@` and `%K`, in order: one of each kind an API caller can send.
private let arguments: [PredicateArgument] = [
    .int(3), .string("urgent"), .string("title"), .double(2.5), .timestamp(1_795_300_000_000),
    .location(latitude: 48.85, longitude: 2.35), .list([.int(1), .string("a")]), .reference("note-1"),
    .bool(true), .null,
]

/// libFuzzer entry: the input, as UTF-8, is an NSPredicate format string (its `%@` and `%K`
/// take `arguments`).
///
/// Parsing may throw; it must never trap. A predicate that parses must render to a format
/// that parses back to the same tree, and its CloudKit check, compilation and evaluation
/// against an empty record must not trap either.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPredicate(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let format = FuzzInput.text(data, size)
    guard let predicate = try? RecordPredicate(format: format, arguments: arguments) else { return 0 }
    let rendered = predicate.canonicalFormat
    guard let reparsed = try? RecordPredicate(format: rendered) else {
        fatalError("the rendering \(rendered) of \(format) does not parse")
    }
    guard reparsed == predicate else {
        fatalError("\(format) renders as \(rendered), which parses to \(reparsed.canonicalFormat)")
    }
    _ = predicate.cloudKitDiagnostics()
    _ = predicate.conjuncts
    _ = predicate.evaluate(PredicateRecord(recordName: "fuzz"))
    return 0
}

@main
enum PredicateFuzzer {
    static func main() { FuzzerDriver.run(fuzzPredicate) }
}
