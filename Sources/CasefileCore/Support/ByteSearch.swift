#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Substring search on UTF-8 bytes, for the ASCII needles correlation asks about every view and log line (`Alert`,
/// `Button`, `error`): many times faster than `String.contains(_:)`, which compares Characters.
///
/// Byte equality is what these needles need: ASCII bytes never occur inside a multi-byte UTF-8 sequence, and the
/// only difference from Character comparison — a match followed by a combining mark — does not matter for class
/// names and keywords.
extension String {
    /// Whether the UTF-8 bytes of `needle` occur in this string's.
    func containsBytes(_ needle: String) -> Bool {
        let offset = withUTF8Bytes { haystack in needle.withUTF8Bytes { ByteScan.find($0, in: haystack, from: 0) } }
        return offset != nil
    }

    /// The range of the first occurrence of the UTF-8 bytes of `needle`, an ASCII needle (whose match starts and
    /// ends on characters).
    func rangeOfBytes(_ needle: String) -> Range<String.Index>? {
        let offset = withUTF8Bytes { haystack in
            needle.withUTF8Bytes { needle in ByteScan.find(needle, in: haystack, from: 0) }
        }
        guard let offset else { return nil }
        let start = utf8.index(utf8.startIndex, offsetBy: offset)
        return start..<utf8.index(start, offsetBy: needle.utf8.count)
    }
}

/// Byte substring search from a position, for the containment test above and the redactor's scans.
enum ByteScan {
    /// Whether `bytes` begin with the bytes of `prefix`, compared in one `memcmp`: `starts(with:)` on the bytes
    /// walked both sequences element by element, about 180 instructions for each of a crash's 300-odd image paths.
    @inline(__always)
    static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard bytes.count >= count, let base = bytes.baseAddress else { return count == 0 }
        return memcmp(base, prefix.utf8Start, count) == 0
    }

    /// Whether `bytes` end with the bytes of `suffix`, compared in one `memcmp`.
    @inline(__always)
    static func hasSuffix(_ bytes: UnsafeBufferPointer<UInt8>, _ suffix: StaticString) -> Bool {
        let count = suffix.utf8CodeUnitCount
        guard bytes.count >= count, let base = bytes.baseAddress else { return count == 0 }
        return memcmp(base + bytes.count - count, suffix.utf8Start, count) == 0
    }

    /// The first index at or after `from` where `needle` occurs in `haystack`.
    static func find<Haystack: RandomAccessCollection<UInt8>, Needle: RandomAccessCollection<UInt8>>(
        _ needle: Needle, in haystack: Haystack, from: Int
    ) -> Int? where Haystack.Index == Int, Needle.Index == Int {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        var index = max(from, haystack.startIndex)
        let last = haystack.endIndex - needle.count
        let start = needle.startIndex
        while index <= last {
            if haystack[index] == first {
                var offset = 1
                while offset < needle.count, haystack[index + offset] == needle[start + offset] { offset += 1 }
                if offset == needle.count { return index }
            }
            index += 1
        }
        return nil
    }

    /// Whether `needle` occurs in `haystack`, found by skipping ahead (Horspool): for a needle of a dozen bytes
    /// looked for in a whole document, where the search above would stop at every byte equal to its first.
    static func contains(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        let length = needle.count
        guard length > 0, haystack.count >= length else { return length == 0 }
        var skip = [Int](repeating: length, count: 256)
        for offset in 0..<(length - 1) { skip[Int(needle[offset])] = length - 1 - offset }
        var end = length - 1
        while end < haystack.count {
            var offset = 0
            while offset < length, haystack[end - offset] == needle[length - 1 - offset] { offset += 1 }
            if offset == length { return true }
            end += skip[Int(haystack[end])]
        }
        return false
    }
}
