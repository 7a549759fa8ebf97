/// Substring search that skips Foundation for the common case: when both strings are ASCII
/// without CR (so every character is one byte), a byte search gives exactly what the
/// character-based search gives; anything else takes the general path.
enum ByteSearch {
    static func contains(_ haystack: String, _ needle: String) -> Bool {
        let fast: Bool? = haystack.utf8.withContiguousStorageIfAvailable { h -> Bool? in
            needle.utf8.withContiguousStorageIfAvailable { n -> Bool? in
                guard isSimple(h), isSimple(n) else { return nil }
                guard n.count <= h.count else { return false }
                guard let first = n.first else { return true }
                var start = 0
                let last = h.count - n.count
                while start <= last {
                    if h[start] == first {
                        var k = 1
                        while k < n.count, h[start + k] == n[k] { k += 1 }
                        if k == n.count { return true }
                    }
                    start += 1
                }
                return false
            } ?? nil
        } ?? nil
        return fast ?? haystack.contains(needle)
    }

    private static func isSimple(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { $0 < 0x80 && $0 != 0x0D }
    }
}
