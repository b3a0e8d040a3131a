extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and line ends.
    var trimmingSpaces: String {
        let utf8 = self.utf8
        // Native strings and substrings expose their bytes: find the ends by offset, then slice once.
        if let bounds = utf8.withContiguousStorageIfAvailable({ CrashBytes.trimmed($0) }) {
            if bounds.count == utf8.count, let whole = self as? String { return whole }
            let start = utf8.index(utf8.startIndex, offsetBy: bounds.lowerBound)
            let end = utf8.index(start, offsetBy: bounds.count)
            return String(self[start..<end])
        }
        var index = utf8.startIndex
        var first: String.Index?
        var end = utf8.startIndex
        while index < utf8.endIndex {
            let next = utf8.index(after: index)
            if !CrashBytes.isSpace(utf8[index]) {
                if first == nil { first = index }
                end = next
            }
            index = next
        }
        guard let first else { return "" }
        return String(self[first..<end])
    }
}

/// Crash text as bytes.
enum CrashBytes {
    /// The white space trimmed from crash text: space, tab and line ends.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }

    /// Whether `bytes` are ASCII without a vertical tab or form feed (white space that is not trimmed from a line's
    /// ends), checked eight bytes at a time: byte by byte, the check cost a tenth of reading an image line.
    static func isPlainASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        /// Whether a byte of `word` is zero (exact when no byte is above 0x7F, which the first test refuses).
        func hasZeroByte(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
        let raw = UnsafeRawBufferPointer(bytes)
        var offset = 0
        while offset + 8 <= raw.count {
            let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            if word & highs != 0 || hasZeroByte(word ^ (ones &* 0x0B)) || hasZeroByte(word ^ (ones &* 0x0C)) {
                return false
            }
            offset += 8
        }
        while offset < raw.count {
            let byte = raw[offset]
            if byte >= 0x80 || byte == 0x0B || byte == 0x0C { return false }
            offset += 1
        }
        return true
    }

    /// The range of `bytes` without leading and trailing white space.
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var first = 0
        var last = bytes.count
        while first < last, isSpace(bytes[first]) { first += 1 }
        while last > first, isSpace(bytes[last - 1]) { last -= 1 }
        return first..<last
    }
}

/// UUIDs come in four spellings (32 hex, dashed lower, dashed upper, Breakpad's 33 with age): one form for all.
public enum UUIDText {
    /// Lowercase dashed, or `nil` when the text is not 32 hex digits (dashes and braces aside).
    public static func normalize(_ text: String) -> String? {
        // Bytes, not Characters, written straight into the result: this runs for every image of every report.
        if isNormal(text) { return text }
        // The string's bytes in place: iterating its UTF-8 view byte by byte cost more than the conversion.
        return text.withUTF8Bytes(normalized)
    }

    /// ``normalize(_:)`` of text given as UTF-8 bytes, for a parser that has not made a string of them: one string
    /// is made, the normal form.
    public static func normalize(utf8 bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if isNormal(bytes) { return String(decoding: bytes, as: UTF8.self) }
        return normalized(bytes)
    }

    private static func normalized(_ utf8: UnsafeBufferPointer<UInt8>) -> String? {
        var digits = 0
        var valid = true
        let normalized = String(unsafeUninitializedCapacity: 36) { out in
            var written = 0
            for byte in utf8 {
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte | 0x20
                case UInt8(ascii: "-"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: " "): continue
                default:
                    valid = false
                    return 0
                }
                guard digits < 32 else {
                    valid = false
                    return 0
                }
                if digits == 8 || digits == 12 || digits == 16 || digits == 20 {
                    out[written] = UInt8(ascii: "-")
                    written += 1
                }
                out[written] = digit
                written += 1
                digits += 1
            }
            return written
        }
        return valid && digits == 32 ? normalized : nil
    }

    /// Whether the text is already lowercase and dashed: kept as it is, with no new string.
    private static func isNormal(_ text: String) -> Bool {
        guard text.utf8.count == 36 else { return false }
        // In place (iterating the view byte by byte costs more than the check).
        return text.withUTF8Bytes(isNormal)
    }

    /// Whether 36 bytes are a lowercase dashed UUID. A plain loop over the buffer: written for any collection of
    /// bytes, with range checks per byte, it cost a tenth of parsing a `.crash` report's image list.
    private static func isNormal(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == 36 else { return false }
        for offset in 0..<36 {
            let byte = bytes[offset]
            if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                if byte != UInt8(ascii: "-") { return false }
            } else if !(byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                && !(byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
            {
                return false
            }
        }
        return true
    }
}

/// Numbers as crash reports write them: `0x1a2b`, `3735883980`, `0X8BADF00D`.
public enum CrashNumber {
    /// Parses hex with `0x`, or decimal.
    public static func parse<S: StringProtocol>(_ text: S) -> UInt64? {
        let trimmed = text.trimmingSpaces
        if trimmed.hasPrefix("0x") || trimmed.hasPrefix("0X") {
            return UInt64(trimmed.dropFirst(2), radix: 16)
        }
        return UInt64(trimmed)
    }

    /// `0x` and lowercase hex, padded to `width` digits.
    public static func hex(_ value: UInt64, width: Int = 0) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

/// Signal numbers and names as iOS uses them.
public enum SignalName {
    private static let names: [Int: String] = [
        1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGEMT", 8: "SIGFPE",
        9: "SIGKILL", 10: "SIGBUS", 11: "SIGSEGV", 12: "SIGSYS", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM",
    ]

    /// The name of a signal number, e.g. 11 → `SIGSEGV`.
    public static func name(_ number: Int) -> String? {
        names[number]
    }

    /// Mach exception numbers as MetricKit reports them.
    public static func machException(_ number: Int) -> String? {
        [
            1: "EXC_BAD_ACCESS", 2: "EXC_BAD_INSTRUCTION", 3: "EXC_ARITHMETIC", 4: "EXC_EMULATION",
            5: "EXC_SOFTWARE", 6: "EXC_BREAKPOINT", 7: "EXC_SYSCALL", 8: "EXC_MACH_SYSCALL", 9: "EXC_RPC_ALERT",
            10: "EXC_CRASH", 11: "EXC_RESOURCE", 12: "EXC_GUARD", 13: "EXC_CORPSE_NOTIFY",
        ][number]
    }
}
