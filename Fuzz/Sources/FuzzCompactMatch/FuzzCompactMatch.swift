import Foundation
import FuzzSupport
import HeraldModel

/// libFuzzer entry: the input, after the compact form's first byte, is read as a compact
/// match (`Match(matchesValue:)`). It must be refused with a `ModelError` or read as a match
/// that, written slim (`slimmed()`: a mutated name may leave a field no notification reads),
/// the JSON reader reads as the same value, and that encodes back to a compact match reading
/// the same. A difference traps (a finding for libFuzzer).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCompactMatch(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = Data([Match.compactForm])
    input.append(FuzzInput.data(data, size))
    guard let match = try? Match(matchesValue: input) else { return 0 }
    let codec = WireCodec()
    let slim = match.slimmed()
    guard let json = try? codec.encode(match), (try? codec.decode(Match.self, from: json)) == slim else {
        fatalError("the JSON reader does not read back a compact match: \(match)")
    }
    var writer = CompactWriter()
    guard let again = try? match.compactEncoded(reusing: &writer), (try? Match(matchesValue: again)) == slim else {
        fatalError("a compact match does not encode back to itself: \(match)")
    }
    return 0
}

@main
enum CompactMatchFuzzer {
    static func main() { FuzzerDriver.run(fuzzCompactMatch) }
}
