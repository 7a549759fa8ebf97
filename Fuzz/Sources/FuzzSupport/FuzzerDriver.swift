import CFuzzer
import Foundation

/// Starts libFuzzer on one target.
///
/// SwiftPM names an executable's entry point `<Target>_main` and links `main` to it, so
/// libFuzzer's own `main` is never used: each fuzzer's `@main` calls `run` with its
/// `LLVMFuzzerTestOneInput`, and the command line is libFuzzer's (`-max_total_time=…`,
/// corpus directories, …).
public enum FuzzerDriver {
    /// The signature of `LLVMFuzzerTestOneInput`.
    public typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

    /// Runs libFuzzer with this process's arguments and exits with its status.
    public static func run(_ testOneInput: TestOneInput) -> Never {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
    }
}
