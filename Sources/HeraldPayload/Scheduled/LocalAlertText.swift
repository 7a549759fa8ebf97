/// The text a scheduled notification shows (docs/cloudkit-behaviour.md §10): UILocalNotification strips
/// printf-style escapes from `alertBody` before display, and `%%` shows a percent sign.
public enum LocalAlertText {
    /// `alertBody` as displayed: every format specifier (`%@`, `%d`, `%1$@`, `%.2f`,
    /// `%ld`, `%-5s`, …) removed, `%%` turned into `%`; a `%` that starts no specifier
    /// (e.g. at the end, or before a space) is kept as it is.
    public static func displayed(_ body: String) -> String {
        let scalars = Array(body.unicodeScalars)
        var output = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            guard scalar == "%" else {
                output.append(scalar)
                index += 1
                continue
            }
            if index + 1 < scalars.count, scalars[index + 1] == "%" {
                output.append("%")
                index += 2
            } else if let end = specifierEnd(scalars, from: index + 1) {
                index = end
            } else {
                output.append(scalar)
                index += 1
            }
        }
        return String(output)
    }

    /// Where a specifier that starts after a `%` at `start - 1` ends (one past its
    /// conversion character), or `nil` when the text there is no specifier.
    /// Grammar: `[n$][flags][width|*][.precision|.*][length]conversion`. The space flag is
    /// not taken, so prose such as "50% off" is not read as `% o` and kept as written.
    private static func specifierEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var index = start
        func skip(while predicate: (Unicode.Scalar) -> Bool) {
            while index < scalars.count, predicate(scalars[index]) { index += 1 }
        }
        // Positional argument `n$`.
        let digitsStart = index
        skip(while: isDigit)
        if index > digitsStart, index < scalars.count, scalars[index] == "$" { index += 1 } else { index = digitsStart }
        skip(while: { "-+#0'".unicodeScalars.contains($0) })
        if index < scalars.count, scalars[index] == "*" { index += 1 } else { skip(while: isDigit) }
        if index < scalars.count, scalars[index] == "." {
            index += 1
            if index < scalars.count, scalars[index] == "*" { index += 1 } else { skip(while: isDigit) }
        }
        for length in ["hh", "ll", "h", "l", "q", "L", "z", "t", "j"] {
            let units = Array(length.unicodeScalars)
            if index + units.count <= scalars.count, Array(scalars[index..<index + units.count]) == units {
                index += units.count
                break
            }
        }
        guard index < scalars.count, conversions.contains(scalars[index]) else { return nil }
        return index + 1
    }

    private static let conversions = Set("@dDiuUxXoOfFeEgGaAcCsSp".unicodeScalars)

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
}
