import FuzzSupport
import HeraldPayload

/// libFuzzer entry: the input is an `.xcstrings` string catalog (JSON). Parsing may throw;
/// it must never trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStringCatalog(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    _ = try? StringCatalog(parsing: FuzzInput.data(data, size), file: "fuzz.xcstrings")
    return 0
}

@main
enum StringCatalogFuzzer {
    static func main() { FuzzerDriver.run(fuzzStringCatalog) }
}
