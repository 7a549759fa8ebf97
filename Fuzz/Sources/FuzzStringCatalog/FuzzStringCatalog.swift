import FuzzSupport
import HeraldPayload

/// libFuzzer entry: the input is an `.xcstrings` string catalog (JSON). Parsing may throw;
/// it must never trap, nor may rendering what it parsed (every entry, with arguments of
/// every kind, in languages with different plural rules).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStringCatalog(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let catalog = try? StringCatalog(parsing: FuzzInput.data(data, size), file: "fuzz.xcstrings") else { return 0 }
    EntryRendering.renderAll(catalog.entries.values.flatMap(\.values))
    return 0
}

@main
enum StringCatalogFuzzer {
    static func main() { FuzzerDriver.run(fuzzStringCatalog) }
}
