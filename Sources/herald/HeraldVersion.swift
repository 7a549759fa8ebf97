/// The version `herald --version` prints: the protocol and topic layout generation (the
/// issue series the build resolves), raised when a release is cut.
enum HeraldVersion {
    static let current = "0.11.0"
}
