/// Where the bytes of each hole of one notification are in its ``HoleBytes``: one range per
/// ``PayloadTemplate/Hole`` (by raw value) and one for `af` in sorted order, empty for a hole
/// without a value.
///
/// Eleven stored ranges read through a `switch`, not an `InlineArray`: reading an element of
/// an `InlineArray` held by a non-mutable value copies the whole array first (176 bytes, a
/// `memcpy` per read, 4% of composing and encoding a typical notification in perf), and an
/// `[Range<Int>]` costs an allocation per notification.
struct HoleRanges {
    /// The index of `af` in sorted order (after every ``PayloadTemplate/Hole``).
    static let sortedDesiredKeys = 10

    private var ranges = (
        0..<0, 0..<0, 0..<0, 0..<0, 0..<0, 0..<0,
        0..<0, 0..<0, 0..<0, 0..<0, 0..<0
    )

    subscript(index: Int) -> Range<Int> {
        get {
            switch index {
            case 0: ranges.0
            case 1: ranges.1
            case 2: ranges.2
            case 3: ranges.3
            case 4: ranges.4
            case 5: ranges.5
            case 6: ranges.6
            case 7: ranges.7
            case 8: ranges.8
            case 9: ranges.9
            default: ranges.10
            }
        }
        set {
            switch index {
            case 0: ranges.0 = newValue
            case 1: ranges.1 = newValue
            case 2: ranges.2 = newValue
            case 3: ranges.3 = newValue
            case 4: ranges.4 = newValue
            case 5: ranges.5 = newValue
            case 6: ranges.6 = newValue
            case 7: ranges.7 = newValue
            case 8: ranges.8 = newValue
            case 9: ranges.9 = newValue
            default: ranges.10 = newValue
            }
        }
    }
}
