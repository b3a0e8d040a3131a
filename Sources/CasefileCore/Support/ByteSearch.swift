/// Substring search on UTF-8 bytes, for the ASCII needles correlation asks about every view and log line (`Alert`,
/// `Button`, `error`): many times faster than `String.contains(_:)`, which compares Characters.
///
/// Byte equality is what these needles need: ASCII bytes never occur inside a multi-byte UTF-8 sequence, and the
/// only difference from Character comparison — a match followed by a combining mark — does not matter for class
/// names and keywords.
extension String {
    /// Whether the UTF-8 bytes of `needle` occur in this string's.
    func containsBytes(_ needle: String) -> Bool {
        let found = utf8.withContiguousStorageIfAvailable { haystack in
            needle.utf8.withContiguousStorageIfAvailable { needle in Self.search(haystack, needle) }
        }
        if let found, let found { return found }
        return Array(utf8).withUnsafeBufferPointer { haystack in
            Array(needle.utf8).withUnsafeBufferPointer { needle in Self.search(haystack, needle) }
        }
    }

    private static func search(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = needle.first else { return true }
        guard haystack.count >= needle.count else { return false }
        let last = haystack.count - needle.count
        var index = 0
        while index <= last {
            if haystack[index] == first {
                var offset = 1
                while offset < needle.count, haystack[index + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            index += 1
        }
        return false
    }
}
