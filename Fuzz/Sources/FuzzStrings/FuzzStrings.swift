import FuzzSupport
import HeraldPayload

/// libFuzzer entry: the input is a `.strings` file (any encoding the parser detects).
/// Parsing may throw; it must never trap, nor may rendering what it parsed (every entry,
/// with arguments of every kind, in languages with different plural rules).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStrings(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let strings = try? StringsFile.parse(FuzzInput.data(data, size), file: "fuzz.strings") else { return 0 }
    EntryRendering.renderAll(formats: strings.values)
    return 0
}

@main
enum StringsFuzzer {
    static func main() { FuzzerDriver.run(fuzzStrings) }
}
