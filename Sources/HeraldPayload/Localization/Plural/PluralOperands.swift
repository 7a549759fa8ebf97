import Foundation

/// The CLDR plural operands of a number (UTS #35, "Plural Operand Meanings").
///
/// - `n`: the absolute value (only its integer-ness and parts are needed, so it is not
///   stored as a floating-point number: `n = i` when `f = 0`);
/// - `i`: the integer digits;
/// - `v`: the number of visible fraction digits, with trailing zeros (`1.50` → 2);
/// - `w`: the same without trailing zeros (`1.50` → 1);
/// - `f`: the visible fraction digits as an integer, with trailing zeros (`1.50` → 50);
/// - `t`: the same without trailing zeros (`1.50` → 5).
///
/// Visible digits matter: `1` is `one` in English but `1.0` is `other`. The integer part
/// is kept modulo 10^18 and at most 18 fraction digits are kept, which is more than any
/// rule looks at (the largest modulus in CLDR rules is 1 000 000).
public struct PluralOperands: Sendable, Hashable, CustomStringConvertible {
    /// Integer digits (modulo 10^18).
    public var i: UInt64
    /// Number of visible fraction digits, with trailing zeros.
    public var v: Int
    /// Number of visible fraction digits, without trailing zeros.
    public var w: Int
    /// Visible fraction digits, with trailing zeros.
    public var f: UInt64
    /// Visible fraction digits, without trailing zeros.
    public var t: UInt64

    /// Whether `n` is a whole number (`f = 0`), so that `n = x` rules can match.
    public var isWholeNumber: Bool { f == 0 }

    /// The operands of an integer (`v = w = f = t = 0`).
    public init(_ value: Int64) {
        i = value.magnitude % 1_000_000_000_000_000_000
        v = 0
        w = 0
        f = 0
        t = 0
    }

    /// The operands of a floating-point value, written in its shortest round-trip decimal
    /// form (`1.0` → `1`, so `v = 0`; `1.5` → `v = 1`). Returns `nil` for infinities and
    /// NaN, which have no plural operands (callers use `other`).
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        let magnitude = value.magnitude
        if magnitude >= 1e18 {
            self.init(i: UInt64(magnitude.truncatingRemainder(dividingBy: 1e18)), fraction: "")
            return
        }
        var text = "\(magnitude)"
        if text.contains("e") {
            // Very small and very large magnitudes print with an exponent; spell them out.
            text = String(format: "%.17f", magnitude)
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        if text.hasSuffix(".0") { text.removeLast(2) }
        self = PluralOperands(decimal: text) ?? PluralOperands(Int64(0))
    }

    /// The operands of a number written in decimal (`"-1.50"`, `"3"`, `"0.0"`), keeping
    /// the visible fraction digits. Returns `nil` unless the text is an optional sign,
    /// digits, and optionally `.` and digits.
    public init?(decimal text: String) {
        var body = Substring(text)
        if body.hasPrefix("-") || body.hasPrefix("+") { body = body.dropFirst() }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let integer = parts.first, !integer.isEmpty,
              integer.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let fraction = parts.count == 2 ? parts[1] : ""
        guard fraction.allSatisfy({ $0.isASCII && $0.isNumber }), parts.count == 1 || !fraction.isEmpty else {
            return nil
        }
        var i: UInt64 = 0
        for digit in integer.suffix(18) { i = i * 10 + UInt64(digit.asciiValue! - 48) }
        self.init(i: i, fraction: fraction)
    }

    private init(i: UInt64, fraction: some StringProtocol) {
        self.i = i
        let visible = fraction.prefix(18)
        v = visible.count
        var f: UInt64 = 0
        for digit in visible { f = f * 10 + UInt64(digit.asciiValue! - 48) }
        self.f = f
        var trimmed = Substring(visible)
        while trimmed.hasSuffix("0") { trimmed.removeLast() }
        w = trimmed.count
        var t: UInt64 = 0
        for digit in trimmed { t = t * 10 + UInt64(digit.asciiValue! - 48) }
        self.t = t
    }

    /// `n = value` for a whole `value`.
    func nIs(_ value: UInt64) -> Bool { isWholeNumber && i == value }

    /// `n % modulus` is a whole number in `range`.
    func nModulo(_ modulus: UInt64, in range: ClosedRange<UInt64>) -> Bool {
        isWholeNumber && range.contains(i % modulus)
    }

    /// `i=…, v=…, w=…, f=…, t=…`, for test failure messages.
    public var description: String { "i=\(i) v=\(v) w=\(w) f=\(f) t=\(t)" }
}
