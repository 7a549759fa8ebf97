import FuzzSupport
import HeraldPayload

/// libFuzzer entry: the input is a `.stringsdict` property list. Parsing may throw; it
/// must never trap, nor may rendering what it parsed (every entry, with arguments of
/// every kind, in languages with different plural rules).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStringsdict(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let entries = try? StringsdictFile.parse(FuzzInput.data(data, size), file: "fuzz.stringsdict") else { return 0 }
    EntryRendering.renderAll(entries.values)
    return 0
}

@main
enum StringsdictFuzzer {
    static func main() { FuzzerDriver.run(fuzzStringsdict) }
}
