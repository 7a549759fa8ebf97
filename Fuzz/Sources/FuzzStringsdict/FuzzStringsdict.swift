import FuzzSupport
import HeraldPayload

/// libFuzzer entry: the input is a `.stringsdict` property list. Parsing may throw; it
/// must never trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStringsdict(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    _ = try? StringsdictFile.parse(FuzzInput.data(data, size), file: "fuzz.stringsdict")
    return 0
}

@main
enum StringsdictFuzzer {
    static func main() { FuzzerDriver.run(fuzzStringsdict) }
}
