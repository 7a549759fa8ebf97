import FuzzSupport
import HeraldPayload

/// libFuzzer entry: the input is a `.strings` file (any encoding the parser detects).
/// Parsing may throw; it must never trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStrings(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    _ = try? StringsFile.parse(FuzzInput.data(data, size), file: "fuzz.strings")
    return 0
}

@main
enum StringsFuzzer {
    static func main() { FuzzerDriver.run(fuzzStrings) }
}
