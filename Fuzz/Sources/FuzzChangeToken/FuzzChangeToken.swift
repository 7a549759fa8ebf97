import FuzzSupport
import HeraldReader

/// libFuzzer entry: the input, as UTF-8, is a change token a client sent back.
///
/// Verification may throw; it must never trap. A token that verifies must be the one the
/// signer issues for its position (one spelling per position).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChangeToken(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = FuzzInput.text(data, size)
    guard let signer = try? ChangeTokenSigner(key: Array(repeating: UInt8(7), count: 32)) else {
        fatalError("a 32-byte key is refused")
    }
    let token = ChangeToken(rawValue: text)
    guard let sequence = try? signer.sequence(of: token, recipient: "_fuzz", container: "iCloud.fuzz") else {
        return 0
    }
    guard signer.token(recipient: "_fuzz", container: "iCloud.fuzz", sequence: sequence) == token else {
        fatalError("\(text) verifies as \(sequence) but is not the token issued for it")
    }
    return 0
}

@main
enum ChangeTokenFuzzer {
    static func main() { FuzzerDriver.run(fuzzChangeToken) }
}
